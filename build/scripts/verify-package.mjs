#!/usr/bin/env node
// `npm run verify:package`: builds with electron-vite into a temporary folder (never ./out) and checks the
// build and electron-builder.yml together for what a packaged app needs to open, and each platform's
// release settings (verify-release.mjs); then packs it for real with electron-builder and a stand-in
// Electron, and checks what the package holds (verify-packaged.mjs). No Electron binary needed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { lockedElectronAbi, nativeAbiProblems } from './native-abi.mjs';
import { NATIVE_MODULES } from './native.mjs';
import { RELEASE_CHECKS } from './verify-release.mjs';

/** electron-vite's default output folder: what `files` packages and `main` points into. */
export const OUT = 'out';
const MAIN_BUNDLE = 'main/index.js';
/** The core process's bundle (electron.vite.config's `core` input), which runs the app's demo simulator. */
const CORE_BUNDLE = 'main/core.js';
const RENDERER_HTML = 'renderer/index.html';

/** The fuses exactly as the README's Packaging section documents them. */
export const EXPECTED_FUSES = Object.freeze({
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableCookieEncryption: true,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
});

/**
 * What every check reads: the build output folder (holding main/, preload/, renderer/), the parsed
 * electron-builder.yml and package.json, the node_modules folder native modules are found in, and the
 * project folder (icons and entitlements are named relative to it).
 * @typedef {{ outDir: string, builder: Record<string, any>, pkg: Record<string, any>, nodeModules: string, root: string }} Context
 */

// ---- small helpers -------------------------------------------------------------------------------

/** @param {string} path */
function readText(path) {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
}

/** @param {string} folder @param {string} path */
function isInside(folder, path) {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Every file under a folder, as forward-slash paths relative to it. @param {string} folder @returns {string[]} */
function listFiles(folder, prefix = '') {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(folder, rel) : [rel];
  });
}

/** @param {string} glob @returns {string} */
function globSource(glob) {
  let source = '';
  for (let i = 0; i < glob.length; ) {
    if (glob.startsWith('**/', i)) {
      source += '(?:[^/]*/)*'; // zero or more whole folders
      i += 3;
    } else if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      source += '(?:/.*)?'; // the folder itself or anything under it
      i += 3;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 2;
    } else if (glob[i] === '*') {
      source += '[^/]*';
      i += 1;
    } else if (glob[i] === '?') {
      source += '[^/]';
      i += 1;
    } else if (glob[i] === '{' && glob.indexOf('}', i) > i) {
      const end = glob.indexOf('}', i);
      source += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map(globSource)
        .join('|')})`;
      i = end + 1;
    } else {
      source += glob[i].replace(/[.+^${}()|[\]\\]/g, '\\$&');
      i += 1;
    }
  }
  return source;
}

/**
 * Whether a forward-slash relative path matches a glob (`**`, `*`, `?`, `{a,b}`, as electron-builder's globs use).
 * @param {string} path @param {string} glob
 */
export function matchesGlob(path, glob) {
  return new RegExp(`^${globSource(glob.replace(/^\.\//, ''))}$`).test(path);
}

/**
 * Whether an ordered glob list (electron-builder's `files`, `asarUnpack`) takes a path: the last pattern
 * that matches decides, `!pattern` excludes. Entries that are not strings (`{ from, to }`) are skipped.
 * @param {string} path @param {unknown} patterns
 */
export function selectedBy(path, patterns) {
  let selected = false;
  for (const pattern of globList(patterns)) {
    if (pattern.startsWith('!')) {
      if (matchesGlob(path, pattern.slice(1))) selected = false;
    } else if (matchesGlob(path, pattern)) selected = true;
  }
  return selected;
}

/** electron-builder accepts a single glob or a list. @param {unknown} value @returns {string[]} */
function globList(value) {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
}

/** The text of main's bundle, undefined when the build has none. @param {string} outDir */
function readMain(outDir) {
  return readText(join(outDir, MAIN_BUNDLE));
}

/** The arguments of the call whose `(` is at openParen, as source text: `f(a, g(b, c))` gives ["a", "g(b, c)"]. */
function callArguments(code, openParen) {
  const args = [];
  let depth = 0;
  let quote = '';
  let start = openParen + 1;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (depth === 0 && (c === ',' || c === ')')) {
      const arg = code.slice(start, i).trim();
      if (arg) args.push(arg);
      if (c === ')') break;
      start = i + 1;
    }
  }
  return args;
}

const JS_FILE_LITERAL = /["'`]([^"'`\n]+\.[cm]?js)["'`]/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const escapeIdentifier = (name) => name.replace(/[$]/g, '\\$&');

/** The last match of a global regex in a text, or undefined. @param {RegExp} regex @param {string} text */
const lastMatch = (regex, text) => [...text.matchAll(regex)].at(-1);

/**
 * The .js files an expression in a bundle names, followed back a few steps: a string literal in it,
 * the value of the constant it is, or, when it is a function's parameter, that argument at the
 * function's call sites (main may pass the path through a helper such as forkCore(api, path)).
 * The nearest definition before the expression wins.
 * @param {string} code @param {string} expression @param {number} at where the expression occurs
 * @returns {string[]}
 */
function filesNamedBy(code, expression, at, steps = 3) {
  const literal = JS_FILE_LITERAL.exec(expression)?.[1];
  if (literal !== undefined) return [literal];
  if (steps === 0 || !IDENTIFIER.test(expression)) return [];
  const before = code.slice(0, at);
  const constantPattern = new RegExp(`\\b(?:const|let|var)\\s+${escapeIdentifier(expression)}\\s*=\\s*([^;\\n]+)`, 'g');
  const constant = lastMatch(constantPattern, before) ?? lastMatch(constantPattern, code);
  const fn = [...before.matchAll(/\bfunction\s+([\w$]+)\s*\(([^)]*)\)/g)]
    .map((m) => ({
      index: m.index,
      name: m[1],
      param: m[2]
        .split(',')
        .map((p) => p.trim().replace(/\s*=[\s\S]*$/, ''))
        .indexOf(expression),
    }))
    .filter((f) => f.param >= 0)
    .at(-1);
  if (constant !== undefined && (fn === undefined || constant.index > fn.index)) return filesNamedBy(code, constant[1], constant.index, steps - 1);
  if (fn === undefined) return [];
  const calls = [...code.matchAll(new RegExp(`(?<![\\w$.])(?<!\\bfunction\\s+)${escapeIdentifier(fn.name)}\\s*\\(`, 'g'))];
  return calls.flatMap((call) => {
    const open = call.index + call[0].length - 1;
    const arg = callArguments(code, open)[fn.param];
    return arg === undefined ? [] : filesNamedBy(code, arg, open, steps - 1);
  });
}

// ---- the checks: each returns its problems in plain words, none when it passes ------------------

/** The preload main loads exists, is CommonJS (.cjs, no import/export) and requires only electron. @param {Context} ctx */
export function checkPreload(ctx) {
  const main = readMain(ctx.outDir);
  if (main === undefined) return [`the build has no ${MAIN_BUNDLE}`];
  const named = [...new Set([...main.matchAll(/["'`]([^"'`\n]*preload\/[^"'`\n]+)["'`]/g)].map((m) => m[1]))];
  if (named.length === 0) return ['main never names a preload file (expected a path like "../preload/index.cjs")'];
  return named.flatMap((name) => {
    const path = resolve(ctx.outDir, dirname(MAIN_BUNDLE), name);
    const code = isInside(ctx.outDir, path) ? readText(path) : undefined;
    if (code === undefined) return [`main loads the preload "${name}", but the build has no such file (looked for ${relative(ctx.outDir, path)})`];
    const problems = [];
    if (!name.endsWith('.cjs'))
      problems.push(`the preload "${name}" is not a .cjs file: a sandboxed preload must be CommonJS, and in a "type": "module" package only .cjs is`);
    if (/^\s*(?:import|export)\b(?!\s*\()/m.test(code) || /\bimport\s*\(|\bimport\.meta\b/.test(code)) {
      problems.push(`the preload "${name}" uses ES module syntax (import/export); a sandboxed preload must be CommonJS`);
    }
    const required = [...new Set([...code.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]))];
    const others = required.filter((r) => r !== 'electron');
    if (others.length) problems.push(`the preload requires ${others.join(', ')}; a sandboxed preload can load only electron`);
    if (!required.includes('electron')) problems.push(`the preload never requires electron, so it cannot expose the bridge`);
    return problems;
  });
}

/** Main serves the renderer from a privileged app:// scheme and never from file://. @param {Context} ctx */
export function checkAppProtocol(ctx) {
  const main = readMain(ctx.outDir);
  if (main === undefined) return [`the build has no ${MAIN_BUNDLE}`];
  const problems = [];
  if (/\bloadFile\(/.test(main)) {
    problems.push(
      'main calls loadFile(): with the grantFileProtocolExtraPrivileges fuse off, file:// pages cannot run module scripts and the window stays blank',
    );
  }
  if (main.includes('file://')) problems.push('main names a file:// URL; the renderer must come from app://');
  if (!main.includes('app://')) problems.push('main never names an app:// URL');
  if (!/\bloadURL\(/.test(main)) problems.push('main never calls loadURL(), so nothing loads the renderer from app://');
  if (!/\bregisterSchemesAsPrivileged\(/.test(main)) problems.push('main never calls protocol.registerSchemesAsPrivileged() (before ready) for the app scheme');
  else if (!/\bstandard:\s*(?:true|!0)/.test(main) || !/\bsecure:\s*(?:true|!0)/.test(main)) {
    problems.push('the app scheme is not registered as both standard and secure');
  }
  if (!/\bprotocol\.handle\(/.test(main)) problems.push('main never calls protocol.handle(), so app:// requests have no handler');
  return problems;
}

/** Main forks the core with utilityProcess.fork, and the file it forks was built. @param {Context} ctx */
export function checkCoreFork(ctx) {
  const main = readMain(ctx.outDir);
  if (main === undefined) return [`the build has no ${MAIN_BUNDLE}`];
  const calls = [...main.matchAll(/\butilityProcess\.fork\(/g)];
  if (calls.length === 0) return ['main never calls utilityProcess.fork(): the core does not run in its own process'];
  const modulePaths = calls.map((call) => {
    const open = call.index + call[0].length - 1;
    return { open, expression: callArguments(main, open)[0] ?? '' };
  });
  const files = [...new Set(modulePaths.flatMap(({ open, expression }) => filesNamedBy(main, expression, open)))];
  if (files.length === 0) {
    const shown = modulePaths.map(({ expression }) => `utilityProcess.fork(${expression}, …)`).join(', ');
    return [`cannot tell which file main forks from ${shown}: name the .js file where the path is built`];
  }
  return files
    .map((file) => ({ file, path: resolve(ctx.outDir, dirname(MAIN_BUNDLE), file) }))
    .filter(({ path }) => !isInside(ctx.outDir, path) || !existsSync(path))
    .map(({ file, path }) => `main forks "${file}" (${relative(ctx.outDir, path)}), but the build has no such file: make it an electron-vite main input`);
}

/** Every script and stylesheet index.html references was built, and it has no inline script. @param {Context} ctx */
export function checkRendererHtml(ctx) {
  const rendererDir = join(ctx.outDir, dirname(RENDERER_HTML));
  const html = readText(join(ctx.outDir, RENDERER_HTML));
  if (html === undefined) return [`the build has no ${RENDERER_HTML}`];
  const attribute = (attrs, name) => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
    return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  };
  const problems = [];
  const references = [];
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
  if (scripts.length === 0) problems.push('index.html loads no script, so the window would stay blank');
  for (const [, attrs, body] of scripts) {
    const src = attribute(attrs, 'src');
    if (src === undefined || body.trim() !== '')
      problems.push(`index.html has an inline script (${(body.trim() || attrs.trim()).slice(0, 60)}); the CSP allows only the app's own files`);
    if (src !== undefined) references.push(src);
  }
  for (const [, attrs] of html.matchAll(/<link\b([^>]*)>/gi)) {
    const href = attribute(attrs, 'href');
    if (href !== undefined && !href.startsWith('data:')) references.push(href);
  }
  for (const ref of references) {
    // Resolved as the page resolves it: index.html is served as app://renderer/index.html.
    const url = new URL(ref, 'app://renderer/index.html');
    if (url.protocol !== 'app:' || url.host !== 'renderer') {
      problems.push(`index.html loads "${ref}" from outside the app; everything must be served from the build`);
      continue;
    }
    let path;
    try {
      path = join(rendererDir, decodeURIComponent(url.pathname));
    } catch {
      path = undefined;
    }
    if (path === undefined || !isInside(rendererDir, path) || !existsSync(path))
      problems.push(`index.html references "${ref}", which the build does not contain`);
  }
  return problems;
}

/** electron-builder.yml sets exactly the documented fuses, and asar is on. @param {Context} ctx */
export function checkFuses(ctx) {
  const problems = [];
  // `asar: true`, or its options (which turn it on too).
  const asarOn = ctx.builder.asar === true || (typeof ctx.builder.asar === 'object' && ctx.builder.asar !== null);
  if (!asarOn) problems.push(`asar is ${JSON.stringify(ctx.builder.asar)}; it must be on (the asar fuses protect nothing otherwise)`);
  const fuses = ctx.builder.electronFuses;
  if (fuses === null || typeof fuses !== 'object') return [...problems, 'electron-builder.yml has no electronFuses section'];
  for (const [fuse, want] of Object.entries(EXPECTED_FUSES)) {
    if (!(fuse in fuses)) problems.push(`fuse ${fuse} is not set; it must be ${want}`);
    else if (fuses[fuse] !== want) problems.push(`fuse ${fuse} is ${JSON.stringify(fuses[fuse])}; it must be ${want}`);
  }
  for (const fuse of Object.keys(fuses)) {
    if (!(fuse in EXPECTED_FUSES)) problems.push(`fuse ${fuse} is set but not documented in the README's Packaging section`);
  }
  return problems;
}

/**
 * The .node files a native module builds, as paths in the package: those already built in its
 * build/Release, and one per target its binding.gyp names (node-gyp writes `<target_name>.node`, so
 * better-sqlite3's is better_sqlite3.node, not better-sqlite3.node).
 * @param {string} nodeModules @param {string} name @returns {string[]}
 */
export function nativeFiles(nodeModules, name) {
  const release = join(nodeModules, name, 'build', 'Release');
  const built = existsSync(release) && statSync(release).isDirectory() ? readdirSync(release).filter((f) => f.endsWith('.node')) : [];
  const gyp = readText(join(nodeModules, name, 'binding.gyp')) ?? '';
  const targets = [...gyp.matchAll(/["']target_name["']\s*:\s*["']([^"'\n]+)["']/g)].map((m) => `${m[1]}.node`);
  return [...new Set([...built, ...targets])].sort().map((file) => `node_modules/${name}/build/Release/${file}`);
}

/** Each native module among the dependencies (one with a binding.gyp) has its .node files unpacked from the asar. @param {Context} ctx */
export function checkNativeUnpacked(ctx) {
  const natives = Object.keys(ctx.pkg.dependencies ?? {}).filter((name) => existsSync(join(ctx.nodeModules, name, 'binding.gyp')));
  return natives.flatMap((name) => {
    const files = nativeFiles(ctx.nodeModules, name);
    if (files.length === 0)
      return [`cannot tell which .node file native module ${name} builds: its binding.gyp names no target_name and its build/Release holds none`];
    return files
      .filter((file) => !selectedBy(file, ctx.builder.asarUnpack))
      .map((file) => `native module ${name}: ${file} is not covered by asarUnpack; a .node file cannot load from inside the asar`);
  });
}

/** `files` packages the whole build and package.json, and package.json's main is a built file. @param {Context} ctx */
export function checkFilesAndMain(ctx) {
  const problems = [];
  const files = ctx.builder.files;
  const built = existsSync(ctx.outDir) ? listFiles(ctx.outDir).filter((f) => !f.endsWith('.map')) : [];
  if (built.length === 0) problems.push('the build produced no files');
  const left = built.filter((f) => !selectedBy(`${OUT}/${f}`, files));
  if (left.length) problems.push(`files leaves out part of the build: ${left.map((f) => `${OUT}/${f}`).join(', ')}`);
  if (!selectedBy('package.json', files)) problems.push('files leaves out package.json');
  const main = typeof ctx.pkg.main === 'string' ? ctx.pkg.main.replace(/^\.\//, '') : undefined;
  if (main === undefined) problems.push('package.json has no main');
  else if (!main.startsWith(`${OUT}/`) || !existsSync(join(ctx.outDir, main.slice(OUT.length + 1)))) {
    problems.push(`package.json's main "${ctx.pkg.main}" is not a file the build produced`);
  }
  return problems;
}

/** What only the full API simulator has (electron/simulator/admin.ts, faults.ts); its demo entry has neither. */
export const FULL_SIMULATOR_MARKERS = Object.freeze([
  { text: '/__sim/', what: "the simulator's admin routes" },
  { text: 'auth-store-down', what: "the simulator's fault injection" },
]);

/**
 * A bundle file and the build's files it imports (import/export from, import(), require()), followed through.
 * @param {string} outDir @param {string} entry @returns {Map<string, string>} path -> code
 */
function bundleWithImports(outDir, entry) {
  const files = new Map();
  const queue = [resolve(outDir, entry)];
  while (queue.length > 0) {
    const file = queue.pop();
    const code = files.has(file) ? undefined : readText(file);
    if (code === undefined) continue;
    files.set(file, code);
    for (const m of code.matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*["'`](\.{1,2}\/[^"'`\n]+)["'`]/g)) {
      const target = resolve(dirname(file), m[1]);
      if (isInside(outDir, target)) queue.push(target);
    }
  }
  return files;
}

/** The core bundle and its chunks carry the demo simulator only: no fault injection, no admin routes. @param {Context} ctx */
export function checkCoreDemoSimulator(ctx) {
  // A build without the core bundle is checkCoreFork's to report.
  return [...bundleWithImports(ctx.outDir, CORE_BUNDLE)].flatMap(([file, code]) =>
    FULL_SIMULATOR_MARKERS.filter(({ text }) => code.includes(text)).map(
      ({ text, what }) =>
        `${relative(ctx.outDir, file).split(sep).join('/')} carries ${what} ("${text}"): the app's demo mode must use electron/simulator/demo.ts, not server.ts`,
    ),
  );
}

/** Code without its comments (roughly: enough that a comment naming net.fetch does not count as a call). @param {string} code */
function withoutComments(code) {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * The core bundle (with the chunks it imports) takes `net` from electron and calls net.fetch: the API
 * client's requests go through Chromium's network stack (system proxy, OS certificates), not Node's fetch.
 * @param {Context} ctx
 */
export function checkCoreNetFetch(ctx) {
  const files = bundleWithImports(ctx.outDir, CORE_BUNDLE);
  if (files.size === 0) return []; // a build without the core bundle is checkCoreFork's to report
  const code = [...files.values()].map(withoutComments).join('\n');
  const problems = [];
  const importsNet =
    /\bimport\s*\{[^}]*\bnet\b[^}]*\}\s*from\s*["']electron["']/.test(code) ||
    /\brequire\(\s*["']electron["']\s*\)/.test(code) ||
    /\bimport\s*\*\s*as\s+[\w$]+\s+from\s*["']electron["']/.test(code);
  if (!importsNet) problems.push("the core bundle never imports net from electron, so its requests cannot go through Electron's net.fetch");
  if (!/(?:^|[^\w$])net\.fetch\(/.test(code))
    problems.push("the core bundle never calls net.fetch(): the API client would use Node's fetch (no system proxy, no OS certificates)");
  return problems;
}

/** Packages that take long to load and that the core needs only for one kind of work: loaded with import() when that work starts. */
const LOADED_ON_DEMAND = ['exceljs'];

/** The core's start-up (every launch, every restart) loads no package it needs only later. @param {Context} ctx */
export function checkCoreLoadsOnDemand(ctx) {
  const files = bundleWithImports(ctx.outDir, CORE_BUNDLE);
  return [...files].flatMap(([file, code]) => {
    const text = withoutComments(code);
    return LOADED_ON_DEMAND.filter((pkg) => new RegExp(String.raw`(?:\bfrom\s*|\bimport\s+|\brequire\(\s*)["']${pkg}["']`).test(text)).map(
      (pkg) => `${relative(ctx.outDir, file).split(sep).join('/')} loads ${pkg} when the core starts; load it with import() when an export needs it`,
    );
  });
}

/** The parts the core loads on first use (electron/core/app/lazy.ts), by a module each one's chunk holds (the build names each module it bundles in a comment). */
export const CORE_ON_FIRST_USE = Object.freeze([
  'electron/core/export/csv-export.ts',
  'electron/core/export/confirm-sent.ts',
  'electron/core/results/report.ts',
  'electron/core/results/report-files.ts',
  'electron/core/export/results-tables.ts',
  'electron/core/app/record.ts',
  'electron/core/store/recover.ts',
  'electron/core/app/demo.ts',
  'electron/simulator/demo.ts',
  'electron/core/sync.ts',
  'electron/core/api/client.ts',
]);

/**
 * The core's entry and every chunk it imports, at start-up or with import() on first use, followed
 * through: each relative import names a file the build holds (a chunk left out of the package would fail
 * its first call, or the core's start); and each part loaded on first use is in a chunk of its own,
 * not in a file the core loads at start-up (every launch would wait for it). Runs again on what the
 * asar holds. @param {Context} ctx
 */
export function checkCoreChunks(ctx) {
  const entry = resolve(ctx.outDir, CORE_BUNDLE);
  if (readText(entry) === undefined) return []; // checkCoreFork's to report
  const name = (/** @type {string} */ file) => relative(ctx.outDir, file).split(sep).join('/');
  /** @type {Map<string, 'start' | 'first use'>} */
  const when = new Map();
  /** @type {[string, 'start' | 'first use'][]} */
  const queue = [[entry, 'start']];
  const problems = [];
  while (queue.length > 0) {
    const [file, at] = /** @type {[string, 'start' | 'first use']} */ (queue.shift());
    if (when.get(file) === 'start' || when.get(file) === at) continue;
    when.set(file, at);
    const code = withoutComments(readText(file) ?? '');
    const edges = [
      ...[...code.matchAll(/(?:\bfrom\s*|^import\s*)["'](\.{1,2}\/[^"'\n]+)["']/gm)].map((m) => /** @type {const} */ ([m[1], at])),
      ...[...code.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`\n]+)["'`]\s*\)/g)].map((m) => /** @type {const} */ ([m[1], 'first use'])),
    ];
    for (const [spec, next] of edges) {
      const target = resolve(dirname(file), spec);
      if (readText(target) === undefined)
        problems.push(`${name(file)} imports ${spec} (${next === 'start' ? 'at start-up' : 'on first use'}), which the build does not hold`);
      else if (isInside(ctx.outDir, target)) queue.push([target, next]);
    }
  }
  for (const module of CORE_ON_FIRST_USE) {
    const holders = [...when].filter(([file]) => (readText(file) ?? '').split('\n').includes(`// ${module}`));
    if (holders.length === 0 && problems.length === 0) problems.push(`no file the core imports holds ${module}, which it loads on first use`);
    for (const [file, at] of holders)
      if (at === 'start') problems.push(`${name(file)} holds ${module} and the core loads it at start-up: load it on first use (electron/core/app/lazy.ts)`);
  }
  return problems;
}

/**
 * The core process logs where main's does: main hands it the user-data
 * folder's logs/ in WORKBENCH_LOG_DIR, and the core reads that (without it,
 * the core's log would go to the temporary folder). @param {Context} ctx
 */
export function checkCoreLog(ctx) {
  const main = [...bundleWithImports(ctx.outDir, MAIN_BUNDLE).values()].map(withoutComments).join('\n');
  const core = [...bundleWithImports(ctx.outDir, CORE_BUNDLE).values()].map(withoutComments).join('\n');
  const problems = [];
  if (main && !/WORKBENCH_LOG_DIR\s*:\s*[\w$.]*\(\s*[\w$.]*getPath\(\s*["']userData["']\s*\)\s*,\s*["']logs["']\s*\)/.test(main)) {
    problems.push("main does not hand the core process WORKBENCH_LOG_DIR as the user-data folder's logs/: the core's log would go elsewhere");
  }
  if (core && !/process\.env\.WORKBENCH_LOG_DIR\b/.test(core))
    problems.push('the core bundle never reads WORKBENCH_LOG_DIR: its log would not be in the user-data folder');
  return problems;
}

/** The checks that read only the build (so they run again on what a packaged app's asar holds). */
export const BUILD_CHECKS = Object.freeze([
  { name: 'preload: one CommonJS file at the path main loads, requiring only electron', run: checkPreload },
  { name: 'renderer: served from a privileged app:// scheme, never loadFile() or file://', run: checkAppProtocol },
  { name: 'core: main forks it with utilityProcess.fork, and the forked file was built', run: checkCoreFork },
  { name: "core: the demo simulator only, without the simulator's fault injection and /__sim/ admin routes", run: checkCoreDemoSimulator },
  { name: "core: the API client's requests go through Electron's net.fetch", run: checkCoreNetFetch },
  { name: 'core: ExcelJS is loaded when a workbook is written, not at start-up', run: checkCoreLoadsOnDemand },
  {
    name: 'core: every chunk its entry imports is in the build; the export, the Results, the record files, recovery, demo mode, the sync and the API client load on first use',
    run: checkCoreChunks,
  },
  { name: "core: its log goes to the user-data folder's logs/, where main's does", run: checkCoreLog },
  { name: 'index.html: every script and stylesheet it references was built; no inline scripts', run: checkRendererHtml },
]);

/**
 * Main names the same app id as electron-builder.yml: Windows files the app's notifications and its
 * taskbar group under the AppUserModelID main sets (app.setAppUserModelId), which must be the
 * installer's appId or the notifications do not show. @param {Context} ctx
 */
export function checkAppId(ctx) {
  const main = readMain(ctx.outDir);
  const appId = ctx.builder.appId;
  if (typeof appId !== 'string' || !/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(appId)) return [`appId ${JSON.stringify(appId)} is not a reverse-domain name`];
  if (main === undefined) return [`the build has no ${MAIN_BUNDLE}`];
  return main.includes(`"${appId}"`) || main.includes(`'${appId}'`)
    ? []
    : [`main never names the appId "${appId}" (app.setAppUserModelId): Windows would not show its notifications`];
}

/** Each check with the words printed beside ✓ or ✗. */
export const CHECKS = Object.freeze([
  ...BUILD_CHECKS,
  { name: 'electron-builder.yml: asar on, the fuses exactly as the README documents', run: checkFuses },
  { name: 'electron-builder.yml: native modules unpacked from the asar', run: checkNativeUnpacked },
  { name: "electron-builder.yml: files package the build and package.json; package.json's main was built", run: checkFilesAndMain },
  { name: "appId: electron-builder.yml's, and main sets the same on Windows", run: checkAppId },
  ...RELEASE_CHECKS,
]);

/** @param {Context} ctx @returns {{ name: string, problems: string[] }[]} */
export function runChecks(ctx) {
  return CHECKS.map(({ name, run }) => ({ name, problems: run(ctx) }));
}

/** Builds main, preload and renderer with electron-vite into outDir (not ./out). @param {string} root @param {string} outDir */
export function buildInto(root, outDir) {
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  try {
    execFileSync(process.execPath, [cli, 'build', '--outDir', outDir, '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'pipe',
      timeout: 180_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
  } catch (error) {
    const output = stripVTControlCharacters([error.stdout, error.stderr].filter(Boolean).join('\n')).trim();
    throw new Error(`electron-vite build failed${output ? `:\n${output}` : ''}`);
  }
}

/** The context for a project folder and a build output folder. @param {string} root @param {string} outDir @returns {Context} */
export function loadContext(root, outDir) {
  return {
    outDir,
    builder: parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) ?? {},
    pkg: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
    nodeModules: join(root, 'node_modules'),
    root,
  };
}

/**
 * Why node_modules cannot be packed as built for this Node (the stand-in package is checked against
 * this Node's ABI): after `npm run dev`, `start` or `dist` it holds Electron's builds. None when it can.
 * @param {string} root
 */
export function nodeBuildProblems(root) {
  const problems = nativeAbiProblems(join(root, 'node_modules'), NATIVE_MODULES, {
    abi: Number(process.versions.modules),
    runtime: `this Node (${process.version})`,
    arch: process.arch,
  });
  return problems.length
    ? [
        ...problems,
        'node_modules holds native modules built for another runtime (npm run dev, start, demo or dist build them for Electron): ' +
          'run npm run native:node first (npm test does), then verify:package again.',
      ]
    : [];
}

/** Prints each check's result; returns how many failed. @param {{ name: string, problems: string[] }[]} results */
export function report(results) {
  for (const { name, problems } of results) {
    console.log(`${problems.length ? '✗' : '✓'} ${name}`);
    for (const problem of problems) console.log(`    ${problem}`);
  }
  return results.filter((r) => r.problems.length > 0).length;
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const work = mkdtempSync(join(tmpdir(), 'workbench-package-'));
  let failed = 0;
  try {
    const outDir = join(work, OUT);
    buildInto(root, outDir);
    const ctx = loadContext(root, outDir);
    failed += report(runChecks(ctx));
    // The real packaging, with a stand-in Electron: the modules are packed as node_modules holds them,
    // built for this Node (npm test runs native.mjs node first); dist.mjs holds a real package to Electron's ABI.
    const notForNode = nodeBuildProblems(root);
    if (notForNode.length) throw new Error(notForNode.join('\n'));
    const { packWithStandIn, packagedChecks } = await import('./verify-packaged.mjs');
    console.log('Packing with electron-builder and a stand-in Electron…');
    const resourcesDir = packWithStandIn(root, outDir, work, lockedElectronAbi(root).version);
    const packaged = {
      resourcesDir,
      abi: Number(process.versions.modules),
      runtime: `this Node (${process.version}), as built for the tests`,
      arch: process.arch,
    };
    failed += report(packagedChecks(packaged, ctx, work, BUILD_CHECKS));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    failed = Math.max(failed, 1);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (failed) console.error(`\n${failed} packaging check(s) failed.`);
  process.exit(failed ? 1 : 0);
}
