#!/usr/bin/env node
// `npm run dist`: package the app for this platform with electron-builder.
// It needs Electron's binary (downloaded from Electron's release site); on a
// machine that cannot reach it, say so and stop.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!existsSync(join(root, 'node_modules', 'electron', 'path.txt'))) {
  console.error(
    "Packaging needs Electron's binary, which is not installed here (set-up ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1,\n" +
      'or its download failed). On a machine that can reach the Electron download site, run:\n' +
      '  node node_modules/electron/install.js && npm run dist\n' +
      'Nothing was built.',
  );
  process.exit(1);
}
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
run(process.execPath, [join(root, 'build', 'scripts', 'native.mjs'), 'electron']);
run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['electron-vite', 'build']);
run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['electron-builder', '--publish', 'never', ...process.argv.slice(2)]);
