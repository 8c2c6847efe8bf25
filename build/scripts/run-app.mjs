#!/usr/bin/env node
// npm run dev | start | demo: rebuild the native modules for Electron when
// needed, then run the app with electron-vite (demo mode through an
// environment variable, which works the same on every platform).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mode = process.argv[2];
const native = spawnSync(process.execPath, [join(root, 'build', 'scripts', 'native.mjs'), 'electron'], { cwd: root, stdio: 'inherit' });
if (native.status !== 0) process.exit(native.status ?? 1);
const command = mode === 'start' ? 'preview' : 'dev';
const env = { ...process.env, ...(mode === 'demo' ? { WORKBENCH_DEMO: '1' } : {}) };
const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite');
const r = spawnSync(bin, [command], { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
