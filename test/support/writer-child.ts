// One writer of a shared cache in its own process, for the many-writers tests:
// a sync (as `workbench sync` or the app would run it) or bulk triage. Prints
// one JSON line per event, so a test can follow it and SIGKILL it at any instant.
// Usage: tsx writer-child.ts sync <db> <base-url> [options-json]
//        tsx writer-child.ts triage <db> <brand-id> <ids-json> <rounds>
import { Cache } from '../../electron/core/store/cache';
import { TrakkrClient } from '../../electron/core/api/client';
import { runSync, type SyncOptions } from '../../electron/core/sync';
import { DEMO_KEY } from '../../electron/simulator/server';
import { setTriage, setTriageMany } from './store';

const say = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
const [mode, dbPath, a, b, c] = process.argv.slice(2);
const cache = await Cache.open(dbPath!);

if (mode === 'sync') {
  const opts = JSON.parse(b ?? '{}') as SyncOptions;
  const client = new TrakkrClient({ baseUrl: a, apiKey: DEMO_KEY, requestsPerMinute: 0 });
  say({ type: 'started', pid: process.pid });
  const summary = await runSync(cache, client, { pageSize: 100, scores: false, citations: false, ...opts, onEvent: (e) => say(e) });
  say({ type: 'done', summary });
} else if (mode === 'triage') {
  // Rounds of bulk changes over the same ids: the stage, a note naming the round, a star; each timed.
  const ids = JSON.parse(b!) as string[];
  const stages = ['Drafted', 'Won'] as const;
  // `ms`: the round; `worst`: its longest single write (what a user pressing a key would wait for).
  for (let round = 1; round <= Number(c); round++) {
    const t0 = performance.now();
    let worst = 0;
    const timed = (write: () => unknown) => {
      const w0 = performance.now();
      write();
      worst = Math.max(worst, performance.now() - w0);
    };
    for (let i = 0; i < ids.length; i += 50) {
      const part = ids.slice(i, i + 50);
      timed(() => setTriageMany(cache, a!, part, { stage: stages[round % 2], note: `round ${round}` }));
    }
    timed(() => setTriage(cache, a!, ids[0]!, { starred: round % 2 === 1 }));
    say({ type: 'round', round, ms: Math.round(performance.now() - t0), worst: Math.round(worst) });
  }
  say({ type: 'done' });
}
cache.close();
