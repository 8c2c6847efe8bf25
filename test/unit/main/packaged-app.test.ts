// A real electron-builder packaging (build/scripts/verify-packaged.mjs, as verify:package runs it): the
// build packed with a stand-in Electron, then what the package holds checked, and each check seen
// to fail on a copy of the package broken the way it is meant to catch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPackageWithOptions, extractAll, listPackage } from '@electron/asar';
import { parse } from 'yaml';

type Context = Record<string, unknown>;
interface Check {
  name: string;
  run: (ctx: Context) => string[];
}
interface Packaged {
  resourcesDir: string;
  abi: number;
  runtime: string;
  arch?: string;
}
interface VerifyPackaged {
  packWithStandIn(root: string, outDir: string, work: string, electronVersion: string): string;
  packagedChecks(p: Packaged, ctx: Context, work: string, checks: readonly Check[]): { name: string; problems: string[] }[];
  checkUnpacked(p: Packaged, ctx: Context): string[];
  checkPackagedAbi(p: Packaged): string[];
  checkAppUpdateYml(p: Packaged, ctx: Context): string[];
  checkAsarHoldsTheBuild(p: Packaged, ctx: Context, work: string, checks: readonly Check[]): string[];
}
interface VerifyPackage {
  BUILD_CHECKS: readonly Check[];
  buildInto(root: string, outDir: string): void;
  loadContext(root: string, outDir: string): Context;
}

const packagedScript = (await import(pathToFileURL(resolve('build/scripts/verify-packaged.mjs')).href)) as VerifyPackaged;
const verify = (await import(pathToFileURL(resolve('build/scripts/verify-package.mjs')).href)) as VerifyPackage;

const work = mkdtempSync(join(tmpdir(), 'workbench-packaged-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);
let n = 0;

const NODE_ABI = Number(process.versions.modules);
const ELECTRON_VERSION: string = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages['node_modules/electron'].version;
let resources: string;
let ctx: Context;

beforeAll(() => {
  const outDir = join(work, 'out');
  verify.buildInto(process.cwd(), outDir);
  ctx = verify.loadContext(process.cwd(), outDir);
  resources = packagedScript.packWithStandIn(process.cwd(), outDir, join(work, 'pack'), ELECTRON_VERSION);
}, 300_000);

const asNode = (resourcesDir: string): Packaged => ({ resourcesDir, abi: NODE_ABI, runtime: 'this Node' });

/** A copy of the packaged resources folder to break. */
function copyOfPackage(): string {
  const dir = join(work, `copy-${n++}`, 'resources');
  cpSync(resources, dir, { recursive: true });
  return dir;
}

/** Re-packs a copy's asar from its extracted files after `change`, unpacking `unpack` (as electron-builder's asarUnpack does). */
async function repack(dir: string, change: (extracted: string) => void, unpack?: string): Promise<void> {
  const extracted = join(dir, '..', 'extracted');
  extractAll(join(dir, 'app.asar'), extracted);
  change(extracted);
  rmSync(join(dir, 'app.asar'));
  rmSync(join(dir, 'app.asar.unpacked'), { recursive: true, force: true });
  await createPackageWithOptions(extracted, join(dir, 'app.asar'), unpack ? { unpack } : {});
}

describe('electron-builder really packs the app (a stand-in Electron)', () => {
  it('passes every packaged check', () => {
    const results = packagedScript.packagedChecks(asNode(resources), ctx, join(work, 'checks'), verify.BUILD_CHECKS);
    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    expect(results).toHaveLength(4);
  });

  it('app.asar.unpacked holds exactly the two .node files: no sources, no build leftovers (it held 23 MB before)', () => {
    const unpacked = listPackage(join(resources, 'app.asar'), { isPack: false }).filter((p) => existsSync(join(resources, 'app.asar.unpacked', p)));
    expect(
      unpacked
        .map((p) => p.replace(/^\//, ''))
        .filter((p) => p.includes('.'))
        .sort(),
    ).toEqual(['node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/keytar/build/Release/keytar.node']);
  });

  it("the asar holds main, the preload, the renderer, and the core's entry beside main, where main forks it", () => {
    const files = listPackage(join(resources, 'app.asar'), { isPack: false }).map((p) => p.replace(/^\//, ''));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/index.js', 'out/main/core.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
    );
    expect(files.some((f) => f.startsWith('node_modules/better-sqlite3/deps/') || f.startsWith('node_modules/better-sqlite3/src/'))).toBe(false);
  });

  it("app-update.yml says where this app looks for updates: electron-builder.yml's provider", () => {
    const written = parse(readFileSync(join(resources, 'app-update.yml'), 'utf8'));
    expect(written).toMatchObject({ provider: 'github', owner: 'outreach-workbench', repo: 'outreach-workbench' });
  });
});

describe('each packaged check fails on a package broken its way', () => {
  it('a source file in app.asar.unpacked', () => {
    const dir = copyOfPackage();
    mkdirSync(join(dir, 'app.asar.unpacked/node_modules/better-sqlite3/deps'), { recursive: true });
    writeFileSync(join(dir, 'app.asar.unpacked/node_modules/better-sqlite3/deps/sqlite3.c'), '/* 9 MB of C */');
    expect(packagedScript.checkUnpacked(asNode(dir), ctx)).toEqual([
      "app.asar.unpacked holds node_modules/better-sqlite3/deps/sqlite3.c: only the native modules' .node files belong there (sources and build leftovers stay out of the package)",
    ]);
  });

  it('the .node files packed inside the archive', async () => {
    const dir = copyOfPackage();
    await repack(dir, () => {});
    const problems = packagedScript.checkUnpacked(asNode(dir), ctx);
    expect(problems).toContain('app.asar.unpacked has no .node file of better-sqlite3');
    expect(problems).toContain('node_modules/keytar/build/Release/keytar.node is inside app.asar: a .node file cannot load from the archive');
  });

  it("the core's entry missing from the asar, where main forks it", async () => {
    const dir = copyOfPackage();
    await repack(dir, (x) => rmSync(join(x, 'out/main/core.js')), '*.node');
    const problems = packagedScript.checkAsarHoldsTheBuild(asNode(dir), ctx, join(work, `x-${n++}`), verify.BUILD_CHECKS);
    expect(problems.join('\n')).toMatch(/in app\.asar, core: main forks it.*main forks "core\.js".*the build has no such file/);
  });

  it("native modules built for another runtime than the package's", () => {
    const problems = packagedScript.checkPackagedAbi({ resourcesDir: resources, abi: 150, runtime: 'Electron 45' });
    expect(problems).toEqual([`node_modules/better-sqlite3/build/Release/better_sqlite3.node is built for ABI ${NODE_ABI}, but Electron 45 needs ABI 150`]);
  });

  it("native modules built for another CPU than the package's (the x64 modules in the arm64 Mac app)", () => {
    const cpu = process.arch === 'arm64' ? 'x64' : 'arm64';
    expect(packagedScript.checkPackagedAbi({ ...asNode(resources), arch: process.arch })).toEqual([]);
    expect(packagedScript.checkPackagedAbi({ ...asNode(resources), arch: cpu })).toEqual([
      `node_modules/better-sqlite3/build/Release/better_sqlite3.node is built for ${process.arch}, but the ${cpu} app needs ${cpu}`,
      `node_modules/keytar/build/Release/keytar.node is built for ${process.arch}, but the ${cpu} app needs ${cpu}`,
    ]);
    const results = packagedScript.packagedChecks({ ...asNode(resources), arch: cpu }, ctx, join(work, `arch-${n++}`), verify.BUILD_CHECKS);
    expect(results.filter((r) => r.problems.length > 0).map((r) => r.name)).toEqual([
      `packaged: every .node file built for this Node (ABI ${NODE_ABI}) and ${cpu}`,
    ]);
  });

  it('an app-update.yml pointing at another GitHub repository or feed than electron-builder.yml publishes to', () => {
    const dir = copyOfPackage();
    const path = join(dir, 'app-update.yml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('owner: outreach-workbench', 'owner: someone-else'));
    expect(packagedScript.checkAppUpdateYml(asNode(dir), ctx)).toEqual([
      'app-update.yml names owner "someone-else", electron-builder.yml\'s publish "outreach-workbench": the app would look for updates elsewhere',
    ]);
    const generic = { ...ctx, builder: { ...(ctx.builder as object), publish: { provider: 'generic', url: 'https://updates.example.org/workbench/' } } };
    writeFileSync(path, 'provider: generic\nurl: https://updates.example.org/other/\nupdaterCacheDirName: outreach-workbench-updater\n');
    expect(packagedScript.checkAppUpdateYml(asNode(dir), generic)).toEqual([
      'app-update.yml names url "https://updates.example.org/other/", electron-builder.yml\'s publish "https://updates.example.org/workbench/": the app would look for updates elsewhere',
    ]);
    writeFileSync(path, 'provider: generic\nurl: https://updates.example.org/workbench/\nupdaterCacheDirName: outreach-workbench-updater\n');
    expect(packagedScript.checkAppUpdateYml(asNode(dir), generic)).toEqual([]);
  });

  it('no app-update.yml', () => {
    const dir = copyOfPackage();
    rmSync(join(dir, 'app-update.yml'));
    expect(packagedScript.checkAppUpdateYml(asNode(dir), ctx)).toEqual([
      'resources/app-update.yml is missing: the packaged app would not know where to look for updates',
    ]);
  });
});
