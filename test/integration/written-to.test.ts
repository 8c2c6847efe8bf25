// "Pitched" means a person was written to. A contact records the addresses
// used (named, or the ones the pitch pre-selects when none are named); an
// export records what it carried but counts only once the person says it was
// sent; "already pitched" in the list, its filter, the export's skip and the
// warning before mailing count an address only when it was written to, and
// an outlet only through its addresses. Caches from before: migration 7 gives
// their contacts the pre-selected addresses and normalises the do-not-contact
// list and the stored addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { type Cache } from '../../electron/core/store/cache';
import { openDatabase } from '../../electron/core/store/db';
import { MIGRATIONS } from '../../electron/core/store/migrations';
import { exportCsv } from '../../electron/core/export/csv-export';
import { confirmExportSent } from '../../electron/core/export/confirm-sent';
import { tempDir } from '../support/tmp';
import { BRAND, cacheWith } from '../support/export-cache';

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

const contactedOf = (id: string) => cache.triage.get(B, id)?.contacted_addresses ?? null;
const clear = (ids: string[]) => cache.triage.setMany(B, ids, { contacted_at: null, contacted_addresses: null, exported_at: null, stage: null, status: null });

describe('contact marked without naming the addresses: the pre-selected ones are recorded', () => {
  it('the person, not the role address or the catch-all; role addresses when there is no person; catch-alls only when that is all; never do-not-contact', () => {
    cache.doNotContact.add('Blocked@Verge.example');
    cache.triage.setMany(B, ['a', 'b', 'c', 'd', 'e'], { contacted_at: '2026-11-02' });
    expect(contactedOf('a')).toEqual(['ana@wired.com']);
    expect(contactedOf('b')).toEqual(['tips@wired.com']);
    expect(contactedOf('c')).toEqual(['press@wired.com', 'news@wired.com']);
    expect(contactedOf('d')).toEqual(['desk@verge.example', 'night@verge.example']);
    expect(contactedOf('e')).toEqual(['ok@verge.example']);
    // Named addresses are kept as named; marking again does not replace them.
    cache.triage.set(B, 'a', { contacted_addresses: ['press@wired.com'] });
    cache.triage.set(B, 'a', { contacted_at: '2026-11-03' });
    expect(contactedOf('a')).toEqual(['press@wired.com']);
    clear(['a', 'b', 'c', 'd', 'e']);
    cache.doNotContact.remove('blocked@verge.example');
  });
});

describe('already pitched counts addresses written to', () => {
  it('an opportunity shares "pitched" only through an address that was written to; the filter and the export skip agree', async () => {
    cache.triage.set(B, 'a', { contacted_at: '2026-11-02' }); // to ana@ (pre-selected)
    const pitched = () =>
      cache.opportunities
        .list({ brandId: B })
        .filter((o) => o.pitched_at)
        .map((o) => o.id);
    // f shares ana@ (in another case); b shares only the catch-all tips@ and c only press@, neither written to.
    expect(pitched()).toEqual(['a', 'f']);
    expect(cache.opportunities.list({ brandId: B, alreadyPitched: false }).map((o) => o.id)).toEqual(['b', 'c', 'd', 'e']);
    const out = join(tmp.dir, 'skip.csv');
    const r = await exportCsv(cache, { brandId: B, preset: 'contacts', out, skipContacted: true, unfilled: 'keep' });
    expect(r.check.rows).toBe(7); // one row per address, every one but ana@ (in a and in f)
    clear(['a']);
  });

  it('an export is not a contact: marked exported, nothing is pitched, until the person confirms it was sent', async () => {
    const out = join(tmp.dir, 'batch.csv');
    const r = await exportCsv(cache, {
      brandId: B,
      preset: 'contacts',
      out,
      excludeCatchAll: true,
      markExported: true,
      unfilled: 'keep',
      filter: { ids: ['c'] },
    });
    expect(r.carried).toBe(2);
    expect(cache.opportunities.get(B, 'c')!.triage.exported_at).not.toBeNull();
    expect(cache.opportunities.list({ brandId: B }).every((o) => o.pitched_at === null)).toBe(true);
    expect(cache.opportunities.earlierContacts(B, 'a', ['press@wired.com'], '2026-01-01')).toEqual([]);
    const sent = confirmExportSent(cache, r.exportId, '2026-11-05');
    expect(sent).toMatchObject({ updated: 1, addresses: 2, alreadySent: null });
    expect(cache.triage.get(B, 'c')).toMatchObject({
      contacted_at: '2026-11-05',
      contacted_addresses: ['press@wired.com', 'news@wired.com'],
      stage: 'Contacted',
    });
    // a shares press@: pitched now, and mailing it warns of the person (press@) and of the outlet.
    expect(cache.opportunities.get(B, 'a')!.item.pitched_at).toBe('2026-11-05');
    const warned = cache.opportunities.earlierContacts(B, 'a', ['press@wired.com'], '2026-01-01');
    expect(warned.map((w) => [w.kind, w.what, w.opportunity_id])).toEqual([
      ['outlet', 'wired.com', 'c'],
      ['person', 'press@wired.com', 'c'],
    ]);
    clear(['c']);
  });

  it('an outlet counts as pitched at only through its addresses: a contact that wrote to none of them does not warn', () => {
    // d's only addresses are catch-alls: recorded when that is all it has. e, at the same outlet, is warned of it.
    cache.triage.set(B, 'd', { contacted_at: '2026-11-02' });
    expect(cache.opportunities.earlierContacts(B, 'e', ['ok@verge.example'], '2026-01-01').map((w) => w.kind)).toEqual(['outlet']);
    // Written to no address of d (all now on the do-not-contact list when marked): nothing was sent there, no warning.
    clear(['d']);
    cache.doNotContact.add('verge.example');
    cache.triage.set(B, 'd', { contacted_at: '2026-11-02' });
    expect(contactedOf('d')).toEqual([]);
    expect(cache.opportunities.earlierContacts(B, 'e', ['ok@verge.example'], '2026-01-01')).toEqual([]);
    cache.doNotContact.remove('verge.example');
    clear(['d']);
  });
});

describe('a cache from before (version 6), migrated', () => {
  it('contacts marked without addresses get the pre-selected ones; the do-not-contact list and stored addresses are normalised', async () => {
    const path = join(tmp.dir, 'v6.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 6)) {
      old.exec(m.sql);
      m.up?.(old);
      old.pragma(`user_version = ${m.version}`);
    }
    old.prepare('INSERT INTO brand_keys (key, id) VALUES (1, ?)').run(B);
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
});
