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
}
interface NativeAbi {
  probeNativeFile(file: string): Probe;
  loadsWithAbi(probe: Probe, abi: number): boolean;
  nativeAbiProblems(nodeModules: string, modules: string[], target: { abi: number; runtime: string }): string[];
  packagedAbiProblems(dir: string, target: { abi: number; runtime: string }): string[];
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
  electronRebuildCommand(root: string, version: string, modules: string[], env: Record<string, string | undefined>, where?: { headersUrl?: string }): Command;
  prepareForElectron(root: string, opts: { rebuild: (c: Command) => number; env?: Record<string, string | undefined> }): { ok: boolean; message: string };
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
