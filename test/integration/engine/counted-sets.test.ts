// The chip counts and totals of a list without a search under the filters the
// opportunity summary alone cannot answer (the follow-ups due, "already
// pitched" either way, an outlet): read from a summary of that set (or the
// summary less it) or of the outlets, never by walking every row. On a real
// SQLite file, each equals a plain count(*) grouped over the same rows (the
// chip index read row by row) through every change that moves rows in or out
// of those sets: triage writes, a pitch and its undo, a do-not-contact entry
// and its removal, other follow-up days, a new day, a sync.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { undoAction } from '../../../electron/core/app/triage';
import { Cache } from '../../../electron/core/store/cache';
import { chipCountsAndTotal, listTotal, pipelineDays, prepareList, type ListQuery } from '../../../electron/core/store/opportunity-list';
import type { ListFilter } from '../../../shared/model';
import { addDays } from '../../../shared/calendar';
import { act, setTriage, setTriageMany } from '../../support/store';
import { tempDir } from '../../support/tmp';
import { outletsAsCounted, outletsAsKept } from '../../support/outlet-groups';
import { backToVersion13 } from '../../support/version-13';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const B = 'brand-sets';
const OTHER = 'brand-other';
const N = 1200;
/** Opportunities at 13 outlets; one in three shares a generic address with every seventh other (a pitch to it pitches them all). */
const opp = (i: number, v = 0) => ({
  _id: `id${i}`,
  opportunity_type: ['publication-gap', 'low-hanging-fruit', 'competitor-mention'][(i + v) % 3],
  domain: i % 13 === 0 ? `News${i % 5}.example.COM` : `site${i % 13}.com`,
  title: `Story ${i}`,
  status: ['New', 'In Progress', 'Done', 'Archived'][(i + v) % 4],
  archived: i % 10 === 9,
  difficulty: ['Easy', 'Medium', 'Hard'][i % 3],
  priority_score: (i * 37) % 101,
  pitch_body: 'Body',
  contact_emails:
    (i + v) % 5 === 0 ? [] : i % 3 === 0 ? [`press@shared${i % 7}.com`, `a${i}@site.com`] : i % 4 === 1 ? [`tips@site${i}.com CATCH`] : [`a${i}@site.com`],
});

const FILTERS: Omit<ListFilter, 'brandId'>[] = [
  { view: 'due' },
  { view: 'due', starred: true },
  { view: 'due', status: 'New', includeArchived: true },
  { view: 'due', hasContacts: true, catchAll: 'exclude', type: 'publication-gap' },
  { view: 'due', includeRemoved: true },
  { alreadyPitched: true },
  { alreadyPitched: false },
  { alreadyPitched: false, stage: 'Contacted' },
  { alreadyPitched: true, includeArchived: true, type: 'low-hanging-fruit', difficulty: 'Hard' },
  { alreadyPitched: false, hasContacts: true, catchAll: 'only' },
  { alreadyPitched: true, view: 'snoozed' },
  { alreadyPitched: false, onlyRemoved: true },
  { alreadyPitched: false, starred: true, stage: 'New' },
  { domain: 'site1' },
  { domain: 'SITE1', status: 'Done' },
  { domain: ' news ', includeArchived: true },
  { domain: 'example.com', onlyRemoved: true },
  { domain: 'nowhere' },
  // Two of them at once: counted from the opportunities' chip index, as before.
  { view: 'due', alreadyPitched: true },
  { domain: 'site', alreadyPitched: false },
  { domain: 'site', view: 'due' },
];

/** The outlets' groups (version 14) as the triggers keep them, and as the opportunities themselves say they are. */
function outletsAgree(cache: Cache, what: string): void {
  expect(outletsAsKept(cache.db), what).toEqual(outletsAsCounted(cache.db));
}

/** Every filter's counts and total as read, and as a plain count(*) grouped over the chip index row by row, under these days. */
function agree(cache: Cache, days: { today: string; after: number }, what: string, brandId = B): Map<string, number> {
  outletsAgree(cache, what);
  const totals = new Map<string, number>();
  for (const f of FILTERS) {
    const q = prepareList(cache.writable, { brandId, ...f }, pipelineDays(days.today, days.after));
    const label = `${what} ${JSON.stringify(f)}`;
    const byRow: ListQuery = { ...q, counted: 'index' };
    const want = chipCountsAndTotal(cache.readable, byRow);
    expect(chipCountsAndTotal(cache.readable, q), label).toEqual(want);
    expect(listTotal(cache.readable, q), label).toBe(want.total);
    totals.set(JSON.stringify(f), want.total);
  }
  return totals;
}

describe('chip counts of the due, pitched and outlet filters (without a search)', () => {
  it('are read from summaries, not the rows', async () => {
    const cache = await Cache.open(join(tmp.dir, 'kinds.db'));
    cache.tx(() => cache.opportunities.upsertPage(B, [opp(1), opp(2)], 1, '2026-11-01T00:00:00Z'));
    const kind = (f: Omit<ListFilter, 'brandId'>) => prepareList(cache.writable, { brandId: B, ...f }, cache.days()).counted;
    expect(FILTERS.map(kind)).toEqual([...Array(5).fill('due'), ...Array(8).fill('pitched'), ...Array(5).fill('outlets'), ...Array(3).fill('index')]);
    cache.close();
  });

  it('equal a count of the rows through triage writes, a pitch and its undo, do-not-contact, other follow-up days, a new day and a sync', async () => {
    const cache = await Cache.open(join(tmp.dir, 'sets.db'));
    const write = (v: number, seen: number) =>
      cache.tx(() => {
        cache.opportunities.upsertPage(
          B,
          Array.from({ length: seen }, (_, i) => opp(i, v)),
          v + 1,
          `2026-11-0${v + 1}T00:00:00Z`,
        );
        cache.opportunities.upsertPage(
          OTHER,
          Array.from({ length: 40 }, (_, i) => opp(i, v)),
          v + 1,
          `2026-11-0${v + 1}T00:00:00Z`,
        );
        cache.opportunities.markUnseenRemoved(B, v + 1, `2026-11-0${v + 1}T00:00:00Z`);
      });
    write(0, N);
    const today = '2026-11-20';
    const days = { today, after: 7 };
    agree(cache, days, 'untouched');
    // Contacted over the last 16 days (some through a shared address, but none through press@shared6.com); starred, snoozed, not a fit, followed up.
    for (let i = 0; i < 300; i++) if ((i * 3) % 7 !== 6) setTriage(cache, B, `id${i * 3}`, { stage: 'Contacted', contacted_at: addDays(today, -(i % 16)) });
    // The only Contacted one of its type and difficulty, and pitched (its catch-all, its only address): none of them is left not pitched.
    setTriage(cache, B, 'id1', { stage: 'Contacted', contacted_at: today });
    setTriageMany(cache, B, ['id3', 'id6', 'id9', 'id30', 'id31'], { starred: true });
    setTriageMany(cache, B, ['id12', 'id15', 'id32'], { snoozed_until: '2026-12-01' });
    setTriageMany(cache, B, ['id18', 'id21'], { stage: 'Not a fit' });
    setTriageMany(cache, B, ['id24', 'id27'], { stage: 'Followed up', followed_up_at: today });
    const triaged = agree(cache, days, 'triaged');
    for (const f of [{ view: 'due' }, { alreadyPitched: true }, { alreadyPitched: false }, { domain: 'site1' }, { domain: ' news ', includeArchived: true }])
      expect(triaged.get(JSON.stringify(f)), JSON.stringify(f)).toBeGreaterThan(10);
    // Keystrokes through the app (a star, a stage, a snooze, not a fit; no contact date): the pitched set's summary follows
    // them by its own trigger, not grouped again (a group left empty stays, at 0, where grouping again would drop it).
    act(cache, B, ['id1', 'id33'], { do: 'stage', stage: 'Replied' }, today);
    act(cache, B, ['id3', 'id39'], { do: 'star', on: true }, today);
    act(cache, B, ['id42'], { do: 'snooze', until: '2026-12-01' }, today);
    act(cache, B, ['id45'], { do: 'not-a-fit', reason: 'off topic' }, today);
    const keyed = agree(cache, days, 'keystrokes');
    expect(cache.db.prepare('SELECT count(*) AS n FROM temp.pitched_summary WHERE n = 0').get(), 'the summary was followed').toEqual({ n: 1 });
    expect(keyed).not.toEqual(triaged);
    for (let i = 0; i < 4; i++) undoAction(cache, { brandId: B });
    expect(agree(cache, days, 'keystrokes undone')).toEqual(triaged);
    // A pitch to an opportunity whose generic address others share: they are all pitched now; the undo takes it back.
    act(cache, B, ['id951'], { do: 'contacted', on: today }, today);
    const pitched = agree(cache, days, 'pitched');
    expect(pitched.get('{"alreadyPitched":true}')).toBeGreaterThan(triaged.get('{"alreadyPitched":true}')!);
    undoAction(cache, { brandId: B });
    expect(agree(cache, days, 'undone')).toEqual(triaged);
    // The do-not-contact list: a due one's every address blocked leaves the due ones; removed, it is back.
    cache.doNotContact.add('shared1.com');
    cache.doNotContact.add('a36@site.com');
    const blocked = agree(cache, days, 'blocked');
    expect(blocked.get('{"view":"due"}')).toBeLessThan(triaged.get('{"view":"due"}')!);
    cache.doNotContact.remove('shared1.com');
    cache.doNotContact.remove('a36@site.com');
    expect(agree(cache, days, 'unblocked')).toEqual(triaged);
    // Other follow-up days, then a new day: other rows are due.
    const sooner = agree(cache, { today, after: 3 }, 'after 3 days');
    expect(sooner.get('{"view":"due"}')).toBeGreaterThan(triaged.get('{"view":"due"}')!);
    const later = agree(cache, { today: addDays(today, 5), after: 7 }, 'a new day');
    expect(later.get('{"view":"due"}')).toBeGreaterThan(triaged.get('{"view":"due"}')!);
    expect(agree(cache, days, 'back')).toEqual(triaged);
    // A sync: types, statuses and contacts change, a hundred no longer on the server.
    write(1, N - 100);
    const synced = agree(cache, days, 'synced');
    expect(synced.get('{"alreadyPitched":false,"onlyRemoved":true}')).toBeGreaterThan(0);
    expect(synced).not.toEqual(triaged);
    // An opportunity deleted outright (no app path does it today; the triggers still follow).
    cache.db.prepare('DELETE FROM opportunities WHERE id = ? AND brand_key = (SELECT key FROM brand_keys WHERE id = ?)').run('id14', B);
    agree(cache, days, 'deleted');
    cache.close();
  });

  it("stay right for a brand after another brand's pitched list, and after another program's write during a keystroke", async () => {
    const path = join(tmp.dir, 'brands.db');
    const cache = await Cache.open(path);
    cache.tx(() => {
      for (const brand of [B, OTHER])
        cache.opportunities.upsertPage(
          brand,
          Array.from({ length: 400 }, (_, i) => opp(i)),
          1,
          '2026-11-01T00:00:00Z',
        );
    });
    const today = '2026-11-20';
    const days = { today, after: 7 };
    for (let i = 0; i < 100; i++) {
      setTriage(cache, B, `id${i * 3}`, { stage: 'Contacted', contacted_at: addDays(today, -(i % 16)) });
      setTriage(cache, OTHER, `id${i * 2}`, { stage: 'Contacted', contacted_at: addDays(today, -(i % 16)) });
    }
    const before = agree(cache, days, 'both brands pitched');
    // The other brand's "already pitched" list under a search and within an outlet: its pitched rows are now the set
    // this connection's trigger follows, while the first brand's summary is still there.
    prepareList(cache.writable, { brandId: OTHER, alreadyPitched: true, search: 'story' }, cache.days());
    prepareList(cache.writable, { brandId: OTHER, alreadyPitched: true, domain: 'site1' }, cache.days());
    act(cache, B, ['id3', 'id6', 'id9', 'id12'], { do: 'star', on: true }, today);
    act(cache, B, ['id15', 'id27'], { do: 'stage', stage: 'Replied' }, today);
    const starred = agree(cache, days, 'keystrokes after the other brand');
    expect(starred).not.toEqual(before);
    agree(cache, days, 'the other brand', OTHER);
    // Another program moves a pitched one on while this connection's keystroke waits for the lock (its commit lands
    // between the keystroke's look at the cache and its write): its change was never followed, so nothing is kept.
    agree(cache, days, 'before the other program');
    const other = new Database(path);
    cache.writable.derived.triageWrite(
      () => {
        other.prepare("UPDATE triage SET stage = 'Replied' WHERE brand_id = ? AND opportunity_id = ?").run(B, 'id18');
        return act(cache, B, ['id21'], { do: 'star', on: true }, today);
      },
      { pitched: false },
    );
    other.close();
    agree(cache, days, 'another program and a keystroke');
    cache.close();
  });

  it('a version 13 file with opportunities and triage gets the outlets counted, filled from what it holds', async () => {
    const path = join(tmp.dir, 'v13.db');
    const v13 = await Cache.open(path);
    v13.tx(() =>
      v13.opportunities.upsertPage(
        B,
        Array.from({ length: 300 }, (_, i) => opp(i)),
        1,
        '2026-11-01T00:00:00Z',
      ),
    );
    setTriageMany(v13, B, ['id1', 'id2', 'id13'], { stage: 'Won', starred: true });
    backToVersion13(v13.db);
    v13.close();
    const v14 = await Cache.open(path);
    expect(v14.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(v14.db.prepare("SELECT sum(n) AS n FROM opportunity_outlets WHERE stage = 'Won' AND domain = 'news3.example.com'").get()).toEqual({ n: 1 });
    agree(v14, { today: '2026-11-20', after: 7 }, 'upgraded');
    v14.close();
  });
});
