#!/usr/bin/env node
// `npm run check:electron`: fails when the Electron locked in package-lock.json is older than
// package.json's config.minElectronMajor (the one place the minimum is written; raise it on upgrade).
//   node build/scripts/check-electron.mjs [project folder, default: this repository]
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Decides from the parsed package.json and package-lock.json whether the locked Electron is supported.
 * @param {{ config?: { minElectronMajor?: unknown } }} pkg
 * @param {{ packages?: Record<string, { version?: unknown } | undefined> }} lock
 * @returns {{ ok: boolean, message: string }}
 */
export function electronSupport(pkg, lock) {
  const minimum = pkg.config?.minElectronMajor;
  if (typeof minimum !== 'number' || !Number.isInteger(minimum) || minimum < 1) {
    return { ok: false, message: 'package.json has no usable config.minElectronMajor (a whole number such as 45).' };
  }
  const version = lock.packages?.['node_modules/electron']?.version;
  if (typeof version !== 'string') {
    return { ok: false, message: 'package-lock.json has no entry for electron: run npm install so the lock pins one.' };
  }
  const major = /^(\d+)\./.exec(version)?.[1];
  if (major === undefined) {
    return { ok: false, message: `package-lock.json locks electron at "${version}", which is not a version this check can read.` };
  }
  if (Number(major) < minimum) {
    return {
      ok: false,
      message:
        `Electron ${version} is locked, but the minimum supported major is ${minimum} (package.json config.minElectronMajor).\n` +
        `Old Electron lines stop getting Chromium security fixes: upgrade with npm install --save-dev electron@^${minimum}.`,
    };
  }
  return { ok: true, message: `Electron ${version} (minimum major ${minimum}): supported.` };
}

/** Reads package.json and package-lock.json from a project folder and judges them. */
export function checkElectron(root) {
  const files = {};
  for (const name of ['package.json', 'package-lock.json']) {
    try {
      files[name] = JSON.parse(readFileSync(join(root, name), 'utf8'));
    } catch (error) {
      return { ok: false, message: `Cannot read ${name} in ${root}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return electronSupport(files['package.json'], files['package-lock.json']);
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const result = checkElectron(root);
  if (result.ok) console.log(result.message);
  else console.error(result.message);
  process.exit(result.ok ? 0 : 1);
}
