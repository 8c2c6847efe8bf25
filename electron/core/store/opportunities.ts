// Opportunities in the cache: sync's upserts (server data only), the list
// with every filter the UI offers, counts for the filter chips, and one
// opportunity with its contacts and the user's triage.
import type { Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { parseContacts, type Contact } from '../../../shared/contacts';
import type { Opportunity } from '../../../shared/api/schemas';
import { STATUSES } from '../../../shared/domain';
import type { ListFilter, ListItem, ListSort, OpportunityDetail, Status } from '../../../shared/model';

export { LIST_SORTS, type ListFilter, type ListItem, type ListSort, type OpportunityDetail, type Triage } from '../../../shared/model';
import type { DB } from './db';

/** Sort columns come from this allow-list only. */
const ORDER_BY: Record<ListSort, string> = {
  priority: 'o.priority_score DESC, o.rowid',
  fit: 'o.fit_score DESC, o.rowid',
  last_seen: 'o.last_seen DESC, o.rowid',
  title: 'o.title COLLATE NOCASE, o.rowid',
  domain: 'o.domain COLLATE NOCASE, o.rowid',
};

export interface UpsertResult {
  added: number;
  changed: number;
  unchanged: number;
  skipped: number;
  warnings: string[];
}

/**
 * Words to an FTS5 query: each a quoted prefix term, all required; text that
 * the tokenizer splits (an address, a domain) becomes a phrase, so
 * "tips@site2.com" finds that address and not every "site2…". Never raw FTS
 * syntax from the user.
 */
export function ftsQuery(text: string): string | null {
  const terms = text
    .normalize('NFKC')
    .split(/\s+/)
    .map((chunk) => chunk.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0))
    .filter((parts) => parts.length > 0)
    .slice(0, 12);
  if (terms.length === 0) return null;
  return terms.map((parts) => `"${parts.join(' ').replace(/"/g, '""')}"*`).join(' ');
}

const asStr = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const asInt = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const join = (v: unknown): string => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(' ') : '');

const FROM = 'opportunities o LEFT JOIN triage t ON t.brand_id = @brand AND t.opportunity_id = o.id';

/**
 * "Already pitched": every address marked contacted or exported in any
 * opportunity of the brand, with the latest date. Built once per query from
 * the (few) triage rows that say so, never by fanning out from each row over
 * every opportunity that shares a generic address such as press@.
 */
const PITCHED_CTE = `pitched (identity, at) AS MATERIALIZED (
  SELECT c2.identity, max(max(COALESCE(t2.contacted_at, ''), COALESCE(t2.exported_at, '')))
  FROM triage t2 JOIN opportunities o2 ON o2.brand_key = @bk AND o2.id = t2.opportunity_id
  JOIN contacts c2 ON c2.opportunity_rowid = o2.rowid
  WHERE t2.brand_id = @brand AND (t2.contacted_at IS NOT NULL OR t2.exported_at IS NOT NULL) AND c2.valid = 1
  GROUP BY c2.identity)`;

const pitchedAt = (rowid: string) =>
  `(SELECT NULLIF(max(p.at), '') FROM contacts c JOIN pitched p ON p.identity = c.identity WHERE c.opportunity_rowid = ${rowid} AND c.valid = 1)`;

/** How many of this opportunity's addresses are on the do-not-contact list (by address or domain). */
const DO_NOT_CONTACT = `(SELECT count(*) FROM contacts c WHERE c.opportunity_rowid = o.rowid AND c.valid = 1 AND EXISTS (
  SELECT 1 FROM do_not_contact d WHERE (d.kind = 'address' AND d.value = c.identity) OR (d.kind = 'domain' AND (c.domain = d.value OR c.domain LIKE '%.' || d.value))))`;

const SELECT_ITEM = `
  o.id, o.unique_key, o.title, o.domain, o.url, o.opportunity_type,
  COALESCE(t.status, o.status) AS status, o.status AS server_status,
  o.archived, o.removed_on_server, o.priority_score, o.fit_score, o.difficulty, o.last_seen,
  o.contact_count, o.catch_all_count,
  COALESCE(t.starred, 0) AS starred, COALESCE(t.note, '') AS note, t.contacted_at, t.exported_at`;

/**
 * The per-row flags that need their own lookups, computed over the page only
 * (an outer query after LIMIT), never over every row a filter or sort touches.
 */
function withFlags(inner: string, order: string): string {
  const flags = `${pitchedAt('x._rowid')} AS pitched_at, ${DO_NOT_CONTACT.replace(/o\.rowid/g, 'x._rowid')} AS do_not_contact_count`;
  return `WITH ${PITCHED_CTE} SELECT x.*, ${flags} FROM (${inner}) x ORDER BY ${order.replace(/\bo\./g, 'x.').replace(/x\.rowid/g, 'x._rowid')}`;
}

type Row = Omit<ListItem, 'archived' | 'removed_on_server' | 'starred'> & { archived: number; removed_on_server: number; starred: number };

const toItem = ({ _rowid: _, ...r }: Row & { _rowid?: number }): ListItem => ({ ...r, archived: r.archived === 1, removed_on_server: r.removed_on_server === 1, starred: r.starred === 1 });

export class OpportunityStore {
  private readonly find: Statement<[number, string], { rowid: number; raw_hash: string; removed_on_server: number }>;
  private readonly putRaw: Statement;
  private readonly keys = new Map<string, number>();
  private readonly insert: Statement;
  private readonly update: Statement;
  private readonly touch: Statement;
  private readonly delContacts: Statement;
  private readonly addContact: Statement;
  private readonly delSearch: Statement;
  private readonly addSearch: Statement;

  constructor(private readonly db: DB) {
    this.find = db.prepare('SELECT rowid, raw_hash, removed_on_server FROM opportunities WHERE brand_key = ? AND id = ?');
    this.putRaw = db.prepare('INSERT INTO opportunity_records (rowid, raw) VALUES (?, ?) ON CONFLICT (rowid) DO UPDATE SET raw = excluded.raw');
    const cols = `unique_key = @unique_key, opportunity_type = @opportunity_type, status = @status, archived = @archived,
      difficulty = @difficulty, domain = @domain, url = @url, title = @title, priority_score = @priority_score,
      fit_score = @fit_score, last_seen = @last_seen, author_name = @author_name, contact_count = @contact_count,
      catch_all_count = @catch_all_count, raw_hash = @raw_hash, removed_on_server = 0, changed_at = @now, seen_in_run = @run`;
    this.insert = db.prepare(`INSERT INTO opportunities (brand_key, id, unique_key, opportunity_type, status, archived, difficulty, domain, url, title,
      priority_score, fit_score, last_seen, author_name, contact_count, catch_all_count, raw_hash, removed_on_server, first_synced_at, changed_at, seen_in_run)
      VALUES (@brand_key, @id, @unique_key, @opportunity_type, @status, @archived, @difficulty, @domain, @url, @title,
      @priority_score, @fit_score, @last_seen, @author_name, @contact_count, @catch_all_count, @raw_hash, 0, @now, @now, @run)`);
    this.update = db.prepare(`UPDATE opportunities SET ${cols} WHERE rowid = @rowid`);
    this.touch = db.prepare('UPDATE opportunities SET seen_in_run = ? WHERE rowid = ?');
    this.delContacts = db.prepare('DELETE FROM contacts WHERE opportunity_rowid = ?');
    this.addContact = db.prepare(
      'INSERT INTO contacts (opportunity_rowid, position, brand_key, raw, email, identity, domain, catch_all, valid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.delSearch = db.prepare('DELETE FROM opportunity_search WHERE rowid = ?');
    this.addSearch = db.prepare(
      'INSERT INTO opportunity_search (rowid, title, domain, topics, pitch_subject, pitch_body, gap_analysis, brand_angle, author, contacts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** The brand's small integer key; created on first write. -1 for a brand never written (matches nothing). */
  key(brandId: string, create = false): number {
    const hit = this.keys.get(brandId);
    if (hit !== undefined) return hit;
    if (create) this.db.prepare('INSERT OR IGNORE INTO brand_keys (id) VALUES (?)').run(brandId);
    const row = this.db.prepare('SELECT key FROM brand_keys WHERE id = ?').get(brandId) as { key: number } | undefined;
    if (!row) return -1;
    this.keys.set(brandId, row.key);
    return row.key;
  }

  /**
   * Write one page of server records. Call inside a transaction (sync writes
   * the page and its progress together). Idempotent: re-applying a page
   * changes nothing; a record seen twice is stored once.
   */
  upsertPage(brandId: string, records: Opportunity[], runId: number, now: string): UpsertResult {
    const result: UpsertResult = { added: 0, changed: 0, unchanged: 0, skipped: 0, warnings: [] };
    const bk = this.key(brandId, true);
    for (const rec of records) {
      const r = rec as Record<string, unknown>;
      const id = asStr(r._id) ?? (asStr(r.unique_key) ? `key:${String(r.unique_key)}` : null);
      if (!id) {
        result.skipped++;
        result.warnings.push('an opportunity without _id or unique_key was skipped');
        continue;
      }
      const raw = JSON.stringify(r);
      const rawHash = createHash('sha1').update(raw).digest('base64');
      const existing = this.find.get(bk, id);
      if (existing && existing.raw_hash === rawHash && existing.removed_on_server === 0) {
        this.touch.run(runId, existing.rowid);
        result.unchanged++;
        continue;
      }
      const contacts = parseContacts(r.contact_emails);
      const valid = contacts.filter((c) => c.valid);
      const row = {
        brand_key: bk,
        id,
        unique_key: asStr(r.unique_key),
        opportunity_type: asStr(r.opportunity_type),
        status: asStr(r.status),
        archived: r.archived === true ? 1 : 0,
        difficulty: asStr(r.difficulty),
        domain: asStr(r.domain) ?? '',
        url: asStr(r.url),
        title: asStr(r.title) ?? '',
        priority_score: asInt(r.priority_score),
        fit_score: asInt(r.fit_score),
        last_seen: asStr(r.last_seen_date),
        author_name: asStr(r.author_name),
        contact_count: valid.length,
        catch_all_count: valid.filter((c) => c.catchAll).length,
        raw_hash: rawHash,
        now,
        run: runId,
      };
      let rowid: number;
      if (existing) {
        this.update.run({ ...row, rowid: existing.rowid });
        rowid = existing.rowid;
        this.delContacts.run(rowid);
        this.delSearch.run(rowid);
        result.changed++;
      } else {
        rowid = Number(this.insert.run(row).lastInsertRowid);
        result.added++;
      }
      this.putRaw.run(rowid, raw);
      contacts.forEach((c, i) => this.addContact.run(rowid, i, bk, c.raw, c.email, c.identity, c.domain, c.catchAll ? 1 : 0, c.valid ? 1 : 0));
      this.addSearch.run(
        rowid,
        row.title,
        row.domain,
        `${join(r.topics_covered)} ${join(r.topics_aligned)}`,
        asStr(r.pitch_subject) ?? '',
        asStr(r.pitch_body) ?? '',
        asStr(r.gap_analysis) ?? '',
        asStr(r.brand_angle) ?? '',
        row.author_name ?? '',
        contacts.map((c) => c.email).join(' '),
      );
    }
    return result;
  }

  /** After a complete pass: every record of the brand this run did not see is marked removed (kept, with its triage). */
  markUnseenRemoved(brandId: string, runId: number, now: string): number {
    return this.db
      .prepare('UPDATE opportunities SET removed_on_server = 1, changed_at = ? WHERE brand_key = ? AND seen_in_run != ? AND removed_on_server = 0')
      .run(now, this.key(brandId), runId).changes;
  }

  /**
   * FROM and WHERE for a filter, with named parameters (@brand, @bk, @p0…),
   * shared by the list, the counts and the export queries.
   */
  filterSql(f: ListFilter): { with: string; from: string; where: string; params: Record<string, unknown> } {
    const clauses = ['o.brand_key = @bk'];
    const params: Record<string, unknown> = { bk: this.key(f.brandId), brand: f.brandId };
    let n = 0;
    const bind = (v: unknown) => {
      const name = `p${n++}`;
      params[name] = v;
      return `@${name}`;
    };
    if (f.onlyRemoved) clauses.push('o.removed_on_server = 1');
    else if (!f.includeRemoved) clauses.push('o.removed_on_server = 0');
    if (!f.includeArchived) clauses.push("o.archived = 0 AND (t.status IS NULL OR t.status != 'Archived')");
    if (f.type !== undefined) clauses.push(`o.opportunity_type = ${bind(f.type)}`);
    if (f.status !== undefined) clauses.push(`COALESCE(t.status, o.status) = ${bind(f.status)}`);
    if (f.difficulty !== undefined) clauses.push(`o.difficulty = ${bind(f.difficulty)}`);
    if (f.domain !== undefined && f.domain.trim() !== '') clauses.push(`instr(lower(o.domain), lower(${bind(f.domain.trim())})) > 0`);
    if (f.hasContacts === true) clauses.push('o.contact_count > 0');
    if (f.hasContacts === false) clauses.push('o.contact_count = 0');
    if (f.catchAll === 'only') clauses.push('o.catch_all_count > 0');
    if (f.catchAll === 'exclude') clauses.push('o.catch_all_count = 0');
    if (f.starred) clauses.push('t.starred = 1');
    if (f.alreadyPitched === true) clauses.push(`${pitchedAt('o.rowid')} IS NOT NULL`);
    if (f.alreadyPitched === false) clauses.push(`${pitchedAt('o.rowid')} IS NULL`);
    if (f.ids !== undefined) clauses.push(`o.id IN (SELECT value FROM json_each(${bind(JSON.stringify(f.ids))}))`);
    if (f.search !== undefined) {
      const q = ftsQuery(f.search);
      if (q) clauses.push(`o.rowid IN (SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${bind(q)})`);
    }
    return { with: `WITH ${PITCHED_CTE}`, from: FROM, where: clauses.join(' AND '), params };
  }

  private listQuery(f: ListFilter): string {
    const w = this.filterSql(f);
    const order = ORDER_BY[f.sort ?? 'priority'];
    // The inner query's pitched filter (if any) uses the outer WITH.
    return withFlags(`SELECT o.rowid AS _rowid, ${SELECT_ITEM} FROM ${w.from} WHERE ${w.where} ORDER BY ${order} LIMIT @limit OFFSET @offset`, order);
  }

  list(f: ListFilter, page: { limit?: number; offset?: number } = {}): ListItem[] {
    const limit = Math.max(1, Math.min(page.limit ?? 200, 5000));
    const offset = Math.max(0, page.offset ?? 0);
    return (this.db.prepare(this.listQuery(f)).all({ ...this.filterSql(f).params, limit, offset }) as Row[]).map(toItem);
  }

  /** The SQL the list runs and its parameters, for query-plan tests. */
  listSql(f: ListFilter): { sql: string; params: Record<string, unknown> } {
    return { sql: this.listQuery(f), params: { ...this.filterSql(f).params, limit: 200, offset: 0 } };
  }

  /** How many match; with `cap`, counting stops there (a broad search need not scan every match). */
  count(f: ListFilter, cap?: number): number {
    const w = this.filterSql(f);
    const sql = cap ? `${w.with} SELECT count(*) AS n FROM (SELECT 1 FROM ${w.from} WHERE ${w.where} LIMIT @cap)` : `${w.with} SELECT count(*) AS n FROM ${w.from} WHERE ${w.where}`;
    return (this.db.prepare(sql).get(cap ? { ...w.params, cap } : w.params) as { n: number }).n;
  }

  /** Counts per effective status, type and difficulty under the other filters (for the filter chips). */
  counts(f: ListFilter): { status: Record<string, number>; type: Record<string, number>; difficulty: Record<string, number>; total: number } {
    const w = this.filterSql({ ...f, status: undefined, type: undefined, difficulty: undefined });
    const rows = this.db
      .prepare(
        `${w.with} SELECT COALESCE(t.status, o.status) AS status, o.opportunity_type AS type, o.difficulty AS difficulty, count(*) AS n
         FROM ${w.from} WHERE ${w.where} GROUP BY 1, 2, 3`,
      )
      .all(w.params) as { status: string | null; type: string | null; difficulty: string | null; n: number }[];
    const out = { status: Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<string, number>, type: {} as Record<string, number>, difficulty: {} as Record<string, number>, total: 0 };
    for (const r of rows) {
      out.total += r.n;
      const s = r.status ?? 'New';
      out.status[s] = (out.status[s] ?? 0) + r.n;
      if (r.type) out.type[r.type] = (out.type[r.type] ?? 0) + r.n;
      if (r.difficulty) out.difficulty[r.difficulty] = (out.difficulty[r.difficulty] ?? 0) + r.n;
    }
    return out;
  }

  get(brandId: string, id: string): OpportunityDetail | null {
    const row = this.db
      .prepare(`WITH ${PITCHED_CTE} SELECT o.rowid AS _rowid, r.raw AS _raw, ${SELECT_ITEM}, ${pitchedAt('o.rowid')} AS pitched_at, ${DO_NOT_CONTACT} AS do_not_contact_count,
        t.updated_at AS _updated_at FROM opportunities o
        JOIN opportunity_records r ON r.rowid = o.rowid
        LEFT JOIN triage t ON t.brand_id = @brand AND t.opportunity_id = o.id WHERE o.brand_key = @bk AND o.id = @id`)
      .get({ brand: brandId, bk: this.key(brandId), id }) as (Row & { _rowid: number; _raw: string; _updated_at: string | null }) | undefined;
    if (!row) return null;
    const { _rowid, _raw, _updated_at, ...rest } = row;
    const contacts = (
      this.db.prepare('SELECT raw, email, identity, domain, catch_all, valid FROM contacts WHERE opportunity_rowid = ? ORDER BY position').all(_rowid) as {
        raw: string;
        email: string;
        identity: string;
        domain: string;
        catch_all: number;
        valid: number;
      }[]
    ).map((c) => ({ raw: c.raw, email: c.email, identity: c.identity, domain: c.domain, catchAll: c.catch_all === 1, valid: c.valid === 1 }));
    const item = toItem(rest as Row);
    const triage = this.db.prepare('SELECT status FROM triage WHERE brand_id = ? AND opportunity_id = ?').get(brandId, id) as { status: Status | null } | undefined;
    return {
      item,
      record: JSON.parse(_raw) as Opportunity & Record<string, unknown>,
      contacts,
      triage: { status: triage?.status ?? null, note: item.note, starred: item.starred, contacted_at: item.contacted_at, exported_at: item.exported_at, updated_at: _updated_at },
    };
  }

  /** Parsed contacts of many opportunities at once, in their original order. */
  contactsFor(brandId: string, ids: readonly string[]): Map<string, Contact[]> {
    const out = new Map<string, Contact[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT o.id, c.raw, c.email, c.identity, c.domain, c.catch_all, c.valid FROM opportunities o JOIN contacts c ON c.opportunity_rowid = o.rowid
         WHERE o.brand_key = ? AND o.id IN (SELECT value FROM json_each(?)) ORDER BY o.rowid, c.position`,
      )
      .all(this.key(brandId), JSON.stringify(ids)) as { id: string; raw: string; email: string; identity: string; domain: string; catch_all: number; valid: number }[];
    for (const r of rows) out.get(r.id)?.push({ raw: r.raw, email: r.email, identity: r.identity, domain: r.domain, catchAll: r.catch_all === 1, valid: r.valid === 1 });
    return out;
  }

  exists(brandId: string, id: string): boolean {
    return this.find.get(this.key(brandId), id) !== undefined;
  }
}
