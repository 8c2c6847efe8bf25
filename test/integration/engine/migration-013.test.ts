// Version 13 on a real file synced from the simulator and triaged: history
// kept in its key's order (each event's ids once), contacts' raw only where it
// is not the address. Every history row (with its number), every contact and
// the whole user's record read back after the upgrade as before it; the next
// events are numbered on; and the two tables take less room.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync } from '../../../electron/core/sync';
import { saveDraft } from '../../../electron/core/store/drafts';
import { addHistory } from '../../../electron/core/store/history';
import { preselectedAddresses } from '../../../electron/core/store/contacted-addresses';
import { contactsOf } from '../../../electron/core/store/opportunity-detail';
import { parseContacts } from '../../../shared/contacts';
import { FakeClock } from '../../support/fake-clock';
import { tempDir } from '../../support/tmp';
import { backToVersion12 } from '../../support/version-12';
import { detail, setTriage, setTriageMany } from '../../support/store';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';

const tmp = tempDir();
let sim: Simulator;
afterAll(() => {
  sim?.close();
  tmp.cleanup();
});

const path = () => join(tmp.dir, 'v12.db');
let brand: string;
let ids: string[];

/** What the user and the list see: the record, every history row as stored, every opportunity's contacts and pre-selected addresses. */
function everything(cache: Cache) {
  return {
    record: JSON.parse(cache.record.readJson('test', new Date('2026-11-20T00:00:00Z')).json.toString('utf8')) as Record<string, unknown>,
    history: cache.db.prepare('SELECT id, brand_id, opportunity_id, at, kind, detail FROM history ORDER BY id').all(),
    details: ids.map((id) => detail(cache, brand, id)),
    contacts: [...contactsOf(cache.readable, brand, ids)],
    preselected: ids.map((id) => preselectedAddresses(cache.db, brand, id)),
  };
}

/** The bytes of a table with its indexes (dbstat). */
const bytesOf = (db: Database.Database, table: string): number =>
  (
    db
      .prepare(
        "SELECT sum(pgsize) AS n FROM dbstat('main', 1) WHERE name = ? OR name IN (SELECT name FROM pragma_index_list(?)) OR name LIKE 'sqlite_autoindex_' || ? || '%'",
      )
      .get(table, table, table) as { n: number }
  ).n;

describe('version 13', () => {
  let before: ReturnType<typeof everything>;
  let v12Bytes: { history: number; contacts: number };

  beforeAll(async () => {
    sim = await startSimulator({ seed: 13, opportunities: 1500, otherBrandOpportunities: 0, citationsPerBrand: 50, today: '2026-11-20' });
    brand = sim.brands[0]!.id;
    const cache = await Cache.open(path(), { compactAtClose: false });
    await runSync(cache, new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0, clock: new FakeClock(), random: () => 0.5 }), {
      brandIds: [brand],
      scores: false,
      citations: false,
    });
    ids = (cache.db.prepare('SELECT id FROM opportunities ORDER BY rowid').all() as { id: string }[]).map((r) => r.id);
    // A user's record of every kind: stages, stars, notes edited twice, contacted, drafts.
    for (let i = 0; i < ids.length; i += 100)
      setTriageMany(
        cache,
        brand,
        ids.slice(i, i + 100).filter((_, k) => k % 2 === 0),
        { stage: (['Drafted', 'Won', 'Not a fit'] as const)[(i / 100) % 3]!, starred: true },
      );
    for (const id of ids.filter((_, i) => i % 7 === 0)) {
      setTriage(cache, brand, id, { note: `First call about ${id}.` }, '2026-11-10T10:00:00.000Z');
      setTriage(cache, brand, id, { note: `Second call about ${id}: "yes", later.` }, '2026-11-12T10:00:00.000Z');
    }
    for (const id of ids.filter((_, i) => i % 11 === 0)) setTriage(cache, brand, id, { stage: 'Contacted', contacted_at: '2026-11-05' });
    cache.tx(() => {
      for (const id of ids.slice(0, 40)) saveDraft(cache.writable, brand, id, 'pitch', { subject: `Re ${id}`, body: 'Hello,\nan idea.' }, null);
    });
    expect(cache.db.prepare('SELECT count(*) AS n FROM history').get()).toEqual({ n: expect.any(Number) });
    // As version 12 left it: history a rowid table beside its unique index, every raw written out.
    backToVersion12(cache.db);
    before = everything(cache);
    v12Bytes = { history: bytesOf(cache.db, 'history'), contacts: bytesOf(cache.db, 'contacts') };
    cache.close();
  });

  it('keeps every history row with its number, every contact and the whole record, in less room', async () => {
    const old = new Database(path(), { readonly: true });
    expect(old.pragma('user_version', { simple: true })).toBe(12);
    expect(old.prepare('SELECT count(*) AS n FROM contacts WHERE raw IS NULL').get()).toEqual({ n: 0 });
    old.close();
    expect(before.history.length).toBeGreaterThan(1000);
    expect(before.details.flatMap((d) => d!.contacts).length).toBeGreaterThan(1500);
    // Some contacts were given otherwise than as the address (a catch-all's marker): raw differs from email there.
    expect(before.details.flatMap((d) => d!.contacts).some((c) => c.raw !== c.email)).toBe(true);

    const cache = await Cache.open(path(), { compactAtClose: false });
    try {
      expect(cache.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(everything(cache)).toEqual(before);
      // Stored once: the address given as it is has no raw of its own.
      const { nulls, total } = cache.db.prepare('SELECT sum(raw IS NULL) AS nulls, count(*) AS total FROM contacts').get() as { nulls: number; total: number };
      expect(nulls / total).toBeGreaterThan(0.5);
      expect(bytesOf(cache.db, 'history')).toBeLessThan(v12Bytes.history * 0.75);
      expect(bytesOf(cache.db, 'contacts')).toBeLessThan(v12Bytes.contacts);
      expect(cache.db.pragma('freelist_count', { simple: true })).toBe(0);
      expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');

      // Numbered on from the last: a new event after every kept one; the same event again is kept once and takes no number.
      const fingerprint = cache.record.fingerprint();
      const last = Math.max(...before.history.map((h) => (h as { id: number }).id));
      cache.tx(() => addHistory(cache.writable, brand, ids[3]!, 'star', '2030-01-01T09:00:00.000Z', 'on'));
      cache.tx(() => addHistory(cache.writable, brand, ids[3]!, 'star', '2030-01-01T09:00:00.000Z', 'on'));
      cache.tx(() => addHistory(cache.writable, brand, ids[4]!, 'star', '2030-01-01T09:00:01.000Z', 'on'));
      const added = cache.db.prepare("SELECT id, opportunity_id FROM history WHERE at >= '2030-01-01' ORDER BY id").all();
      expect(added).toEqual([
        { id: last + 1, opportunity_id: ids[3] },
        { id: last + 2, opportunity_id: ids[4] },
      ]);
      // A note edited again within minutes is one entry, moved to the later time (its number kept).
      const noted = ids[7]!;
      cache.tx(() => addHistory(cache.writable, brand, noted, 'note', '2030-01-01T10:00:00.000Z', 'one'));
      cache.tx(() => addHistory(cache.writable, brand, noted, 'note', '2030-01-01T10:05:00.000Z', 'two'));
      expect(cache.db.prepare("SELECT id, at, detail FROM history WHERE opportunity_id = ? AND at >= '2030-01-01'").all(noted)).toEqual([
        { id: last + 3, at: '2030-01-01T10:05:00.000Z', detail: 'two' },
      ]);
      expect(cache.record.fingerprint()).not.toBe(fingerprint);

      // A sync after it writes contacts the same way: raw only where it is not the address, read back as given.
      const m = sim.mutate({ brand, added: 30, changed: 60, removed: 0 });
      await runSync(cache, new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0, clock: new FakeClock(), random: () => 0.5 }), {
        brandIds: [brand],
        scores: false,
        citations: false,
      });
      expect(cache.db.prepare('SELECT count(*) AS n FROM contacts WHERE raw = email').get()).toEqual({ n: 0 });
      for (const id of [...m.added, ...m.changed]) {
        const d = detail(cache, brand, id)!;
        expect(
          d.contacts.map((c) => c.raw),
          id,
        ).toEqual(parseContacts(d.raw.contact_emails).map((c) => c.raw));
      }
    } finally {
      cache.close();
    }
  });
});
