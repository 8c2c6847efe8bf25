// Version 11's derived tables on a real SQLite file: the facets and the
// summary are kept by triggers through every write the app makes (the sync's
// inserts, updates and removals, the triage mirror, undo), so they always say
// what the opportunities say; and a search with many matches (the page walks
// the sort's index, the total and chip counts join the matches to the facets)
// gives the rows, order, total and counts that the opportunities themselves give.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import { applyAction, undoAction } from '../../../electron/core/app/triage';
import { Cache } from '../../../electron/core/store/cache';
import { clearTriage } from '../../../electron/core/store/triage';
import {
  chipCountsAndTotal,
  listPage,
  listSql,
  listTotal,
  pipelineDays,
  prepareList,
  SEARCH_TOTAL_CAP,
  shownTotal,
  type After,
  type ListQuery,
} from '../../../electron/core/store/opportunity-list';
import { list, view } from '../../../electron/core/app/opportunities';
import type { ListFilter, ListItem, ListSort } from '../../../shared/model';
import { act, detail, setTriage, setTriageMany } from '../../support/store';
import { addDays } from '../../../shared/calendar';
import { tempDir } from '../../support/tmp';
import { backToVersion11 } from '../../support/version-11';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';
import { filterSql } from '../../../electron/core/store/opportunity-filter';
import { STEP } from '../../../electron/core/store/list-jump';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const B = 'brand-counted';
const OTHER = 'brand-other';
const COLUMNS = 'brand_key, removed_on_server, archived, stage, snoozed_until, status, opportunity_type, difficulty, starred, contact_count, catch_all_count';
const N = 3000;
const opp = (i: number, v = 0) => ({
  _id: `id${i}`,
  opportunity_type: ['publication-gap', 'low-hanging-fruit', 'competitor-mention'][(i + v) % 3],
  domain: `site${i % 11}.com`,
  // Most rows match "coffee" (more than the 2,000 a search starts from): the page walks the sort's index.
  title: i % 5 === 0 ? `Tea number ${i}` : `Coffee number ${i}`,
  status: ['New', 'In Progress', 'Done', 'Archived'][(i + v) % 4],
  archived: i % 10 === 9,
  difficulty: ['Easy', 'Medium', 'Hard'][i % 3],
  priority_score: i % 13 === 0 ? undefined : (i * 37) % 101,
  pitch_body: 'Body',
  contact_emails: (i + v) % 4 === 0 ? [] : (i + v) % 4 === 1 ? [`a${i}@site.com`] : [`a${i}@site.com`, `tips@site${i}.com CATCH`],
});

/** The facets and the summary, and what the opportunities themselves say they should hold. */
function derivedAgree(cache: Cache): void {
  const db = cache.db;
  expect(db.prepare(`SELECT rowid, ${COLUMNS} FROM opportunity_facets ORDER BY rowid`).all()).toEqual(
    db.prepare(`SELECT rowid, ${COLUMNS} FROM opportunities ORDER BY rowid`).all(),
  );
  const groups = COLUMNS.replace('contact_count', 'contact_count > 0').replace('catch_all_count', 'catch_all_count > 0');
  const order = COLUMNS.split(', ')
    .map((_, i) => i + 1)
    .join(', ');
  expect(db.prepare(`SELECT ${COLUMNS}, n FROM opportunity_summary ORDER BY ${order}`).raw(true).all()).toEqual(
    db.prepare(`SELECT ${groups}, count(*) FROM opportunities GROUP BY ${order} ORDER BY ${order}`).raw(true).all(),
  );
}

/** A cache of this test alone (closed when it finishes) holding `n` opportunities of B. */
async function cacheOf(name: string, n: number): Promise<Cache> {
  const c = await Cache.open(join(tmp.dir, name));
  onTestFinished(() => c.close());
  c.tx(() =>
    c.opportunities.upsertPage(
      B,
      Array.from({ length: n }, (_, i) => opp(i)),
      1,
      '2026-11-01T00:00:00Z',
    ),
  );
  return c;
}

/**
 * A cache of `n` opportunities of B in which a twelfth each are starred, snoozed, and Contacted long ago (due, when it
 * has an address): sparse lists with their partial indexes (migration 15). `ran` notes every statement a read runs (to
 * tell which index a jump's walk read); `read` asks a page of a list as the window does, `whole` the list read whole.
 */
async function sparseLists(name: string, n: number) {
  const c = await cacheOf(name, n);
  const every12 = (d: number) => Array.from({ length: n / 12 }, (_, k) => `id${k * 12 + d}`);
  setTriageMany(c, B, every12(3), { starred: true });
  setTriageMany(c, B, every12(5), { snoozed_until: '2099-01-01' });
  setTriageMany(c, B, every12(7), { stage: 'Contacted', contacted_at: '2026-01-01' });
  const ran: string[] = [];
  const db = c.readable;
  const tuples = db.tuples.bind(db);
  db.tuples = ((q: { text: string }) => (ran.push(q.text), tuples(q as never))) as typeof db.tuples;
  const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
  const asked = (f: Omit<ListFilter, 'brandId'>) => prepareList(c.writable, { brandId: B, ...f }, c.days());
  return {
    c,
    ran,
    ids,
    read: (f: Omit<ListFilter, 'brandId'>, p: { limit: number; offset?: number; after?: After }) => listPage(db, asked(f), p),
    whole: (f: Omit<ListFilter, 'brandId'>) => ids(listPage(db, { ...asked(f), jumps: null }, { limit: 5000 })),
  };
}

/** A cache holding N opportunities of B (one triage written before its opportunity arrived) and 50 of OTHER. */
async function filled(name: string): Promise<Cache> {
  const c = await Cache.open(join(tmp.dir, name));
  // A triage written before its opportunity arrives (a restored record): the sync's writer mirrors it.
  setTriage(c, B, 'id7', { stage: 'Replied', starred: true });
  c.tx(() =>
    c.opportunities.upsertPage(
      B,
      Array.from({ length: N }, (_, i) => opp(i)),
      1,
      '2026-11-01T00:00:00Z',
    ),
  );
  c.tx(() =>
    c.opportunities.upsertPage(
      OTHER,
      Array.from({ length: 50 }, (_, i) => opp(i)),
      1,
      '2026-11-01T00:00:00Z',
    ),
  );
  return c;
}

/** The same query read as before version 11: the total and chip counts from the opportunities' own chip index. */
const fromIndex = (q: ListQuery): ListQuery => ({ ...q, counted: 'index' });

describe('the facets and the summary (version 11)', () => {
  it('a version 10 file with opportunities and triage gets both, filled from what it holds', async () => {
    const path = join(tmp.dir, 'v10.db');
    const v10 = await Cache.open(path);
    v10.tx(() =>
      v10.opportunities.upsertPage(
        B,
        Array.from({ length: 300 }, (_, i) => opp(i)),
        1,
        '2026-11-01T00:00:00Z',
      ),
    );
    applyAction(v10, B, ['id1', 'id2'], { do: 'stage', stage: 'Won' }, { today: '2026-11-10', senderName: '' });
    // Back to version 10: what versions 13, 12 and 11 changed taken out (they changed nothing else).
    backToVersion11(v10.db);
    v10.db.exec(`DROP TABLE opportunity_facets; DROP TABLE opportunity_summary;
      DROP TRIGGER opportunities_faceted; DROP TRIGGER opportunities_refaceted; DROP TRIGGER opportunities_unfaceted;`);
    v10.db.pragma('user_version = 10');
    v10.close();
    const v11 = await Cache.open(path);
    expect(v11.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(v11.db.prepare("SELECT sum(n) AS n FROM opportunity_summary WHERE stage = 'Won'").get()).toEqual({ n: 2 });
    derivedAgree(v11);
    v11.close();
  });

  // The cache the reading tests share (they only read it); the test that writes through every path opens its own.
  let cache: Cache;
  beforeAll(async () => {
    cache = await filled('counted.db');
  });
  afterAll(() => cache.close());

  it('say what the opportunities say through every write: sync inserts, updates and removals, the triage mirror, undo, the triage cleared', async () => {
    // Its own cache: what it writes never reaches the tests that read the shared one.
    const cache = await filled('written.db');
    onTestFinished(() => cache.close());
    derivedAgree(cache);
    const days = { today: '2026-11-10', senderName: '' };
    applyAction(cache, B, ['id1', 'id2', 'id3'], { do: 'stage', stage: 'Contacted' }, days);
    applyAction(cache, B, ['id4'], { do: 'star', on: true }, days);
    applyAction(cache, B, ['id5', 'id6'], { do: 'snooze', until: '2026-12-01' }, days);
    applyAction(cache, B, ['id8'], { do: 'not-a-fit', reason: 'off topic' }, days);
    expect(
      cache.db.prepare("SELECT count(*) AS n FROM opportunity_facets WHERE stage = 'Contacted' OR starred = 1 OR snoozed_until IS NOT NULL").get(),
    ).toEqual({ n: 7 });
    derivedAgree(cache);
    undoAction(cache, { brandId: B });
    derivedAgree(cache);
    // A second pass: some records change status, type and contacts, others are no longer on the server.
    cache.tx(() => {
      cache.opportunities.upsertPage(
        B,
        Array.from({ length: N - 100 }, (_, i) => opp(i, i % 2)),
        2,
        '2026-11-02T00:00:00Z',
      );
      cache.opportunities.markUnseenRemoved(B, 2, '2026-11-02T00:00:00Z');
    });
    derivedAgree(cache);
    // Every triage cleared (a record file imported in its place): the mirror's delete trigger, then ours.
    cache.tx(() => clearTriage(cache.writable));
    derivedAgree(cache);
    // A record deleted outright (no app path does it today; the triggers still follow).
    cache.db.prepare('DELETE FROM opportunities WHERE id = ? AND brand_key = (SELECT key FROM brand_keys WHERE id = ?)').run('id12', OTHER);
    derivedAgree(cache);
  });

  it('the totals and chip counts they give are the ones the opportunities give, under every filter the summary or the facets answer', () => {
    const filters: Omit<ListFilter, 'brandId'>[] = [
      {},
      { status: 'New' },
      { type: 'publication-gap', difficulty: 'Hard' },
      { includeArchived: true },
      { includeRemoved: true },
      { onlyRemoved: true },
      { stage: 'New' },
      { stage: 'Contacted' },
      { stage: 'Not a fit' },
      { view: 'snoozed' },
      { starred: true },
      { hasContacts: false },
      { hasContacts: true, catchAll: 'exclude' },
      { catchAll: 'only', includeArchived: true },
      { search: 'coffee' },
      { search: 'coffee', status: 'Done', includeArchived: true },
      { search: 'tea', stage: 'Contacted' },
      { search: 'coffee', view: 'due' },
      { search: 'number', alreadyPitched: false },
      { search: 'a1@site', catchAll: 'only' },
    ];
    let summary = 0;
    let facets = 0;
    for (const f of filters) {
      const q = prepareList(cache.writable, { brandId: B, ...f }, cache.days());
      if (q.counted === 'summary') summary++;
      if (q.counted === 'facets') facets++;
      const got = chipCountsAndTotal(cache.readable, q);
      const want = chipCountsAndTotal(cache.readable, fromIndex(q));
      expect(got, JSON.stringify(f)).toEqual(want);
      // The list's own total (what a page's answer carries) too.
      expect(listTotal(cache.readable, q), JSON.stringify(f)).toBe(want.total);
      expect(listTotal(cache.readable, fromIndex(q)), JSON.stringify(f)).toBe(want.total);
      expect(want.total, JSON.stringify(f)).toBeGreaterThanOrEqual(0);
    }
    expect([summary, facets]).toEqual([14, 6]);
  });

  it('a search with many matches walks the sort: every page in order, the same rows the matches give sorted, and its total', () => {
    const q = prepareList(cache.writable, { brandId: B, search: 'coffee', includeArchived: true }, cache.days());
    expect(q.plan).toBe('probe');
    // So many (most of the cache) that a page tests the sort's next rows one by one, against the word the index holds.
    expect(q.dense).toBe(true);
    expect(q.probeFts).toBe('("coffee")');
    const seen: string[] = [];
    let after: After | undefined;
    for (;;) {
      const p = listPage(cache.readable, q, { limit: 200, after });
      seen.push(...p.items.map((i) => i.id));
      if (!p.next) break;
      after = p.next;
    }
    // What the opportunities and the search index say, sorted here: priority high to low, empty last, ties by rowid.
    const rows = cache.db
      .prepare(
        `SELECT o.id, o.priority_score AS p, o.rowid AS r FROM opportunities o JOIN brand_keys b ON b.key = o.brand_key
         WHERE b.id = ? AND o.removed_on_server = 0
           AND (o.snoozed_until IS NULL OR o.snoozed_until <= ?) AND o.title LIKE 'Coffee%'`,
      )
      .all(B, cache.days().today) as { id: string; p: number | null; r: number }[];
    rows.sort((a, b) => (a.p === b.p ? a.r - b.r : a.p === null ? 1 : b.p === null ? -1 : b.p - a.p));
    expect(rows.length).toBeGreaterThan(2000);
    expect(seen).toEqual(rows.map((r) => r.id));
    expect(chipCountsAndTotal(cache.readable, q).total).toBe(rows.length);
    expect(listTotal(cache.readable, q)).toBe(rows.length);
    // A jump by offset lands on the same rows.
    expect(listPage(cache.readable, q, { limit: 50, offset: 1500 }).items.map((i) => i.id)).toEqual(rows.slice(1500, 1550).map((r) => r.id));
  });

  /** The same list read the old way: the set of the matches of the prefixes as typed, tested as the sort's index is walked. */
  const bySetOf = (q: ListQuery): ListQuery => ({
    ...q,
    dense: false,
    probeFts: null,
    heads: null,
    restFts: null,
    where: filterSql(q.filter, q.brand.bk, cache.days(), q.plan ?? 'probe').where,
  });

  /** Every page of a list, scrolled by keyset: the ids in order. */
  const walk = (q: ListQuery, limit: number): string[] => {
    const seen: string[] = [];
    let after: After | undefined;
    for (;;) {
      const p = listPage(cache.readable, q, { limit, after });
      seen.push(...p.items.map((i) => i.id));
      if (!p.next) return seen;
      after = p.next;
    }
  };

  it('a search with many matches finds each page by testing the next rows of the sort, in every sort and filter: the pages the set of its matches gives', () => {
    const prefixes: string[] = [];
    const cases: [string, ListSort, Omit<ListFilter, 'brandId'>][] = [];
    for (const search of ['co', 'cof', 'numb coff', 'tea', 'coffee zz', 'tea n'])
      for (const sort of ['priority', 'title'] as const) for (const f of [{}, { type: 'publication-gap' as const }]) cases.push([search, sort, f]);
    for (const sort of ['fit', 'last_seen', 'domain'] as const) cases.push(['cof', sort, {}]);
    for (const f of [{ includeArchived: true }, { hasContacts: false }, { starred: true }]) cases.push(['cof', 'priority', f]);
    for (const [search, sort, f] of cases) {
      const q = prepareList(cache.writable, { brandId: B, search, sort, ...f }, cache.days());
      if (q.dense) prefixes.push(search);
      // The same list read as before: the set of the matches tested as the sort's index is walked, the prefixes as typed.
      const bySet: ListQuery = bySetOf(q);
      const what = JSON.stringify({ search, sort, ...f });
      for (const limit of search === 'cof' && sort === 'priority' ? [200, 37] : [200]) expect(walk(q, limit), what).toEqual(walk(bySet, limit));
      // A word of one letter just begun: the same rows as starting from the matches.
      if (search.endsWith(' n')) expect(walk(q, 200), what).toEqual(walk({ ...q, plan: 'drive' }, 200));
      expect(listTotal(cache.readable, q), what).toBe(listTotal(cache.readable, bySet));
      expect(chipCountsAndTotal(cache.readable, q).counts, what).toEqual(chipCountsAndTotal(cache.readable, bySet).counts);
      // A jump by offset (the set of the matches, as before) lands on the same rows.
      expect(
        listPage(cache.readable, q, { limit: 20, offset: 300 }).items.map((i) => i.id),
        what,
      ).toEqual(listPage(cache.readable, bySet, { limit: 20, offset: 300 }).items.map((i) => i.id));
    }
    // Every search that matches most rows went the new way (a word begun but not finished too); the sparse ones did not.
    expect([...new Set(prefixes)]).toEqual(['co', 'cof', 'numb coff']);
    // Prefixes of three letters or more are written out as the words the index holds, two-letter ones kept (the index keeps them).
    expect(prepareList(cache.writable, { brandId: B, search: 'numb coff' }, cache.days()).probeFts).toBe('("number") AND ("coffee")');
    expect(prepareList(cache.writable, { brandId: B, search: 'co numb' }, cache.days()).probeFts).toBe('"co"* AND ("number")');
    // A word begun that no word of the index begins: nothing matches, as before.
    const none = prepareList(cache.writable, { brandId: B, search: 'coffeex' }, cache.days());
    expect(walk(none, 200)).toEqual([]);
    expect(listTotal(cache.readable, none)).toBe(0);
  });

  it('a word of one letter just begun is searched as the two-letter prefixes the index holds, each tested until one holds: the pages, total and counts the letter as typed gives', () => {
    const heads: string[] = [];
    for (const search of ['coffee n', 'number t', 'c', 'coffee 1', 'tea n', 'coffee z', 't numb'])
      for (const sort of ['priority', 'title'] as const)
        for (const f of sort === 'priority' ? [{}, { type: 'publication-gap' as const }, { starred: true }] : [{}]) {
          const q = prepareList(cache.writable, { brandId: B, search, sort, ...f }, cache.days());
          const what = JSON.stringify({ search, sort, ...f });
          if (q.heads) heads.push(search);
          const bySet = bySetOf(q);
          const want = walk(bySet, 200);
          expect(walk(q, 200), what).toEqual(want);
          expect(walk(q, 37), what).toEqual(walk(bySet, 37));
          // Both ways of walking: the other words tested row by row (dense), or the walk kept to their matches.
          if (q.heads) expect(walk({ ...q, dense: !q.dense }, 200), what).toEqual(want);
          expect(listTotal(cache.readable, q), what).toBe(listTotal(cache.readable, bySet));
          expect(shownTotal(cache.readable, q, 100), what).toEqual(shownTotal(cache.readable, bySet, 100));
          expect(chipCountsAndTotal(cache.readable, q), what).toEqual(chipCountsAndTotal(cache.readable, bySet));
          expect(
            listPage(cache.readable, q, { limit: 20, offset: 300 }).items.map((i) => i.id),
            what,
          ).toEqual(listPage(cache.readable, bySet, { limit: 20, offset: 300 }).items.map((i) => i.id));
        }
    // Each went the new way but "tea n" (few matches: they drive the page) and "coffee z" (no word begins with z: nothing matches).
    expect([...new Set(heads)]).toEqual(['coffee n', 'number t', 'c', 'coffee 1', 't numb']);
    expect(walk(prepareList(cache.writable, { brandId: B, search: 'coffee z' }, cache.days()), 200)).toEqual([]);
    // The letter's alternatives: the two-letter prefixes the index holds, and the letter as a word when it is one ("1" is), the most common first.
    const one = prepareList(cache.writable, { brandId: B, search: 'coffee 1' }, cache.days());
    expect(one.restFts).toBe('("coffee")');
    expect([...one.heads!].sort()).toEqual(['"1"', '"10"*', '"11"*', '"12"*', '"13"*', '"14"*', '"15"*', '"16"*', '"17"*', '"18"*', '"19"*']);
    const c = prepareList(cache.writable, { brandId: B, search: 'c' }, cache.days());
    expect(c.heads).toEqual(['"co"*']);
    expect(c.probeFts).toBe('("co"*)');
  });

  it("a search's total as a page shows it is counted up to a cap (saying there are more), exact under it and without a search", () => {
    const q = prepareList(cache.writable, { brandId: B, search: 'coffee' }, cache.days());
    const exact = listTotal(cache.readable, q);
    expect(exact).toBeGreaterThan(2000);
    expect(shownTotal(cache.readable, q, 1000)).toEqual({ total: 1000, capped: true });
    expect(shownTotal(cache.readable, q, exact)).toEqual({ total: exact, capped: false });
    expect(shownTotal(cache.readable, q, exact - 1)).toEqual({ total: exact - 1, capped: true });
    const tea = prepareList(cache.writable, { brandId: B, search: 'tea', starred: false }, cache.days());
    expect(shownTotal(cache.readable, tea, 10_000)).toEqual({ total: listTotal(cache.readable, tea), capped: false });
    // Within an outlet (counted from the opportunities, not the facets) too.
    const outlet = prepareList(cache.writable, { brandId: B, search: 'coffee', domain: 'site1' }, cache.days());
    expect(shownTotal(cache.readable, outlet, 10)).toEqual({ total: 10, capped: true });
    expect(shownTotal(cache.readable, outlet, 100_000)).toEqual({ total: listTotal(cache.readable, outlet), capped: false });
    // No search: always exact, whatever the cap.
    const all = prepareList(cache.writable, { brandId: B }, cache.days());
    expect(shownTotal(cache.readable, all, 10)).toEqual({ total: listTotal(cache.readable, all), capped: false });
    // What the window is answered: the first page with the capped total while typing, the exact one with the counts.
    const typed = view(cache, { brandId: B, search: 'coffee' }, 200, false);
    expect({ total: typed.total, capped: typed.capped }).toEqual({ total: SEARCH_TOTAL_CAP, capped: true });
    expect(view(cache, { brandId: B, search: 'coffee' }, 200, true).total).toBe(exact);
    expect(list(cache, { brandId: B, search: 'tea' }, { limit: 10 })).toMatchObject({
      total: listTotal(cache.readable, prepareList(cache.writable, { brandId: B, search: 'tea' }, cache.days())),
    });
    expect(list(cache, { brandId: B, search: 'tea' }, { limit: 10 }).capped).toBeUndefined();
  });
});

describe('jumps counted from the end of the list (End, the lower half of the scroll bar)', () => {
  let cache: Cache;
  beforeAll(async () => {
    cache = await Cache.open(join(tmp.dir, 'ends.db'));
    cache.tx(() =>
      cache.opportunities.upsertPage(
        B,
        Array.from({ length: 900 }, (_, i) => opp(i)),
        1,
        '2026-11-01T00:00:00Z',
      ),
    );
    setTriage(cache, B, 'id3', { starred: true });
    setTriage(cache, B, 'id40', { starred: true });
  });
  afterAll(() => cache.close());

  it('read the index backwards: the same rows as the list read from its start, in every sort, filter and search; the page after follows by keyset', () => {
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain', 'relevance'] as const)
      for (const f of [{}, { search: 'coffee' }, { search: 'tea' }, { starred: true }, { includeArchived: true, type: 'publication-gap' as const }]) {
        const what = JSON.stringify({ sort, ...f });
        const q = prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days());
        const all = ids(listPage(cache.readable, q, { limit: 5000 }));
        const n = all.length;
        // The last page (End), a page ending 7 before the end, one ending 250 before, and more rows than there are.
        for (const [offset, limit] of [
          [0, 200],
          [7, 50],
          [250, 200],
          [0, n + 10],
        ] as const) {
          const page = listPage(cache.readable, q, { offset, limit, fromEnd: true });
          expect(ids(page), `${what} ${offset}/${limit}`).toEqual(all.slice(Math.max(0, n - offset - limit), Math.max(0, n - offset)));
          // The last page has nothing after it; any other page's next row is found by keyset, as scrolling asks.
          if (offset === 0 || n <= offset) expect(page.next, what).toBeNull();
          else expect(ids(listPage(cache.readable, q, { limit: 3, after: page.next! })), what).toEqual(all.slice(n - offset, n - offset + 3));
        }
      }
  });

  it('a jump by offset (the scroll bar) gives the rows the list has there, from the nearer end or after a kept cursor, in every sort and filter; a write forgets the cursors', () => {
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    const jumpsAgree = (f: Omit<ListFilter, 'brandId'>, sort: ListSort) => {
      const what = JSON.stringify({ sort, ...f });
      // (Read whole without keeping its cursors, so the jumps below gather them by their own walks.)
      const all = ids(listPage(cache.readable, { ...prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), jumps: null }, { limit: 5000 }));
      const n = all.length;
      // Across the kept cursors' steps (every 200th row), forwards then back, past the end; each asked as the window asks (prepared anew).
      for (const offset of [450, 1, 199, 200, 201, 399, 400, 601, 820, 3, n - 1, n, n + 5, 230])
        for (const limit of [200, 37]) {
          const page = listPage(cache.readable, prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), { offset, limit });
          const want = all.slice(offset, offset + limit);
          expect(ids(page), `${what} ${offset}/${limit}`).toEqual(want);
          // A full page says where the next starts (as the same page read by OFFSET did); the page after follows by keyset.
          if (want.length < limit) expect(page.next, `${what} ${offset}/${limit}`).toBeNull();
          else {
            expect(page.next, `${what} ${offset}/${limit}`).not.toBeNull();
            const after = listPage(cache.readable, prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), { limit: 3, after: page.next! });
            expect(ids(after), `${what} ${offset}/${limit} then`).toEqual(all.slice(offset + limit, offset + limit + 3));
          }
        }
    };
    const filters: Omit<ListFilter, 'brandId'>[] = [
      {},
      { starred: true },
      // Counted from the outlets' and the sets' summaries (list-counts.ts): their totals are known cheaply, so a jump
      // in a list's lower half may read from its end.
      { domain: 'site1' },
      { alreadyPitched: false },
      { view: 'due' },
      { includeArchived: true, type: 'publication-gap' },
    ];
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain', 'relevance'] as const) for (const f of filters) jumpsAgree(f, sort);
    // A write moves rows out of the list and changes their order: the cursors kept before it are not used after it.
    for (const i of [2, 5, 17, 33, 101, 250, 404]) setTriage(cache, B, `id${i}`, { stage: 'Not a fit' });
    setTriage(cache, B, 'id600', { starred: true });
    for (const sort of ['title', 'priority'] as const) for (const f of [{}, { domain: 'site1' }, { alreadyPitched: false }]) jumpsAgree(f, sort);
  });

  it("a jump's walk to the offset hands back only the cursors it keeps (every STEP-th row and the last), never every row before it", () => {
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    // The reads' results as the store gets them: a walk is the one read of bare [rowid, sort value, place] rows.
    const walked: number[] = [];
    const db = cache.readable;
    const counting = new Proxy(db, {
      get(target, name) {
        if (name === 'tuples')
          return (q: Parameters<typeof db.tuples>[0]) => {
            const rows = target.tuples(q);
            walked.push(rows.length);
            return rows;
          };
        const v = Reflect.get(target, name, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    for (const sort of ['priority', 'title'] as const)
      for (const f of [{}, { alreadyPitched: false }, { domain: 'site', alreadyPitched: false }] as Omit<ListFilter, 'brandId'>[]) {
        const what = JSON.stringify({ sort, ...f });
        // A write first: no cursor kept, so the jump walks from the list's start.
        setTriage(cache, B, 'id7', { note: `walk ${what}` });
        const all = ids(listPage(db, { ...prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), jumps: null }, { limit: 5000 }));
        const offset = Math.floor(all.length / 2) - 37;
        expect(offset, what).toBeGreaterThan(STEP);
        walked.length = 0;
        const page = listPage(counting, prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), { offset, limit: 50 });
        expect(ids(page), what).toEqual(all.slice(offset, offset + 50));
        // (The row at the offset's step, and the last one walked when it is not on a step.)
        expect(walked, what).toEqual([Math.floor(offset / STEP) + (offset % STEP === 0 ? 0 : 1)]);
      }
  });

  it("a jump after scrolling from the list's start (the cursors kept from the pages read) gives the rows the list has there, in every sort and filter, also after a write", () => {
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    const read = (f: Omit<ListFilter, 'brandId'>, sort: ListSort, p: { limit: number; offset?: number; after?: After }) =>
      listPage(cache.readable, prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), p);
    let note = 0;
    // Pages of the window's size, and of sizes that do not fall on the kept steps; through most of the list, or to its end
    // (the short last page tells its length: a jump then reads from the end where that is nearer).
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain'] as const)
      for (const f of [{}, { domain: 'site1' }, { alreadyPitched: false }] as Omit<ListFilter, 'brandId'>[])
        for (const [size, whole] of [
          [200, false],
          [37, false],
          [450, false],
          [200, true],
          [37, true],
        ] as const) {
          const what = `${sort} ${JSON.stringify(f)} by ${size}${whole ? ' to the end' : ''}`;
          // A write first: the cursors kept so far are forgotten, the ones below come from the scrolling alone.
          setTriage(cache, B, 'id7', { note: `n${note++}` });
          const all = ids(listPage(cache.readable, { ...prepareList(cache.writable, { brandId: B, sort, ...f }, cache.days()), jumps: null }, { limit: 5000 }));
          // Scrolled by keyset through most of the list, a page at a time.
          let after: After | undefined;
          const seen: string[] = [];
          while (whole || seen.length < all.length - 150) {
            const page = read(f, sort, { limit: size, after });
            seen.push(...ids(page));
            if (!page.next) break;
            after = page.next;
          }
          expect(seen, what).toEqual(all.slice(0, seen.length));
          expect(seen.length, what).toBe(whole ? all.length : seen.length);
          for (const offset of [650, 199, 200, 401, 3, all.length - 1, all.length - 200, all.length - 201, all.length, all.length + 2].filter((o) => o >= 0))
            expect(ids(read(f, sort, { offset, limit: 200 })), `${what} ${offset}`).toEqual(all.slice(offset, offset + 200));
        }
  });

  it("a jump in the follow-ups due after the follow-up days change gives the rows the list has then, not the old days' cursors", async () => {
    const c = await cacheOf('due-jumps.db', 900);
    const today = '2026-11-20';
    // 800 contacted over the last 16 days: more of them due after 3 days than after 7.
    for (let i = 0; i < 800; i++) setTriage(c, B, `id${i}`, { stage: 'Contacted', contacted_at: addDays(today, -(i % 16)) });
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    const read = (after: number, p: { limit: number; offset?: number }) =>
      listPage(c.readable, prepareList(c.writable, { brandId: B, view: 'due', sort: 'title' }, pipelineDays(today, after)), p);
    const sizes = new Map<number, number>();
    for (const after of [3, 7, 3]) {
      const all = ids(read(after, { limit: 5000 }));
      sizes.set(after, all.length);
      expect(all.length).toBeGreaterThan(250);
      for (const offset of [449, 250, 30, 620])
        expect(ids(read(after, { offset, limit: 50 })), `${after} days, ${offset}`).toEqual(all.slice(offset, offset + 50));
    }
    expect(sizes.get(3)).toBeGreaterThan(sizes.get(7)! + 100);
  });

  it("a deep jump into a sparse list (starred, snoozed, a stage, the follow-ups due) gathers its cursors from the list's own rows (their partial index, sorted): the rows the list has there, in every sort", async () => {
    // A twelfth of the rows each: sparse enough that a jump past the first step, in the list's upper half, reads the
    // list's rows from their partial index instead of walking the sort's index (a walk would pass 12 entries for each row).
    const { c, ran, ids, read: readOf, whole } = await sparseLists('sparse-jumps.db', 6000);
    let note = 0;
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain', 'relevance'] as const)
      for (const f of [{ starred: true }, { view: 'snoozed' }, { stage: 'Contacted' }, { view: 'due' }, { starred: true, type: 'publication-gap' }] as Omit<
        ListFilter,
        'brandId'
      >[]) {
        const what = JSON.stringify({ sort, ...f });
        const read = (p: { limit: number; offset?: number; after?: After }) => readOf({ sort, ...f }, p);
        const all = whole({ sort, ...f });
        expect(all.length, what).toBeGreaterThan(f.type ? 100 : 350);
        for (const [offset, limit] of [
          [210, 37],
          [201, 20],
          [230, 1],
          [240, 5],
          [220, 10],
        ] as const) {
          // A write first: no cursor kept, the jump walks from the list's start.
          setTriage(c, B, 'id1', { note: `n${note++}` });
          ran.length = 0;
          const page = read({ offset, limit });
          expect(ids(page), `${what} ${offset}/${limit}`).toEqual(all.slice(offset, offset + limit));
          // Its walk read the partial index (in the lists long enough to walk), and the jump after it starts from what it kept.
          if (all.length > offset + limit) {
            expect(
              ran.filter((t) => /INDEXED BY opportunities_(starred|snoozed|staged)/.test(t)),
              `${what} ${offset}`,
            ).toHaveLength(1);
            expect(ids(read({ offset: offset + 3, limit })), `${what} ${offset} again`).toEqual(all.slice(offset + 3, offset + 3 + limit));
            expect(ids(read({ limit: 3, after: page.next! })), `${what} ${offset} then`).toEqual(all.slice(offset + limit, offset + limit + 3));
          }
        }
      }
  });

  it("a deeper jump into a sparse list starts its read of the list's own rows from the cursor an earlier jump kept: the rows the list has there, in every sort", async () => {
    // About 1,000 rows a list: a jump to 210 keeps the cursor of row 200; one to 60% of the list then reads the list's
    // rows after that cursor from its partial index (cheaper there than the sort's index).
    const { c, ran, ids, read: readOf, whole } = await sparseLists('sparse-kept.db', 12_000);
    let note = 0;
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain', 'relevance'] as const)
      for (const f of [{ starred: true }, { view: 'snoozed' }, { stage: 'Contacted' }, { view: 'due' }] as Omit<ListFilter, 'brandId'>[]) {
        const what = JSON.stringify({ sort, ...f });
        const read = (p: { limit: number; offset?: number; after?: After }) => readOf({ sort, ...f }, p);
        const all = whole({ sort, ...f });
        expect(all.length, what).toBeGreaterThan(500);
        setTriage(c, B, 'id1', { note: `n${note++}` });
        expect(ids(read({ offset: 210, limit: 20 })), `${what} 210`).toEqual(all.slice(210, 230));
        const deep = Math.floor(all.length * 0.6);
        ran.length = 0;
        const page = read({ offset: deep, limit: 20 });
        expect(ids(page), `${what} ${deep}`).toEqual(all.slice(deep, deep + 20));
        expect(
          ran.filter((t) => /INDEXED BY opportunities_(starred|snoozed|staged)/.test(t)),
          `${what} ${deep}: ${ran.join(' | ')}`,
        ).toHaveLength(1);
        // And what it kept: a jump just past it, and the page after.
        expect(ids(read({ offset: deep + 7, limit: 20 })), `${what} ${deep} again`).toEqual(all.slice(deep + 7, deep + 27));
        expect(ids(read({ limit: 5, after: page.next! })), `${what} ${deep} then`).toEqual(all.slice(deep + 20, deep + 25));
      }
  });
});

describe("a page's flags (pitched, do-not-contact)", () => {
  it('are looked up per row only from a list that holds anything, and stay what each row says through a pitch, its undo, a do-not-contact entry and its removal', async () => {
    const cache = await cacheOf('flags.db', 60);
    const flagsOf = (items: ListItem[]) => items.map((o) => [o.id, o.pitched_at, o.do_not_contact_count]);
    /** Every row's flags on the list's pages (by keyset and by a jump) are the ones its own detail reads, with every lookup made. */
    const agree = (want: { pitched: number; blocked: number }) => {
      const q = prepareList(cache.writable, { brandId: B, sort: 'title', includeArchived: true }, cache.days());
      const first = listPage(cache.readable, q, { limit: 25 });
      const pages = [first, listPage(cache.readable, q, { limit: 25, after: first.next! }), listPage(cache.readable, q, { limit: 25, offset: 50 })];
      const items = pages.flatMap((p) => p.items);
      expect(items).toHaveLength(60);
      expect(flagsOf(items)).toEqual(flagsOf(items.map((o) => detail(cache, B, o.id)!.item)));
      expect(items.filter((o) => o.pitched_at !== null)).toHaveLength(want.pitched);
      expect(items.filter((o) => o.do_not_contact_count > 0)).toHaveLength(want.blocked);
      // The page's own query looks up only what can be there.
      const text = listSql(cache.readable, q, { limit: 25, offset: 0 }).text;
      expect(/temp\.pitched/.test(text), text).toBe(q.flags.pitched);
      expect(/FROM do_not_contact\b/.test(text), text).toBe(q.flags.blocked);
      return q.flags;
    };
    // Nothing pitched, nothing blocked: a page makes neither lookup.
    expect(agree({ pitched: 0, blocked: 0 })).toEqual({ pitched: false, blocked: false });
    // A pitch to a1@site.com (id1's only address): id1 shows its date; the undo takes it away again.
    act(cache, B, ['id1'], { do: 'contacted', on: '2026-11-05' }, '2026-11-05');
    expect(agree({ pitched: 1, blocked: 0 })).toEqual({ pitched: true, blocked: false });
    undoAction(cache, { brandId: B });
    expect(agree({ pitched: 0, blocked: 0 })).toEqual({ pitched: false, blocked: false });
    // The do-not-contact list: an address (id5's), then a whole domain (every tips@siteN.com catch-all), then removed.
    cache.doNotContact.add('a5@site.com');
    expect(agree({ pitched: 0, blocked: 1 })).toEqual({ pitched: false, blocked: true });
    cache.doNotContact.add('site2.com');
    expect(agree({ pitched: 0, blocked: 2 })).toEqual({ pitched: false, blocked: true });
    cache.doNotContact.remove('a5@site.com');
    cache.doNotContact.remove('site2.com');
    expect(agree({ pitched: 0, blocked: 0 })).toEqual({ pitched: false, blocked: false });
  });
});
