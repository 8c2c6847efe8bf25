// The cache on a real SQLite file: migrations, backups, integrity, the
// list/search/counts queries and their plans, triage kept apart from sync.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cache } from '../../../electron/core/store/cache';
import { CacheError, openDatabase } from '../../../electron/core/store/db';
import { LATEST_VERSION, MIGRATIONS } from '../../../electron/core/store/migrations';
import { filterSql, ftsQuery, SORTS } from '../../../electron/core/store/opportunity-filter';
import { chipCountsAndTotal, countSql, countsSql, listSql, outletCountsSql, pipelineDays, prepareList } from '../../../electron/core/store/opportunity-list';
import { clearTriage } from '../../../electron/core/store/triage';
import { applyAction } from '../../../electron/core/app/triage';
import type { Sql } from '../../../electron/core/store/sql';
import { count, counts, detail, list, setTriage } from '../../support/store';
import { BOOKKEEPING_COLUMNS, COLUMN_DECLARATIONS, columnPlan } from '../../../electron/core/store/opportunity-columns';
import { OPPORTUNITY_FIELDS } from '../../../shared/opportunity-fields';
import { LIST_SORTS, type ListFilter } from '../../../shared/model';
import { tempDir } from '../../support/tmp';
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES, type Status } from '../../../shared/domain';
import { stageOfLegacyStatus, type Stage } from '../../../shared/pipeline';
import { MIRRORED_FIELDS, TRIAGE_FIELDS } from '../../../shared/triage-fields';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const B = '1749113348709x432280934699237400';
const opp = (i: number, extra: Record<string, unknown> = {}) => ({
  _id: `id${i}`,
  unique_key: `low-hanging-fruit:site${i % 7}.com/p${i}`,
  opportunity_type: i % 3 === 0 ? 'publication-gap' : 'low-hanging-fruit',
  domain: `site${i % 7}.com`,
  title: i === 5 ? 'Café brewing guide for baristas' : `Title number ${i}`,
  status: ['New', 'In Progress', 'Done', 'Archived'][i % 4],
  archived: i % 10 === 9,
  difficulty: ['Easy', 'Medium', 'Hard'][i % 3],
  priority_score: (i * 37) % 101,
  fit_score: (i * 53) % 101,
  last_seen_date: `2026-10-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
  pitch_subject: 'Subject',
  pitch_body: i === 6 ? 'We roast single-origin beans in Oslo.' : 'Body',
  contact_emails: i % 4 === 0 ? [] : i % 4 === 1 ? [`a${i}@site.com`] : [`a${i}@site.com`, `tips@site${i}.com CATCH`, 'n/a'],
  ...extra,
});

describe('migrations', () => {
  it('a fresh file gets the latest schema, WAL, 8 KB pages, incremental auto-vacuum, foreign keys and STRICT tables', async () => {
    const db = await openDatabase(join(tmp.dir, 'fresh.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('page_size', { simple: true })).toBe(8192);
    // Set before the first write, or it never takes (and removed records never give space back).
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'opportunity_search%' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string; sql: string }[];
    for (const t of tables) expect(t.sql, t.name).toMatch(/STRICT/);
    db.close();
  });

  it('migrates from every earlier version, keeping the user data, after a backup', async () => {
    // Every version a file can be at.
    for (const from of MIGRATIONS.map((m) => m.version).filter((v) => v < LATEST_VERSION)) {
      // A file as version `from` left it, holding the user's triage.
      const path = join(tmp.dir, `from-v${from}.db`);
      const fresh = new Database(path);
      for (const m of MIGRATIONS.filter((m) => m.version <= from)) {
        fresh.exec(m.sql);
        m.up?.(fresh);
        fresh.pragma(`user_version = ${m.version}`);
      }
      if (from < 8)
        fresh
          .prepare(
            "INSERT INTO triage (brand_id, opportunity_id, status, note, starred, contacted_at, updated_at) VALUES (?, 'x', 'Done', 'my note', 1, '2026-11-02', 'now')",
          )
          .run(B);
      else {
        // From version 8 on there is no status: the row as version 8 left the status Done, carried onto the stage.
        fresh
          .prepare(
            "INSERT INTO triage (brand_id, opportunity_id, stage, note, starred, contacted_at, updated_at) VALUES (?, 'x', 'Won', 'my note', 1, '2026-11-02', 'now')",
          )
          .run(B);
        // (From version 13 on, each event is numbered when added.)
        fresh
          .prepare(
            `INSERT INTO history (brand_id, opportunity_id, at, kind, detail${from >= 13 ? ', id' : ''}) VALUES (?, 'x', 'now', 'stage', 'Won (your earlier status Done, carried over)'${from >= 13 ? ', 1' : ''})`,
          )
          .run(B);
      }
      fresh.close();
      const backups = join(tmp.dir, `backups-${from}`);
      const db = await openDatabase(path, { backupDir: backups });
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(db.prepare('SELECT note, starred FROM triage').get()).toEqual({ note: 'my note', starred: 1 });
      // Version 9: what the syncs see of each cited page, kept between syncs (none yet).
      expect(db.prepare('SELECT count(*) AS n FROM citation_facts').get()).toEqual({ n: 0 });
      // Version 14: the outlets counted (none yet).
      expect(db.prepare('SELECT count(*) AS n FROM opportunity_outlets').get()).toEqual({ n: 0 });
      // Version 5: an opportunity marked contacted before it is at that stage (from 5 on, the stage is the user's).
      // Version 8: the status Done is carried onto the stage Won where it was the later word: before version 3
      // both were dated at the row's last write (a tie: the stage stays); in versions 3 and 4 the stage
      // migration 5 gave it has no date of its own (the status wins); from 5 on there was no stage.
      const stage = from < 3 ? 'Contacted' : 'Won';
      expect(db.prepare('SELECT stage, contacted_at FROM triage').get()).toEqual({ stage, contacted_at: '2026-11-02' });
      // Nothing lost: the status column is gone, and a carried-over status says so in the history.
      expect((db.prepare('PRAGMA table_info(triage)').all() as { name: string }[]).map((c) => c.name)).not.toContain('status');
      expect(db.prepare("SELECT detail FROM history WHERE kind = 'stage'").all()).toEqual(
        stage === 'Won' ? [{ detail: 'Won (your earlier status Done, carried over)' }] : [],
      );
      const files = readdirSync(backups);
      expect(files).toHaveLength(1);
      const bak = new Database(join(backups, files[0]!), { readonly: true });
      expect(bak.pragma('user_version', { simple: true })).toBe(from);
      expect(bak.prepare('SELECT note FROM triage').get()).toEqual({ note: 'my note' });
      bak.close();
      db.close();
    }
  });

  it('version 8 carries every local status onto the stage, from every earlier version, by the rule older record files are read with', async () => {
    const times = [null, '2026-11-01T10:00:00.000Z', '2026-11-02T10:00:00.000Z'];
    for (let from = 1; from < 8; from++) {
      const path = join(tmp.dir, `status-from-v${from}.db`);
      const old = new Database(path);
      for (const m of MIGRATIONS.filter((m) => m.version <= from)) {
        old.exec(m.sql);
        old.pragma(`user_version = ${m.version}`);
      }
      // Every status, stage and order of their times a cache of this version can hold.
      const rows: { id: string; status: string | null; statusAt: string | null; stage: string | null; stageAt: string | null; reason: string | null }[] = [];
      for (const status of [null, ...STATUSES])
        for (const stage of from >= 5 ? [null, 'Drafted', 'Contacted', 'Won', 'Not a fit'] : [null])
          for (const statusAt of from >= 3 ? times : [null])
            for (const stageAt of from >= 5 ? times : [null]) {
              const id = `t${rows.length}`;
              const reason = stage === 'Not a fit' && stageAt ? 'Paywalled or closed' : null;
              rows.push({ id, status, statusAt, stage, stageAt, reason });
              const cols = [
                'brand_id',
                'opportunity_id',
                'status',
                'updated_at',
                ...(from >= 3 ? ['status_changed_at'] : []),
                ...(from >= 5 ? ['stage', 'stage_changed_at', 'stage_reason'] : []),
              ];
              const vals = [B, id, status, '2026-10-31T10:00:00.000Z', ...(from >= 3 ? [statusAt] : []), ...(from >= 5 ? [stage, stageAt, reason] : [])];
              old.prepare(`INSERT INTO triage (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...vals);
            }
      old.close();
      const db = await openDatabase(path, { backupDir: join(tmp.dir, `status-backups-${from}`) });
      for (const r of rows) {
        // Before version 3 a status was dated at the row's last write (migration 3).
        const expected = stageOfLegacyStatus({
          status: r.status as Status | null,
          status_changed_at: from < 3 && r.status ? '2026-10-31T10:00:00.000Z' : r.statusAt,
          stage: r.stage as Stage | null,
          stage_changed_at: r.stageAt,
          stage_reason: r.reason,
        });
        const got = db.prepare('SELECT stage, stage_reason FROM triage WHERE opportunity_id = ?').get(r.id);
        const what = `from v${from}: ${JSON.stringify(r)}`;
        expect(got, what).toEqual({ stage: expected.stage, stage_reason: expected.stage_reason });
        const lines = db.prepare("SELECT detail FROM history WHERE opportunity_id = ? AND kind = 'stage'").all(r.id) as { detail: string }[];
        expect(
          lines.map((l) => l.detail),
          what,
        ).toEqual(expected.changed ? [`${expected.stage ?? 'New'} (your earlier status ${r.status}, carried over)`] : []);
      }
      // Nothing else of the row was touched, and nothing is left of the status.
      expect(db.prepare('SELECT count(*) AS n FROM triage').get()).toEqual({ n: rows.length });
      expect((db.prepare('PRAGMA table_info(triage)').all() as { name: string }[]).map((c) => c.name)).not.toContain('status_changed_at');
      expect((db.prepare('PRAGMA table_info(opportunities)').all() as { name: string }[]).map((c) => c.name)).not.toContain('local_status');
      db.close();
    }
  });

  it("the triage table's columns and the triggers that mirror it follow shared/triage-fields.ts (drift fails here)", async () => {
    const db = await openDatabase(':memory:');
    const columns = (db.prepare('PRAGMA table_info(triage)').all() as { name: string }[]).map((c) => c.name).sort();
    expect(columns).toEqual(['brand_id', 'opportunity_id', ...TRIAGE_FIELDS.flatMap((f) => [f.name, f.changedAt]), 'updated_at'].sort());
    const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'triage'").all() as { name: string; sql: string }[];
    expect(triggers.map((t) => t.name).sort()).toEqual(['triage_mirror_delete', 'triage_mirror_insert', 'triage_mirror_update']);
    for (const t of triggers) {
      const set = /SET (.+?)\s+WHERE/s.exec(t.sql)![1]!;
      expect([...set.matchAll(/(\w+) =/g)].map((m) => m[1]).sort(), t.name).toEqual([...MIRRORED_FIELDS].sort());
    }
    expect(
      /UPDATE OF (.+?) ON/
        .exec(triggers.find((t) => t.name === 'triage_mirror_update')!.sql)![1]!
        .split(/,\s*/)
        .sort(),
    ).toEqual([...MIRRORED_FIELDS].sort());
    db.close();
  });

  it('version 3 to 4 with data: every record compressed and read back the same, found by search, the triage mirrored on the list, the file compacted', async () => {
    // A version-3 cache written by that version's code: records as JSON text, the old search index, triage.
    const path = join(tmp.dir, 'v3-data.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 3)) {
      old.exec(m.sql);
      old.pragma(`user_version = ${m.version}`);
    }
    old.prepare('INSERT INTO brand_keys (key, id) VALUES (1, ?)').run(B);
    const records = Array.from({ length: 300 }, (_, i) => ({
      ...opp(i),
      pitch_body: `Hello ${i % 2 ? 'espresso' : 'matcha'} lovers ${'x'.repeat(400)}`,
      extra_field: { kept: i },
    }));
    const ins = old.prepare(
      `INSERT INTO opportunities (rowid, brand_key, id, title, domain, status, raw_hash, first_synced_at, changed_at, priority_score) VALUES (?, 1, ?, ?, ?, ?, 'h', 'now', 'now', ?)`,
    );
    const raw = old.prepare('INSERT INTO opportunity_records (rowid, raw) VALUES (?, ?)');
    const fts = old.prepare('INSERT INTO opportunity_search (rowid, title, pitch_body) VALUES (?, ?, ?)');
    records.forEach((r, i) => {
      ins.run(i + 1, r._id, r.title, r.domain, r.status, i);
      raw.run(i + 1, JSON.stringify(r));
      fts.run(i + 1, r.title, r.pitch_body);
    });
    old
      .prepare("INSERT INTO triage (brand_id, opportunity_id, status, note, starred, updated_at) VALUES (?, ?, 'Done', 'kept', 1, 'now')")
      .run(B, records[7]!._id);
    old.close();
    const before = statSync(path).size;

    const cache = await Cache.open(path, { backupDir: join(tmp.dir, 'v3-backups') });
    expect(cache.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    for (const i of [0, 7, 299]) expect(detail(cache, B, records[i]!._id)!.raw).toEqual(records[i]);
    // Compressed (from version 12 on, 32 records to a block: rowid 1 is in block 0 with rowids 2 to 31).
    const packed = cache.db.prepare('SELECT typeof(packed) AS t, length(packed) AS n FROM opportunity_blocks WHERE block = 0').get() as {
      t: string;
      n: number;
    };
    expect(packed.t).toBe('blob');
    expect(packed.n).toBeLessThan(records.slice(0, 31).reduce((n, r) => n + JSON.stringify(r).length, 0) / 2);
    expect(count(cache, { brandId: B, search: 'espresso', includeArchived: true })).toBe(150);
    // The version-3 status Done is the stage Won from version 8 on (migration 8 carries it over).
    expect(list(cache, { brandId: B, stage: 'Won', starred: true }).map((o) => o.id)).toEqual([records[7]!._id]);
    // The mirror follows the triage from here on, both ways.
    setTriage(cache, B, records[8]!._id, { stage: 'Not a fit' });
    expect(count(cache, { brandId: B, includeArchived: true }) - count(cache, { brandId: B })).toBeGreaterThanOrEqual(1);
    expect(list(cache, { brandId: B }, { limit: 1000 }).some((o) => o.id === records[8]!._id)).toBe(false);
    cache.writable.transaction(() => clearTriage(cache.writable));
    expect(list(cache, { brandId: B, starred: true })).toEqual([]);
    // Compacted once: 8 KB pages, incremental auto-vacuum, no free pages left behind by the old records.
    expect(cache.db.pragma('page_size', { simple: true })).toBe(8192);
    expect(cache.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(cache.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    cache.close();
    expect(before).toBeGreaterThan(0);
  });

  it('the field table describes the opportunities table and its search index exactly (a migration is never edited: drift fails here)', async () => {
    const db = await openDatabase(':memory:');
    const info = (table: string) =>
      db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null }[];
    const plan = columnPlan(OPPORTUNITY_FIELDS);
    const columns = info('opportunities');
    expect(columns.map((c) => c.name).sort()).toEqual([...plan.stored.map((f) => f.name), ...BOOKKEEPING_COLUMNS].sort());
    for (const f of plan.stored) {
      const c = columns.find((x) => x.name === f.name)!;
      expect({ type: c.type, notNull: c.notnull === 1, default: c.dflt_value }, f.name).toEqual(COLUMN_DECLARATIONS[f.column]);
    }
    expect(
      info('opportunity_search')
        .map((c) => c.name)
        .sort(),
    ).toEqual(plan.search.map((s) => s.column).sort());
    db.close();
  });

  it('refuses a database from a newer app with a clear message', async () => {
    const path = join(tmp.dir, 'newer.db');
    const db = new Database(path);
    // A newer app's cache keeps the tables of the first version (without them it is another program's file).
    for (const t of ['brands', 'brand_keys', 'opportunities', 'triage', 'sync_runs']) db.exec(`CREATE TABLE ${t} (x)`);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    await expect(openDatabase(path)).rejects.toMatchObject({ kind: 'cache-newer', message: expect.stringContaining('newer version of Outreach Workbench') });
  });

  it('a damaged file is reported with a way out, not opened', async () => {
    const path = join(tmp.dir, 'damaged.db');
    writeFileSync(path, 'this is not a database'.repeat(400));
    const err = await openDatabase(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheError);
    expect((err as CacheError).kind).toBe('cache-damaged');
    expect((err as CacheError).message).toContain('workbench cache recover');
  });
});

describe('opportunities', () => {
  // A fresh cache of 400 for each test: what one test writes (a triage, a late record, a removal) never reaches another.
  let cache: Cache;
  let n = 0;
  beforeEach(async () => {
    cache = await Cache.open(join(tmp.dir, `opps-${++n}.db`));
    cache.tx(() =>
      cache.opportunities.upsertPage(
        B,
        Array.from({ length: 400 }, (_, i) => opp(i)),
        1,
        '2026-11-01T00:00:00Z',
      ),
    );
  });
  afterEach(() => cache.close());

  it('upserts are idempotent: a page applied twice, or a record repeated, is stored once', () => {
    const again = cache.tx(() => cache.opportunities.upsertPage(B, [opp(1), opp(1), opp(2)], 1, '2026-11-01T00:00:00Z'));
    expect(again).toMatchObject({ added: 0, changed: 0, unchanged: 3 });
    expect(count(cache, { brandId: B, includeArchived: true })).toBe(400);
    const changed = cache.tx(() => cache.opportunities.upsertPage(B, [opp(3, { title: 'New title' })], 2, '2026-11-02T00:00:00Z'));
    expect(changed).toMatchObject({ added: 0, changed: 1 });
    cache.tx(() => cache.opportunities.upsertPage(B, [opp(3)], 2, '2026-11-02T00:00:00Z'));
  });

  it('contacts are parsed once, with catch-all and validity flags', () => {
    const d = detail(cache, B, 'id2')!;
    expect(d.contacts.map((c) => [c.email, c.catchAll, c.valid])).toEqual([
      ['a2@site.com', false, true],
      ['tips@site2.com', true, true],
      ['n/a', false, false],
    ]);
    expect(d.item).toMatchObject({ contact_count: 2, catch_all_count: 1 });
    expect(d.raw.contact_emails).toEqual(['a2@site.com', 'tips@site2.com CATCH', 'n/a']);
  });

  it('the list: default hides archived, sorts by priority; filters combine', () => {
    const rows = list(cache, { brandId: B }, { limit: 1000 });
    expect(rows.every((o) => !o.archived)).toBe(true);
    expect(rows.length).toBe(count(cache, { brandId: B }));
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.priority_score!).toBeGreaterThanOrEqual(rows[i]!.priority_score!);
    const f = list(
      cache,
      { brandId: B, type: 'low-hanging-fruit', difficulty: 'Medium', domain: 'SITE1', hasContacts: true, catchAll: 'only', sort: 'fit' },
      { limit: 1000 },
    );
    expect(f.length).toBeGreaterThan(0);
    for (const o of f) expect(o).toMatchObject({ opportunity_type: 'low-hanging-fruit', difficulty: 'Medium', domain: 'site1.com' });
    expect(f.every((o) => o.catch_all_count > 0)).toBe(true);
    const none = list(cache, { brandId: B, catchAll: 'exclude', hasContacts: true }, { limit: 1000 });
    expect(none.every((o) => o.catch_all_count === 0 && o.contact_count > 0)).toBe(true);
    const titles = list(cache, { brandId: B, sort: 'title' }, { limit: 5 }).map((o) => o.title.toLowerCase());
    expect([...titles].sort()).toEqual(titles);
    const paged = list(cache, { brandId: B }, { limit: 10, offset: 10 });
    expect(paged[0]!.id).toBe(rows[10]!.id);
  });

  it('full-text search over title, pitch and contacts, accent- and case-insensitive, prefix matching', () => {
    expect(list(cache, { brandId: B, search: 'cafe BREW' }).map((o) => o.id)).toEqual(['id5']);
    expect(list(cache, { brandId: B, search: 'oslo' }).map((o) => o.id)).toEqual(['id6']);
    expect(list(cache, { brandId: B, search: 'tips@site2.com' }).map((o) => o.id)).toEqual(['id2']);
    // What a person types is words, never FTS or SQL syntax: quotes and operators match as words (all required).
    expect(list(cache, { brandId: B, search: '" OR 1=1 --' }, { limit: 1000 })).toEqual([]);
    expect(list(cache, { brandId: B, search: 'oslo OR title' }, { limit: 1000 }).map((o) => o.id)).toEqual(['id6']);
    expect(ftsQuery('  ')).toBeNull();
    expect(ftsQuery('a"b')).toBe('"a"* "b"*');
    expect(ftsQuery('tips@site2.com  oslo')).toBe('"tips"* "site2"* "com"* "oslo"*');
    // The beginning of an address, typed as you go, narrows to the addresses that start so.
    expect(list(cache, { brandId: B, search: 'tips@site2' }).map((o) => o.id)).toEqual(expect.arrayContaining(['id2']));
    expect(list(cache, { brandId: B, search: 'tips@site2' }).every((o) => ['id2'].includes(o.id) || o.id.startsWith('id2'))).toBe(true);
  });

  it('triage written before its opportunity arrives (an imported or recovered record) shows in the list once sync brings it', () => {
    setTriage(cache, B, 'id-late', { stage: 'Won', starred: true, note: 'from the old laptop' });
    expect(list(cache, { brandId: B, starred: true }, { limit: 1000 }).some((o) => o.id === 'id-late')).toBe(false);
    cache.tx(() => cache.opportunities.upsertPage(B, [{ ...opp(900), _id: 'id-late' }], 9, 'now'));
    const found = list(cache, { brandId: B, starred: true, stage: 'Won' }, { limit: 1000 }).find((o) => o.id === 'id-late');
    expect(found).toMatchObject({ stage: 'Won', starred: true, note: 'from the old laptop' });
    expect(counts(cache, { brandId: B, starred: true }).stage.Won).toBeGreaterThanOrEqual(1);
  });

  it("triage is the user's: the stage, star and note beside Trakkr's own status, and sync never overwrites it", () => {
    setTriage(cache, B, 'id1', { stage: 'Won', note: 'Spoke to Ana', starred: true });
    const item = list(cache, { brandId: B, stage: 'Won', starred: true }).find((o) => o.id === 'id1')!;
    expect(item).toMatchObject({ stage: 'Won', server_status: 'In Progress', note: 'Spoke to Ana', starred: true });
    // Trakkr's status filters as the service's data, untouched by the user's stage.
    expect(list(cache, { brandId: B, status: 'In Progress', starred: true }).map((o) => o.id)).toContain('id1');
    cache.tx(() => cache.opportunities.upsertPage(B, [opp(1, { status: 'New', title: 'Changed on server' })], 3, '2026-11-03T00:00:00Z'));
    const d = detail(cache, B, 'id1')!;
    expect(d.item).toMatchObject({ title: 'Changed on server', stage: 'Won', server_status: 'New', note: 'Spoke to Ana' });
    setTriage(cache, B, 'id7', { stage: 'Not a fit' });
    expect(list(cache, { brandId: B }, { limit: 1000 }).some((o) => o.id === 'id7')).toBe(false);
    expect(list(cache, { brandId: B, includeArchived: true }, { limit: 1000 }).some((o) => o.id === 'id7')).toBe(true);
    expect(list(cache, { brandId: B, stage: 'Not a fit' }, { limit: 1000 }).some((o) => o.id === 'id7')).toBe(true);
    expect(() => setTriage(cache, B, 'id1', { stage: 'Closed' as never })).toThrow(/stage/);
    expect(applyAction(cache, B, ['id10', 'id11'], { do: 'stage', stage: 'Drafted' }, { today: '2026-11-03', senderName: '' }).changed).toHaveLength(2);
    expect(detail(cache, B, 'id11')!.item.stage).toBe('Drafted');
  });

  it('a count counts every match (no cap: a broad search says how many it found)', () => {
    // One more than the 400: a record that arrived late, on a pass of its own.
    cache.tx(() => cache.opportunities.upsertPage(B, [{ ...opp(900), _id: 'id-late' }], 9, 'now'));
    expect(count(cache, { brandId: B, includeArchived: true, includeRemoved: true })).toBe(401);
    expect(count(cache, { brandId: B, search: 'oslo' })).toBe(1);
    expect(count(cache, { brandId: B, search: 'title', includeArchived: true, includeRemoved: true })).toBeGreaterThan(300);
  });

  it('counts per status, type and difficulty for the chips', () => {
    const c = counts(cache, { brandId: B });
    expect(c.total).toBe(count(cache, { brandId: B }));
    expect(Object.values(c.status).reduce((a, b) => a + b, 0)).toBe(c.total);
    expect(c.type['low-hanging-fruit']! + c.type['publication-gap']!).toBe(c.total);
  });

  it('records missing from a complete pass are marked removed, not deleted', () => {
    cache.tx(() =>
      cache.opportunities.upsertPage(
        B,
        Array.from({ length: 390 }, (_, i) => opp(i)),
        9,
        '2026-11-05T00:00:00Z',
      ),
    );
    const removed = cache.opportunities.markUnseenRemoved(B, 9, '2026-11-05T00:00:00Z');
    expect(removed).toBe(10);
    expect(detail(cache, B, 'id395')!.item.removed_on_server).toBe(true);
    expect(list(cache, { brandId: B, onlyRemoved: true, includeArchived: true }, { limit: 100 })).toHaveLength(10);
  });

  it('every list, sort, filter, search, page, total, chip count and outlet count the UI can ask stays on indexes (EXPLAIN QUERY PLAN: no full scan of the opportunities)', () => {
    const sqlOf = (q: Sql) => ({ sql: q.text, params: q.params });
    const prepared = (f: ListFilter) => prepareList(cache.writable, f);
    const pageSql = (f: ListFilter, after?: { value: string | number | null; rowid: number }) =>
      sqlOf(listSql(cache.readable, prepared(f), { limit: 200, offset: 0, after }));
    // Each plan keeps the SQL it was made from, to tell which names in it are the opportunities (any alias: o, oi, o2, …).
    const texts = new WeakMap<string[], string>();
    const planOf = (q: { sql: string; params: readonly unknown[] }) => {
      const lines = (cache.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(q.params) as { detail: string }[]).map((r) => r.detail);
      texts.set(lines, q.sql);
      return lines;
    };
    const NOT_ALIASES = new Set([
      'where',
      'join',
      'left',
      'inner',
      'cross',
      'natural',
      'on',
      'using',
      'set',
      'group',
      'order',
      'limit',
      'union',
      'indexed',
      'not',
      'select',
      'values',
    ]);
    /** The names a table goes by in a query: its own and each alias given to it. */
    const namesOf = (text: string, table: string) => {
      const names = new Set([table]);
      for (const m of text.matchAll(new RegExp(`\\b${table}\\s+(?:AS\\s+)?([A-Za-z_][A-Za-z0-9_]*)`, 'gi'))) {
        if (!NOT_ALIASES.has(m[1]!.toLowerCase())) names.add(m[1]!);
      }
      return names;
    };
    // A full scan reads as "SCAN <name>" (also "SCAN <name> USING COVERING INDEX …", every entry of an index); a walk of a range as "SEARCH …".
    const scansOf = (lines: string[], names: Set<string>) => lines.filter((l) => names.has(/^SCAN (\S+)/.exec(l)?.[1] ?? ''));
    /** Full scans of the contacts or the triage: reported, not failed (both are small next to the opportunities, or read per opportunity). */
    const otherScans = new Set<string>();
    /** `partial`: the walk of a sparse list, which may read one of migration 15's partial indexes (no other plan may). */
    const noFullScan = (lines: string[], what: string, partial = false) => {
      const text = texts.get(lines) ?? '';
      expect(
        lines.filter((l) => /^SCAN (o|opportunities)\b/.test(l)),
        `${what}: ${lines.join(' | ')}`,
      ).toEqual([]);
      expect(scansOf(lines, namesOf(text, 'opportunities')), `${what}: ${lines.join(' | ')}`).toEqual([]);
      expect(
        lines.some(
          (l) =>
            (partial
              ? /SEARCH o USING (COVERING )?INDEX opportunities_(by_\w+|starred|snoozed|staged) /
              : /SEARCH o USING (COVERING )?INDEX opportunities_by_/
            ).test(l) || /SEARCH o USING INTEGER PRIMARY KEY/.test(l),
        ),
        `${what}: ${lines.join(' | ')}`,
      ).toBe(true);
      for (const table of ['contacts', 'triage']) for (const l of scansOf(lines, namesOf(text, table))) otherScans.add(`${table} (${l}) in ${what}`);
    };
    // The check itself sees through aliases: a scan of "oi" is a scan of the opportunities.
    expect(namesOf('SELECT 1 FROM opportunities o JOIN opportunities AS oi ON oi.rowid = o.rowid LEFT JOIN triage t ON 1 WHERE 1', 'opportunities')).toEqual(
      new Set(['opportunities', 'o', 'oi']),
    );
    expect(
      scansOf(
        ['SEARCH o USING INDEX opportunities_by_chip (brand_key=?)', 'SCAN oi USING COVERING INDEX opportunities_by_chip'],
        new Set(['opportunities', 'o', 'oi']),
      ),
    ).toHaveLength(1);
    const filters: Omit<ListFilter, 'brandId'>[] = [
      {},
      { status: 'New' },
      { status: 'In Progress', difficulty: 'Hard' },
      { type: 'publication-gap' },
      { domain: 'site' },
      { hasContacts: true, catchAll: 'exclude' },
      { catchAll: 'only' },
      { starred: true },
      { includeArchived: true },
      { includeRemoved: true },
      { onlyRemoved: true },
      { alreadyPitched: false },
      { search: 'coffee' },
      { search: 'co', status: 'New' },
      // The pipeline's stages and views, the "already pitched" chip, a selection (export), an address typed out.
      { stage: 'New' },
      { stage: 'Contacted' },
      { stage: 'Replied', starred: true },
      { view: 'due' },
      { view: 'snoozed' },
      { view: 'due', stage: 'Contacted', status: 'New' },
      { alreadyPitched: true },
      { alreadyPitched: true, stage: 'Contacted' },
      { ids: ['id1', 'id2', 'id42', 'missing'] },
      { ids: ['id3'], includeArchived: true, includeRemoved: true },
      { search: 'tips@site2' },
      { search: 'tips@site2 com', view: 'snoozed' },
    ];
    for (const sort of LIST_SORTS) {
      for (const f of filters) {
        const filter = { brandId: B, sort, ...f };
        const what = JSON.stringify(filter);
        const first = planOf(pageSql(filter));
        noFullScan(first, what);
        // The page's rowids come in the sort's index order (the one small sort is of the page's 200 rows).
        if (!f.search && !f.includeArchived && !f.includeRemoved && !f.onlyRemoved) {
          expect(
            // (Best match without a search is the priority order.)
            first.some((l) => new RegExp(`USING (COVERING )?INDEX opportunities_by_${sort === 'relevance' ? 'priority' : sort}\\b`).test(l)),
            `${what}: ${first.join(' | ')}`,
          ).toBe(true);
        }
        const afterRow = planOf(pageSql(filter, { value: sort === 'title' || sort === 'domain' ? 'm' : sort === 'relevance' ? -1.5 : 5, rowid: 10 }));
        noFullScan(afterRow, `${what} after a row`);
        // Version 10: each sort's index holds the rowid after the value, so ties need no sort of their own.
        if (!f.search && !f.includeArchived && !f.includeRemoved && !f.onlyRemoved) {
          for (const plan of [first, afterRow]) expect(plan.join(' | '), what).not.toMatch(/LAST TERM OF ORDER BY/);
        }
        noFullScan(planOf(pageSql(filter, { value: null, rowid: 10 })), `${what} among the empties`);
      }
    }
    for (const f of filters) {
      const filter = { brandId: B, ...f };
      const q = prepared(filter);
      const counts = planOf(sqlOf(countsSql(q)));
      const total = planOf(sqlOf(countSql(q)));
      if (q.counted === 'summary') {
        // Version 11: without a search (or an outlet, the follow-ups due, the pitched set, a selection) the total and
        // the chip counts add up the summary's groups, kept by triggers: the opportunities are not read at all.
        for (const [plan, what] of [
          [counts, 'counts'],
          [total, 'total'],
        ] as const) {
          expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).toMatch(/^SEARCH o USING (COVERING )?INDEX opportunity_summary_by_group \(brand_key=\?/);
          expect(texts.get(plan), `${what} ${JSON.stringify(f)}`).not.toMatch(/\bopportunities\b/);
        }
        // (Archived ones kept in the list leave the chips' columns out of the index's order: a small sort of the few groups.)
        if (!f.includeArchived && !f.includeRemoved) expect(counts.join(' | '), `counts ${JSON.stringify(f)}`).not.toMatch(/TEMP B-TREE/);
      } else if (q.counted === 'facets') {
        // A search's total and chip counts start from its full-text matches and read each one's narrow facets by rowid:
        // the matches are never copied into a table first, and no opportunity's row is read.
        for (const [plan, what] of [
          [counts, 'counts'],
          [total, 'total'],
        ] as const) {
          const text = texts.get(plan) ?? '';
          expect(plan[0], `${what} ${JSON.stringify(f)}: ${plan.join(' | ')}`).toMatch(/^SCAN s VIRTUAL TABLE INDEX \d+:M/);
          expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).toMatch(/SEARCH o USING INTEGER PRIMARY KEY \(rowid=\?\)/);
          expect(text, `${what} ${JSON.stringify(f)}`).toMatch(/opportunity_facets o\b/);
          expect(text, `${what} ${JSON.stringify(f)}`).not.toMatch(/search_hits|\bopportunities o\b/);
        }
      } else if (q.counted === 'due' || q.counted === 'pitched') {
        // The follow-ups due or the pitched set (no search, outlet or selection): that set's own summary (worked out with
        // the set, once per change of the cache), or the summary less it: the opportunities are not read at all.
        for (const [plan, what] of [
          [counts, 'counts'],
          [total, 'total'],
        ] as const) {
          const text = texts.get(plan) ?? '';
          expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).toMatch(new RegExp(`SCAN temp\\.${q.counted}_summary|SCAN o\\b`));
          expect(text, `${what} ${JSON.stringify(f)}`).toMatch(new RegExp(`FROM temp\\.${q.counted}_summary`));
          expect(text, `${what} ${JSON.stringify(f)}`).not.toMatch(/\bopportunities\b|_rowids/);
          if (f.alreadyPitched === false)
            expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).toMatch(
              /SEARCH opportunity_summary USING (COVERING )?INDEX opportunity_summary_by_group \(brand_key=\?/,
            );
        }
      } else if (q.counted === 'outlets') {
        // Version 14: within an outlet (no search, set or selection), the groups of the outlets whose name holds it,
        // each outlet found by a seek past the one before and its groups read from its own range: no opportunity read.
        for (const [plan, what] of [
          [counts, 'counts'],
          [total, 'total'],
        ] as const) {
          expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).toMatch(
            /SEARCH o USING COVERING INDEX opportunity_outlets_by_group \(brand_key=\? AND domain=\?/,
          );
          expect(plan.join(' | '), `${what} ${JSON.stringify(f)}`).not.toMatch(/SCAN opportunity_outlets|SCAN o\b/);
          expect(texts.get(plan), `${what} ${JSON.stringify(f)}`).not.toMatch(/\bopportunities\b/);
        }
      } else {
        noFullScan(counts, `counts ${JSON.stringify(f)}`);
        noFullScan(total, `total ${JSON.stringify(f)}`);
      }
      // The list grouped by publication: the counts per outlet walk the domain index in its order.
      const outlets = planOf(sqlOf(outletCountsSql(prepared(filter))));
      noFullScan(outlets, `outlet counts ${JSON.stringify(f)}`);
      // (With removed ones too, the index's order by domain is per removed flag: the few outlets are then grouped in a small sort.)
      if (!f.includeRemoved) {
        expect(outlets.join(' | '), `outlet counts ${JSON.stringify(f)}`).toMatch(/USING (COVERING )?INDEX opportunities_by_domain/);
        expect(outlets.join(' | '), `outlet counts ${JSON.stringify(f)}`).not.toMatch(/TEMP B-TREE FOR GROUP BY/);
      }
      // Totals and chip counts read one narrow index, never the table, when no text search or domain needs it.
      if (!f.search && !f.domain && f.alreadyPitched === undefined && q.counted === 'index') {
        expect(counts.join(' | '), `counts ${JSON.stringify(f)}`).toMatch(/opportunities_by_chip/);
        expect(total.join(' | '), `total ${JSON.stringify(f)}`).toMatch(/USING COVERING INDEX opportunities_by_/);
      }
    }
    // Which filters read what: the summary, the outlets', a set's summary, the facets under a search (not with an outlet: the facets have none), the index.
    expect(
      (
        [
          {},
          { stage: 'Contacted', starred: true, catchAll: 'only' },
          { view: 'snoozed', includeArchived: true },
          { domain: 'site' },
          { view: 'due' },
          { alreadyPitched: true },
          { ids: ['id1'] },
          { search: 'co' },
          { search: 'co', view: 'due' },
          { search: 'co', domain: 'site' },
        ] as Omit<ListFilter, 'brandId'>[]
      ).map((f) => prepared({ brandId: B, ...f }).counted),
    ).toEqual(['summary', 'summary', 'summary', 'outlets', 'due', 'pitched', 'index', 'facets', 'facets', 'index']);
    // A search's page reads the full-text index within its own query: nothing is copied first, in either plan (few
    // matches drive the page; many are tested as the sort's index is walked, so the page stops at its 200th row).
    const co = prepared({ brandId: B, search: 'co' });
    expect(co.plan).toBe('drive');
    for (const plan of ['drive', 'probe'] as const) {
      // (This file's few rows always make few matches: the probe's query is made as prepareList makes it for many.)
      const q = plan === 'drive' ? co : { ...co, where: filterSql({ brandId: B, search: 'co' }, co.brand.bk, pipelineDays(), 'probe').where, plan };
      const lines = planOf(sqlOf(listSql(cache.readable, q, { limit: 200, offset: 0 })));
      expect(lines.join(' | '), plan).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
      expect(lines.join(' | '), plan).not.toMatch(/search_hits/);
      if (plan === 'probe') {
        expect(lines.join(' | ')).toMatch(/LIST SUBQUERY \d+ \| SEARCH o USING COVERING INDEX opportunities_by_priority/);
        // The one sort is of the page's own 200 rows: the rowids come in the index's order.
        expect(
          lines.filter((l) => /TEMP B-TREE FOR ORDER BY/.test(l)),
          lines.join(' | '),
        ).toHaveLength(1);
      } else expect(lines.join(' | ')).toMatch(/SCAN s VIRTUAL TABLE INDEX \d+:M\d* \| SEARCH o USING INTEGER PRIMARY KEY/);
    }
    // A jump counted from the end walks the same index backwards: no sort but the one of the page's own rows.
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain'] as const)
      for (const f of [{}, { starred: true }, { type: 'publication-gap' as const }]) {
        const lines = planOf(sqlOf(listSql(cache.readable, prepared({ brandId: B, sort, ...f }), { limit: 200, offset: 400, fromEnd: true })));
        const what = `${sort} ${JSON.stringify(f)}: ${lines.join(' | ')}`;
        expect(lines.join(' | '), what).toMatch(
          new RegExp(`LIST SUBQUERY \\d+ \\| SEARCH o USING COVERING INDEX opportunities_by_${sort} \\(brand_key=\\? AND removed_on_server=\\?\\)`),
        );
        expect(
          lines.filter((l) => /TEMP B-TREE/.test(l)),
          what,
        ).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
      }
    // A jump from a kept cursor (list-jump.ts: the page `skip` rows after it), and the walk that gathers the cursors (the sort
    // value and rowid alone): the sort's index walked from the cursor, never the table; no sort but the one of the page's own rows.
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain'] as const)
      for (const f of [{}, { domain: 'site' }, { alreadyPitched: false }]) {
        const q = prepared({ brandId: B, sort, ...f });
        // (A cursor among the empty values only where the sort has them.)
        for (const after of sort === 'title' || sort === 'domain'
          ? [{ value: 'm', rowid: 10 }]
          : [
              { value: 5, rowid: 10 },
              { value: null, rowid: 10 },
            ])
          for (const walk of [false, true]) {
            const lines = planOf(
              sqlOf(listSql(cache.readable, q, walk ? { limit: 3800, offset: 0, after, walk } : { limit: 200, offset: 0, after, skip: 150 })),
            );
            const what = `${sort} ${JSON.stringify({ ...f, after, walk })}: ${lines.join(' | ')}`;
            noFullScan(lines, what);
            expect(lines.join(' | '), what).toMatch(
              new RegExp(`SEARCH o USING COVERING INDEX opportunities_by_${sort} \\(brand_key=\\? AND removed_on_server=\\?`),
            );
            expect(
              lines.filter((l) => /TEMP B-TREE/.test(l)),
              what,
            ).toEqual(walk ? [] : ['USE TEMP B-TREE FOR ORDER BY']);
            if (walk) expect(lines.join(' | '), what).not.toMatch(/SEARCH (t|c|p) |USING INTEGER PRIMARY KEY/);
          }
      }
    // The walk of a sparse list (migration 15): the list's own rows read from the partial index that holds them (a stage
    // chosen and the follow-ups due found by a seek on it), index entries only, and sorted (once per keyset arm); never the
    // sort's index, never the table.
    for (const sort of ['priority', 'fit', 'last_seen', 'title', 'domain'] as const)
      for (const [f, index] of [
        [{ starred: true }, 'opportunities_starred \\(brand_key=\\? AND removed_on_server=\\?'],
        [{ view: 'snoozed' }, 'opportunities_snoozed \\(brand_key=\\? AND removed_on_server=\\?'],
        [{ stage: 'Contacted' }, 'opportunities_staged \\(brand_key=\\? AND removed_on_server=\\? AND stage=\\?'],
        [{ view: 'due' }, 'opportunities_staged \\(brand_key=\\? AND removed_on_server=\\? AND stage=\\?'],
        [{ stage: 'Not a fit', starred: true }, 'opportunities_staged \\(brand_key=\\? AND removed_on_server=\\? AND stage=\\?'],
      ] as const) {
        const q = prepared({ brandId: B, sort, ...f });
        const afters = sort === 'title' || sort === 'domain' ? [null, { value: 'm', rowid: 10 }] : [null, { value: 5, rowid: 10 }, { value: null, rowid: 10 }];
        for (const after of afters) {
          const lines = planOf(sqlOf(listSql(cache.readable, q, { limit: 3800, offset: 0, after: after ?? undefined, walk: true, sparse: true })));
          const what = `${sort} ${JSON.stringify({ ...f, after })}: ${lines.join(' | ')}`;
          noFullScan(lines, what, true);
          const arms = lines.filter((l) => /^(SEARCH|SCAN) o /.test(l));
          expect(arms.length, what).toBe(after !== null && after.value !== null && SORTS[sort].nullable ? 2 : 1);
          for (const arm of arms) expect(arm, what).toMatch(new RegExp(`^SEARCH o USING COVERING INDEX ${index}`));
          // (The arm of the empty values sorts them by rowid alone: the last term.)
          expect(
            lines.filter((l) => /TEMP B-TREE/.test(l)),
            what,
          ).toEqual(arms.map((_, i) => (i === 1 || after?.value === null ? 'USE TEMP B-TREE FOR LAST TERM OF ORDER BY' : 'USE TEMP B-TREE FOR ORDER BY')));
          expect(lines.join(' | '), what).not.toMatch(/SEARCH (t|c|p) |USING INTEGER PRIMARY KEY|opportunities_by_/);
        }
      }
    // So many matches that a page tests the sort's next rows one by one: the index walked (index entries only, at most four
    // pages of them), each row looked up in the full-text index by its rowid and the words (=M); the set of every match never read.
    const dense = { ...co, plan: 'probe' as const, dense: true, probeFts: '"co"* AND ("coffee")' };
    for (const after of [undefined, { value: 5, rowid: 10 }, { value: null, rowid: 10 }]) {
      const lines = planOf(sqlOf(listSql(cache.readable, dense, { limit: 200, offset: 0, after, windowed: true })));
      const what = `${JSON.stringify(after)}: ${lines.join(' | ')}`;
      expect(lines.join(' | '), what).toMatch(
        /CO-ROUTINE w \| SEARCH o USING COVERING INDEX opportunities_by_priority \(brand_key=\? AND removed_on_server=\?/,
      );
      expect(lines.join(' | '), what).toMatch(/SCAN w \| SCAN s EXISTS VIRTUAL TABLE INDEX \d+:=M/);
      expect(
        lines.filter((l) => /VIRTUAL TABLE/.test(l)).every((l) => /INDEX \d+:=M/.test(l)),
        what,
      ).toBe(true);
      expect(
        lines.filter((l) => /TEMP B-TREE/.test(l)),
        what,
      ).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
      expect(lines.join(' | '), what).not.toMatch(/search_hits/);
    }
    // A word of one letter just begun: its alternatives looked up one by one by rowid and words (=M), the first that holds
    // ending the test; the other words too when they match most rows, else the walk kept to their matches (a list subquery).
    const begun = { ...co, plan: 'probe' as const, heads: ['"co"*', '"ca"*'], restFts: '("coffee")', probeFts: '("coffee") AND ("co"* OR "ca"*)' };
    for (const isDense of [true, false]) {
      const lines = planOf(sqlOf(listSql(cache.readable, { ...begun, dense: isDense }, { limit: 200, offset: 0, windowed: true })));
      const what = `${isDense}: ${lines.join(' | ')}`;
      expect(lines.join(' | '), what).toMatch(
        /CO-ROUTINE w \| SEARCH o USING COVERING INDEX opportunities_by_priority \(brand_key=\? AND removed_on_server=\?/,
      );
      const fts = lines.filter((l) => /VIRTUAL TABLE/.test(l));
      expect(
        fts.filter((l) => /SCAN s (EXISTS )?VIRTUAL TABLE INDEX \d+:=M/.test(l)),
        what,
      ).toHaveLength(isDense ? 3 : 2);
      expect(
        fts.filter((l) => !/INDEX \d+:=M/.test(l)),
        what,
      ).toEqual(isDense ? [] : [expect.stringMatching(/^SCAN opportunity_search VIRTUAL TABLE INDEX \d+:M/)]);
      expect(
        lines.filter((l) => /TEMP B-TREE/.test(l)),
        what,
      ).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    }
    expect(planOf(pageSql({ brandId: B, search: 'coffee' })).join(' | ')).not.toMatch(/search_hits/);
    // Best match ranks its matches once into a table of rowids (filled from the full-text index) and reads the rank from there.
    expect(planOf(pageSql({ brandId: B, search: 'coffee', sort: 'relevance' })).join(' | ')).toMatch(/search_hits/);
    const fill = planOf({
      sql: 'INSERT INTO temp.search_hits (rowid) SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH \'"coffee"*\'',
      params: [],
    });
    expect(fill.join(' | ')).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
    // A selection and the follow-ups due find their rows by (brand, id), never by reading each row of the brand.
    for (const f of [{ ids: ['id1'] }, { view: 'due' as const }]) {
      expect(planOf(pageSql({ brandId: B, ...f })).join(' | '), JSON.stringify(f)).toMatch(/USING COVERING INDEX opportunities_by_priority/);
    }
    // The follow-ups due: their rowids worked out once per change of the cache (temp.due_rowids); a page tests that set
    // as it walks the sort's index, and neither reads the triage nor each row's addresses again.
    const due = planOf(pageSql({ brandId: B, view: 'due' })).join(' | ');
    expect(due).toMatch(
      /SEARCH o USING COVERING INDEX opportunities_by_priority \(brand_key=\? AND removed_on_server=\?\) \| USING ROWID SEARCH ON TABLE due_rowids/,
    );
    expect(due).not.toMatch(/SEARCH td /);
    if (otherScans.size > 0) console.warn(`query plans: full scans of contacts or triage (reported, not failed):\n  ${[...otherScans].join('\n  ')}`);
  });

  it("the list's total taken from the chip counts' rows is the total the list's own count gives, under every filter", () => {
    applyAction(cache, B, ['id20', 'id21', 'id22'], { do: 'won' }, { today: '2026-11-03', senderName: '' });
    setTriage(cache, B, 'id23', { stage: 'Not a fit' });
    const shapes: Omit<ListFilter, 'brandId'>[] = [
      {},
      ...STATUSES.map((status) => ({ status })),
      ...STATUSES.map((status) => ({ status, includeArchived: true })),
      ...OPPORTUNITY_TYPES.map((type) => ({ type })),
      ...DIFFICULTIES.map((difficulty) => ({ difficulty, status: 'New' as const })),
      { type: OPPORTUNITY_TYPES[0], difficulty: DIFFICULTIES[1], includeRemoved: true },
      { search: 'coffee' },
      { search: 'co', status: 'Done' },
      { stage: 'New', starred: true },
      { view: 'due' },
      { onlyRemoved: true, includeArchived: true },
      { hasContacts: true, catchAll: 'exclude', difficulty: DIFFICULTIES[0] },
    ];
    let nonZero = 0;
    for (const f of shapes) {
      const filter = { brandId: B, ...f };
      const { total } = chipCountsAndTotal(cache.readable, prepareList(cache.writable, filter));
      expect(total, JSON.stringify(f)).toBe(count(cache, filter));
      if (total > 0) nonZero++;
    }
    expect(nonZero).toBeGreaterThan(shapes.length / 2);
  });
});

describe('integrity', () => {
  it('quick_check passes after heavy writes', async () => {
    const path = join(tmp.dir, 'check.db');
    const c = await Cache.open(path);
    c.tx(() =>
      c.opportunities.upsertPage(
        B,
        Array.from({ length: 50 }, (_, i) => opp(i)),
        1,
        'now',
      ),
    );
    c.close();
    const again = await Cache.open(path);
    expect(again.db.pragma('integrity_check', { simple: true })).toBe('ok');
    again.close();
    expect(existsSync(path)).toBe(true);
  });
});
