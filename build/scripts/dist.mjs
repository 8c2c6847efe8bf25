#!/usr/bin/env node
// `npm run dist`: package the app for this platform with electron-builder.
//   npm run dist                 installers and the update feed (latest*.yml), signed: a release
//   npm run dist -- --dir        the unpacked app only, for this computer's CPU (release/linux-unpacked,
//                                release/mac-arm64 or release/mac, release/win-unpacked), to try by hand
// Steps: Electron's binary must be there; the build; electron-builder, one run for every CPU the
// platform's targets name (macOS: x64 and arm64, so one latest-mac.yml lists both). Before it copies
// node_modules into each CPU's app, its beforePack hook (before-pack.mjs) rebuilds the native modules
// for the locked Electron and that CPU (clean and forced, then each .node file's ABI and CPU read:
// native.mjs); electron-builder's own rebuild is off (npmRebuild false). Last, each packaged app's
// .node files are read again against Electron's ABI and its folder's CPU, and a mismatch fails the
// run. A release (anything but --dir) on macOS or Windows refuses to finish unsigned
// (forceCodeSigning); WORKBENCH_ALLOW_UNSIGNED=1 lets a test build through.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { toolCommand } from './commands.mjs';
import { lockedElectronAbi } from './native-abi.mjs';
import { hasElectronBinary } from './native.mjs';
import { BUILD_CHECKS, loadContext, report } from './verify-package.mjs';
import { packagedChecks } from './verify-packaged.mjs';

/**
 * electron-builder's arguments for `npm run dist -- <extra>`: nothing is published unless asked
 * (`--publish always` in CI), and a release on macOS or Windows must be signed.
 * @param {string[]} extra @param {{ platform?: NodeJS.Platform, env?: Record<string, string | undefined> }} [where]
 */
export function builderArgs(extra, where = {}) {
  const platform = where.platform ?? process.platform;
  const env = where.env ?? process.env;
  const args = [...extra];
  if (!args.some((a) => a === '--publish' || a === '-p' || a.startsWith('--publish='))) args.push('--publish', 'never');
  const release = !args.includes('--dir');
  if (release && (platform === 'darwin' || platform === 'win32') && env.WORKBENCH_ALLOW_UNSIGNED !== '1') args.push('-c.forceCodeSigning=true');
  return args;
}

/**
 * The CPU an unpacked app in `releaseDir` is for, from electron-builder's folder name: mac, linux-unpacked
 * and win-unpacked are x64 (its default), mac-arm64, linux-arm64-unpacked, win-ia32-unpacked… name theirs.
 * Null when the path is not in such a folder.
 * @param {string} releaseDir @param {string} path a folder inside the unpacked app
 */
export function outputFolderArch(releaseDir, path) {
  const folder = relative(releaseDir, path).split(sep)[0] ?? '';
  const m = /^(?:mac|linux|win)(?:-(x64|ia32|armv7l|arm64|universal))?(?:-unpacked)?$/.exec(folder);
  return m ? (m[1] ?? 'x64') : null;
}

/**
 * Where the app looks for updates, when the environment says otherwise than electron-builder.yml
 * (GitHub releases of outreach-workbench/outreach-workbench): WORKBENCH_UPDATE_URL, a generic feed
 * (an https:// folder holding the installers and latest*.yml), or WORKBENCH_GITHUB_REPO=owner/repo.
 * Returns the publish setting to use, or null to keep electron-builder.yml's.
 * @param {Record<string, string | undefined>} env
 */
export function publishFromEnv(env) {
  const url = env.WORKBENCH_UPDATE_URL?.trim();
  if (url) {
    if (!/^https:\/\/[^\s]+$/.test(url)) throw new Error(`WORKBENCH_UPDATE_URL must be an https:// address (got ${JSON.stringify(url)}).`);
    return { provider: 'generic', url };
  }
  const repo = env.WORKBENCH_GITHUB_REPO?.trim();
  if (repo) {
    const m = /^([\w.-]+)\/([\w.-]+)$/.exec(repo);
    if (!m) throw new Error(`WORKBENCH_GITHUB_REPO must be owner/repo (got ${JSON.stringify(repo)}).`);
    return { provider: 'github', owner: m[1], repo: m[2], releaseType: 'release' };
  }
  return null;
}

/**
 * Why a release (not --dir) must not be built from these settings, or null: the contact the
 * installers carry must be a real one (package.json's author, linux.maintainer).
 * @param {Record<string, any>} pkg @param {Record<string, any>} builder
 */
export function releaseRefusal(pkg, builder) {
  const placeholder = /@[^>\s]*\.(?:invalid|example|test)\b/i;
  const emails = [typeof pkg.author === 'object' ? pkg.author?.email : pkg.author, builder.linux?.maintainer].filter((v) => typeof v === 'string');
  const bad = emails.filter((e) => placeholder.test(e));
  return bad.length
    ? `The installers would name ${bad.join(' and ')} as their contact: set a real e-mail in package.json's author and electron-builder.yml's linux.maintainer before a release (npm run dist -- --dir builds a test copy).`
    : null;
}

/**
 * The app.asar.unpacked folders of the unpacked apps electron-builder wrote in `releaseDir` since
 * `sinceMs` (older runs' folders are not this build's). Linux and Windows: <app>/resources/;
 * macOS: <app>.app/Contents/Resources/.
 * @param {string} releaseDir @param {number} [sinceMs]
 */
export function unpackedResources(releaseDir, sinceMs = 0) {
  if (!existsSync(releaseDir)) return [];
  return readdirSync(releaseDir, { recursive: true })
    .map(String)
    .filter((p) => /(?:^|[\\/])resources[\\/]app\.asar\.unpacked$/i.test(p))
    .map((p) => join(releaseDir, p))
    .filter((dir) => statSync(dir).mtimeMs >= sinceMs);
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const fail = (message) => {
    console.error(message);
    process.exit(1);
  };
  if (!hasElectronBinary(root)) {
    fail(
      "Packaging needs Electron's binary, which is not installed here (set-up ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1,\n" +
        'or its download failed). On a machine that can reach the Electron download site, run:\n' +
        '  node node_modules/electron/install.js && npm run dist\n' +
        'Nothing was built.',
    );
  }
  const extra = process.argv.slice(2);
  const builder = parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const refusal = extra.includes('--dir') ? null : releaseRefusal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), builder);
  if (refusal) fail(`${refusal}\nNothing was built.`);
  const started = Date.now();
  const run = (c) => {
    const r = spawnSync(c.command, c.args, { ...c.options, cwd: root, stdio: 'inherit' });
    if (r.status !== 0) fail(`${[c.command, ...c.args].join(' ')} failed (exit code ${r.status ?? r.error?.message}).`);
  };
  run(toolCommand(root, 'electron-vite', ['build']));
  // Another update feed than electron-builder.yml's: a generated copy of it, with that publish setting.
  const publish = publishFromEnv(process.env);
  const configArgs = [];
  if (publish) {
    mkdirSync(join(root, 'release'), { recursive: true });
    const generated = join(root, 'release', 'electron-builder.generated.yml');
    writeFileSync(generated, stringifyYaml({ ...builder, publish }));
    configArgs.push('--config', generated);
  }
  // The native modules are rebuilt for each CPU by the beforePack hook (before-pack.mjs), inside this run.
  run(toolCommand(root, 'electron-builder', [...configArgs, ...builderArgs(extra)]));
  // Each package as built, checked as verify:package checks the stand-in's, with Electron's ABI and its folder's CPU.
  const { version, abi } = lockedElectronAbi(root);
  const releaseDir = join(root, 'release');
  const packaged = unpackedResources(releaseDir, started).map((dir) => dirname(dir));
  if (packaged.length === 0) fail('electron-builder left no unpacked app in release/: cannot check it. Do not ship this build.');
  const work = mkdtempSync(join(tmpdir(), 'workbench-dist-'));
  let failed = 0;
  try {
    const ctx = { ...loadContext(root, join(root, 'out')), builder: publish ? { ...builder, publish } : builder };
    for (const [i, resourcesDir] of packaged.entries()) {
      const arch = outputFolderArch(releaseDir, resourcesDir);
      console.log(`Checking ${resourcesDir}${arch ? ` (${arch})` : ''}…`);
      if (!arch) {
        failed++;
        console.error(`✗ cannot tell which CPU ${relative(releaseDir, resourcesDir)} is for (not an electron-builder output folder such as mac-arm64/)`);
        continue;
      }
      failed += report(packagedChecks({ resourcesDir, abi, runtime: `Electron ${version}`, arch }, ctx, join(work, String(i)), BUILD_CHECKS));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // A release writes the update feed the installed apps read (latest.yml, latest-mac.yml, latest-linux.yml).
  const feeds = readdirSync(join(root, 'release')).filter((f) => /^latest.*\.yml$/.test(f) && statSync(join(root, 'release', f)).mtimeMs >= started);
  if (!extra.includes('--dir')) {
    if (feeds.length > 0) console.log(`✓ update feed: ${feeds.join(', ')}`);
    else {
      failed++;
      console.error('✗ no update feed (latest*.yml) was written in release/: installed apps would not find this version');
    }
  }
  if (failed) fail('Do not ship this build: fix what is said above and run npm run dist again.');
  console.log(`Packaged and checked: native modules built for Electron ${version} (ABI ${abi}) and each package's CPU.`);
}
