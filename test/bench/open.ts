// What every launch pays before the first list page, in a process of its own
// that loads what the core process loads before it serves that page: the
// core's server with every handler (the export, the Results, the sync, the API
// client and the rest stay in chunks loaded on first use, and the contract's
// schemas are built when first read, as in the app), then opens the cache and
// reads the page (no sync, no call made, the settings not read). run.ts builds this
// file with the app's own bundler and the core's build options
// (open.vite.config.ts: what the core loads on first use stays in chunks beside
// it, unloaded, as in out/main) and runs it with plain `node`, so the figure from process start holds Node
// starting, loading the core and SQLite, opening the cache (after a clean
// close: no integrity check due) and reading the first page (200 rows, the
// default filter). Nothing of the file is in this process's page cache; the
// OS's may be warm, as on a relaunch.
// Usage: open.(ts|mjs) <db>. Prints one JSON line.
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Cache } from '../../electron/core/store/cache';
import { list } from '../support/store';
// Loaded as the core process loads it (electron/core-process/run.ts): not called here, only its modules evaluated.
import { serveCore } from '../../electron/core/app/core-server';

if (typeof serveCore !== 'function') throw new Error('open bench: the core server did not load');

const dbPath = process.argv[2]!;

// No top-level await: the core's entry has none, and with one the bundler keeps each module shared with a chunk
// loaded on first use in a chunk of its own (more files to load than the app's core loads).
async function main(): Promise<void> {
  // performance.now() counts from this process's start (performance.timeOrigin).
  const loaded = performance.now();
  const prefix = basename(dbPath) + '.open-';
  const markers = readdirSync(dirname(dbPath)).filter((f) => f.startsWith(prefix)).length;
  const t0 = performance.now();
  const cache = await Cache.open(dbPath);
  const brand = (cache.db.prepare('SELECT id FROM brand_keys LIMIT 1').get() as { id: string }).id;
  const page = list(cache, { brandId: brand }, { limit: 200 });
  const t1 = performance.now();
  cache.close();
  const r1 = (x: number) => Math.round(x * 10) / 10;
  process.stdout.write(
    JSON.stringify({
      /** Process start to the first page read. */
      since_process_start_ms: r1(t1),
      /** Cache.open and the first page, in a process already running. */
      in_process_ms: r1(t1 - t0),
      /** Process start to this file's code running (Node and the core's modules loaded). */
      loaded_ms: r1(loaded),
      rows: page.length,
      markers_before: markers,
    }) + '\n',
  );
}

void main();
