// Which runtime a native module (.node file) was built for, read from the file itself, and which
// runtime the app needs: the ABI of the Electron in package-lock.json. No stamp file is trusted.
//
// A module built with Node's own API (better-sqlite3) exports `node_register_module_v<N>`, where N is
// the NODE_MODULE_VERSION of the headers it was compiled against (Node 20: 115; Electron 45: 150);
// Node looks that exact symbol up when it loads the file, so a file without the runtime's N does not
// load. A Node-API module (keytar) exports `napi_register_module_v1` and loads in any runtime with
// Node-API. On Linux the symbol is read from the ELF file's dynamic symbol table (defined symbols
// only); Mach-O and PE files are searched for the symbol's name in their bytes.
//
// A .node file is also built for one CPU (a universal Mach-O file for several): the x64 file does not
// load on an Apple silicon Mac ("incompatible architecture"), and the ABI symbol says nothing of it.
// The CPU is read from the file's header: ELF's e_machine, Mach-O's cputype (each slice of a
// universal file), PE's Machine. Names are Node's (process.arch): x64, arm64, ia32, arm.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const NODE_SYMBOL = /^_?node_register_module_v(\d+)$/;
const NAPI_SYMBOL = /^_?napi_register_module_v1$/;

/**
 * The defined symbols of an ELF file's dynamic symbol table, or null when the bytes are not ELF.
 * @param {Buffer} bytes @returns {string[] | null}
 */
export function elfDynamicSymbols(bytes) {
  if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) return null; // "\x7fELF"
  const is64 = bytes[4] === 2;
  const le = bytes[5] === 1;
  const u16 = (o) => (le ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
  const u32 = (o) => (le ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
  const word = (o) => (is64 ? Number(le ? bytes.readBigUInt64LE(o) : bytes.readBigUInt64BE(o)) : u32(o));
  const shoff = word(is64 ? 0x28 : 0x20);
  const shentsize = u16(is64 ? 0x3a : 0x2e);
  const shnum = u16(is64 ? 0x3c : 0x30);
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize;
    if (at + shentsize > bytes.length) return [];
    sections.push({
      type: u32(at + 4),
      offset: word(at + (is64 ? 0x18 : 0x10)),
      size: word(at + (is64 ? 0x20 : 0x14)),
      link: u32(at + (is64 ? 0x28 : 0x18)),
      entsize: word(at + (is64 ? 0x38 : 0x24)),
    });
  }
  const SHT_DYNSYM = 11;
  const names = [];
  for (const dynsym of sections.filter((s) => s.type === SHT_DYNSYM)) {
    const strtab = sections[dynsym.link];
    if (!strtab || dynsym.entsize === 0) continue;
    for (let at = dynsym.offset; at + dynsym.entsize <= dynsym.offset + dynsym.size && at + dynsym.entsize <= bytes.length; at += dynsym.entsize) {
      const nameOffset = u32(at);
      const shndx = u16(at + (is64 ? 6 : 14));
      if (shndx === 0 || nameOffset === 0) continue; // undefined (imported) symbols say nothing about this file
      const start = strtab.offset + nameOffset;
      const end = bytes.indexOf(0, start);
      if (start >= bytes.length || end < 0) continue;
      names.push(bytes.toString('latin1', start, end));
    }
  }
  return names;
}

/** ELF e_machine values, by Node's arch names. */
const ELF_MACHINES = Object.freeze({ 3: 'ia32', 40: 'arm', 62: 'x64', 183: 'arm64' });
/** Mach-O cputype values (CPU_ARCH_ABI64 is 0x01000000). */
const MACHO_CPUS = Object.freeze({ 7: 'ia32', 12: 'arm', 0x01000007: 'x64', 0x0100000c: 'arm64' });
/** PE (COFF) Machine values. */
const PE_MACHINES = Object.freeze({ 0x14c: 'ia32', 0x1c4: 'arm', 0x8664: 'x64', 0xaa64: 'arm64' });

/**
 * The CPUs a native binary is built for, read from its header, as Node's arch names (an unknown
 * one as "<format> machine <n>"); empty when the bytes are none of ELF, Mach-O (thin or universal), PE.
 * @param {Buffer} bytes @returns {string[]}
 */
export function binaryArchs(bytes) {
  if (bytes.length < 8) return [];
  const name = (table, format, value) => table[value] ?? `${format} machine ${value}`;
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const le = bytes[5] === 1;
    return [name(ELF_MACHINES, 'ELF', le ? bytes.readUInt16LE(0x12) : bytes.readUInt16BE(0x12))];
  }
  const magicLE = bytes.readUInt32LE(0);
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) return [name(MACHO_CPUS, 'Mach-O', bytes.readUInt32LE(4))];
  const magicBE = bytes.readUInt32BE(0);
  if (magicBE === 0xfeedfacf || magicBE === 0xfeedface) return [name(MACHO_CPUS, 'Mach-O', bytes.readUInt32BE(4))];
  if (magicBE === 0xcafebabe || magicBE === 0xcafebabf) {
    // A universal ("fat") file: big-endian fat_arch entries (20 bytes; 32 in the 64-bit form), one per slice.
    const count = bytes.readUInt32BE(4);
    const size = magicBE === 0xcafebabf ? 32 : 20;
    if (count === 0 || count > 16 || 8 + count * size > bytes.length) return [];
    return Array.from({ length: count }, (_, i) => name(MACHO_CPUS, 'Mach-O', bytes.readUInt32BE(8 + i * size)));
  }
  if (bytes.length >= 0x40 && bytes.readUInt16LE(0) === 0x5a4d) {
    // "MZ", then the PE header where e_lfanew points: "PE\0\0" and the COFF header's Machine.
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.readUInt32LE(pe) === 0x00004550) return [name(PE_MACHINES, 'PE', bytes.readUInt16LE(pe + 4))];
  }
  return [];
}

/**
 * What runtime and CPU a .node file was built for.
 * @param {string} file
 * @returns {{ file: string, format: 'elf' | 'other', abi: number | null, napi: boolean, archs: string[] }}
 *   abi: the N of node_register_module_v<N> (null when the file has none); napi: it is a Node-API module;
 *   archs: the CPUs it runs on (binaryArchs; several for a universal Mach-O file).
 */
export function probeNativeFile(file) {
  const bytes = readFileSync(file);
  const elf = elfDynamicSymbols(bytes);
  const symbols = elf ?? [...bytes.toString('latin1').matchAll(/_?(?:node_register_module_v\d+|napi_register_module_v1)(?=\0)/g)].map((m) => m[0]);
  const abis = symbols.map((s) => NODE_SYMBOL.exec(s)?.[1]).filter((v) => v !== undefined);
  return {
    file,
    format: elf ? 'elf' : 'other',
    abi: abis.length > 0 ? Number(abis[0]) : null,
    napi: symbols.some((s) => NAPI_SYMBOL.test(s)),
    archs: binaryArchs(bytes),
  };
}

/** In words: "Node ABI 115", "Node-API", or "no runtime symbol". @param {ReturnType<typeof probeNativeFile>} probe */
export function describeBuild(probe) {
  if (probe.abi !== null) return `ABI ${probe.abi}`;
  if (probe.napi) return 'Node-API';
  return 'no node_register_module or napi_register_module symbol';
}

/**
 * Whether a probed file loads in a runtime with ABI `abi`: its own ABI is that one, or it is a
 * Node-API module (which every runtime with Node-API loads).
 * @param {ReturnType<typeof probeNativeFile>} probe @param {number} abi
 */
export function loadsWithAbi(probe, abi) {
  return probe.abi === null ? probe.napi : probe.abi === abi;
}

/** electron-builder's arch names (its --x64, --armv7l, output folders) as Node's; "universal" stays. @param {string} arch */
export function nodeArch(arch) {
  return arch === 'armv7l' ? 'arm' : arch;
}

/**
 * Why a probed file does not run on `arch` (Node's or electron-builder's name; "universal" needs
 * both x64 and arm64), or null when it does.
 * @param {ReturnType<typeof probeNativeFile>} probe @param {string} arch
 */
export function archMismatch(probe, arch) {
  const needed = nodeArch(arch) === 'universal' ? ['x64', 'arm64'] : [nodeArch(arch)];
  if (needed.every((a) => probe.archs.includes(a))) return null;
  const built = probe.archs.length > 0 ? probe.archs.join(' + ') : 'a CPU its header does not name';
  return `is built for ${built}, but the ${arch} app needs ${needed.join(' + ')}`;
}

/**
 * better-sqlite3 also builds test_extension.node, a SQLite extension for its own tests: not a Node
 * module (it has no register symbol), never loaded by the app, and left out of the package.
 */
export const NOT_NODE_MODULES = Object.freeze(['test_extension.node']);

/**
 * Where a module's .node files are looked for: `bindings` (better-sqlite3 loads through it) tries
 * build/<name>.node and build/Debug/ before build/Release/, where node-gyp and prebuild-install
 * put a release build; so a stale file in either of the first two would be the one loaded.
 */
export const NATIVE_BUILD_DIRS = Object.freeze([['build'], ['build', 'Debug'], ['build', 'Release']]);

/** The Node modules (.node files) a module folder has built, in the folders `bindings` loads from (NATIVE_BUILD_DIRS). @param {string} moduleDir */
export function builtNativeFiles(moduleDir) {
  return NATIVE_BUILD_DIRS.flatMap((parts) => {
    const dir = join(moduleDir, ...parts);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.node') && !NOT_NODE_MODULES.includes(e.name))
      .map((e) => e.name)
      .sort()
      .map((f) => join(dir, f));
  });
}

/**
 * Problems, in plain words, with the native modules in `nodeModules` for a runtime: every module
 * has a built .node file, and each loads with `abi` (and, when `arch` is given, on that CPU). None
 * when all is well.
 * @param {string} nodeModules @param {string[]} modules @param {{ abi: number, runtime: string, arch?: string }} target
 * @returns {string[]}
 */
export function nativeAbiProblems(nodeModules, modules, target) {
  return modules.flatMap((name) => {
    const files = builtNativeFiles(join(nodeModules, name));
    if (files.length === 0) return [`${name} has no built .node file in ${join(nodeModules, name, 'build', 'Release')}`];
    return files.flatMap((file) => {
      const probe = probeNativeFile(file);
      const problems = [];
      if (!loadsWithAbi(probe, target.abi))
        problems.push(
          `${name}: ${probe.file} is built for ${describeBuild(probe)}, but ${target.runtime} needs ABI ${target.abi}; it would fail to load there`,
        );
      const cpu = target.arch === undefined ? null : archMismatch(probe, target.arch);
      if (cpu) problems.push(`${name}: ${probe.file} ${cpu}; it would fail to load there`);
      return problems;
    });
  });
}

/**
 * The Electron locked in package-lock.json and its ABI (NODE_MODULE_VERSION), from node-abi's table;
 * checked against Electron's own `abi_version` file when the installed package is that version.
 * @param {string} root @returns {{ version: string, abi: number }}
 */
export function lockedElectronAbi(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.['node_modules/electron']?.version;
  if (typeof version !== 'string') throw new Error('package-lock.json locks no electron: run npm install so the lock pins one.');
  // node-abi from this repository's tools, whatever project folder is checked.
  const require = createRequire(import.meta.url);
  let abi;
  try {
    abi = Number(require('node-abi').getAbi(version, 'electron'));
  } catch (error) {
    throw new Error(
      `node-abi does not know Electron ${version}'s ABI (${error instanceof Error ? error.message : String(error)}). Update it: npm update node-abi`,
    );
  }
  const installed = join(root, 'node_modules', 'electron');
  if (existsSync(join(installed, 'abi_version')) && existsSync(join(installed, 'package.json'))) {
    const installedVersion = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version;
    const own = Number(readFileSync(join(installed, 'abi_version'), 'utf8').trim());
    if (installedVersion === version && own !== abi) {
      throw new Error(`Electron ${version} says its ABI is ${own}, node-abi says ${abi}: update node-abi (npm update node-abi).`);
    }
  }
  return { version, abi };
}

/** Every .node file under a folder (a packaged app's app.asar.unpacked), as absolute paths. @param {string} dir @returns {string[]} */
export function nodeFilesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.node') && !NOT_NODE_MODULES.includes(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}

/**
 * Problems with the .node files a packaged app carries (its app.asar.unpacked): each must load with
 * `target.abi` (and run on `target.arch` when given). None when all is well; a package without any
 * .node file is a problem too.
 * @param {string} unpackedDir @param {{ abi: number, runtime: string, arch?: string }} target @returns {string[]}
 */
export function packagedAbiProblems(unpackedDir, target) {
  const files = nodeFilesUnder(unpackedDir);
  if (files.length === 0) return [`${unpackedDir} holds no .node file: the native modules were not packaged`];
  return files.flatMap((file) => {
    const probe = probeNativeFile(file);
    const problems = [];
    if (!loadsWithAbi(probe, target.abi))
      problems.push(
        `${probe.file} is built for ${describeBuild(probe)}, but ${target.runtime} needs ABI ${target.abi}: the packaged app could not open its cache`,
      );
    const cpu = target.arch === undefined ? null : archMismatch(probe, target.arch);
    if (cpu) problems.push(`${probe.file} ${cpu}: the packaged app could not open its cache`);
    return problems;
  });
}
