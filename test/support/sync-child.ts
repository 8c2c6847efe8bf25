// Runs one sync in its own process, printing a line per page, so a test can
// SIGKILL it at any instant. Usage: tsx sync-child.ts <db> <base-url>
import { Cache } from '../../electron/core/store/cache';
import { TrakkrClient } from '../../electron/core/api/client';
import { runSync } from '../../electron/core/sync';
import { DEMO_KEY } from '../../electron/simulator/server';

const [dbPath, baseUrl] = process.argv.slice(2);
const cache = await Cache.open(dbPath!);
const client = new TrakkrClient({ baseUrl, apiKey: DEMO_KEY, requestsPerMinute: 0 });
const summary = await runSync(cache, client, {
  pageSize: 100,
  scores: false,
  citations: false,
  onEvent: (e) => {
    if (e.type === 'progress') process.stdout.write(`page ${e.pages} ${e.items}\n`);
  },
});
process.stdout.write(`done ${JSON.stringify(summary.brands.map((b) => b.items))}\n`);
cache.close();
