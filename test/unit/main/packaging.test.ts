// What packaging and the build promise (build/scripts/verify-package.mjs on a build in a temporary folder,
// electron-builder.yml parsed as YAML), and proof that each check fails on a deliberately broken copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseDocument } from 'yaml';

interface Context {
  outDir: string;
  builder: Record<string, any>;
  pkg: Record<string, any>;
  nodeModules: string;
  root: string;
}
type Check = (ctx: Context) => string[];
interface VerifyPackage {
  EXPECTED_FUSES: Record<string, boolean>;
  CHECKS: readonly { name: string; run: Check }[];
  checkPreload: Check;
  checkAppProtocol: Check;
  checkCoreFork: Check;
  checkCoreDemoSimulator: Check;
  checkCoreNetFetch: Check;
  checkCoreLoadsOnDemand: Check;
  checkCoreChunks: Check;
  CORE_ON_FIRST_USE: readonly string[];
  checkCoreLog: Check;
  nativeFiles(nodeModules: string, name: string): string[];
  checkRendererHtml: Check;
  checkFuses: Check;
  checkNativeUnpacked: Check;
  checkFilesAndMain: Check;
  checkDebDepends: Check;
  checkArtifactNames: Check;
  checkAuthor: Check;
  checkIcons: Check;
  checkMac: Check;
  checkPublish: Check;
  checkLinuxAndRebuild: Check;
  checkAppId: Check;
  matchesGlob(path: string, glob: string): boolean;
  selectedBy(path: string, patterns: unknown): boolean;
  buildInto(root: string, outDir: string): void;
  loadContext(root: string, outDir: string): Context;
}

type ReleaseChecks = Pick<
  VerifyPackage,
  'checkDebDepends' | 'checkArtifactNames' | 'checkAuthor' | 'checkIcons' | 'checkMac' | 'checkPublish' | 'checkLinuxAndRebuild'
>;

// An .mjs module has no type declarations: import it by URL and state the shape used here.
const verify = {
  ...((await import(pathToFileURL(resolve('build/scripts/verify-package.mjs')).href)) as Omit<VerifyPackage, keyof ReleaseChecks>),
  ...((await import(pathToFileURL(resolve('build/scripts/verify-release.mjs')).href)) as ReleaseChecks),
} as VerifyPackage;
const builderYaml = readFileSync('electron-builder.yml', 'utf8');
const builder = parse(builderYaml) as Record<string, any>;

const temporaryFolders: string[] = [];
const temporaryFolder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-packaging-'));
  temporaryFolders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporaryFolders) rmSync(dir, { recursive: true, force: true });
});

describe('the build (electron-vite into a temporary folder, never ./out)', () => {
  let ctx: Context;
  beforeAll(() => {
    const outDir = join(temporaryFolder(), 'out');
    verify.buildInto(process.cwd(), outDir);
    ctx = verify.loadContext(process.cwd(), outDir);
  }, 180_000);

  it.each(verify.CHECKS.map((c) => [c.name, c.run] as const))('%s', (_name, run) => {
    expect(run(ctx)).toEqual([]);
  });

  it('the preload exposes window.workbench and nothing raw (no process.env, no ipcRenderer object)', () => {
    const preload = readFileSync(join(ctx.outDir, 'preload/index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld("workbench"');
    // Calls on ipcRenderer are fine (invoke, on, removeListener; postMessage hands the core's port over).
    expect(preload).not.toMatch(/process\.env|ipcRenderer\b(?!\.(invoke|on|removeListener|postMessage)\()/);
  });
});

describe('electron-builder.yml', () => {
  it('sets exactly the fuses the README documents, and the script checks the same ones', () => {
    const documented = {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    };
    expect(builder.electronFuses).toEqual(documented);
    expect(verify.EXPECTED_FUSES).toEqual(documented);
  });

  it('packs an asar with better-sqlite3 and keytar unpacked from it: their .node files, not their sources', () => {
    expect(builder.asar).toEqual({ smartUnpack: false }); // on, and unpacking only what asarUnpack names
    expect(builder.asarUnpack).toEqual(['**/*.node']);
    for (const file of ['node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/keytar/build/Release/keytar.node']) {
      expect(verify.selectedBy(file, builder.asarUnpack)).toBe(true);
    }
    for (const file of [
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/better-sqlite3/src/better_sqlite3.cpp',
      'node_modules/keytar/src/main.cc',
    ]) {
      expect(verify.selectedBy(file, builder.asarUnpack), file).toBe(false);
      expect(verify.selectedBy(file, builder.files), file).toBe(false);
    }
  });

  it('the native probe names the .node files node-gyp really builds (better_sqlite3.node), each unpacked', () => {
    expect(verify.nativeFiles('node_modules', 'better-sqlite3')).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(verify.nativeFiles('node_modules', 'better-sqlite3')).not.toContain('node_modules/better-sqlite3/build/Release/better-sqlite3.node');
    expect(verify.nativeFiles('node_modules', 'keytar')).toEqual(['node_modules/keytar/build/Release/keytar.node']);
    for (const file of [...verify.nativeFiles('node_modules', 'better-sqlite3'), ...verify.nativeFiles('node_modules', 'keytar')])
      expect(verify.selectedBy(file, builder.asarUnpack), file).toBe(true);
  });

  it('packages the build and package.json, without source maps', () => {
    expect(builder.files).toEqual(expect.arrayContaining(['out/**', 'package.json', '!**/*.map']));
    expect(verify.selectedBy('out/main/index.js', builder.files)).toBe(true);
    expect(verify.selectedBy('out/renderer/assets/index-abc.js.map', builder.files)).toBe(false);
  });

  it('targets deb (first) and AppImage, a hardened dmg and zip for both Mac architectures with the project entitlements, and nsis', () => {
    expect(builder.linux.target).toEqual(['deb', 'AppImage']);
    expect(builder.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(builder.mac).toMatchObject({
      target: [
        { target: 'dmg', arch: ['x64', 'arm64'] },
        { target: 'zip', arch: ['x64', 'arm64'] },
      ],
      hardenedRuntime: true,
      notarize: true,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
    });
  });

  it('the entitlements grant JIT and no library-validation or dyld escape hatches', () => {
    const plist = readFileSync(builder.mac.entitlements, 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\s*\/>/g)].map((m) => m[1]);
    expect(granted).toContain('com.apple.security.cs.allow-jit');
    expect(plist).not.toContain('<key>com.apple.security.cs.disable-library-validation</key>');
    expect(plist).not.toContain('<key>com.apple.security.cs.allow-dyld-environment-variables</key>');
  });
});

describe('the glob matcher the checks use', () => {
  it.each([
    ['node_modules/keytar/build/Release/keytar.node', '**/node_modules/keytar/**', true],
    ['app/node_modules/keytar/package.json', '**/node_modules/keytar/**', true],
    ['node_modules/keytar-other/index.js', '**/node_modules/keytar/**', false],
    ['out/main/index.js', 'out/**', true],
    ['outside/main/index.js', 'out/**', false],
    ['out/renderer/assets/a.js.map', '**/*.map', true],
    ['out/main/core.js', 'out/main/*.js', true],
    ['out/main/chunks/a.js', 'out/main/*.js', false],
    ['node_modules/keytar/x.node', '**/node_modules/{better-sqlite3,keytar}/**', true],
  ])('%s against %s: %s', (path, glob, expected) => {
    expect(verify.matchesGlob(path, glob)).toBe(expected);
  });

  it('in an ordered list, the last pattern that matches decides and ! excludes', () => {
    expect(verify.selectedBy('out/a.js.map', ['out/**', '!**/*.map'])).toBe(false);
    expect(verify.selectedBy('out/a.js.map', ['!**/*.map', 'out/**'])).toBe(true);
    expect(verify.selectedBy('package.json', 'package.json')).toBe(true);
    expect(verify.selectedBy('package.json', undefined)).toBe(false);
  });
});

// A small project shaped like this one's build (main hands the core's path to a helper that forks it, as
// electron/main does): every check passes on it, and each breakage below fails exactly the check meant to catch it.
const GOOD_MAIN = `import { app, BrowserWindow, protocol, utilityProcess } from "electron";
import { join } from "node:path";
const APP_ID = "ai.trakkr.outreach-workbench";
if (process.platform === "win32") app.setAppUserModelId(APP_ID);
const here = import.meta.dirname;
const APP_SCHEME = "app";
const APP_ENTRY_URL = "app://renderer/index.html";
const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true };
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
function forkCore(api, modulePath, env) {
	return api.utilityProcess.fork(modulePath, [], { serviceName: "core", env });
}
app.whenReady().then(() => {
	protocol.handle(APP_SCHEME, (request) => new Response(request.url));
	const w = new BrowserWindow({ webPreferences: { preload: join(here, "../preload/index.cjs"), sandbox: true } });
	w.loadURL(APP_ENTRY_URL);
	const coreEnv = { ...process.env, WORKBENCH_LOG_DIR: join(app.getPath("userData"), "logs") };
	forkCore({ utilityProcess }, join(here, "core.js"), coreEnv);
});
`;
// The core imports the demo simulator from a chunk, as electron-vite splits it.
const GOOD_CORE = `import { net } from "electron";
import { t as startDemoSimulator } from "./chunks/demo-abc.js";
function electronFetch(electron) {
	return (input, init) => electron.net.fetch(input instanceof URL ? input.href : input, init);
}
process.parentPort.on("message", () => startDemoSimulator({ seed: 1, fetch: electronFetch({ net }) }));
const workbook = async () => (await import("exceljs")).default;
const exporting = () => import("./chunks/csv-export-abc.js");
const logDir = process.env.WORKBENCH_LOG_DIR ?? "/tmp/outreach-workbench-logs";
`;
const GOOD_DEMO_CHUNK = `const routes = { "/get-brands": ["GET"], "/get-outreach": ["GET"], "/get-citations": ["GET"], "/get-scores": ["GET", "POST"] };
function t(options) {
	return { routes, options };
}
export { t };
`;
// What the core loads on first use, in a chunk of its own (the build names each module it holds in a comment).
const goodLaterChunk = (modules: readonly string[]) => `${modules.map((m) => `// ${m}\n`).join('')}export const part = 1;\n`;
const GOOD_PRELOAD = `let electron = require("electron");
electron.contextBridge.exposeInMainWorld("workbench", { ping: () => electron.ipcRenderer.invoke("workbench:ping") });
`;
const GOOD_HTML = `<!doctype html>
<html lang="en">
  <head>
    <link rel="icon" href="data:," />
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-abc.css">
  </head>
  <body><div id="app"></div></body>
</html>
`;

/** A PNG whose header says size x size (all the icon check reads). */
function tinyPng(size: number): Buffer {
  const head = Buffer.alloc(24);
  head.writeUInt32BE(0x89504e47, 0);
  head.writeUInt32BE(0x0d0a1a0a, 4);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(size, 16);
  head.writeUInt32BE(size, 20);
  return head;
}

/** Writes a file under dir, creating its folders. */
function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** Rewrites a fixture file; throws when the rewrite changed nothing, so a case cannot pass by missing its target. */
function edit(dir: string, rel: string, change: (text: string) => string): void {
  const before = readFileSync(join(dir, rel), 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${rel} changed nothing`);
  writeFileSync(join(dir, rel), after);
}

/** Rewrites the fixture's electron-builder.yml through the YAML document model. */
function editYaml(dir: string, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  edit(dir, 'electron-builder.yml', (text) => {
    const doc = parseDocument(text);
    change(doc);
    return doc.toString();
  });
}

function goodProject(): string {
  const dir = temporaryFolder();
  put(dir, 'out/main/index.js', GOOD_MAIN);
  put(dir, 'out/main/core.js', GOOD_CORE);
  put(dir, 'out/main/chunks/demo-abc.js', GOOD_DEMO_CHUNK);
  put(dir, 'out/main/chunks/csv-export-abc.js', goodLaterChunk(verify.CORE_ON_FIRST_USE));
  put(dir, 'out/preload/index.cjs', GOOD_PRELOAD);
  put(dir, 'out/renderer/index.html', GOOD_HTML);
  put(dir, 'out/renderer/assets/index-abc.js', 'document.title = "ok";\n');
  put(dir, 'out/renderer/assets/index-abc.css', 'body { margin: 0 }\n');
  put(dir, 'electron-builder.yml', builderYaml);
  put(
    dir,
    'package.json',
    JSON.stringify({
      name: 'outreach-workbench',
      version: '1.2.3',
      author: { name: 'Outreach Workbench', email: 'team@example.org' },
      main: './out/main/index.js',
      dependencies: { 'better-sqlite3': '^12', keytar: '^7', zod: '^4' },
    }),
  );
  // The icon and the entitlements, named relative to the project by electron-builder.yml.
  mkdirSync(join(dir, 'build'), { recursive: true });
  for (const f of ['build/icon.png', 'build/entitlements.mac.plist']) writeFileSync(join(dir, f), readFileSync(f));
  // Shaped like the real ones: node-gyp builds build/Release/<target_name>.node.
  put(
    dir,
    'node_modules/better-sqlite3/binding.gyp',
    "{\n  'targets': [\n    { 'target_name': 'better_sqlite3', 'sources': ['src/better_sqlite3.cpp'] },\n    { 'target_name': 'test_extension' }\n  ]\n}\n",
  );
  put(dir, 'node_modules/keytar/binding.gyp', '{ "targets": [ { "target_name": "keytar" } ] }');
  put(dir, 'node_modules/zod/package.json', '{}'); // not native: asarUnpack need not cover it
  return dir;
}

function failingChecks(dir: string): { check: Check; problems: string[] }[] {
  const ctx = verify.loadContext(dir, join(dir, 'out'));
  return verify.CHECKS.map(({ run }) => ({ check: run, problems: run(ctx) })).filter((r) => r.problems.length > 0);
}

describe('the package checks can fail', () => {
  it('a well-formed project passes every check (so the failures below are about their breakage)', () => {
    expect(failingChecks(goodProject())).toEqual([]);
  });

  const cases: [what: string, breakIt: (dir: string) => void, check: Check, problem: RegExp][] = [
    [
      'the main bundle uses loadFile',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('w.loadURL(APP_ENTRY_URL)', 'w.loadFile(join(here, "../renderer/index.html"))')),
      verify.checkAppProtocol,
      /loadFile\(\)/,
    ],
    [
      'the main bundle loads a file:// URL',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('w.loadURL(APP_ENTRY_URL)', 'w.loadURL("file://" + join(here, "../renderer/index.html"))')),
      verify.checkAppProtocol,
      /file:\/\//,
    ],
    [
      'the scheme is not registered as privileged',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace(/^protocol\.registerSchemesAsPrivileged.*$/m, '')),
      verify.checkAppProtocol,
      /registerSchemesAsPrivileged/,
    ],
    [
      'the scheme is registered but not secure',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('secure: true', 'secure: false')),
      verify.checkAppProtocol,
      /standard and secure/,
    ],
    [
      'app:// has no handler',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace(/^\tprotocol\.handle.*$/m, '')),
      verify.checkAppProtocol,
      /protocol\.handle/,
    ],
    [
      'the preload is an ES module',
      (d) => edit(d, 'out/preload/index.cjs', (t) => t.replace('let electron = require("electron");', 'import * as electron from "electron";')),
      verify.checkPreload,
      /ES module/,
    ],
    [
      'the preload requires a second module',
      (d) => edit(d, 'out/preload/index.cjs', (t) => `${t}const fs = require("node:fs");\n`),
      verify.checkPreload,
      /requires node:fs/,
    ],
    [
      'main loads a preload the build lacks',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('../preload/index.cjs', '../preload/index.mjs')),
      verify.checkPreload,
      /no such file/,
    ],
    [
      'the core is not forked at all',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace(/^function forkCore[\s\S]*?^}\n/m, '').replace(/^\tforkCore.*$/m, '')),
      verify.checkCoreFork,
      /utilityProcess\.fork/,
    ],
    ['main forks a core file the build lacks', (d) => rmSync(join(d, 'out/main/core.js')), verify.checkCoreFork, /forks "core\.js".*no such file/],
    [
      'a chunk the core imports carries the admin routes',
      (d) => edit(d, 'out/main/chunks/demo-abc.js', (t) => t.replace('"/get-brands": ["GET"]', '"/__sim/faults": ["POST"], "/get-brands": ["GET"]')),
      verify.checkCoreDemoSimulator,
      /chunks\/demo-abc\.js carries the simulator's admin routes \("\/__sim\/"\)/,
    ],
    [
      'the core bundle carries fault injection',
      (d) => edit(d, 'out/main/core.js', (t) => `const FAULT_KINDS = ["drop", "auth-store-down"];\n${t}`),
      verify.checkCoreDemoSimulator,
      /core\.js carries the simulator's fault injection/,
    ],
    [
      'a chunk the core loads with import() carries the admin routes',
      (d) => {
        edit(d, 'out/main/chunks/demo-abc.js', (t) => `${t}const admin = () => import("./admin-xyz.js");\n`);
        put(d, 'out/main/chunks/admin-xyz.js', 'export const route = "/__sim/mutate";\n');
      },
      verify.checkCoreDemoSimulator,
      /chunks\/admin-xyz\.js carries the simulator's admin routes/,
    ],
    ['index.html references a missing asset', (d) => rmSync(join(d, 'out/renderer/assets/index-abc.css')), verify.checkRendererHtml, /index-abc\.css/],
    [
      'index.html has an inline script',
      (d) => edit(d, 'out/renderer/index.html', (t) => t.replace('</body>', '<script>window.x = 1</script></body>')),
      verify.checkRendererHtml,
      /inline script/,
    ],
    [
      'index.html loads a script from the network',
      (d) => edit(d, 'out/renderer/index.html', (t) => t.replace('./assets/index-abc.js', 'https://cdn.example/x.js')),
      verify.checkRendererHtml,
      /outside the app/,
    ],
    [
      'a fuse is flipped',
      (d) => editYaml(d, (doc) => doc.setIn(['electronFuses', 'runAsNode'], true)),
      verify.checkFuses,
      /runAsNode is true; it must be false/,
    ],
    [
      'a documented fuse is missing',
      (d) => editYaml(d, (doc) => doc.deleteIn(['electronFuses', 'grantFileProtocolExtraPrivileges'])),
      verify.checkFuses,
      /grantFileProtocolExtraPrivileges is not set/,
    ],
    ['the asar is off', (d) => editYaml(d, (doc) => doc.set('asar', false)), verify.checkFuses, /asar is false/],
    [
      'asarUnpack misses keytar',
      (d) => editYaml(d, (doc) => doc.set('asarUnpack', ['**/node_modules/better-sqlite3/**'])),
      verify.checkNativeUnpacked,
      /native module keytar/,
    ],
    [
      // The old probe looked for better-sqlite3.node, which node-gyp never builds: this list passed it.
      'asarUnpack covers a better-sqlite3.node, but not the better_sqlite3.node node-gyp builds',
      (d) => editYaml(d, (doc) => doc.set('asarUnpack', ['**/better-sqlite3.node', '**/test_extension.node', '**/node_modules/keytar/**'])),
      verify.checkNativeUnpacked,
      /^native module better-sqlite3: node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node is not covered by asarUnpack/,
    ],
    [
      'a .node file already built but not named in binding.gyp is left in the asar',
      (d) => {
        put(d, 'node_modules/keytar/build/Release/keytar_prebuilt.node', '');
        editYaml(d, (doc) => doc.set('asarUnpack', ['**/node_modules/better-sqlite3/**', '**/keytar.node']));
      },
      verify.checkNativeUnpacked,
      /keytar_prebuilt\.node is not covered/,
    ],
    [
      'a native module whose .node file cannot be told',
      (d) => edit(d, 'node_modules/keytar/binding.gyp', () => '{ "targets": [] }'),
      verify.checkNativeUnpacked,
      /cannot tell which \.node file native module keytar builds/,
    ],
    [
      "the core uses Node's fetch, not net.fetch",
      (d) => edit(d, 'out/main/core.js', (t) => t.replace('electron.net.fetch(', 'fetch(')),
      verify.checkCoreNetFetch,
      /never calls net\.fetch\(\)/,
    ],
    [
      'net.fetch named only in a comment does not count',
      (d) =>
        edit(d, 'out/main/core.js', (t) =>
          t
            .replace('electron.net.fetch(', '/* not net.fetch( */ fetch(')
            .replace('function electronFetch', '// net.fetch(url) one day\nfunction electronFetch'),
        ),
      verify.checkCoreNetFetch,
      /never calls net\.fetch\(\)/,
    ],
    [
      'the core does not import net from electron',
      (d) => edit(d, 'out/main/core.js', (t) => t.replace('import { net } from "electron";\n', 'const net = globalThis;\n')),
      verify.checkCoreNetFetch,
      /never imports net from electron/,
    ],
    [
      'the core loads ExcelJS at start-up',
      (d) => edit(d, 'out/main/core.js', (t) => `import ExcelJS from "exceljs";\n${t}`),
      verify.checkCoreLoadsOnDemand,
      /core\.js loads exceljs when the core starts/,
    ],
    [
      'a chunk the core imports loads ExcelJS at start-up',
      (d) => edit(d, 'out/main/chunks/demo-abc.js', (t) => `const ExcelJS = require("exceljs");\n${t}`),
      verify.checkCoreLoadsOnDemand,
      /chunks\/demo-abc\.js loads exceljs/,
    ],
    [
      'a chunk the core loads on first use is not in the build',
      (d) => rmSync(join(d, 'out/main/chunks/csv-export-abc.js')),
      verify.checkCoreChunks,
      /main\/core\.js imports \.\/chunks\/csv-export-abc\.js \(on first use\), which the build does not hold/,
    ],
    [
      'a chunk the core loads at start-up is not in the build',
      (d) => rmSync(join(d, 'out/main/chunks/demo-abc.js')),
      verify.checkCoreChunks,
      /main\/core\.js imports \.\/chunks\/demo-abc\.js \(at start-up\), which the build does not hold/,
    ],
    [
      'the export is loaded at start-up',
      (d) =>
        edit(d, 'out/main/core.js', (t) => t.replace('const exporting = () => import("./chunks/csv-export-abc.js");', 'import "./chunks/csv-export-abc.js";')),
      verify.checkCoreChunks,
      /chunks\/csv-export-abc\.js holds electron\/core\/export\/csv-export\.ts and the core loads it at start-up/,
    ],
    [
      'demo mode is bundled into the core entry',
      (d) => edit(d, 'out/main/core.js', (t) => `// electron/simulator/demo.ts\n${t}`),
      verify.checkCoreChunks,
      /main\/core\.js holds electron\/simulator\/demo\.ts and the core loads it at start-up/,
    ],
    [
      'main does not hand the core its log folder',
      (d) =>
        edit(d, 'out/main/index.js', (t) => t.replace('{ ...process.env, WORKBENCH_LOG_DIR: join(app.getPath("userData"), "logs") }', '{ ...process.env }')),
      verify.checkCoreLog,
      /does not hand the core process WORKBENCH_LOG_DIR/,
    ],
    [
      'main hands the core a log folder outside the user data',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('app.getPath("userData")', 'app.getPath("temp")')),
      verify.checkCoreLog,
      /does not hand the core process WORKBENCH_LOG_DIR/,
    ],
    [
      'the core never reads its log folder',
      (d) => edit(d, 'out/main/core.js', (t) => t.replace('process.env.WORKBENCH_LOG_DIR ?? ', '')),
      verify.checkCoreLog,
      /never reads WORKBENCH_LOG_DIR/,
    ],
    ['files leaves out the build', (d) => editYaml(d, (doc) => doc.set('files', ['package.json'])), verify.checkFilesAndMain, /leaves out part of the build/],
    [
      // What shipped before: a depends list replaces electron-builder's own, so the .deb declared only libsecret.
      'deb.depends lists only libsecret-1-0',
      (d) => editYaml(d, (doc) => doc.set('deb', { depends: ['libsecret-1-0'] })),
      verify.checkDebDepends,
      /would not depend on libgtk-3-0, libnotify4, libnss3, .*xdg-utils.*keep its defaults/,
    ],
    [
      'an artifact name made from the product name (a space)',
      (d) => editYaml(d, (doc) => doc.set('artifactName', '${productName}-${version}.${ext}')),
      verify.checkArtifactNames,
      /makes a file name with a space/,
    ],
    ['no artifact name at all', (d) => editYaml(d, (doc) => doc.delete('artifactName')), verify.checkArtifactNames, /artifactName is not set/],
    [
      'an executable name with a space',
      (d) => editYaml(d, (doc) => doc.set('executableName', 'Outreach Workbench')),
      verify.checkArtifactNames,
      /executableName "Outreach Workbench"/,
    ],
    [
      'an author without an e-mail',
      (d) => edit(d, 'package.json', (t) => t.replace(',"email":"team@example.org"', '')),
      verify.checkAuthor,
      /author has no usable e-mail/,
    ],
    [
      'a maintainer without an e-mail',
      (d) => editYaml(d, (doc) => doc.setIn(['linux', 'maintainer'], 'Outreach Workbench')),
      verify.checkAuthor,
      /linux\.maintainer "Outreach Workbench" is not "Name <e-mail>"/,
    ],
    [
      'a 512 px icon',
      (d) => writeFileSync(join(d, 'build/icon.png'), tinyPng(512)),
      verify.checkIcons,
      /512x512; macOS needs a square icon of at least 1024 px/,
    ],
    [
      'a Mac build for Intel only',
      (d) =>
        editYaml(d, (doc) =>
          doc.setIn(
            ['mac', 'target'],
            [
              { target: 'dmg', arch: ['x64'] },
              { target: 'zip', arch: ['x64'] },
            ],
          ),
        ),
      verify.checkMac,
      /mac dmg is built for x64: build x64 and arm64/,
    ],
    [
      'no Mac zip (the updater installs from it)',
      (d) => editYaml(d, (doc) => doc.setIn(['mac', 'target'], [{ target: 'dmg', arch: ['universal'] }])),
      verify.checkMac,
      /mac\.target has no zip/,
    ],
    ['not notarized', (d) => editYaml(d, (doc) => doc.setIn(['mac', 'notarize'], false)), verify.checkMac, /mac\.notarize is not true/],
    [
      'entitlements that switch library validation off',
      (d) =>
        edit(d, 'build/entitlements.mac.plist', (t) => t.replace('</dict>', '<key>com.apple.security.cs.disable-library-validation</key>\n<true/>\n</dict>')),
      verify.checkMac,
      /grants com\.apple\.security\.cs\.disable-library-validation/,
    ],
    [
      'a native module left unsigned',
      (d) => editYaml(d, (doc) => doc.setIn(['mac', 'signIgnore'], ['keytar\\.node$'])),
      verify.checkMac,
      /leaves a native module unsigned/,
    ],
    ['no update provider', (d) => editYaml(d, (doc) => doc.delete('publish')), verify.checkPublish, /publish is not set/],
    [
      'a generic feed over http',
      (d) => editYaml(d, (doc) => doc.set('publish', { provider: 'generic', url: 'http://updates.example.org/' })),
      verify.checkPublish,
      /needs an https:\/\/ url/,
    ],
    [
      'the AppImage first on Linux',
      (d) => editYaml(d, (doc) => doc.setIn(['linux', 'target'], ['AppImage', 'deb'])),
      verify.checkLinuxAndRebuild,
      /starts with "AppImage"/,
    ],
    [
      'main sets another app id than the installer',
      (d) => edit(d, 'out/main/index.js', (t) => t.replace('"ai.trakkr.outreach-workbench"', '"com.example.other"')),
      verify.checkAppId,
      /main never names the appId "ai\.trakkr\.outreach-workbench"/,
    ],
    ["electron-builder's own rebuild on", (d) => editYaml(d, (doc) => doc.set('npmRebuild', true)), verify.checkLinuxAndRebuild, /npmRebuild is not false/],
    [
      // What shipped before: one rebuild for this Mac's CPU, copied into both the x64 and the arm64 app.
      'no rebuild for each CPU before it is packed (no beforePack hook)',
      (d) => editYaml(d, (doc) => doc.delete('beforePack')),
      verify.checkLinuxAndRebuild,
      /beforePack is null, not \.\/build\/scripts\/before-pack\.mjs: each CPU's app \(macOS x64 and arm64\) would get the native modules of whatever node_modules holds/,
    ],
    ['CPUs packed side by side', (d) => editYaml(d, (doc) => doc.set('concurrency', { jobs: 2 })), verify.checkLinuxAndRebuild, /concurrency\.jobs is 2/],
    [
      "package.json's main is not a built file",
      (d) => edit(d, 'package.json', (t) => t.replace('./out/main/index.js', './out/main/main.js')),
      verify.checkFilesAndMain,
      /main "\.\/out\/main\/main\.js"/,
    ],
  ];
  it.each(cases)('%s', (_what, breakIt, check, problem) => {
    const dir = goodProject();
    breakIt(dir);
    const failing = failingChecks(dir);
    expect(failing.map((f) => f.check)).toEqual([check]);
    expect(failing[0]?.problems.join('\n')).toMatch(problem);
  });

  it('only the core and what it imports are held to the demo simulator', () => {
    const dir = goodProject();
    put(dir, 'out/main/chunks/simulator-def.js', 'export const route = "/__sim/faults";\n'); // built, but not imported by the core
    expect(failingChecks(dir)).toEqual([]);
  });

  it.each([
    ['a string literal', 'utilityProcess.fork(join(here, "core.js"), [])'],
    ['a constant', 'utilityProcess.fork(CORE_ENTRY)'],
  ])('finds the forked file when main passes %s', (_how, call) => {
    const dir = goodProject();
    edit(dir, 'out/main/index.js', (t) => t.replace(/^\tforkCore.*$/m, `\tconst CORE_ENTRY = join(here, "core.js");\n\t${call};`));
    expect(failingChecks(dir)).toEqual([]);
    rmSync(join(dir, 'out/main/core.js'));
    expect(verify.checkCoreFork(verify.loadContext(dir, join(dir, 'out')))).toEqual([expect.stringContaining('"core.js"')]);
  });
});
