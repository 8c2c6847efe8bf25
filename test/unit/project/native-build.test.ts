// Native modules built for the runtime that loads them (build/scripts/native-abi.mjs, native.mjs):
// the ABI read from a .node file's own symbols, the Electron ABI from the lock, the clean and forced
// rebuild (no stale @electron/rebuild marker, no inherited nodedir), and the refusal of a mismatch.
//
// Fixtures: the Node-built better_sqlite3.node in node_modules (exports node_register_module_v115
// under Node 20), and an "Electron-ABI" copy of it whose dynamic symbol is renamed to Electron 45's
// node_register_module_v150 (same length, so the ELF stays well-formed): what the probe reads from
// a real Electron build. No Electron build can be made here (its headers cannot be downloaded).
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../../support/tmp';

interface Probe {
  file: string;
  format: 'elf' | 'other';
  abi: number | null;
  napi: boolean;
  archs: string[];
}
interface NativeAbi {
  probeNativeFile(file: string): Probe;
  binaryArchs(bytes: Buffer): string[];
  archMismatch(probe: Probe, arch: string): string | null;
  loadsWithAbi(probe: Probe, abi: number): boolean;
  builtNativeFiles(moduleDir: string): string[];
  nativeAbiProblems(nodeModules: string, modules: string[], target: { abi: number; runtime: string; arch?: string }): string[];
  packagedAbiProblems(dir: string, target: { abi: number; runtime: string; arch?: string }): string[];
  lockedElectronAbi(root: string): { version: string; abi: number };
}
interface Command {
  command: string;
  args: string[];
  options: { shell: false };
  env: Record<string, string>;
}
interface Native {
  electronBuildEnv(env: Record<string, string | undefined>, version: string): Record<string, string>;
  cleanNativeBuild(moduleDir: string): string[];
  electronRebuildCommand(
    root: string,
    version: string,
    modules: string[],
    env: Record<string, string | undefined>,
    where?: { headersUrl?: string; arch?: string },
  ): Command;
  prepareForElectron(
    root: string,
    opts: { rebuild: (c: Command) => number; env?: Record<string, string | undefined>; arch?: string },
  ): { ok: boolean; message: string };
}

// .mjs modules have no type declarations: import them by URL and state the shape used here.
const abiScript = (await import(pathToFileURL(resolve('build/scripts/native-abi.mjs')).href)) as NativeAbi;
const native = (await import(pathToFileURL(resolve('build/scripts/native.mjs')).href)) as Native;
// @electron/rebuild's own module rebuilder and rebuild(), as electron-builder and native.mjs run them.
const { rebuild } = (await import(pathToFileURL(resolve('node_modules/@electron/rebuild/lib/main.js')).href)) as {
  rebuild(o: Record<string, unknown>): Promise<void> & { lifecycle: NodeJS.EventEmitter };
};

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const NODE_BUILD = resolve('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const NODE_ABI = Number(process.versions.modules);
const ELECTRON = abiScript.lockedElectronAbi(process.cwd());

/** A copy of the Node build whose register symbol names `abi` instead (the same number of digits). */
function buildWithAbi(abi: number, dir: string): string {
  const from = `node_register_module_v${NODE_ABI}`;
  const to = `node_register_module_v${abi}`;
  expect(to.length).toBe(from.length);
  const text = readFileSync(NODE_BUILD).toString('latin1');
  expect(text).toContain(from);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'better_sqlite3.node');
  writeFileSync(file, Buffer.from(text.split(from).join(to), 'latin1'));
  return file;
}

/** A project folder with better-sqlite3 in node_modules (its package.json and binding.gyp), a lock, and a build in place. */
function fixtureProject(build: 'node' | 'electron' | 'none', marker?: string): { root: string; moduleDir: string; release: string } {
  const root = join(tmp.dir, `project ${n++}`); // a space in the path, as under C:\Users\Jane Doe\
  const moduleDir = join(root, 'node_modules', 'better-sqlite3');
  const release = join(moduleDir, 'build', 'Release');
  mkdirSync(release, { recursive: true });
  for (const f of ['package.json', 'binding.gyp']) copyFileSync(resolve('node_modules/better-sqlite3', f), join(moduleDir, f));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', dependencies: { 'better-sqlite3': '*' } }));
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: { 'node_modules/electron': { version: ELECTRON.version } } }));
  if (build === 'node') copyFileSync(NODE_BUILD, join(release, 'better_sqlite3.node'));
  if (build === 'electron') buildWithAbi(ELECTRON.abi, release);
  if (marker !== undefined) writeFileSync(join(release, '.forge-meta'), marker);
  // keytar is a Node-API module: one build loads in Node and Electron, and the rebuild leaves it so.
  const keytar = join(root, 'node_modules', 'keytar', 'build', 'Release');
  mkdirSync(keytar, { recursive: true });
  copyFileSync(resolve('node_modules/keytar/build/Release/keytar.node'), join(keytar, 'keytar.node'));
  return { root, moduleDir, release };
}

/** What @electron/rebuild writes to .forge-meta after building for this machine and Electron's ABI. */
const electronMarker = `${process.platform}--${process.arch}--${ELECTRON.abi}`;

describe('the ABI probe reads what a .node file was built for', () => {
  it("reads a Node build's ABI from its ELF dynamic symbols (node_register_module_v<N>)", () => {
    const probe = abiScript.probeNativeFile(NODE_BUILD);
    expect(probe).toMatchObject({ format: 'elf', abi: NODE_ABI, napi: false });
    expect(abiScript.loadsWithAbi(probe, NODE_ABI)).toBe(true);
    expect(abiScript.loadsWithAbi(probe, ELECTRON.abi)).toBe(false);
  });

  it("reads an Electron build's ABI (the fixture names Electron's node_register_module_v150)", () => {
    const probe = abiScript.probeNativeFile(buildWithAbi(ELECTRON.abi, join(tmp.dir, `electron-${n++}`)));
    expect(probe).toMatchObject({ format: 'elf', abi: ELECTRON.abi, napi: false });
    expect(abiScript.loadsWithAbi(probe, ELECTRON.abi)).toBe(true);
    expect(abiScript.loadsWithAbi(probe, NODE_ABI)).toBe(false);
  });

  it('knows keytar as a Node-API module, which loads in Node and Electron alike', () => {
    const probe = abiScript.probeNativeFile(resolve('node_modules/keytar/build/Release/keytar.node'));
    expect(probe).toMatchObject({ abi: null, napi: true });
    expect(abiScript.loadsWithAbi(probe, ELECTRON.abi)).toBe(true);
  });

  it("finds the symbol by name in a file that is not ELF (Mach-O's leading underscore), and none in a file without one", () => {
    const dir = join(tmp.dir, `other-${n++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'macho.node'), Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), Buffer.from('\0_node_register_module_v150\0rest', 'latin1')]));
    writeFileSync(join(dir, 'empty.node'), Buffer.from('\0\0 nothing here \0'));
    expect(abiScript.probeNativeFile(join(dir, 'macho.node'))).toMatchObject({ format: 'other', abi: 150, napi: false });
    const none = abiScript.probeNativeFile(join(dir, 'empty.node'));
    expect(none).toMatchObject({ abi: null, napi: false });
    expect(abiScript.loadsWithAbi(none, NODE_ABI)).toBe(false);
  });

  it("takes Electron's ABI from the lock (node-abi), agreeing with Electron's own abi_version", () => {
    expect(ELECTRON.version).toBe(JSON.parse(readFileSync('package-lock.json', 'utf8')).packages['node_modules/electron'].version);
    expect(ELECTRON.abi).toBe(Number(readFileSync('node_modules/electron/abi_version', 'utf8').trim()));
    const root = join(tmp.dir, `unknown-${n++}`);
    mkdirSync(root);
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: { 'node_modules/electron': { version: '999.0.0' } } }));
    expect(() => abiScript.lockedElectronAbi(root)).toThrow(/node-abi does not know Electron 999\.0\.0's ABI.*npm update node-abi/);
  });

  it('names the file, its ABI and the ABI the runtime needs when they differ', () => {
    const { root } = fixtureProject('node');
    const problems = abiScript.nativeAbiProblems(join(root, 'node_modules'), ['better-sqlite3'], {
      abi: ELECTRON.abi,
      runtime: `Electron ${ELECTRON.version}`,
    });
    expect(problems).toEqual([
      `better-sqlite3: ${join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')} is built for ABI ${NODE_ABI}, but Electron ${ELECTRON.version} needs ABI ${ELECTRON.abi}; it would fail to load there`,
    ]);
    expect(abiScript.nativeAbiProblems(join(root, 'node_modules'), ['better-sqlite3'], { abi: NODE_ABI, runtime: 'Node' })).toEqual([]);
  });
});

describe('the Electron rebuild is clean, forced and built against Electrons headers', () => {
  it("reproduces the trap: @electron/rebuild skips a Node build when prebuild-install left Electron's marker beside it", async () => {
    const { root, release } = fixtureProject('node', electronMarker);
    const skipped: string[] = [];
    const run = rebuild({ buildPath: root, electronVersion: ELECTRON.version, onlyModules: ['better-sqlite3'], force: false });
    run.lifecycle.on('module-skip', (name: string) => skipped.push(name));
    await run;
    expect(skipped).toEqual(['better-sqlite3']);
    expect(abiScript.probeNativeFile(join(release, 'better_sqlite3.node')).abi).toBe(NODE_ABI); // the Node binary stays
  });

  it('the clean step removes the stale marker and the old binary, so @electron/rebuild no longer skips the module', async () => {
    const { root, release } = fixtureProject('node', electronMarker);
    expect(native.cleanNativeBuild(join(root, 'node_modules', 'better-sqlite3')).sort()).toEqual(
      [join(release, '.forge-meta'), join(release, 'better_sqlite3.node')].sort(),
    );
    const skipped: string[] = [];
    // Headers from a port nothing serves: the rebuild now tries to build (and fails offline) instead of skipping.
    const run = rebuild({
      buildPath: root,
      electronVersion: ELECTRON.version,
      onlyModules: ['better-sqlite3'],
      force: false,
      headerURL: 'http://127.0.0.1:1/',
    });
    run.lifecycle.on('module-skip', (name: string) => skipped.push(name));
    await expect(run).rejects.toThrow(/node-gyp failed to rebuild/);
    expect(skipped).toEqual([]);
  }, 60_000);

  it('leaves out nodedir and the other inherited npm build settings, in any spelling, and names Electron as the runtime', () => {
    const env = native.electronBuildEnv(
      {
        PATH: '/usr/bin',
        HOME: '/home/jane',
        npm_config_nodedir: '/usr',
        NPM_CONFIG_NODEDIR: '/usr',
        'npm_config_dist-url': 'https://nodejs.org/dist',
        npm_config_target: '20.20.2',
        npm_config_cache: '/c',
      },
      ELECTRON.version,
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/jane',
      npm_config_cache: '/c',
      npm_config_runtime: 'electron',
      npm_config_target: ELECTRON.version,
      npm_config_disturl: 'https://electronjs.org/headers',
    });
  });

  it('runs @electron/rebuild with --force, by Node without a shell, with a project path that has a space kept whole', () => {
    const root = join(tmp.dir, 'Jane Doe', 'workbench');
    const c = native.electronRebuildCommand(root, ELECTRON.version, ['better-sqlite3', 'keytar'], { npm_config_nodedir: '/usr' });
    expect(c.command).toBe(process.execPath);
    expect(c.options.shell).toBe(false);
    expect(c.args[0]).toBe(join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js'));
    expect(c.args).toEqual(expect.arrayContaining(['--force', '--only', 'better-sqlite3,keytar', '--module-dir', root, '--version', ELECTRON.version]));
    expect(c.env.npm_config_nodedir).toBeUndefined();
  });

  it("with nodedir=/usr in the npm config, the command still fetches Electron's headers (node-gyp's request reaches the headers server)", async () => {
    const { root } = fixtureProject('none');
    mkdirSync(join(root, 'node_modules', '@electron'), { recursive: true });
    // The project's own @electron/rebuild, where the command runs it from.
    const linkTarget = resolve('node_modules/@electron/rebuild');
    const { symlinkSync } = await import('node:fs');
    symlinkSync(linkTarget, join(root, 'node_modules', '@electron', 'rebuild'), 'dir');
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const headersUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const inherited = { ...process.env, npm_config_nodedir: '/usr', HOME: join(root, 'home') };
    const runCommand = (c: Command) =>
      new Promise<number>((done) => spawn(c.command, c.args, { ...c.options, cwd: root, env: c.env, stdio: 'ignore' }).on('exit', (code) => done(code ?? 1)));
    try {
      const cleaned = native.electronRebuildCommand(root, ELECTRON.version, ['better-sqlite3'], inherited, { headersUrl });
      expect(await runCommand(cleaned)).not.toBe(0); // offline: no headers, no build
      expect(requests.some((u) => u.startsWith(`/v${ELECTRON.version}/`) && u.includes('headers'))).toBe(true);
      // The trap it avoids: the same command with nodedir kept never asks for Electron's headers.
      requests.length = 0;
      expect(await runCommand({ ...cleaned, env: { ...cleaned.env, npm_config_nodedir: '/usr' } })).not.toBe(0);
      expect(requests).toEqual([]);
    } finally {
      server.close();
    }
  }, 120_000);
});

describe('native.mjs electron refuses a build it cannot prove', () => {
  it('after a rebuild that leaves a Node binary (headers of the wrong runtime), it refuses, naming the file and both ABIs', () => {
    const { root, release } = fixtureProject('node', electronMarker);
    const commands: Command[] = [];
    const result = native.prepareForElectron(root, {
      env: { npm_config_nodedir: '/usr' },
      rebuild: (c) => {
        commands.push(c);
        copyFileSync(NODE_BUILD, join(release, 'better_sqlite3.node')); // built against Node's headers
        return 0;
      },
    });
    expect(commands).toHaveLength(1);
    expect(commands[0]!.args).toContain('--force');
    expect(commands[0]!.env.npm_config_nodedir).toBeUndefined();
    expect(result.ok).toBe(false);
    expect(result.message).toContain(`better_sqlite3.node is built for ABI ${NODE_ABI}, but Electron ${ELECTRON.version} needs ABI ${ELECTRON.abi}`);
  });

  it('after a rebuild that skips (nothing built), it refuses: the old binary was removed first', () => {
    const { root, release } = fixtureProject('node', electronMarker);
    const result = native.prepareForElectron(root, { rebuild: () => 0 });
    expect(existsSync(join(release, '.forge-meta'))).toBe(false);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('better-sqlite3 has no built .node file');
  });

  it('after a rebuild that fails, it says so with its exit code', () => {
    const { root } = fixtureProject('none');
    const result = native.prepareForElectron(root, { rebuild: () => 7 });
    expect(result).toMatchObject({ ok: false });
    expect(result.message).toContain('the rebuild failed (exit code 7)');
  });

  it("accepts a rebuild that leaves Electron's ABI in every .node file", () => {
    const { root, release } = fixtureProject('node', electronMarker);
    const keytar = join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node');
    const result = native.prepareForElectron(root, {
      rebuild: () => {
        buildWithAbi(ELECTRON.abi, release);
        copyFileSync(resolve('node_modules/keytar/build/Release/keytar.node'), keytar);
        return 0;
      },
    });
    expect(result).toEqual({ ok: true, message: `Native modules built for Electron ${ELECTRON.version} (ABI ${ELECTRON.abi}), read from each .node file.` });
  });

  it("reads a packaged app's app.asar.unpacked the same way (what dist.mjs checks after electron-builder)", () => {
    const dir = join(tmp.dir, `packaged-${n++}`, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(dir, { recursive: true });
    copyFileSync(NODE_BUILD, join(dir, 'better_sqlite3.node'));
    const unpacked = resolve(dir, '../../../..');
    expect(abiScript.packagedAbiProblems(unpacked, { abi: ELECTRON.abi, runtime: 'Electron' })).toEqual([
      `${join(dir, 'better_sqlite3.node')} is built for ABI ${NODE_ABI}, but Electron needs ABI ${ELECTRON.abi}: the packaged app could not open its cache`,
    ]);
    buildWithAbi(ELECTRON.abi, dir);
    expect(abiScript.packagedAbiProblems(unpacked, { abi: ELECTRON.abi, runtime: 'Electron' })).toEqual([]);
    expect(abiScript.packagedAbiProblems(join(tmp.dir, 'nothing-here'), { abi: ELECTRON.abi, runtime: 'Electron' })[0]).toMatch(/holds no \.node file/);
  });
});

// ---- the CPU a .node file is built for -------------------------------------------------------------
// Crafted minimal headers: what each format says of its CPU in the bytes the probe reads (and no more).

/** A thin Mach-O header (64-bit, little-endian on disk as every Mac writes it) for a cputype. */
function machO(cputype: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cputype, 4);
  return b;
}

/** A universal ("fat") Mach-O header, big-endian, with one 20-byte fat_arch entry per cputype. */
function fatMachO(cputypes: number[]): Buffer {
  const b = Buffer.alloc(8 + cputypes.length * 20 + 16);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(cputypes.length, 4);
  cputypes.forEach((t, i) => b.writeUInt32BE(t, 8 + i * 20));
  return b;
}

/** A PE file's headers: "MZ", e_lfanew at 0x3c pointing at "PE\0\0", then the COFF Machine. */
function pe(machine: number): Buffer {
  const b = Buffer.alloc(0x80);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x40, 0x3c);
  b.write('PE\0\0', 0x40, 'latin1');
  b.writeUInt16LE(machine, 0x44);
  return b;
}

const X86_64 = 0x01000007;
const ARM64 = 0x0100000c;

describe('the probe reads the CPU from the file header', () => {
  it("ELF: e_machine (the real Node build is this machine's; patched to AArch64 it reads arm64)", () => {
    expect(abiScript.probeNativeFile(NODE_BUILD).archs).toEqual([process.arch]);
    const bytes = readFileSync(NODE_BUILD);
    bytes.writeUInt16LE(183, 0x12); // EM_AARCH64
    const dir = join(tmp.dir, `elf-${n++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'better_sqlite3.node'), bytes);
    expect(abiScript.probeNativeFile(join(dir, 'better_sqlite3.node'))).toMatchObject({ format: 'elf', abi: NODE_ABI, archs: ['arm64'] });
  });

  it('Mach-O: cputype of a thin file, and every slice of a universal one', () => {
    expect(abiScript.binaryArchs(machO(X86_64))).toEqual(['x64']);
    expect(abiScript.binaryArchs(machO(ARM64))).toEqual(['arm64']);
    expect(abiScript.binaryArchs(fatMachO([X86_64, ARM64]))).toEqual(['x64', 'arm64']);
    expect(abiScript.binaryArchs(fatMachO([ARM64]))).toEqual(['arm64']);
    expect(abiScript.binaryArchs(machO(0x01000012))).toEqual(['Mach-O machine 16777234']); // PowerPC 64
  });

  it('PE: the COFF Machine where e_lfanew points', () => {
    expect(abiScript.binaryArchs(pe(0x8664))).toEqual(['x64']);
    expect(abiScript.binaryArchs(pe(0xaa64))).toEqual(['arm64']);
    expect(abiScript.binaryArchs(pe(0x14c))).toEqual(['ia32']);
    expect(abiScript.binaryArchs(Buffer.from('not a binary at all, just words'))).toEqual([]);
  });

  it('a file runs on a CPU it names; universal needs both x64 and arm64; an unreadable header runs nowhere', () => {
    const probe = (archs: string[]) => ({ file: 'f', format: 'other' as const, abi: 150, napi: false, archs });
    expect(abiScript.archMismatch(probe(['x64']), 'x64')).toBeNull();
    expect(abiScript.archMismatch(probe(['x64']), 'arm64')).toBe('is built for x64, but the arm64 app needs arm64');
    expect(abiScript.archMismatch(probe(['x64', 'arm64']), 'universal')).toBeNull();
    expect(abiScript.archMismatch(probe(['arm64']), 'universal')).toBe('is built for arm64, but the universal app needs x64 + arm64');
    expect(abiScript.archMismatch(probe(['arm']), 'armv7l')).toBeNull(); // electron-builder's name for Node's arm
    expect(abiScript.archMismatch(probe([]), 'x64')).toBe('is built for a CPU its header does not name, but the x64 app needs x64');
  });
});

describe('a rebuild for a CPU', () => {
  it('asks @electron/rebuild for that CPU, and refuses a result built for another', () => {
    const { root, release } = fixtureProject('none');
    const commands: Command[] = [];
    const result = native.prepareForElectron(root, {
      arch: 'arm64',
      rebuild: (c) => {
        commands.push(c);
        buildWithAbi(ELECTRON.abi, release); // Electron's ABI, but this machine's CPU
        copyFileSync(resolve('node_modules/keytar/build/Release/keytar.node'), join(root, 'node_modules/keytar/build/Release/keytar.node'));
        return 0;
      },
    });
    expect(commands[0]!.args.slice(commands[0]!.args.indexOf('--arch'), commands[0]!.args.indexOf('--arch') + 2)).toEqual(['--arch', 'arm64']);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(`The native modules are not built for Electron ${ELECTRON.version} (ABI ${ELECTRON.abi}) on arm64.`);
    expect(result.message).toContain(`better-sqlite3: ${join(release, 'better_sqlite3.node')} is built for ${process.arch}, but the arm64 app needs arm64`);
    expect(result.message).toContain(
      `keytar: ${join(root, 'node_modules/keytar/build/Release/keytar.node')} is built for ${process.arch}, but the arm64 app needs arm64`,
    );
  });

  it("without a CPU named, this machine's (so npm run dev and start are unchanged)", () => {
    const c = native.electronRebuildCommand('/p', ELECTRON.version, ['better-sqlite3'], {});
    expect(c.args.slice(c.args.indexOf('--arch'), c.args.indexOf('--arch') + 2)).toEqual(['--arch', process.arch]);
  });
});

describe('the folders bindings loads a module from before build/Release', () => {
  it('a stale build/Debug or build/ .node file is probed (it would be the one loaded) and removed by the clean step', () => {
    const { root, moduleDir, release } = fixtureProject('electron');
    for (const dir of [join(moduleDir, 'build'), join(moduleDir, 'build', 'Debug')]) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(NODE_BUILD, join(dir, 'better_sqlite3.node')); // a Node build left behind
    }
    expect(abiScript.builtNativeFiles(moduleDir)).toEqual([
      join(moduleDir, 'build', 'better_sqlite3.node'),
      join(moduleDir, 'build', 'Debug', 'better_sqlite3.node'),
      join(release, 'better_sqlite3.node'),
    ]);
    const problems = abiScript.nativeAbiProblems(join(root, 'node_modules'), ['better-sqlite3'], { abi: ELECTRON.abi, runtime: 'Electron' });
    expect(problems).toEqual([
      `better-sqlite3: ${join(moduleDir, 'build', 'better_sqlite3.node')} is built for ABI ${NODE_ABI}, but Electron needs ABI ${ELECTRON.abi}; it would fail to load there`,
      `better-sqlite3: ${join(moduleDir, 'build', 'Debug', 'better_sqlite3.node')} is built for ABI ${NODE_ABI}, but Electron needs ABI ${ELECTRON.abi}; it would fail to load there`,
    ]);
    native.cleanNativeBuild(moduleDir);
    expect(abiScript.builtNativeFiles(moduleDir)).toEqual([]);
  });
});

// ---- npm test after npm run dev, start or dist (node_modules left with Electron's builds) ----------

const verifyPackage = (await import(pathToFileURL(resolve('build/scripts/verify-package.mjs')).href)) as { nodeBuildProblems(root: string): string[] };

describe('npm test after the app was run or packaged', () => {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
  /** The steps a script runs, each npm run followed into its own script. */
  const steps = (name: string): string[] =>
    scripts[name]!.split('&&')
      .map((s) => s.trim())
      .flatMap((s) => {
        const run = /^npm run ([\w:-]+)$/.exec(s);
        return run && run[1] !== 'native:node' ? [s, ...steps(run[1]!)] : [s];
      });

  it('puts the Node builds in place before verify:package packs node_modules, and before the tests load them', () => {
    const order = steps('test');
    const rebuilt = order.indexOf('npm run native:node');
    expect(rebuilt).toBeGreaterThanOrEqual(0);
    for (const needsNode of ['npm run verify:package', 'npm run test:unit', 'npm run e2e']) {
      expect(order.indexOf(needsNode), needsNode).toBeGreaterThan(rebuilt);
    }
  });

  it('verify:package on its own, with Electron builds in node_modules, says what to run instead of a wrong ABI deep in the package', () => {
    const { root } = fixtureProject('electron');
    const problems = verifyPackage.nodeBuildProblems(root);
    expect(problems[0]).toContain(`better_sqlite3.node is built for ABI ${ELECTRON.abi}, but this Node (${process.version}) needs ABI ${NODE_ABI}`);
    expect(problems.at(-1)).toMatch(/built for another runtime \(npm run dev, start, demo or dist build them for Electron\): run npm run native:node first/);
    expect(verifyPackage.nodeBuildProblems(fixtureProject('node').root)).toEqual([]);
  });
});
