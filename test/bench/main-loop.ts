// Main's side while the core works: this process plays main (as the test host
// does), with the core in its own process behind the real message protocol.
// It measures main's event-loop delay (monitorEventLoopDelay) while the core
// syncs every opportunity, counts chips and exports, and the round trip of a
// one-row read. Prints one JSON line. Usage: main-loop.ts <sim-url> <data-dir>
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { CoreSupervisor, type HostHandlers } from '../../shared/core-link';
import type { EventName } from '../../shared/contract';
import { DEMO_KEY } from '../../electron/simulator/server';
import { forkNodeCore } from '../host/core-process';

const [url, dir] = process.argv.slice(2) as [string, string];
const waiting = new Map<string, (payload: any) => void>();
const host: HostHandlers = {
  'clipboard:write': () => null,
  'shell:open-external': () => null,
  'shell:show-item-in-folder': () => null,
  'dialog:save-file': ({ suggestedName }) => join(dir, suggestedName),
  'dialog:open-file': () => null,
  'window:print-pdf': () => new Uint8Array(),
};
const core = new CoreSupervisor({
  spawn: () => forkNodeCore({ userDataDir: dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false, baseUrl: url }),
  host,
  // As main does: each event is passed on (here, serialised as it would be for the window).
  onEvent: (event: EventName, payload) => {
    JSON.stringify(payload);
    if (event === 'sync:done' || event === 'export:done') waiting.get(event)?.(payload);
  },
  onCrash: (state, message) => {
    throw new Error(`core ${state}: ${message}`);
  },
});
const next = (event: string) => new Promise<any>((r) => waiting.set(event, r));
async function call(method: string, ...args: unknown[]): Promise<any> {
  const r = await core.call(method, args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

const failure = await core.ready();
if (failure) throw new Error(failure.message);
await call('keys:set', { key: DEMO_KEY });
await call('settings:set', { syncOnLaunch: false });

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const synced = next('sync:done');
await call('sync:start', {});
const summary = await synced;
if (summary.summary.error) throw new Error(JSON.stringify(summary.summary.error));
const brandId = (await call('brands:list'))[0].id as string;
for (let i = 0; i < 10; i++) await call('opportunities:counts', { brandId });
const { file } = await call('export:choose-file', { suggestedName: 'bench.csv' });
const exported = next('export:done');
await call('export:start', { options: { brandId, preset: 'opportunities', filter: { includeArchived: true } }, file: file.handle });
const ex = await exported;
if (ex.error) throw new Error(ex.error.message);
loop.disable();

// One-row reads through the real message path (structured clone both ways).
const { items } = await call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 });
const id = items[0].id as string;
const trips: number[] = [];
for (let i = 0; i < 50; i++) await call('opportunities:get', { brandId, id });
for (let i = 0; i < 1000; i++) {
  const t = performance.now();
  await call('opportunities:get', { brandId, id });
  trips.push(performance.now() - t);
}
trips.sort((a, b) => a - b);
const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
await core.shutdown(5_000);
process.stdout.write(
  JSON.stringify({
    loop_delay_p99_ms: ms(loop.percentile(99)),
    loop_delay_max_ms: ms(loop.max),
    loop_delay_p50_ms: ms(loop.percentile(50)),
    exported_rows: ex.result.rows,
    roundtrip_p50_ms: Math.round(trips[Math.floor(trips.length / 2)]! * 1000) / 1000,
    roundtrip_p95_ms: Math.round(trips[Math.floor(trips.length * 0.95)]! * 1000) / 1000,
  }) + '\n',
);
