#!/usr/bin/env node
// Native modules (better-sqlite3, keytar) are compiled for one ABI at a time:
// Node's for tests, the CLI and benchmarks; Electron's for the app. This makes
// the build in node_modules match the runtime asked for, rebuilding only when
// it does not (a stamp file remembers which one is there).
//   node build/scripts/native.mjs node      -> usable by `node` (npm test, cli, bench)
//   node build/scripts/native.mjs electron  -> usable by Electron (npm run dev/start/demo/dist)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stamp = join(root, '.native-abi');
const modules = ['better-sqlite3', 'keytar'];
const target = process.argv[2];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function loadsInNode() {
  const probe = "const D=require('better-sqlite3'); new D(':memory:').prepare('select 1').get(); require('keytar');";
  const r = spawnSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' });
  return { ok: r.status === 0, why: (r.stderr || '').split('\n').find((l) => l.includes('Error')) ?? '' };
}

function writeStamp(value) {
  writeFileSync(stamp, value + '\n');
}

if (target === 'node') {
  const want = `node-${process.versions.modules}`;
  const probe = loadsInNode();
  if (probe.ok) {
    writeStamp(want);
    process.exit(0);
  }
  console.log(`Rebuilding ${modules.join(', ')} for Node ${process.version} (${probe.why.trim() || 'not built for this Node'})…`);
  execFileSync(npm, ['rebuild', ...modules], { cwd: root, stdio: 'inherit' });
  const again = loadsInNode();
  if (!again.ok) {
    console.error(
      `The native modules still do not load under Node: ${again.why}\nOn Debian/Ubuntu run: bash build/setup.sh (it installs libsecret-1-dev and a compiler).`,
    );
    process.exit(1);
  }
  writeStamp(want);
} else if (target === 'electron') {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) {
    console.error(
      "Electron's binary is not installed (set-up ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed).\n" +
        'On a machine that can reach the Electron download site run: node node_modules/electron/install.js\n' +
        'Tests, the CLI, the simulator and the UI test host work without it.',
    );
    process.exit(1);
  }
  const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const want = `electron-${version}`;
  const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (have === want) process.exit(0);
  console.log(`Rebuilding ${modules.join(', ')} for Electron ${version}…`);
  execFileSync(npx, ['electron-builder', 'install-app-deps'], { cwd: root, stdio: 'inherit' });
  writeStamp(want);
} else {
  console.error('usage: native.mjs node|electron');
  process.exit(2);
}
