// One package per CPU, each with native modules of its own CPU (build/scripts/before-pack.mjs, dist.mjs,
// verify-packaged.mjs). electron-builder.yml builds the Mac app for x64 and arm64 in one run; before it
// copies node_modules into each CPU's app, its beforePack hook rebuilds the modules for that CPU. Shown
// here with electron-builder itself, packing a small project for Linux x64 and arm64 with a stand-in
// Electron (the same run on a Mac packs mac/ and mac-arm64/): the hook is the real one, with a rebuild
// that puts in place a prepared Electron-ABI build of the CPU it is asked for (Electron's headers
// cannot be downloaded here). Without the hook, both apps get the one build node_modules holds, and
// the packaged check refuses the other CPU's app: what shipped before.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../../support/tmp';

interface Probe {
  abi: number | null;
  napi: boolean;
  archs: string[];
}
interface NativeAbi {
  probeNativeFile(file: string): Probe;
  lockedElectronAbi(root: string): { version: string; abi: number };
}
interface Command {
  command: string;
  args: string[];
  options: { shell: false };
}
interface Commands {
  toolCommand(root: string, tool: string, args: string[]): Command;
}
interface Dist {
  outputFolderArch(releaseDir: string, path: string): string | null;
  unpackedResources(releaseDir: string, sinceMs?: number): string[];
}
interface VerifyPackaged {
  checkPackagedAbi(p: { resourcesDir: string; abi: number; runtime: string; arch?: string }): string[];
}
interface BeforePack {
  BUILDER_ARCHS: readonly string[];
  makeBeforePack(
    prepare: (root: string, arch: string) => { ok: boolean; message: string },
    say?: (m: string) => void,
  ): (context: { arch: number | string; packager: { projectDir: string } }) => Promise<void>;
}

const script = (name: string) => pathToFileURL(resolve('build/scripts', name)).href;
const abiScript = (await import(script('native-abi.mjs'))) as NativeAbi;
const commands = (await import(script('commands.mjs'))) as Commands;
const dist = (await import(script('dist.mjs'))) as Dist;
const packaged = (await import(script('verify-packaged.mjs'))) as VerifyPackaged;
const hook = (await import(script('before-pack.mjs'))) as BeforePack;

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const ELECTRON = abiScript.lockedElectronAbi(process.cwd());
const NODE_ABI = Number(process.versions.modules);
/** ELF e_machine, at byte 0x12 of the header (little-endian here). */
const E_MACHINE = { x64: 62, arm64: 183 } as const;
type Cpu = keyof typeof E_MACHINE;

/** A copy of a real .node file of this machine as built for `cpu` (its ELF header's machine), and for Electron's ABI when it has a Node ABI. */
function buildFor(from: string, cpu: Cpu, to: string): void {
  let bytes = readFileSync(from);
  const text = bytes.toString('latin1');
  const nodeSymbol = `node_register_module_v${NODE_ABI}`;
  if (text.includes(nodeSymbol)) bytes = Buffer.from(text.split(nodeSymbol).join(`node_register_module_v${ELECTRON.abi}`), 'latin1');
  bytes.writeUInt16LE(E_MACHINE[cpu], 0x12);
  writeFileSync(to, bytes);
}

const REAL = {
  'better-sqlite3': resolve('node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
  keytar: resolve('node_modules/keytar/build/Release/keytar.node'),
};
const FILE = { 'better-sqlite3': 'better_sqlite3.node', keytar: 'keytar.node' };

/**
 * A small app whose production dependencies are better-sqlite3 and keytar (their package.json and a
 * built .node file: an Electron-ABI x64 build, as one rebuild on an Intel machine leaves them), with a
 * lock naming Electron, and an electron-builder.yml packing it with a stand-in Electron.
 */
function fixtureApp(opts: { hook: 'real' | 'failing' | 'none' }): { stage: string; release: string; log: string } {
  const base = join(tmp.dir, `app ${n++}`);
  const stage = join(base, 'stage');
  const release = join(base, 'release');
  const fixtures = join(base, 'prepared builds');
  const log = join(base, 'rebuilds.log');
  mkdirSync(fixtures, { recursive: true });
  writeFileSync(log, '');
  for (const [name, from] of Object.entries(REAL) as [keyof typeof REAL, string][]) {
    const dir = join(stage, 'node_modules', name, 'build', 'Release');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(stage, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
    buildFor(from, 'x64', join(dir, FILE[name]));
    for (const cpu of Object.keys(E_MACHINE) as Cpu[]) buildFor(from, cpu, join(fixtures, `${cpu}-${FILE[name]}`));
  }
  const deps = { 'better-sqlite3': '1.0.0', keytar: '1.0.0' };
  writeFileSync(join(stage, 'main.js'), 'console.log("fixture");\n');
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify({
      name: 'fixture-app',
      version: '1.0.0',
      description: 'a fixture',
      main: 'main.js',
      author: { name: 'A', email: 'a@b.org' },
      dependencies: deps,
    }),
  );
  writeFileSync(
    join(stage, 'package-lock.json'),
    JSON.stringify({
      name: 'fixture-app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'fixture-app', version: '1.0.0', dependencies: deps },
        'node_modules/better-sqlite3': { version: '1.0.0' },
        'node_modules/keytar': { version: '1.0.0' },
        'node_modules/electron': { version: ELECTRON.version, dev: true },
      },
    }),
  );
  const standIn = join(base, 'electron-stand-in');
  mkdirSync(standIn);
  writeFileSync(join(standIn, 'electron'), '#!/bin/sh\necho "a stand-in for Electron"\n', { mode: 0o755 });
  // The hook: before-pack.mjs's own, running native.mjs's prepareForElectron with a rebuild that puts the prepared build of the CPU asked for in place.
  const hookFile = join(stage, 'test-before-pack.mjs');
  writeFileSync(
    hookFile,
    `import { appendFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeBeforePack } from ${JSON.stringify(script('before-pack.mjs'))};
import { prepareForElectron } from ${JSON.stringify(script('native.mjs'))};
const log = ${JSON.stringify(log)};
const fixtures = ${JSON.stringify(fixtures)};
export const beforePack = makeBeforePack(
  (root, arch) =>
    prepareForElectron(root, {
      arch,
      rebuild: (c) => {
        const cpu = c.args[c.args.indexOf('--arch') + 1];
        appendFileSync(log, 'rebuild ' + cpu + '\\n');
        ${opts.hook === 'failing' ? 'return 1;' : ''}
        copyFileSync(join(fixtures, cpu + '-better_sqlite3.node'), join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
        copyFileSync(join(fixtures, cpu + '-keytar.node'), join(root, 'node_modules/keytar/build/Release/keytar.node'));
        return 0;
      },
    }),
  (message) => appendFileSync(log, message + '\\n'),
);
`,
  );
  const config = [
    'appId: org.example.fixture',
    `electronDist: ${JSON.stringify(standIn)}`,
    `electronVersion: ${ELECTRON.version}`,
    'npmRebuild: false',
    'asar:',
    '  smartUnpack: false',
    'asarUnpack: ["**/*.node"]',
    'files: ["main.js", "package.json"]',
    `directories: { output: ${JSON.stringify(release)} }`,
    opts.hook === 'none' ? '' : `beforePack: ${JSON.stringify(hookFile)}`,
  ];
  writeFileSync(join(stage, 'electron-builder.yml'), `${config.join('\n')}\n`);
  return { stage, release, log };
}

/** electron-builder for Linux's unpacked app, x64 and arm64, in one run (as electron-builder.yml's mac targets do). */
function packBoth(stage: string) {
  const c = commands.toolCommand(process.cwd(), 'electron-builder', ['--linux', 'dir', '--x64', '--arm64', '--projectDir', stage, '--publish', 'never']);
  return spawnSync(c.command, c.args, { ...c.options, cwd: stage, encoding: 'utf8', timeout: 120_000, env: { ...process.env, FORCE_COLOR: '0' } });
}

/** Each unpacked app's resources folder, by the CPU its folder names. */
function appsByCpu(release: string): Map<string, string> {
  const apps = new Map<string, string>();
  for (const unpacked of dist.unpackedResources(release)) apps.set(dist.outputFolderArch(release, unpacked) ?? '?', resolve(unpacked, '..'));
  return apps;
}

const check = (resourcesDir: string, arch: string) =>
  packaged.checkPackagedAbi({ resourcesDir, abi: ELECTRON.abi, runtime: `Electron ${ELECTRON.version}`, arch });

describe('each CPU gets the native modules of its own CPU', () => {
  it('electron-builder calls the hook before each CPU is packed; the x64 app holds x64 modules, the arm64 app arm64 modules', () => {
    const app = fixtureApp({ hook: 'real' });
    const r = packBoth(app.stage);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const log = readFileSync(app.log, 'utf8');
    expect(log.split('\n').filter((l) => l.startsWith('rebuild'))).toEqual(['rebuild x64', 'rebuild arm64']);
    expect(log).toContain(`Native modules built for Electron ${ELECTRON.version} (ABI ${ELECTRON.abi}) on arm64, read from each .node file.`);
    const apps = appsByCpu(app.release);
    expect([...apps.keys()].sort()).toEqual(['arm64', 'x64']);
    for (const [cpu, resources] of apps) {
      expect(check(resources, cpu)).toEqual([]);
      for (const [name, file] of Object.entries(FILE)) {
        const probe = abiScript.probeNativeFile(join(resources, 'app.asar.unpacked', 'node_modules', name, 'build', 'Release', file));
        expect(probe.archs).toEqual([cpu]);
      }
    }
  }, 180_000);

  it('without the hook (one rebuild for this machine), the arm64 app carries x64 modules, and the packaged check refuses it', () => {
    const app = fixtureApp({ hook: 'none' });
    const r = packBoth(app.stage);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const apps = appsByCpu(app.release);
    expect(check(apps.get('x64')!, 'x64')).toEqual([]);
    expect(check(apps.get('arm64')!, 'arm64')).toEqual([
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node is built for x64, but the arm64 app needs arm64',
      'node_modules/keytar/build/Release/keytar.node is built for x64, but the arm64 app needs arm64',
    ]);
  }, 180_000);

  it('a rebuild that fails stops electron-builder before anything is packed, with the rebuild’s words', () => {
    const app = fixtureApp({ hook: 'failing' });
    const r = packBoth(app.stage);
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/the rebuild failed \(exit code 1\)[\s\S]*Nothing was packaged for x64/);
    expect(dist.unpackedResources(app.release)).toEqual([]);
  }, 180_000);
});

describe('the hook and the folders', () => {
  it("reads electron-builder's CPU numbers (builder-util's Arch) and rebuilds in Node's words", async () => {
    const { Arch } = createRequire(import.meta.url)('builder-util') as { Arch: Record<string, number> };
    for (const [i, name] of hook.BUILDER_ARCHS.entries()) expect(Arch[name]).toBe(i);
    const asked: string[] = [];
    const before = hook.makeBeforePack(
      (root, arch) => (asked.push(`${root}:${arch}`), { ok: true, message: 'ok' }),
      () => {},
    );
    await before({ arch: Arch.armv7l!, packager: { projectDir: '/p' } });
    await before({ arch: Arch.arm64!, packager: { projectDir: '/p' } });
    expect(asked).toEqual(['/p:arm', '/p:arm64']);
    await expect(before({ arch: 9, packager: { projectDir: '/p' } })).rejects.toThrow(/unknown CPU \(9\)/);
  });

  it("tells each output folder's CPU: electron-builder's default (x64) has no suffix", () => {
    const release = join(tmp.dir, 'release');
    const cpuOf = (...parts: string[]) => dist.outputFolderArch(release, join(release, ...parts));
    expect(cpuOf('mac', 'Outreach Workbench.app', 'Contents', 'Resources')).toBe('x64');
    expect(cpuOf('mac-arm64', 'Outreach Workbench.app', 'Contents', 'Resources')).toBe('arm64');
    expect(cpuOf('mac-universal', 'Outreach Workbench.app')).toBe('universal');
    expect(cpuOf('linux-unpacked', 'resources')).toBe('x64');
    expect(cpuOf('linux-arm64-unpacked', 'resources')).toBe('arm64');
    expect(cpuOf('win-ia32-unpacked', 'resources')).toBe('ia32');
    expect(cpuOf('something-else', 'resources')).toBeNull();
  });
});
