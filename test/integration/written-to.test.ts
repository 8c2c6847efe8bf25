// "Pitched" means a person was written to. A contact records the addresses
// used (named, or the ones the pitch pre-selects when none are named); an
// export records what it carried but counts only once the person says it was
// sent; "already pitched" in the list, its filter, the export's skip and the
// warning before mailing count an address only when it was written to, and
// an outlet only through its addresses. Caches from before: migration 7 gave
// their contacts the pre-selected addresses and normalises the do-not-contact
// list and the stored addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { openDatabase } from '../../electron/core/store/db';
import { LATEST_VERSION, MIGRATIONS } from '../../electron/core/store/migrations';
import { triageRecord } from '../../electron/core/store/triage';
import { writeExportFile } from '../../electron/core/export/csv-export';
import { confirmExportSent } from '../../electron/core/export/confirm-sent';
import { tempDir } from '../support/tmp';
import { BRAND, cacheWith } from '../support/export-cache';
import { act, detail, list, setTriageMany, triageOf } from '../support/store';
import { earlierContacts } from '../../electron/core/store/opportunity-detail';
import { parseRecordFile } from '../../shared/user-record';

const tmp = tempDir();
const B = BRAND;
let cache: Cache;
const base = { opportunity_type: 'low-hanging-fruit', status: 'New', archived: false, difficulty: 'Easy', pitch_subject: 'S', pitch_body: 'Body' };
const records = [
  { ...base, _id: 'a', domain: 'wired.com', title: 'A', priority_score: 90, contact_emails: ['ana@wired.com', 'press@wired.com', 'tips@wired.com CATCH'] },
  { ...base, _id: 'b', domain: 'wired.com', title: 'B', priority_score: 80, contact_emails: ['tips@wired.com CATCH'] },
  { ...base, _id: 'c', domain: 'wired.com', title: 'C', priority_score: 70, contact_emails: ['press@wired.com', 'news@wired.com'] },
  { ...base, _id: 'd', domain: 'verge.example', title: 'D', priority_score: 60, contact_emails: ['desk@verge.example CATCH', 'night@verge.example CATCH'] },
  { ...base, _id: 'e', domain: 'verge.example', title: 'E', priority_score: 50, contact_emails: ['blocked@verge.example', 'ok@verge.example'] },
  { ...base, _id: 'f', domain: 'other.example', title: 'F', priority_score: 40, contact_emails: ['ANA@Wired.com'] },
];

beforeAll(async () => {
  cache = await cacheWith(tmp.dir, 'written.db', records);
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

const contactedOf = (id: string) => triageOf(cache, B, id).contacted_addresses;
const clear = (ids: string[]) =>
  setTriageMany(cache, B, ids, { contacted_at: null, contacted_addresses: null, contacted_subject: null, exported_at: null, stage: null });
/** Marked contacted on a day without naming the addresses, through the owner of the user's record. */
const contacted = (ids: string[], on: string) => act(cache, B, ids, { do: 'contacted', on }, on);

describe('contact marked without naming the addresses: the pre-selected ones are recorded', () => {
  it('the person, not the role address or the catch-all; role addresses when there is no person; catch-alls only when that is all; never do-not-contact', () => {
    cache.doNotContact.add('Blocked@Verge.example');
    contacted(['a', 'b', 'c', 'd', 'e'], '2026-11-02');
    expect(contactedOf('a')).toEqual(['ana@wired.com']);
    expect(contactedOf('b')).toEqual(['tips@wired.com']);
    expect(contactedOf('c')).toEqual(['press@wired.com', 'news@wired.com']);
    expect(contactedOf('d')).toEqual(['desk@verge.example', 'night@verge.example']);
    expect(contactedOf('e')).toEqual(['ok@verge.example']);
    // Named addresses are kept as named; marking again does not replace them.
    act(cache, B, ['a'], { do: 'contacted', on: '2026-11-02', addresses: ['press@wired.com'] }, '2026-11-02');
    contacted(['a'], '2026-11-03');
    expect(contactedOf('a')).toEqual(['press@wired.com']);
    clear(['a', 'b', 'c', 'd', 'e']);
    cache.doNotContact.remove('blocked@verge.example');
  });
});

describe('already pitched counts addresses written to', () => {
  it('an opportunity shares "pitched" only through an address that was written to; the filter and the export skip agree', async () => {
    contacted(['a'], '2026-11-02'); // to ana@ (pre-selected)
    const pitched = () =>
      list(cache, { brandId: B })
        .filter((o) => o.pitched_at)
        .map((o) => o.id);
    // f shares ana@ (in another case); b shares only the catch-all tips@ and c only press@, neither written to.
    expect(pitched()).toEqual(['a', 'f']);
    expect(list(cache, { brandId: B, alreadyPitched: false }).map((o) => o.id)).toEqual(['b', 'c', 'd', 'e']);
    const out = join(tmp.dir, 'skip.csv');
    const r = await writeExportFile(cache, { brandId: B, preset: 'contacts', out, skipContacted: true, unfilled: 'keep' });
    expect(r.check.rows).toBe(7); // one row per address, every one but ana@ (in a and in f)
    clear(['a']);
  });

  it('an export is not a contact: marked exported, nothing is pitched, until the person confirms it was sent', async () => {
    const out = join(tmp.dir, 'batch.csv');
    const r = await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      out,
      excludeCatchAll: true,
      markExported: true,
      unfilled: 'keep',
      filter: { ids: ['c'] },
    });
    expect(r.carried).toBe(2);
    expect(detail(cache, B, 'c')!.triage.exported_at).not.toBeNull();
    expect(list(cache, { brandId: B }).every((o) => o.pitched_at === null)).toBe(true);
    expect(earlierContacts(cache.readable, B, 'a', ['press@wired.com'], '2026-01-01')).toEqual([]);
    const sent = confirmExportSent(cache, r.exportId, '2026-11-05');
    expect(sent).toMatchObject({ updated: 1, addresses: 2, alreadySent: null });
    expect(triageOf(cache, B, 'c')).toMatchObject({
      contacted_at: '2026-11-05',
      contacted_addresses: ['press@wired.com', 'news@wired.com'],
      stage: 'Contacted',
    });
    // a shares press@: pitched now, and mailing it warns of the person (press@) and of the outlet.
    expect(detail(cache, B, 'a')!.item.pitched_at).toBe('2026-11-05');
    const warned = earlierContacts(cache.readable, B, 'a', ['press@wired.com'], '2026-01-01');
    expect(warned.map((w) => [w.kind, w.what, w.opportunity_id])).toEqual([
      ['outlet', 'wired.com', 'c'],
      ['person', 'press@wired.com', 'c'],
    ]);
    clear(['c']);
  });

  it('the record file carries what an export carried and when it was confirmed sent: restored from a backup, it can still be confirmed, once', async () => {
    const r = await writeExportFile(cache, { brandId: B, preset: 'contacts', out: join(tmp.dir, 'kept.csv'), unfilled: 'keep', filter: { ids: ['e'] } });
    // A restore, as from a backup: the record read whole (the file's text, as written), parsed by the file's schema, put in place.
    const restore = () => {
      const parsed = parseRecordFile(cache.record.readJson('t').json.toString('utf8'));
      if (!parsed.ok) throw new Error(parsed.reason);
      cache.record.replace(parsed.record);
    };
    restore();
    expect(cache.exports.sent(r.exportId)).toMatchObject({ carried: [['e', ['blocked@verge.example', 'ok@verge.example']]], sent_at: null });
    expect(confirmExportSent(cache, r.exportId, '2026-11-05', '2026-11-05T10:00:00.000Z')).toMatchObject({ updated: 1, addresses: 2, alreadySent: null });
    restore();
    expect(confirmExportSent(cache, r.exportId, '2026-11-06')).toMatchObject({ updated: 0, alreadySent: '2026-11-05' });
    expect(contactedOf('e')).toEqual(['blocked@verge.example', 'ok@verge.example']);
    clear(['e']);
  });

  it('an export lets go of its addresses once confirmed sent, or once 180 days older than the latest export unconfirmed; it stays in the log', async () => {
    /** A contacts export of one opportunity, made on a day. */
    const made = (file: string, id: string, day: string) =>
      writeExportFile(cache, {
        brandId: B,
        preset: 'contacts',
        out: join(tmp.dir, file),
        unfilled: 'keep',
        filter: { ids: [id] },
        now: () => new Date(`${day}T09:00:00Z`),
      });
    const old = await made('old.csv', 'c', '2026-01-02');
    const sent = await made('sent.csv', 'e', '2026-06-01');
    expect(confirmExportSent(cache, sent.exportId, '2026-06-02', '2026-06-02T10:00:00.000Z')).toMatchObject({ addresses: 2 });
    expect(cache.exports.sent(sent.exportId)).toMatchObject({ carried: [], sent_at: expect.any(String) });
    expect(confirmExportSent(cache, sent.exportId, '2026-06-03')).toMatchObject({ updated: 0, alreadySent: '2026-06-02' });
    // Within 180 days the old one is still confirmable; a newer export more than 180 days later lets its addresses go.
    expect(cache.exports.sent(old.exportId)!.carried).toHaveLength(1);
    await writeExportFile(cache, { brandId: B, preset: 'opportunities', out: join(tmp.dir, 'later.csv'), now: () => new Date('2026-07-15T09:00:00Z') });
    expect(cache.exports.sent(old.exportId)).toMatchObject({ carried: [], sent_at: null, file_name: 'old.csv' });
    expect(() => confirmExportSent(cache, old.exportId, '2026-07-15')).toThrow(/old\.csv was exported on 2026-01-02, more than 180 days .*no longer kept/);
    expect(cache.exports.list().map((e) => e.file_name)).toEqual(expect.arrayContaining(['old.csv', 'sent.csv', 'later.csv']));
    clear(['c', 'e']);
  });

  it('an outlet counts as pitched at only through its addresses: a contact that wrote to none of them does not warn', () => {
    // d's only addresses are catch-alls: recorded when that is all it has. e, at the same outlet, is warned of it.
    contacted(['d'], '2026-11-02');
    expect(earlierContacts(cache.readable, B, 'e', ['ok@verge.example'], '2026-01-01').map((w) => w.kind)).toEqual(['outlet']);
    // Written to no address of d (all now on the do-not-contact list when marked): nothing was sent there, no warning.
    clear(['d']);
    cache.doNotContact.add('verge.example');
    contacted(['d'], '2026-11-02');
    expect(contactedOf('d')).toEqual([]);
    expect(earlierContacts(cache.readable, B, 'e', ['ok@verge.example'], '2026-01-01')).toEqual([]);
    cache.doNotContact.remove('verge.example');
    clear(['d']);
  });
});

/** A cache file as version 6 left it, with the brand's key: still open, for the test's rows. */
function version6(path: string): Database.Database {
  const old = new Database(path);
  for (const m of MIGRATIONS.filter((m) => m.version <= 6)) {
    old.exec(m.sql);
    m.up?.(old);
    old.pragma(`user_version = ${m.version}`);
  }
  old.prepare('INSERT INTO brand_keys (key, id) VALUES (1, ?)').run(B);
  return old;
}

describe('a cache from before (version 6), migrated (7, then 8)', () => {
  it('contacts marked without addresses get the pre-selected ones; the do-not-contact list and stored addresses are normalised', async () => {
    const path = join(tmp.dir, 'v6.db');
    const old = version6(path);
    old
      .prepare(
        "INSERT INTO opportunities (rowid, brand_key, id, title, domain, raw_hash, first_synced_at, changed_at) VALUES (1, 1, 'x', 'X', 'wired.com', 'h', 'now', 'now')",
      )
      .run();
    const contact = old.prepare(
      'INSERT INTO contacts (opportunity_rowid, position, brand_key, raw, email, identity, domain, catch_all, valid) VALUES (1, ?, 1, ?, ?, ?, ?, ?, 1)',
    );
    contact.run(0, 'Ana@WIRED.com', 'Ana@WIRED.com', 'ana@wired.com', 'wired.com', 0);
    contact.run(1, 'press@wired.com', 'press@wired.com', 'press@wired.com', 'wired.com', 0);
    contact.run(2, 'tips@wired.com CATCH', 'tips@wired.com', 'tips@wired.com', 'wired.com', 1);
    old
      .prepare(
        "INSERT INTO triage (brand_id, opportunity_id, contacted_at, contacted_changed_at, stage, updated_at) VALUES (?, 'x', '2026-10-01', '2026-10-01T09:00:00Z', 'Contacted', 'now')",
      )
      .run(B);
    const dnc = old.prepare("INSERT INTO do_not_contact (kind, value, note, added_at) VALUES (?, ?, '', '2026-10-01T00:00:00Z')");
    dnc.run('address', 'Ben@Kim.example');
    dnc.run('address', 'tips@other.example CATCH');
    dnc.run('address', 'ben@kim.example');
    old.close();
    const db = await openDatabase(path, { backupDir: join(tmp.dir, 'v6-backups') });
    expect(db.prepare('SELECT contacted_addresses, contacted_addresses_changed_at FROM triage').get()).toEqual({
      contacted_addresses: JSON.stringify(['Ana@wired.com']),
      contacted_addresses_changed_at: '2026-10-01T09:00:00Z',
    });
    expect(db.prepare('SELECT email FROM contacts ORDER BY position').pluck().all()).toEqual(['Ana@wired.com', 'press@wired.com', 'tips@wired.com']);
    expect(db.prepare('SELECT value FROM do_not_contact ORDER BY value').pluck().all()).toEqual(['ben@kim.example', 'tips@other.example']);
    expect(db.prepare('SELECT carried, sent_at FROM exports').all()).toEqual([]);
    db.close();
  });

  it('versions 7 and 8 compose: the pre-selected addresses are recorded first, then the local status is carried onto the stage, and both are read', async () => {
    const path = join(tmp.dir, 'v6-status.db');
    const old = version6(path);
    const opp = old.prepare(
      "INSERT INTO opportunities (rowid, brand_key, id, title, domain, raw_hash, first_synced_at, changed_at) VALUES (?, 1, ?, ?, 'wired.com', 'h', 'now', 'now')",
    );
    const contact = old.prepare(
      "INSERT INTO contacts (opportunity_rowid, position, brand_key, raw, email, identity, domain, catch_all, valid) VALUES (?, ?, 1, ?, ?, ?, 'wired.com', ?, 1)",
    );
    const record = old.prepare("INSERT INTO opportunity_records (rowid, packed) VALUES (?, jsonb('{}'))");
    for (const [rowid, id] of [
      [1, 'x'],
      [2, 'y'],
    ] as const) {
      opp.run(rowid, id, id.toUpperCase());
      record.run(rowid);
      contact.run(rowid, 0, 'Ana@WIRED.com', 'Ana@WIRED.com', 'ana@wired.com', 0);
      contact.run(rowid, 1, 'tips@wired.com CATCH', 'tips@wired.com', 'tips@wired.com', 1);
    }
    // x: contacted (no addresses recorded) at the stage Contacted, then the local status Done, the later word.
    // y: contacted, then archived by the local status: Not a fit, and still written to.
    const triage = old.prepare(
      `INSERT INTO triage (brand_id, opportunity_id, contacted_at, contacted_changed_at, stage, stage_changed_at, status, status_changed_at, updated_at)
        VALUES (?, ?, '2026-10-01', '2026-10-01T09:00:00Z', 'Contacted', '2026-10-01T09:00:00Z', ?, '2026-10-05T09:00:00Z', 'now')`,
    );
    triage.run(B, 'x', 'Done');
    triage.run(B, 'y', 'Archived');
    old.close();
    const c = await Cache.open(path, { backupDir: join(tmp.dir, 'v6-status-backups') });
    try {
      expect(c.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      // 7: who was written to (the person, not the catch-all), at the contact's time; 8: the stage the status stood for.
      for (const [id, stage, reason] of [
        ['x', 'Won', null],
        ['y', 'Not a fit', 'Archived'],
      ] as const) {
        expect(triageOf(c, B, id)).toMatchObject({ contacted_addresses: ['Ana@wired.com'], contacted_at: '2026-10-01', stage, stage_reason: reason });
        expect(triageRecord(c.readable, B, id)!.contacted_addresses_changed_at).toBe('2026-10-01T09:00:00Z');
      }
      expect((c.db.prepare('PRAGMA table_info(triage)').all() as { name: string }[]).map((x) => x.name)).not.toContain('status');
      expect(
        c.db
          .prepare("SELECT opportunity_id, detail FROM history WHERE kind = 'stage' ORDER BY opportunity_id")
          .all()
          .map((h) => Object.values(h as object)),
      ).toEqual([
        ['x', 'Won (your earlier status Done, carried over)'],
        ['y', 'Not a fit (your earlier status Archived, carried over)'],
      ]);
      // Both read: x shows as pitched through ana@ (the address recorded), and nothing through the catch-all.
      expect(list(c, { brandId: B, alreadyPitched: true, includeArchived: true }).map((o) => [o.id, o.pitched_at])).toEqual([
        ['x', '2026-10-01'],
        ['y', '2026-10-01'],
      ]);
      expect(earlierContacts(c.readable, B, 'x', ['tips@wired.com'], '2026-01-01')).toEqual([expect.objectContaining({ kind: 'outlet', opportunity_id: 'y' })]);
    } finally {
      c.close();
    }
  });
});
