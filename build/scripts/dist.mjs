#!/usr/bin/env node
// `npm run dist`: package the app for this platform with electron-builder.
//   npm run dist                 installers and the update feed (latest*.yml), signed: a release
//   npm run dist -- --dir        the unpacked app only (release/<platform>-unpacked), to try by hand
// Steps: Electron's binary must be there; the native modules are rebuilt for the locked Electron
// (clean and forced, then each .node file's ABI is read: native.mjs); the build; electron-builder
// (its own rebuild is off: npmRebuild false); and last, the packaged app's .node files are read
// again and a mismatch fails the run. A release (anything but --dir) on macOS or Windows refuses to
// finish unsigned (forceCodeSigning); WORKBENCH_ALLOW_UNSIGNED=1 lets a test build through.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCommand } from './commands.mjs';
import { lockedElectronAbi, packagedAbiProblems } from './native-abi.mjs';
import { hasElectronBinary, prepareForElectron } from './native.mjs';

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
  const started = Date.now();
  const native = prepareForElectron(root);
  if (!native.ok) fail(`${native.message}\nNothing was packaged.`);
  console.log(native.message);
  const run = (c) => {
    const r = spawnSync(c.command, c.args, { ...c.options, cwd: root, stdio: 'inherit' });
    if (r.status !== 0) fail(`${[c.command, ...c.args].join(' ')} failed (exit code ${r.status ?? r.error?.message}).`);
  };
  run(toolCommand(root, 'electron-vite', ['build']));
  run(toolCommand(root, 'electron-builder', builderArgs(process.argv.slice(2))));
  const { version, abi } = lockedElectronAbi(root);
  const packaged = unpackedResources(join(root, 'release'), started);
  if (packaged.length === 0) fail('electron-builder left no unpacked app in release/: cannot check its native modules. Do not ship this build.');
  const problems = packaged.flatMap((dir) => packagedAbiProblems(dir, { abi, runtime: `Electron ${version}` }));
  if (problems.length > 0) fail(`${problems.join('\n')}\nDo not ship this build: run npm run dist again after fixing the rebuild.`);
  console.log(`Packaged native modules read back: built for Electron ${version} (ABI ${abi}).`);
}
