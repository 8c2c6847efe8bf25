#!/usr/bin/env node
// Do the native modules (better-sqlite3, keytar) in node_modules load under
// this Node? Exit 0 if they do, 1 if not. It writes nothing anywhere, so
// `npm run cli` can run from a project folder it may not write to and calls
// native.mjs (which rebuilds and writes its stamp) only when they do not load.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  const Database = require('better-sqlite3');
  new Database(':memory:').prepare('select 1').get();
  require('keytar');
  process.exit(0);
} catch {
  process.exit(1);
}
