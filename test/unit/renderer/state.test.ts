// The renderer's state classes, run against the real contract handlers and
// core in this process (window.workbench is a thin in-process bridge that can
// hold a call back or answer it with an error, to test stale and failed answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { join } from 'node:path';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { AppStore } from '../../../renderer/src/state/app.svelte';
import { OpportunitiesStore, PAGE } from '../../../renderer/src/state/opportunities.svelte';
import { OutreachActions } from '../../../renderer/src/state/outreach';
import { copyPitch } from '../../../shared/outreach';
import { InsightsStore } from '../../../renderer/src/state/insights.svelte';
import { ExportJob } from '../../../renderer/src/state/export.svelte';
import { DoNotContactList } from '../../../renderer/src/state/do-not-contact.svelte';
import { OpportunityHistory } from '../../../renderer/src/state/history.svelte';
import { RecordStore } from '../../../renderer/src/state/record.svelte';
import { PipelineStore } from '../../../renderer/src/state/pipeline.svelte';
import { PitchStore, SAVE_AFTER_MS } from '../../../renderer/src/state/pitch.svelte';
import { SnippetsStore } from '../../../renderer/src/state/snippets.svelte';
import { lineDiff } from '../../../renderer/src/lib/line-diff';
import { fieldStates, segments, unfilledText } from '../../../renderer/src/lib/merge-words';
import { addDays } from '../../../shared/calendar';
import { readFileSync, writeFileSync } from 'node:fs';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';
import { detail } from '../../support/store';

let sim: Simulator;
let service: AppService;
let platform: FakePlatform;
const tmp = tempDir();
const listeners = new Map<string, Set<(p: unknown) => void>>();
const listenerCount = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
let handlers: ReturnType<typeof createHandlers>;
/** Calls on their way through the bridge. */
let inflight = 0;
/** Every call's method, in order. */
const called: string[] = [];

/** What the bridge does instead of (or before) passing the next matching call to the core. */
interface Intercept {
  method: string;
  when: (args: any[]) => boolean;
  answer: () => Promise<void> | { ok: false; error: { kind: string; message: string } };
  /** The core's own answer, changed on its way back (what a far larger cache would answer). */
  rewrite?: (value: any) => any;
}
const intercepts: Intercept[] = [];
/** The next call of `method` (matching `when`) waits at the bridge until release(). */
function hold(method: string, when: (args: any[]) => boolean = () => true) {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (arrived = r));
  intercepts.push({ method, when, answer: () => (arrived(), gate) });
  return { reached, release };
}
/** The next call of `method` is answered with an error, as main answers a failed call. */
function failNext(method: string, message: string) {
  intercepts.push({ method, when: () => true, answer: () => ({ ok: false, error: { kind: 'unavailable', message } }) });
}
/** The core's own answer, straight from the handlers (what the stores should end up showing). */
async function direct(method: string, ...args: unknown[]): Promise<any> {
  const r = await dispatch(handlers, method, args);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, opportunities: 700, otherBrandOpportunities: 10, citationsPerBrand: 20 });
  platform = new FakePlatform();
  const emit = platform.emit.bind(platform);
  platform.emit = (event, payload) => {
    emit(event, payload);
    for (const l of listeners.get(event) ?? []) l(structuredClone(payload));
  };
  service = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain: new FakeKeychain(),
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
  });
  service.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  handlers = createHandlers(service, platform);
  const api = new Proxy(
    {},
    {
      get: (_t, name: string) =>
        name === 'on'
          ? (event: string, l: (p: unknown) => void) => {
              if (!listeners.has(event)) listeners.set(event, new Set());
              listeners.get(event)!.add(l);
              return () => listeners.get(event)!.delete(l);
            }
          : async (...args: unknown[]) => {
              // Structured clone both ways, as Electron's IPC does: a reactive proxy or a function in an
              // argument throws here (DataCloneError) exactly where it would fail in the app.
              const sent = structuredClone(args);
              called.push(name);
              inflight++;
              try {
                const i = intercepts.findIndex((x) => x.method === name && x.when(sent));
                if (i >= 0) {
                  const x = intercepts.splice(i, 1)[0]!;
                  const answer = x.answer();
                  if (!(answer instanceof Promise)) return structuredClone(answer);
                  await answer;
                  if (x.rewrite) {
                    const r = await dispatch(handlers, name, sent);
                    return structuredClone(r.ok ? { ok: true, value: x.rewrite(r.value) } : r);
                  }
                }
                return structuredClone(await dispatch(handlers, name, sent));
              } finally {
                inflight--;
              }
            },
    },
  );
  (globalThis as { window?: unknown }).window = { workbench: api };
});
afterAll(async () => {
  // Each describe disposes its stores (timers stopped); the calls already on their way finish first.
  await until(() => inflight === 0);
  await service.close();
  await sim.close();
  tmp.cleanup();
});

const until = async (fn: () => boolean, ms = 20_000) => {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('AppStore and OpportunitiesStore', () => {
  const app = new AppStore();
  const opps = new OpportunitiesStore(app);
  const pipeline = new PipelineStore(app, opps);
  const outreach = new OutreachActions(app, opps);
  afterAll(() => {
    pipeline.dispose();
    opps.dispose();
    app.dispose();
  });

  it('loads the frame; a key set from the UI starts a sync whose events update the state', async () => {
    await app.load();
    expect(app.loaded).toBe(true);
    expect(app.hasKey).toBe(false);
    await expect(app.setKey('sk_live_nope')).rejects.toMatchObject({ kind: 'invalid-input' });
    await app.setKey(DEMO_KEY);
    expect(app.hasKey).toBe(true);
    expect(app.syncing).toBe(true);
    await until(() => app.toasts.some((t) => t.text.startsWith('Synced')));
    await until(() => !app.syncing);
    expect(app.brands.length).toBe(3);
    app.selectBrand(sim.brands[0]!.id);
    expect(app.brand?.name).toBe(sim.brands[0]!.name);
  });

  it('lists a page at a time, fetches further pages on demand, and moves the cursor', async () => {
    await opps.reload();
    expect(opps.total).toBeGreaterThan(PAGE);
    expect(opps.itemAt(0)).toBeDefined();
    expect(opps.itemAt(PAGE + 5)).toBeUndefined();
    opps.ensure(PAGE, PAGE + 10);
    await until(() => opps.itemAt(PAGE + 5) !== undefined);
    opps.moveTo(PAGE + 5);
    expect(opps.cursor).toBe(PAGE + 5);
    opps.move(-10_000);
    expect(opps.cursor).toBe(0);
    await until(() => opps.detail?.item.id === opps.itemAt(0)!.id);
  });

  it('filters reload with counts; search goes to main', async () => {
    // Trakkr's status filters as the service's data.
    opps.setFilter({ status: 'Done' });
    await until(() => !opps.loading && opps.itemAt(0)?.server_status === 'Done');
    // The chip counts follow once typing or clicking pauses.
    await until(() => opps.counts?.status.Done === opps.total);
    opps.setFilter({ status: undefined, search: 'zzzznothing' });
    await until(() => !opps.loading && opps.total === 0);
    opps.clearFilters();
    await until(() => !opps.loading && opps.total > 0);
  });

  it("a search typed shows its total as counted so far ('more than'), then the exact total that comes with the chip counts", async () => {
    // As a far larger cache answers a keystroke: the total counted up to a cap (the core's own cap is 1,000, past this cache).
    let counted = 0;
    intercepts.push({
      method: 'opportunities:view',
      when: ([a]) => a.filter.search === 'coffee' && a.counts === false,
      answer: () => Promise.resolve(),
      rewrite: (v) => ({ ...v, total: 5, capped: true }),
    });
    const counts = hold('opportunities:counts', ([f]) => f.search === 'coffee');
    opps.setFilter({ search: 'coffee' });
    await counts.reached;
    await until(() => !opps.loading);
    expect({ total: opps.total, capped: opps.capped }).toEqual({ total: 5, capped: true });
    counts.release();
    const exact = (await direct('opportunities:counts', { ...opps.filter, brandId: app.brandId! })).listed;
    expect(exact).toBeGreaterThan(5);
    await until(() => ((counted = opps.total), !opps.capped));
    expect(counted).toBe(exact);
    expect(opps.counts?.listed).toBe(exact);
    opps.clearFilters();
    await until(() => !opps.loading && opps.filter.search === undefined);
  });

  it('End reads the last page from the end of the list (the index walked backwards): the rows the list holds there', async () => {
    await until(() => !opps.loading && opps.total > PAGE);
    const brandId = app.brandId!;
    const total = opps.total;
    const asked: any[] = [];
    const held = hold('opportunities:list', ([a]) => (asked.push(a), true));
    opps.moveTo(total - 1);
    opps.ensure(total - 3, total - 1);
    await held.reached;
    held.release();
    await until(() => opps.itemAt(total - 1) !== undefined);
    const last = Math.floor((total - 1) / PAGE) * PAGE;
    expect(asked[0]).toMatchObject({ offset: 0, limit: total - last, fromEnd: true });
    const fromStart = await direct('opportunities:list', { filter: { ...opps.filter, brandId }, offset: last, limit: PAGE });
    expect([...Array(total - last).keys()].map((k) => opps.itemAt(last + k)!.id)).toEqual(fromStart.items.map((i: { id: string }) => i.id));
    opps.moveTo(0);
  });

  it('stage, star and an autosaved note, each one round trip; the row updates in place', async () => {
    opps.moveTo(1);
    await until(() => opps.detail?.item.id === opps.itemAt(1)!.id);
    const id = opps.itemAt(1)!.id;
    const sent = called.length;
    await pipeline.setStage('Drafted');
    expect(opps.itemAt(1)!.stage).toBe('Drafted');
    expect(opps.detail!.item.stage).toBe('Drafted');
    // One key, one call: the answer carries the row, the detail, the chips and the follow-ups due.
    expect(called.slice(sent)).toEqual(['triage:apply']);
    await opps.toggleStar();
    expect(opps.itemAt(1)!.starred).toBe(true);
    opps.editNote('first draft');
    expect(opps.noteState).toBe('unsaved');
    await until(() => opps.noteState === 'saved');
    expect(detail(service.cache, sim.brands[0]!.id, id)!.triage.note).toBe('first draft');
    opps.editNote('second');
    const typed = called.length;
    await opps.flushNote(); // moving away saves at once
    expect(called.slice(typed)).toEqual(['triage:apply']);
    expect(detail(service.cache, sim.brands[0]!.id, id)!.triage.note).toBe('second');
  });

  it('copying contacts leaves catch-alls out and says how many', async () => {
    let i = 0;
    while (!(opps.itemAt(i)?.catch_all_count && opps.itemAt(i)!.contact_count > opps.itemAt(i)!.catch_all_count)) i++;
    opps.moveTo(i);
    await until(() => opps.detail?.item.id === opps.itemAt(i)!.id);
    await outreach.copyContacts();
    const catchAll = opps.detail!.contacts.filter((c) => c.catchAll).map((c) => c.email);
    for (const a of catchAll) expect(platform.clipboard).not.toContain(a);
    expect(app.toasts.at(-1)!.text).toMatch(/catch-all address(es)? left out/);
  });

  it('copying contacts leaves out an address on the do-not-contact list, and says so', async () => {
    const d = opps.detail!;
    const person = d.contacts.find((c) => c.valid && !c.catchAll)!;
    await direct('dnc:add', { value: person.email });
    try {
      await opps.loadDetail();
      expect(opps.detail!.contacts.find((c) => c.email === person.email)!.blocked).toBe(true);
      platform.clipboard = '';
      await outreach.copyContacts();
      expect(platform.clipboard).not.toContain(person.email);
      expect(app.toasts.at(-1)!.text).toMatch(/address(es)? on your do-not-contact list left out/);
    } finally {
      await direct('dnc:remove', { value: person.email });
    }
  });

  it('selection with ranges, and a bulk stage', async () => {
    opps.toggleSelect(2);
    opps.toggleSelect(5, true);
    flushSync();
    expect(opps.selected.size).toBe(4);
    await pipeline.setStage('Won');
    expect(opps.selected.size).toBe(0);
    expect(app.toasts.at(-1)!.text).toBe('4 opportunities moved to Won.');
  });

  it('a list answer superseded by newer filters is dropped, and only the latest filter is asked next', async () => {
    const brandId = app.brandId!;
    const asked: string[] = [];
    const held = hold('opportunities:view', ([a]) => {
      asked.push(String(a.filter.search));
      return a.filter.search === 'cold brew';
    });
    opps.setFilter({ search: 'cold brew' });
    await held.reached;
    // Typing on while the first answer is on its way: nothing more is sent yet.
    opps.setFilter({ search: 'cold brew t' });
    opps.setFilter({ search: 'cold brew te' });
    opps.clearFilters();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['cold brew']);
    expect(inflight).toBe(1); // only the held one
    const all = (await direct('opportunities:view', { filter: { brandId, sort: 'priority' }, limit: 1 })).total;
    const coldBrew = (await direct('opportunities:view', { filter: { brandId, sort: 'priority', search: 'cold brew' }, limit: 1 })).total;
    expect(coldBrew).not.toBe(all);
    held.release();
    await until(() => inflight === 0 && !opps.loading);
    // The stale answer was never shown; one request with the latest filter followed it.
    expect(intercepts.filter((x) => x.method === 'opportunities:view')).toHaveLength(0);
    expect(opps.filter.search).toBeUndefined();
    expect(opps.total).toBe(all);
    // The chip counts came with that same answer: they describe the list on screen.
    expect(opps.counts?.total).toBe(all);
  });

  it('a failed star, contacted date, copy or link says why in a toast; nothing is left unhandled', async () => {
    opps.moveTo(0);
    await until(() => opps.detail?.item.id === opps.itemAt(0)!.id);
    const starred = opps.itemAt(0)!.starred;
    failNext('triage:apply', 'The cache is busy; try again.');
    void opps.toggleStar(); // as the s key does: fire and forget
    await until(() => app.toasts.at(-1)?.text === 'The star could not be saved: The cache is busy; try again.');
    expect(app.toasts.at(-1)!.kind).toBe('error');
    expect(opps.itemAt(0)!.starred).toBe(starred);
    failNext('triage:apply', 'The cache is busy; try again.');
    await expect(pipeline.markContacted()).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The contacted date could not be saved: The cache is busy; try again.' });
    expect(opps.detail!.triage.contacted_at).toBeNull();
    failNext('clipboard:write', 'The clipboard is not available.');
    await expect(outreach.copyText('hello', 'subject')).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The subject could not be copied: The clipboard is not available.' });
    failNext('links:open', 'No browser is set up.');
    await expect(outreach.openLink('https://example.com/')).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The link could not be opened: No browser is set up.' });
    // A working call afterwards works as before.
    await pipeline.markContacted();
    expect(opps.detail!.triage.contacted_at).toBe(service.today());
    await pipeline.unmarkContacted();
    expect(opps.detail!.triage.contacted_at).toBeNull();
  });

  it('export: options changed in a run (a default typed key by key) are counted once, with the last of them', async () => {
    const brandId = app.brandId!;
    const job = new ExportJob(app, opps);
    const o = (first: string) => ({ brandId, preset: 'contacts' as const, markExported: false, unfilled: 'default' as const, fill: { first_name: first } });
    const expected = await direct('export:preview', o('there'));
    const before = called.filter((m) => m === 'export:preview').length;
    job.ask(o('t')); // the dialog opens: counted at once
    for (const typed of ['th', 'the', 'ther', 'there']) job.ask(o(typed));
    await until(() => job.check !== null && called.filter((m) => m === 'export:preview').length - before === 2 && inflight === 0);
    expect(called.filter((m) => m === 'export:preview').length - before).toBe(2);
    expect(job.check).toEqual(expected);
    job.dispose();
  });

  it('export: the latest preview wins, the file is written, and the job lets go of its events', async () => {
    const brandId = app.brandId!;
    const job = new ExportJob(app, opps);
    const contacts = { brandId, preset: 'contacts' as const, excludeCatchAll: true, markExported: false, unfilled: 'keep' as const };
    const byOpportunity = { brandId, preset: 'opportunities' as const, markExported: false };
    const expected = await direct('export:preview', contacts);
    expect((await direct('export:preview', byOpportunity)).rows).not.toBe(expected.rows);
    const held = hold('export:preview', ([o]) => o.preset === 'opportunities');
    const stale = job.preview(byOpportunity);
    await held.reached;
    await job.preview(contacts);
    expect(job.check!.rows).toBe(expected.rows);
    held.release();
    await stale;
    expect(job.check!.rows).toBe(expected.rows);

    const before = listenerCount();
    platform.saveAs = join(tmp.dir, 'batch.csv');
    await job.save(contacts, 'batch.csv');
    await until(() => !job.busy);
    expect(job.error).toBeNull();
    expect(job.result!.rows).toBe(expected.rows);
    expect(app.toasts.at(-1)!.text).toBe(`Exported ${expected.rows.toLocaleString('en-US')} rows.`);
    expect(listenerCount()).toBe(before);

    // The dialog closes while the job is being started: its subscriptions end with it.
    const starting = hold('export:start');
    platform.saveAs = join(tmp.dir, 'batch-2.csv');
    const saving = job.save(contacts, 'batch-2.csv');
    await starting.reached;
    expect(listenerCount()).toBe(before + 2);
    job.dispose();
    expect(listenerCount()).toBe(before);
    starting.release();
    await saving;
    await until(() => inflight === 0);
    expect(listenerCount()).toBe(before);
  });

  it("every subscription to main's events ends with dispose(); load() twice subscribes once", async () => {
    const before = listenerCount();
    const other = new AppStore();
    await other.load();
    await other.load();
    expect(other.loaded).toBe(true);
    expect(listenerCount()).toBe(before + 7);
    other.dispose();
    expect(listenerCount()).toBe(before);
  });
});

describe('the first list, asked while the workbench is built', () => {
  const views = () => called.filter((m) => m === 'opportunities:view').length;

  it('is asked once: the load that follows takes the early answer', async () => {
    const app = new AppStore();
    const opps = new OpportunitiesStore(app);
    try {
      const before = views();
      await app.load(() => opps.prefetch());
      expect(app.brandId).not.toBeNull();
      expect(views()).toBe(before + 1);
      await opps.reload();
      expect(views()).toBe(before + 1);
      expect(opps.listedBrand).toBe(app.brandId);
      const direct_ = await direct('opportunities:view', { filter: { brandId: app.brandId, sort: 'priority' }, limit: 200, counts: true });
      expect(opps.total).toBe(direct_.total);
      expect(opps.itemAt(0)?.id).toBe(direct_.items[0].id);
      expect(opps.counts).toEqual(direct_.counts);
    } finally {
      opps.dispose();
      app.dispose();
    }
  });

  it('a filter changed before the list was shown is asked for anew; the early answer is not shown', async () => {
    const app = new AppStore();
    const opps = new OpportunitiesStore(app);
    try {
      const before = views();
      await app.load(() => opps.prefetch());
      opps.setFilter({ status: 'Done' });
      await until(() => opps.listedBrand !== null && !opps.loading);
      expect(views()).toBe(before + 2);
      const want = await direct('opportunities:view', { filter: { brandId: app.brandId, sort: 'priority', status: 'Done' }, limit: 200, counts: true });
      expect(opps.total).toBe(want.total);
    } finally {
      opps.dispose();
      app.dispose();
    }
  });
});

describe('InsightsStore', () => {
  const app = new AppStore();
  const insights = new InsightsStore(app);
  afterAll(() => {
    insights.dispose();
    app.dispose();
  });

  it('a load superseded by a newer one (another brand) never overwrites it', async () => {
    const [a, b] = [sim.brands[0]!.id, sim.brands[1]!.id];
    const expected = await direct('scores:get', { brandId: b, breakdown: '' });
    const held = hold('scores:get', ([x]) => x.brandId === a && x.breakdown === '');
    const stale = insights.load(a);
    await held.reached;
    await insights.load(b);
    expect(insights.loadedFor).toBe(b);
    expect(insights.scores).toEqual(expected.rows);
    const citations = insights.allCitations;
    held.release();
    await stale;
    expect(insights.loadedFor).toBe(b);
    expect(insights.scores).toEqual(expected.rows);
    expect(insights.allCitations).toBe(citations);
  });

  it('a citation filter superseded by a newer one never overwrites it; a failed load says why', async () => {
    const b = sim.brands[1]!.id;
    const domain = String(insights.allCitations[0]!.domain);
    const all = (await direct('citations:get', { brandId: b, mode: 'citations' })).items.length;
    expect((await direct('citations:get', { brandId: b, mode: 'citations', domain })).items.length).toBeLessThan(all);
    const held = hold('citations:get', ([x]) => x.domain === domain);
    const stale = insights.filterCitations(b, 'citations', { domain });
    await held.reached;
    await insights.filterCitations(b, 'citations', {});
    expect(insights.citations!.items.length).toBe(all);
    held.release();
    await stale;
    expect(insights.citations!.items.length).toBe(all);

    failNext('scores:get', 'The cache could not be read.');
    await expect(insights.load(b)).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'Insights could not be read: The cache could not be read.' });
  });

  it('gap domains count their opportunities; an older count never overwrites a newer one', async () => {
    const b = sim.brands[1]!.id;
    await insights.load(b);
    const gaps = insights.gaps;
    expect(gaps.length).toBeGreaterThan(1);
    const held = hold('opportunities:list', ([x]) => x.filter.domain === gaps[0]!.domain);
    const stale = insights.countGapOpportunities(b, gaps);
    await held.reached;
    await insights.countGapOpportunities(b, gaps.slice(1));
    const newer = insights.gapOpportunities;
    expect(Object.keys(newer).sort()).toEqual(
      gaps
        .slice(1)
        .map((g) => g.domain)
        .sort(),
    );
    const one = gaps[1]!.domain;
    expect(newer[one]).toBe((await direct('opportunities:list', { filter: { brandId: b, domain: one }, offset: 0, limit: 1 })).total);
    held.release();
    await stale;
    expect(insights.gapOpportunities).toBe(newer);
  });
});

describe('DoNotContactList', () => {
  it('adds, refuses in plain words, and removes', async () => {
    const dnc = new DoNotContactList();
    await dnc.load();
    expect(await dnc.add('not an address at all')).toBe(false);
    expect(dnc.error).toMatch(/neither an e-mail address nor a domain/);
    expect(await dnc.add('Press@Evil.Example')).toBe(true);
    expect(dnc.error).toBeNull();
    expect(dnc.entries.map((d) => d.value)).toEqual(['press@evil.example']);
    expect(await dnc.remove('press@evil.example')).toBe(true);
    expect(dnc.entries).toEqual([]);
    dnc.dispose();
  });
});

describe('OpportunityHistory', () => {
  it('shows what was done to an opportunity, newest first, and what was done at its outlet', async () => {
    const brandId = sim.brands[0]!.id;
    const { items } = await direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 1000 });
    const byDomain = new Map<string, string[]>();
    for (const it of items as { id: string; domain: string }[]) if (it.domain) byDomain.set(it.domain, [...(byDomain.get(it.domain) ?? []), it.id]);
    const [a, b] = [...byDomain.values()].find((ids) => ids.length >= 2)!;
    await direct('triage:apply', { brandId, ids: [a], action: { do: 'stage', stage: 'Drafted' } });
    await direct('triage:apply', { brandId, ids: [b], action: { do: 'contacted', on: '2026-11-20', addresses: [] } });
    const history = new OpportunityHistory();
    await history.load(brandId, a!);
    expect(history.isOf(brandId, a!)).toBe(true);
    expect(history.entries[0]).toMatchObject({ kind: 'stage', label: 'Stage', detail: 'Drafted' });
    expect(history.sameOutlet.map((e) => [e.opportunity_id, e.kind])).toContainEqual([b, 'contacted']);
    history.dispose();
  });

  it('an answer for the opportunity the selection has left never shows under the next one', async () => {
    const brandId = sim.brands[0]!.id;
    const { items } = await direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 3 });
    const [x, y] = items as { id: string }[];
    await direct('triage:apply', { brandId, ids: [x!.id], action: { do: 'star', on: true } });
    const history = new OpportunityHistory();
    const gate = hold('history:get', (args) => args[0].id === x!.id);
    const first = history.load(brandId, x!.id);
    await gate.reached;
    await history.load(brandId, y!.id);
    gate.release();
    await first;
    expect(history.isOf(brandId, y!.id)).toBe(true);
    expect(history.entries.every((e) => e.opportunity_id === y!.id)).toBe(true);
    failNext('history:get', 'The engine is busy');
    await history.load(brandId, y!.id);
    expect(history.error).toMatch(/The history could not be read: The engine is busy/);
    history.dispose();
  });
});

describe('RecordStore', () => {
  const app = new AppStore();
  const record = new RecordStore(app);
  beforeAll(async () => {
    await app.load();
    record.start();
  });
  afterAll(() => {
    record.dispose();
    app.dispose();
  });
  const lastToast = () => app.toasts.at(-1)?.text ?? '';

  it('exports the record to the chosen file; a cancelled dialog does nothing', async () => {
    const toasts = app.toasts.length;
    platform.saveAs = null;
    await record.exportRecord();
    expect(app.toasts.length).toBe(toasts);
    platform.saveAs = join(tmp.dir, 'moved.json');
    await record.exportRecord();
    expect(lastToast()).toMatch(/^Your record is saved in moved\.json: \d+ triaged, /);
    const file = JSON.parse(readFileSync(platform.saveAs, 'utf8'));
    expect(file).toMatchObject({ format: 'outreach-workbench-record', version: 3 });
    expect(record.busy).toBeNull();
  });

  it('imports a record after a preview with its conflict; the data reloads and a backup is listed', async () => {
    const brandId = sim.brands[0]!.id;
    const file = JSON.parse(readFileSync(join(tmp.dir, 'moved.json'), 'utf8'));
    const row = file.triage.find((t: { stage: string | null }) => t.stage !== null);
    // The same opportunity changed in the file later than here: a conflict the file wins.
    await direct('triage:apply', { brandId: row.brand_id, ids: [row.opportunity_id], action: { do: 'won' } });
    row.stage = 'Not a fit';
    row.stage_changed_at = new Date(Date.now() + 60_000).toISOString();
    writeFileSync(join(tmp.dir, 'incoming.json'), JSON.stringify(file));
    platform.openFrom = join(tmp.dir, 'incoming.json');
    await record.chooseImport();
    const p = record.importing!.preview;
    expect(p.conflictCount).toBe(1);
    expect(p.conflicts[0]).toMatchObject({ field: 'stage', local: 'Won', incoming: 'Not a fit', kept: 'incoming' });
    expect(p.triage.updated).toBe(1);
    const version = app.dataVersion;
    await record.confirmImport();
    expect(record.importing).toBeNull();
    expect(lastToast()).toMatch(/^Imported incoming\.json: .*1 conflict settled by the later change/);
    expect(app.dataVersion).toBe(version + 1);
    expect((await direct('opportunities:get', { brandId, id: row.opportunity_id })).triage.stage).toBe('Not a fit');
    expect(record.backups[0]!.reason).toBe('before-import');
  });

  it('a file that is not a record is refused in plain words beside the button; nothing changes', async () => {
    writeFileSync(join(tmp.dir, 'cut.json'), '{"format": "outreach-workbench-record", "version": 1, "triage": [');
    platform.openFrom = join(tmp.dir, 'cut.json');
    await record.chooseImport();
    expect(record.importing).toBeNull();
    expect(record.importError).toMatch(/^cut\.json: Nothing was imported\. The file is not a complete JSON document/);
    record.cancelImport();
    expect(record.importError).toBeNull();
  });

  it('restores a backup after the confirmation; the record as it was is backed up first', async () => {
    await record.loadBackups();
    const target = record.backups[0]!;
    record.askRestore(target);
    expect(record.restoring).toBe(target);
    await record.confirmRestore();
    expect(record.restoring).toBeNull();
    expect(lastToast()).toMatch(/^Restored the backup of .*: \d+ triaged, .*Your record as it was is kept as a backup too\.$/);
    expect(record.backups[0]!.reason).toBe('before-restore');
  });

  it('a do-not-contact CSV of several columns asks for the column, previews, then imports', async () => {
    writeFileSync(
      join(tmp.dir, 'dnc.csv'),
      'Name,Work mail,Site\nAna,ana@paper.example,paper.example\nBo,not-an-address,\nCy,cy@mag.example,mag.example\nDee,ana@paper.example,\n',
    );
    platform.openFrom = join(tmp.dir, 'dnc.csv');
    const version = record.version;
    await record.chooseDncImport();
    expect(record.dncImport!.preview).toBeNull();
    expect(record.dncImport!.columns).toEqual(['Name', 'Work mail', 'Site']);
    expect(record.dncError).toMatch(/Pick the column/);
    await record.previewDnc('Work mail');
    const p = record.dncImport!.preview!;
    expect(p).toMatchObject({ column: 'Work mail', rows: 4, toAdd: 2, skipped: 2 });
    expect(p.skippedReasons).toEqual({ 'not an e-mail address or domain': 1, 'repeated in the file': 1 });
    expect(record.dncError).toBeNull();
    await record.confirmDncImport();
    expect(record.dncImport).toBeNull();
    expect(lastToast()).toMatch(/^Added 2 entries to the do-not-contact list from dnc\.csv; 2 lines skipped\.$/);
    expect(record.version).toBe(version + 1);
    expect((await direct('dnc:list')).map((d: { value: string }) => d.value)).toEqual(expect.arrayContaining(['ana@paper.example', 'cy@mag.example']));
    platform.saveAs = join(tmp.dir, 'dnc-out.csv');
    await record.exportDnc();
    expect(lastToast()).toMatch(/^The do-not-contact list is saved in dnc-out\.csv: \d+ entries\.$/);
    expect(readFileSync(platform.saveAs, 'utf8')).toContain('cy@mag.example');
  });

  it('a menu command opens Settings at its part and starts the flow', async () => {
    app.show('opportunities');
    platform.saveAs = null;
    await record.command('export-record');
    expect(app.view).toBe('settings');
    expect(record.focus?.part).toBe('move');
    listeners.get('app:command')!.forEach((l) => l({ command: 'restore-backup' }));
    await until(() => record.focus?.part === 'backups');
    expect(record.backups.length).toBeGreaterThan(0);
  });
});

describe('AppStore: the recovery notice', () => {
  it('a recovery found while open is shown and the data reloads; dismissed, it stays dismissed', async () => {
    const app = new AppStore();
    await app.load();
    expect(app.recovery).toBeNull();
    const version = app.dataVersion;
    platform.emit('cache:recovered', { message: 'The cache file was damaged. It was kept aside.' });
    expect(app.recovery?.message).toBe('The cache file was damaged. It was kept aside.');
    expect(app.dataVersion).toBe(version + 1);
    await app.dismissRecovery();
    expect(app.recovery).toBeNull();
    await app.load();
    expect(app.recovery).toBeNull();
    app.dispose();
  });
});

describe('AppStore: a write waiting for another program', () => {
  it('the core’s word that a write waits (whom for, how long at most) is shown', async () => {
    const app = new AppStore();
    await app.load();
    platform.emit('cache:waiting', { message: 'Waiting for sqlite3 (process 4242), which is writing to the cache (/d/workbench.db); up to 30 s…' });
    expect(app.toasts.at(-1)?.text).toBe('Waiting for sqlite3 (process 4242), which is writing to the cache (/d/workbench.db); up to 30 s…');
    app.dispose();
  });
});

describe('PitchStore: the draft in the editor', () => {
  const app = new AppStore();
  const opps = new OpportunitiesStore(app);
  const pipeline = new PipelineStore(app, opps);
  const pitch = new PitchStore(app, opps, pipeline);
  let brandId: string;
  /** Opportunities with a personal address and a catch-all, and one more. */
  let mixed: string;
  let other: string;
  const lastToast = () => app.toasts.at(-1);
  beforeAll(async () => {
    await app.load();
    brandId = sim.brands[0]!.id;
    app.selectBrand(brandId);
    await opps.reload();
    const { items } = await direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 1000 });
    for (const it of items as { id: string; catch_all_count: number; contact_count: number; stage: string | null }[]) {
      if (it.stage !== null) continue;
      const v = await direct('drafts:get', { brandId, id: it.id, kind: 'pitch' });
      const personal = v.recipients.some((r: { catchAll: boolean; role: boolean }) => !r.catchAll && !r.role);
      const catchAll = v.recipients.some((r: { catchAll: boolean }) => r.catchAll);
      if (!mixed && personal && catchAll && (await direct('opportunities:get', { brandId, id: it.id })).raw.author_name) mixed = it.id;
      else if (!other && v.recipients.length) other = it.id;
      if (mixed && other) break;
    }
    expect(mixed && other).toBeTruthy();
  });
  afterAll(async () => {
    pitch.dispose();
    pipeline.dispose();
    opps.dispose();
    app.dispose();
    await until(() => inflight === 0);
  });

  it('opens the service pitch with the personal addresses chosen (never a catch-all); typing saves after a pause and the stage moves to Drafted', async () => {
    await pitch.follow(brandId, mixed, 'pitch');
    const service = await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    expect(pitch.isOf(brandId, mixed)).toBe(true);
    expect(pitch.body).toBe(service.service.body);
    expect(pitch.to.length).toBeGreaterThan(0);
    for (const r of pitch.view!.recipients) expect(pitch.chosen.has(r.email)).toBe(!r.catchAll && !r.role);
    pitch.edit('body', 'Hi {first_name}, a short note on {article_title}.');
    expect(pitch.saveState).toBe('unsaved');
    await new Promise((r) => setTimeout(r, SAVE_AFTER_MS / 2));
    expect((await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft).toBeNull(); // not before the pause
    await until(() => pitch.saveState === 'saved' && pitch.view?.draft !== null);
    expect((await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.body).toBe('Hi {first_name}, a short note on {article_title}.');
    const first = (await direct('opportunities:get', { brandId, id: mixed })).raw.author_name.split(' ')[0];
    expect(pitch.view!.filled.body.startsWith(`Hi ${first},`)).toBe(true);
    expect(pitch.unfilled).toEqual([]);
    expect(
      segments(pitch.body, pitch.states)
        .filter((x) => x.state)
        .map((x) => [x.text, x.state]),
    ).toEqual([
      ['{first_name}', 'filled'],
      ['{article_title}', 'filled'],
    ]);
    expect((await direct('opportunities:get', { brandId, id: mixed })).item.stage).toBe('Drafted');
  });

  it('the catch-all alone: {first_name} is listed unfilled and a send waits for "open anyway"; then y marks it contacted with the addresses used', async () => {
    const personal = pitch.view!.recipients.filter((r) => pitch.chosen.has(r.email)).map((r) => r.email);
    const catchAll = pitch.view!.recipients.find((r) => r.catchAll)!.email;
    pitch.toggleRecipient(catchAll);
    for (const e of personal) pitch.toggleRecipient(e);
    await until(() => pitch.unfilled.length === 1 && inflight === 0);
    expect(pitch.filledFor?.email).toBe(catchAll);
    expect(unfilledText(pitch.unfilled[0]!, { recipient: pitch.filledFor, author: 'Ana Lopez', domain: null, title: null, url: null, senderName: '' })).toBe(
      "{first_name} can't be filled: the chosen address is a catch-all",
    );
    expect(segments(pitch.body, pitch.states).find((x) => x.text === '{first_name}')?.state).toBe('unfilled');
    const opened = platform.opened.length;
    await pitch.send('gmail');
    expect(pitch.pending).toBe('gmail');
    expect(platform.opened.length).toBe(opened);
    pitch.cancelSend();
    for (const e of personal) pitch.toggleRecipient(e);
    pitch.toggleRecipient(catchAll);
    await until(() => pitch.unfilled.length === 0 && inflight === 0);
    await pitch.send('gmail');
    expect(platform.opened.length).toBe(opened + 1);
    const url = new URL(platform.opened.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://mail.google.com/mail/');
    expect(url.searchParams.get('to')).toBe(personal.join(','));
    expect(url.searchParams.get('body')).toBe(pitch.view!.filled.body);
    expect(pitch.sent?.to).toEqual(personal);
    await pitch.confirmSent();
    expect(pitch.sent).toBeNull();
    expect(lastToast()?.text).toBe(`Marked contacted today: ${personal.join(', ')}.`);
    const d = await direct('opportunities:get', { brandId, id: mixed });
    expect(d.item.stage).toBe('Contacted');
    expect(d.item.contacted_at).toBe(service.today());
  });

  it('moving to another opportunity saves the text typed before it at once; an answer for the one left is never shown', async () => {
    pitch.edit('body', 'Typed, then moved away at once.');
    const held = hold('drafts:get', ([a]) => a.id === other);
    const moving = pitch.follow(brandId, other, 'pitch');
    await held.reached;
    // The text of the one left was saved without waiting for the pause.
    await until(() => inflight === 1);
    expect((await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.body).toBe('Typed, then moved away at once.');
    expect(pitch.view).toBeNull();
    held.release();
    await moving;
    expect(pitch.isOf(brandId, other)).toBe(true);
    expect(pitch.body).toBe((await direct('drafts:get', { brandId, id: other, kind: 'pitch' })).text.body);

    // An answer for the draft the editor has left is dropped.
    const late = hold('drafts:get', ([a]) => a.id === other && a.kind === 'followup');
    const switching = pitch.switchKind('followup');
    await late.reached;
    await pitch.follow(brandId, mixed, 'pitch');
    late.release();
    await switching;
    expect(pitch.isOf(brandId, mixed)).toBe(true);
    expect(pitch.kind).toBe('pitch');
    expect(pitch.body).toBe('Typed, then moved away at once.');
  });

  it('a failed save says why and is tried again; reset brings the service text back', async () => {
    failNext('drafts:save', 'The cache is busy; try again.');
    pitch.edit('subject', 'A new subject');
    await pitch.flush();
    expect(pitch.saveState).toBe('error');
    expect(lastToast()).toMatchObject({ kind: 'error', text: 'The draft could not be saved: The cache is busy; try again.' });
    await pitch.flush();
    expect(pitch.saveState).toBe('saved');
    expect((await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.subject).toBe('A new subject');
    pitch.askReset();
    expect(pitch.askingReset).toBe(true);
    await pitch.confirmReset();
    const v = await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    expect(v.draft).toBeNull();
    expect(pitch.subject).toBe(v.service.subject);
    expect(pitch.body).toBe(v.service.body);
  });

  it('snippets: added, listed by kind, removed', async () => {
    const snippets = new SnippetsStore(app);
    await snippets.load();
    expect(await snippets.save({ kind: 'other', name: '  ', text: 'x' })).toBe(false);
    expect(snippets.error).toBe('Give the snippet a name.');
    expect(await snippets.save({ kind: 'signoff', name: 'Thanks', text: 'Thanks,\n{sender_name}' })).toBe(true);
    expect(await snippets.save({ kind: 'opening', name: 'Warm', text: 'Hi {first_name},' })).toBe(true);
    expect(snippets.list.map((x) => [x.kind, x.name])).toEqual([
      ['opening', 'Warm'],
      ['signoff', 'Thanks'],
    ]);
    const warm = snippets.list[0]!;
    expect(await snippets.save({ id: warm.id, kind: 'opening', name: 'Warmer', text: 'Hello {first_name},' })).toBe(true);
    expect(snippets.list.find((x) => x.id === warm.id)?.text).toBe('Hello {first_name},');
    expect(await snippets.remove(warm.id)).toBe(true);
    expect(snippets.list.map((x) => x.name)).toEqual(['Thanks']);
    snippets.dispose();
  });

  it('the Due chip has no count (a placeholder, never a wrong 0) until the follow-ups are counted', async () => {
    const fresh = new PipelineStore(app, opps);
    try {
      expect(fresh.dueHere).toBeNull();
      await fresh.refreshDue();
      const due = await direct('pipeline:due');
      expect(fresh.dueHere).toBe(due.byBrand[brandId] ?? 0);
    } finally {
      fresh.dispose();
    }
  });

  it('stages, snooze and the Due and Snoozed views, in bulk for a selection', async () => {
    await opps.reload();
    const ids = [opps.itemAt(0)!.id, opps.itemAt(1)!.id];
    opps.toggleSelect(0);
    opps.toggleSelect(1);
    await pipeline.setStage('Not a fit', 'Paywalled or closed');
    expect(lastToast()?.text).toBe('2 opportunities moved to Not a fit (Paywalled or closed).');
    expect(opps.selected.size).toBe(0);
    for (const id of ids) expect((await direct('opportunities:get', { brandId, id })).item.stage).toBe('Not a fit');
    await direct('triage:apply', { brandId, ids, action: { do: 'stage', stage: 'New' } });

    await opps.reload();
    const snoozed = opps.itemAt(0)!.id;
    opps.moveTo(0);
    await pipeline.snooze(addDays(service.today(), 1));
    expect(opps.itemAt(0)?.id).not.toBe(snoozed);
    pipeline.showView('snoozed');
    await until(() => !opps.loading && opps.itemAt(0)?.id === snoozed);
    expect(opps.total).toBe(1);
    opps.moveTo(0);
    await pipeline.snooze(null);
    expect(lastToast()?.text).toBe('It is back in the list.');
    expect(opps.total).toBe(0);
    pipeline.showView('snoozed'); // again: the whole list
    await until(() => !opps.loading && opps.total > 1);
    expect(opps.filter.view).toBeUndefined();

    // Nothing is due today: contacted today is not due for three days.
    await pipeline.refreshDue();
    expect(pipeline.due?.byBrand[brandId] ?? 0).toBe(0);
    pipeline.showView('due');
    await until(() => !opps.loading);
    expect(opps.total).toBe(0);
    pipeline.showView(undefined);
    await until(() => !opps.loading && opps.total > 1);
  });

  it('grouped by publication: sorted by domain with each outlet counted; another sort ends it', async () => {
    pipeline.toggleGroup();
    await until(() => !opps.loading && Object.keys(pipeline.domains).length > 0);
    expect(opps.filter.sort).toBe('domain');
    const first = opps.itemAt(0)!.domain.toLowerCase();
    expect(pipeline.domains[first]).toBe((await direct('opportunities:domains', { brandId, sort: 'domain' }))[first]);
    opps.setFilter({ sort: 'fit' });
    expect(pipeline.grouped).toBe(false);
    pipeline.toggleGroup();
    pipeline.toggleGroup();
    expect(opps.filter.sort).toBe('fit');
    await until(() => !opps.loading && inflight === 0);
  });

  it('"Mark contacted today" (and C) goes through the core: its today, stage Contacted, once; Clear takes the date and the stage back', async () => {
    pipeline.showView(undefined);
    await opps.reload();
    let i = 0;
    while (opps.itemAt(i) && (opps.itemAt(i)!.stage !== null || opps.itemAt(i)!.contacted_at)) i++;
    opps.moveTo(i);
    const id = opps.itemAt(i)!.id;
    failNext('triage:apply', 'The cache is busy; try again.');
    await pipeline.markContacted();
    expect(lastToast()).toMatchObject({ kind: 'error', text: 'The contacted date could not be saved: The cache is busy; try again.' });
    await pipeline.markContacted();
    expect(lastToast()?.text).toBe('Marked contacted today.');
    let d = await direct('opportunities:get', { brandId, id });
    expect(d.item).toMatchObject({ stage: 'Contacted', contacted_at: service.today() });
    expect(opps.itemAt(i)).toMatchObject({ id, stage: 'Contacted', contacted_at: service.today() });
    await pipeline.markContacted();
    expect(lastToast()?.text).toMatch(/^Already marked contacted on /);
    await pipeline.unmarkContacted();
    d = await direct('opportunities:get', { brandId, id });
    expect(d.item).toMatchObject({ stage: null, contacted_at: null });
    expect(opps.itemAt(i)).toMatchObject({ id, stage: null, contacted_at: null });
  });

  it('p before the editor has read the draft copies the draft filled as it would go out, never the service text', async () => {
    pitch.close();
    await direct('drafts:save', { brandId, id: mixed, kind: 'pitch', subject: 'For {publication}', body: 'Hi {first_name}, one line on {article_title}.' });
    const outreach = new OutreachActions(app, opps);
    // Only the row with the draft: the cursor is on it, its detail and the editor not read yet.
    opps.setFilter({ ids: [mixed] });
    await until(() => opps.active?.id === mixed);
    expect(pitch.isOf(brandId, mixed)).toBe(false);
    await outreach.copyPitch();
    const v = await direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    const first = (await direct('opportunities:get', { brandId, id: mixed })).raw.author_name.split(' ')[0];
    expect(platform.clipboard).toBe(copyPitch(v.filled.subject, v.filled.body));
    expect(platform.clipboard).toContain(`Hi ${first}, one line on `);
    expect(platform.clipboard).not.toContain('{');
    expect(platform.clipboard).not.toContain(v.service.body.slice(0, 40));
    expect(lastToast()?.text).toBe('Copied the pitch.');
    opps.setFilter({ ids: undefined });
    await until(() => opps.total > 1);
  });
});

describe("the editor's text helpers", () => {
  it('a line diff keeps what both have and marks what went and what came', () => {
    expect(lineDiff('Hi [Name],\nOld line\nBest', 'Hi [Name],\nNew line\nAnother\nBest')).toEqual([
      { op: ' ', text: 'Hi [Name],' },
      { op: '-', text: 'Old line' },
      { op: '+', text: 'New line' },
      { op: '+', text: 'Another' },
      { op: ' ', text: 'Best' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ op: ' ', text: 'same' }]);
  });

  it('tokens are filled, unfilled, or not known yet (typed since the last answer)', () => {
    const view = {
      text: { subject: '', body: 'Hi {first_name} at {publication}' },
      unfilled: [{ token: '{first_name}', field: 'first_name', part: 'body' }],
    } as any;
    expect(segments('{publication}: {first_name}, [Whatever] {brand}', fieldStates(view)).map((x) => [x.text, x.state])).toEqual([
      ['{publication}', 'filled'],
      [': ', null],
      ['{first_name}', 'unfilled'],
      [', ', null],
      ['[Whatever]', 'unfilled'],
      [' ', null],
      ['{brand}', 'pending'],
    ]);
  });
});

describe('ExportJob: cancel', () => {
  it('cancel stops the export (also when asked while main is starting it): it ends as cancelled, no file is left, its events are let go', async () => {
    const { existsSync, readdirSync } = await import('node:fs');
    const app = new AppStore();
    const opps = new OpportunitiesStore(app);
    const job = new ExportJob(app, opps);
    const options = { brandId: sim.brands[0]!.id, preset: 'contacts' as const, markExported: false };
    const left = (name: string) => readdirSync(tmp.dir).filter((f) => f.startsWith(name));
    const before = listenerCount();
    platform.saveAs = join(tmp.dir, 'cancelled.csv');
    await job.save(options, 'cancelled.csv');
    expect(job.busy).toBe(true);
    await job.cancel();
    await until(() => !job.busy);
    expect({ cancelled: job.cancelled, error: job.error, result: job.result }).toEqual({ cancelled: true, error: null, result: null });
    expect(existsSync(platform.saveAs)).toBe(false);
    expect(left('cancelled.csv')).toEqual([]);
    expect(listenerCount()).toBe(before);

    // Cancel pressed before main has named the job: sent as soon as it does.
    const starting = hold('export:start');
    platform.saveAs = join(tmp.dir, 'cancelled-2.xlsx');
    const saving = job.save({ ...options, format: 'xlsx' }, 'cancelled-2.xlsx');
    await starting.reached;
    expect(job.cancelled).toBe(false);
    await job.cancel();
    starting.release();
    await saving;
    await until(() => !job.busy);
    expect(job.cancelled).toBe(true);
    expect(job.error).toBeNull();
    expect(left('cancelled-2.xlsx')).toEqual([]);
    expect(listenerCount()).toBe(before);
    await job.cancel(); // nothing running: nothing to do
    job.dispose();
    opps.dispose();
    app.dispose();
    await until(() => inflight === 0);
  });
});
