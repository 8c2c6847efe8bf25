// Reading the cache, through the app's own handlers: counts that agree
// everywhere (the brand menu, the list's total, the chips), every search
// match counted and paged (no cap), Best match while searching, each row with
// the value it is sorted by; reads that never write; and never locked out:
// without a usable key the cache opens and reads as it is, and only a sync
// asks for the key. A fresh app per test.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Keychain } from '../../../electron/core/app/keys';
import { KeychainError } from '../../../electron/core/secrets';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { sql } from '../../../electron/core/store/sql';
import type { ListFilter } from '../../../shared/model';
import { openApp, type TestApp } from '../../support/app';
import { FakeKeychain } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';
import { appState } from '../../../electron/core/app/app-state';

let sim: Simulator;
let brandId: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 35, opportunities: 400, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brandId = sim.brands[0]!.id;
  const base = { opportunity_type: 'publication-gap', status: 'New', archived: false, contact_emails: ['ed@quux.example'], domain: 'quux.example' };
  // A word in the title says more than the same word in the body: Best match puts it first, whatever the priority.
  sim.inject(brandId, { ...base, _id: 'in-title', title: 'Zephyrine kettles ranked', pitch_body: 'About kettles.', priority_score: 1 });
  sim.inject(brandId, { ...base, _id: 'in-body', title: 'Kettles ranked', pitch_body: 'A zephyrine note.', priority_score: 99 });
});
afterAll(() => sim.close());

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

/** An app (on `dir` when given, a new folder else), with the demo key unless another keychain is given. */
async function app(keychain?: Keychain, dir?: { dir: string; cleanup(): void }) {
  const a = await openApp({ key: DEMO_KEY, keychain, dir, today: () => '2026-11-23' });
  apps.push(a);
  a.s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, syncOnLaunch: false });
  return a;
}

async function synced() {
  const a = await app();
  a.s.parts.sync.start({});
  await a.s.settle();
  return a;
}

describe('counts that agree everywhere', () => {
  it("the brand menu's count is the list's total with no filter, and the chips' total; Not a fit and snoozed ones leave all three", async () => {
    const a = await synced();
    const agree = async () => {
      const brand = (await a.call('brands:list')).find((b) => b.id === brandId)!;
      const view = await a.call('opportunities:view', { filter: { brandId }, limit: 10 });
      expect(brand.opportunities).toBe(view.total);
      expect(view.counts!.total).toBe(view.total);
      return view.total;
    };
    const before = await agree();
    const [x, y] = (await a.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 2 })).items.map((o) => o.id);
    await a.call('triage:apply', { brandId, ids: [x!], action: { do: 'not-a-fit', reason: null } });
    await a.call('triage:apply', { brandId, ids: [y!], action: { do: 'snooze', until: '2026-12-01' } });
    expect(await agree()).toBe(before - 2);
    // What the list leaves out is asked for by name: archived (Trakkr's flag, and Not a fit) and the Snoozed view.
    const withArchived = (await a.call('opportunities:view', { filter: { brandId, includeArchived: true }, limit: 1 })).total;
    expect(withArchived).toBeGreaterThan(before - 2);
    expect((await a.call('opportunities:view', { filter: { brandId, view: 'snoozed' }, limit: 1 })).total).toBe(1);
  });
});

describe('group by publication: a head per outlet', () => {
  it("each outlet of the list in the list's own order, with its count and stage mix, under the list's filter", async () => {
    const a = await synced();
    const filter: ListFilter = { brandId, sort: 'domain' };
    const rows = (await a.call('opportunities:list', { filter, offset: 0, limit: 1000 })).items;
    // The outlet with most rows: two of them moved on, so its mix has three stages.
    const runs: { domain: string; ids: string[] }[] = [];
    for (const r of rows) {
      const d = (r.domain ?? '').toLowerCase();
      if (runs.at(-1)?.domain !== d) runs.push({ domain: d, ids: [] });
      runs.at(-1)!.ids.push(r.id);
    }
    const big = runs.reduce((m, r) => (r.ids.length > m.ids.length ? r : m));
    expect(big.ids.length).toBeGreaterThanOrEqual(3);
    await a.call('triage:apply', { brandId, ids: [big.ids[0]!], action: { do: 'contacted', addresses: [] } });
    await a.call('triage:apply', { brandId, ids: [big.ids[1]!], action: { do: 'stage', stage: 'Replied' } });
    const heads = await a.call('opportunities:outlets', filter);
    // Same outlets, same order, same sizes as the rows the list pages out.
    expect(heads.map((h) => [h.domain.toLowerCase(), h.total])).toEqual(runs.map((r) => [r.domain, r.ids.length]));
    const head = heads.find((h) => h.domain.toLowerCase() === big.domain)!;
    expect(head.stages).toEqual({ Contacted: 1, Replied: 1, New: big.ids.length - 2 });
    // The filter holds: only the Contacted one, at its outlet.
    expect(await a.call('opportunities:outlets', { ...filter, stage: 'Contacted' })).toEqual([{ domain: head.domain, total: 1, stages: { Contacted: 1 } }]);
  });
});

describe('search', () => {
  it('counts every match and pages through all of them after a row (no cap)', async () => {
    const a = await synced();
    const filter: ListFilter = { brandId, search: 'e', includeArchived: true };
    const first = await a.call('opportunities:list', { filter, offset: 0, limit: 100 });
    expect(first.total).toBeGreaterThan(100);
    const seen = new Set(first.items.map((o) => o.id));
    for (let next = first.next; next; ) {
      const p = await a.call('opportunities:list', { filter, offset: 0, limit: 100, after: next });
      for (const o of p.items) seen.add(o.id);
      next = p.next;
    }
    expect(seen.size).toBe(first.total);
  });

  it('Best match puts the word in a title before the same word in a body; each row carries the value it is sorted by', async () => {
    const a = await synced();
    const best = await a.call('opportunities:view', { filter: { brandId, search: 'zephyrine', sort: 'relevance' }, limit: 10 });
    expect(best.items.map((o) => o.id)).toEqual(['in-title', 'in-body']);
    expect(best.items[0]!.sort_value as number).toBeLessThan(best.items[1]!.sort_value as number);
    const byPriority = await a.call('opportunities:view', { filter: { brandId, search: 'zephyrine', sort: 'priority' }, limit: 10 });
    expect(byPriority.items.map((o) => [o.id, o.sort_value])).toEqual([
      ['in-body', 99],
      ['in-title', 1],
    ]);
    // Without a search, Best match is the priority order.
    const plain = await a.call('opportunities:list', { filter: { brandId, sort: 'relevance' }, offset: 0, limit: 5 });
    const prio = await a.call('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 5 });
    expect(plain.items.map((o) => o.id)).toEqual(prio.items.map((o) => o.id));
    const titles = await a.call('opportunities:list', { filter: { brandId, sort: 'title' }, offset: 0, limit: 3 });
    expect(titles.items.map((o) => o.sort_value)).toEqual(titles.items.map((o) => o.title));
  });
});

describe('reads never write', () => {
  it('a read face refuses a statement that writes, even to a temporary table', async () => {
    const a = await app();
    a.s.cache.writable.run(sql`CREATE TEMP TABLE IF NOT EXISTS scratch (x INTEGER)`);
    expect(() => a.s.cache.readable.all(sql`INSERT INTO temp.scratch (x) VALUES (1) RETURNING x`)).toThrow(/A read may not write/);
    expect(() => a.s.cache.readable.get(sql`DELETE FROM triage RETURNING brand_id`)).toThrow(/A read may not write/);
    expect(a.s.cache.readable.get(sql`SELECT 1 AS one`)).toEqual({ one: 1 });
  });

  it('every read the window makes leaves the file as it was (counting the follow-ups due applies no rule)', async () => {
    const a = await synced();
    const first = (await a.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 })).items[0]!;
    const [id, outlet] = [first.id, first.domain ?? 'none'];
    // Followed up long ago: the no-reply rule would move it, and only the rule (at launch, then hourly) may.
    await a.call('triage:apply', { brandId, ids: [id], action: { do: 'followed-up', on: '2026-10-01' } });
    const other = new Database(a.s.cache.path, { readonly: true });
    const version = () => other.pragma('data_version', { simple: true });
    const v0 = version();
    const reads: [string, unknown[]][] = [
      ['brands:list', []],
      ['opportunities:view', [{ filter: { brandId, search: 'ke', sort: 'relevance' }, limit: 50 }]],
      ['opportunities:list', [{ filter: { brandId, alreadyPitched: false }, offset: 0, limit: 50 }]],
      ['opportunities:counts', [{ brandId, view: 'due' }]],
      ['opportunities:get', [{ brandId, id }]],
      ['opportunities:domains', [{ brandId, sort: 'domain' }]],
      ['opportunities:outlets', [{ brandId, sort: 'domain', search: 'ke' }]],
      ['outlets:ids', [{ filter: { brandId, sort: 'domain', alreadyPitched: false }, domain: outlet }]],
      ['outlets:plan', [{ brandId, ids: [id] }]],
      ['pipeline:due', []],
      ['history:get', [{ brandId, id }]],
      ['drafts:get', [{ brandId, id, kind: 'followup' }]],
      ['pipeline:warnings', [{ brandId, id, addresses: [] }]],
      // The export's rows and its do-not-contact count, read through the read-only face.
      ['export:preview', [{ brandId, filter: { includeArchived: true }, preset: 'contacts', unfilled: 'keep', mailText: 'guard' }]],
      ['export:preview', [{ brandId, filter: { search: 'ke' }, preset: 'opportunities', unfilled: 'keep', mailText: 'guard' }]],
      ['dnc:list', []],
      ['snippets:list', []],
      ['app:state', []],
    ];
    for (const [m, args] of reads) await (a.call as (m: string, ...x: unknown[]) => Promise<unknown>)(m, ...args);
    expect(version()).toBe(v0);
    other.close();
    expect((await a.call('opportunities:get', { brandId, id }))!.item.stage).toBe('Followed up');
  });
});

/** A keychain that cannot be read at all: every call fails, as a locked or broken system keychain can (the real store throws KeychainError). */
class BrokenKeychain extends FakeKeychain {
  override async state(): Promise<never> {
    throw new KeychainError('locked', 'The keychain is locked.');
  }
  override async get(): Promise<never> {
    throw new KeychainError('locked', 'The keychain is locked.');
  }
}

describe('never locked out of your data', () => {
  for (const [what, keychain] of [
    ['the key removed', () => new FakeKeychain()],
    ['the keychain locked', () => new FakeKeychain('locked')],
    ['no keychain on this computer', () => new FakeKeychain('unavailable')],
    ['the keychain failing outright', () => new BrokenKeychain()],
  ] as const) {
    it(`${what}: the cache opens and reads as it is; launch works; only a sync asks for the key`, async () => {
      const dir = tempDir();
      const first = await app(undefined, dir);
      first.s.parts.sync.start({});
      await first.s.settle();
      const total = (await first.call('opportunities:view', { filter: { brandId }, limit: 1 })).total;
      const id = (await first.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 })).items[0]!.id;
      await first.call('triage:apply', { brandId, ids: [id], action: { do: 'note', text: 'written with a key' } });
      // Closed, the folder kept: the same cache opens again below.
      await first.s.close();
      apps.splice(0);

      const later = await app(keychain(), dir);
      const state = await appState(later.s.parts).catch((e: unknown) => e);
      expect(state).toMatchObject({ brands: [expect.objectContaining({ id: brandId, opportunities: total })] });
      expect((await later.call('opportunities:view', { filter: { brandId }, limit: 5 })).total).toBe(total);
      expect((await later.call('opportunities:get', { brandId, id }))!.triage.note).toBe('written with a key');
      await later.call('triage:apply', { brandId, ids: [id], action: { do: 'star', on: true } });
      await expect(later.s.launch()).resolves.toBeUndefined();
      expect(later.s.parts.sync.state().running).toBe(false);
      // A sync is what needs the key: it says so, and the cache is as it was.
      later.s.parts.sync.start({});
      await later.s.settle();
      expect(later.s.parts.sync.state().lastSummary?.error?.kind).toMatch(/^(no-key|keychain-locked|keychain-unavailable)$/);
      expect((await later.call('opportunities:view', { filter: { brandId }, limit: 1 })).total).toBe(total);
    });
  }
});
