// Which runtime a native module (.node file) was built for, read from the file itself, and which
// runtime the app needs: the ABI of the Electron in package-lock.json. No stamp file is trusted.
//
// A module built with Node's own API (better-sqlite3) exports `node_register_module_v<N>`, where N is
// the NODE_MODULE_VERSION of the headers it was compiled against (Node 20: 115; Electron 45: 150);
// Node looks that exact symbol up when it loads the file, so a file without the runtime's N does not
// load. A Node-API module (keytar) exports `napi_register_module_v1` and loads in any runtime with
// Node-API. On Linux the symbol is read from the ELF file's dynamic symbol table (defined symbols
// only); Mach-O and PE files are searched for the symbol's name in their bytes.
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

/**
 * What runtime a .node file was built for.
 * @param {string} file
 * @returns {{ file: string, format: 'elf' | 'other', abi: number | null, napi: boolean }}
 *   abi: the N of node_register_module_v<N> (null when the file has none); napi: it is a Node-API module.
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

/**
 * better-sqlite3 also builds test_extension.node, a SQLite extension for its own tests: not a Node
 * module (it has no register symbol), never loaded by the app, and left out of the package.
 */
export const NOT_NODE_MODULES = Object.freeze(['test_extension.node']);

/** The Node modules (.node files) in a module folder's build/Release, where node-gyp and prebuild-install put them. @param {string} moduleDir */
export function builtNativeFiles(moduleDir) {
  const release = join(moduleDir, 'build', 'Release');
  if (!existsSync(release) || !statSync(release).isDirectory()) return [];
  return readdirSync(release)
    .filter((f) => f.endsWith('.node') && !NOT_NODE_MODULES.includes(f))
    .sort()
    .map((f) => join(release, f));
}

/**
 * Problems, in plain words, with the native modules in `nodeModules` for a runtime: every module
 * has a built .node file, and each loads with `abi`. None when all is well.
 * @param {string} nodeModules @param {string[]} modules @param {{ abi: number, runtime: string }} target
 * @returns {string[]}
 */
export function nativeAbiProblems(nodeModules, modules, target) {
  return modules.flatMap((name) => {
    const files = builtNativeFiles(join(nodeModules, name));
    if (files.length === 0) return [`${name} has no built .node file in ${join(nodeModules, name, 'build', 'Release')}`];
    return files
      .map((file) => probeNativeFile(file))
      .filter((probe) => !loadsWithAbi(probe, target.abi))
      .map(
        (probe) => `${name}: ${probe.file} is built for ${describeBuild(probe)}, but ${target.runtime} needs ABI ${target.abi}; it would fail to load there`,
      );
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
 * `target.abi`. None when all is well; a package without any .node file is a problem too.
 * @param {string} unpackedDir @param {{ abi: number, runtime: string }} target @returns {string[]}
 */
export function packagedAbiProblems(unpackedDir, target) {
  const files = nodeFilesUnder(unpackedDir);
  if (files.length === 0) return [`${unpackedDir} holds no .node file: the native modules were not packaged`];
  return files
    .map((file) => probeNativeFile(file))
    .filter((probe) => !loadsWithAbi(probe, target.abi))
    .map(
      (probe) => `${probe.file} is built for ${describeBuild(probe)}, but ${target.runtime} needs ABI ${target.abi}: the packaged app could not open its cache`,
    );
}
