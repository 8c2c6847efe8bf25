// A results test's app: the real AppService on a temporary cache, synced
// from a simulator over loopback, driven through the contract's handlers (as
// the window calls them), with its "today" set by the test; an opportunity of
// the test's own at an outlet no generated citation is at; and a citation as
// the simulator's mutate takes one.
import { DEMO_KEY, type Simulator } from '../../electron/simulator/server';
import type { SyncSummary } from '../../shared/model';
import { openApp } from './app';
import { looseCaller } from './call';
import { detail, list } from './store';
import { tempDir } from './tmp';

export type ResultsApp = Awaited<ReturnType<typeof resultsApp>>;

/** The app on a fresh cache, synced once from `sim`; its today is `today` until the test sets another. */
export async function resultsApp(sim: Simulator, today0: string) {
  const tmp = tempDir();
  let today = today0;
  const { s, platform } = await openApp({ key: DEMO_KEY, dir: tmp, today: () => today });
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  const call = looseCaller(s);
  const sync = async (): Promise<SyncSummary> => {
    const done = platform.waitFor('sync:done');
    s.parts.sync.start({});
    return (await done).summary;
  };
  await sync();
  const brand = (await call<{ id: string }[]>('brands:list'))[0]!.id;
  const opportunity = (id: string) => detail(s.cache, brand, id);
  /** A triage action through the one owner of the user's record, as the window sends it. */
  const act = (ids: string[], action: Record<string, unknown>) => call<{ actionId: number | null }>('triage:apply', { brandId: brand, ids, action });
  return { s, platform, call, tmp, brand, sync, opportunity, act, setToday: (d: string) => (today = d) };
}

let outlets = 0;
/** How many outlets of its own the tests have made (the last one's number). */
export const outletsMade = () => outlets;
/** An opportunity of our own at an outlet no generated citation is at, synced in. */
export async function opportunityAt(sim: Simulator, a: ResultsApp): Promise<{ id: string; domain: string; url: string }> {
  const template = a.opportunity(list(a.s.cache, { brandId: a.brand }, { limit: 1 })[0]!.id)!.raw;
  const n = ++outlets;
  const domain = `outlet${n}.example`;
  const id = `pitched-${n}`;
  const url = `https://www.${domain}/best-cold-brew-makers/`;
  sim.inject(a.brand, {
    ...template,
    _id: id,
    unique_key: `low-hanging-fruit:${domain}/x`,
    domain,
    url,
    title: `Best cold brew makers (${n})`,
    archived: false,
    status: 'New',
    site_type: 'review site',
  });
  await a.sync();
  return { id, domain, url };
}

export const citeAt = (today: string, over: Record<string, unknown>) => ({
  times_cited: 9,
  prompts: ['best cold brew maker'],
  competitors_referenced: [],
  last_seen: `${today}T08:00:00Z`,
  ...over,
});
