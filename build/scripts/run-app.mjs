#!/usr/bin/env node
// npm run dev | start | demo: rebuild the native modules for Electron (native.mjs: clean, forced,
// each .node file's ABI read back), then run the app with electron-vite (demo mode through an
// environment variable, which works the same on every platform). Node runs electron-vite's own
// entry, so no shell and no .cmd file is involved (commands.mjs).
// An app run from the repository is not packaged, so main gives it its own user-data folder,
// keychain entry and single-instance lock ("Outreach Workbench Dev"): it never touches an installed
// app's cache or waits on its lock (electron/main/startup-checks.ts).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCommand } from './commands.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mode = process.argv[2];
const native = spawnSync(process.execPath, [join(root, 'build', 'scripts', 'native.mjs'), 'electron'], { cwd: root, stdio: 'inherit' });
if (native.status !== 0) process.exit(native.status ?? 1);
const c = toolCommand(root, 'electron-vite', [mode === 'start' ? 'preview' : 'dev']);
const env = { ...process.env, ...(mode === 'demo' ? { WORKBENCH_DEMO: '1' } : {}) };
const r = spawnSync(c.command, c.args, { ...c.options, cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
