// The user's record as one piece: read whole (record export, backups), merged
// in (import: by opportunity id and do-not-contact entry, field by field, the
// later write winning, conflicts reported), or put back in place of what is
// there (restore from a backup). Every change is one transaction: a record
// that fails half-way changes nothing.
import {
  RECORD_FORMAT,
  RECORD_VERSION,
  TRIAGE_FIELDS,
  type HistoryKind,
  type MergeReport,
  type RecordCounts,
  type RecordFile,
  type TriageRecord,
} from '../../../shared/user-record';
export type { MergeConflict, MergeReport } from '../../../shared/user-record';
import type { WritableDB } from './database';
import { normalisedEntries } from './do-not-contact';
import { allDrafts, clearDrafts, clearSnippets, listSnippets, putDraft, putSnippet, readDraft, readSnippet } from './drafts';
import type { ExportLog } from './exports-log';
import { allHistory, clearHistory, historyOrder, insertHistory } from './history';
import { identifier, sql, sqlJoin, type Sql } from './sql';
import { allTriage, clearTriage, putTriageRecord, triageRecord } from './triage';
import { clearActions } from './triage-actions';

const TRIAGE_COLUMN_NAMES = TRIAGE_FIELDS.flatMap((f) => [f.name, f.changedAt]);

class DryRun extends Error {}

export class UserRecordStore {
  constructor(
    private readonly db: WritableDB,
    private readonly exports: ExportLog,
  ) {}

  /** Everything the user wrote, as the record file holds it. */
  read(appVersion: string, now = new Date()): RecordFile {
    return this.db.snapshot(
      (): RecordFile => ({
        format: RECORD_FORMAT,
        version: RECORD_VERSION,
        app_version: appVersion,
        created_at: now.toISOString(),
        triage: allTriage(this.db),
        do_not_contact: this.db.all(sql`SELECT * FROM do_not_contact ORDER BY kind, value`),
        exports: this.exports.all(),
        history: allHistory(this.db),
        drafts: allDrafts(this.db),
        snippets: listSnippets(this.db),
      }),
    );
  }

  /**
   * The record file's JSON text as UTF-8 bytes, built by SQLite's JSON
   * functions (no object per row on this thread): what a backup writes, the
   * same document `read` gives. At 20,000 triaged opportunities this is a few
   * times faster than reading objects and JSON.stringify, and a backup runs in
   * the core's thread. Each part comes out of SQLite as bytes (its text cast
   * to a blob), so its ~20 MB are never decoded into a string and encoded back.
   */
  readJson(appVersion: string, now = new Date()): { json: Buffer; counts: RecordCounts } {
    const chunks: Buffer[] = [];
    const counts = this.writeJson(appVersion, now, (bytes) => chunks.push(bytes));
    return { json: Buffer.concat(chunks), counts };
  }

  /**
   * The same bytes as readJson, handed to `out` part by part as SQLite builds
   * them (the triage, about two thirds, first, with its key and the head): a
   * backup compresses that first part in zlib's thread pool while this thread
   * builds the rest (zlib takes the next part once this thread is free).
   */
  writeJson(appVersion: string, now: Date, out: (bytes: Buffer) => void): RecordCounts {
    const triageObject = sql`json_object('brand_id', brand_id, 'opportunity_id', opportunity_id, ${sqlJoin(
      TRIAGE_FIELDS.flatMap((f) => {
        const col = identifier(f.name, TRIAGE_COLUMN_NAMES);
        const value = f.kind === 'flag' ? sql`json(CASE WHEN ${col} = 1 THEN 'true' ELSE 'false' END)` : f.kind === 'list' ? sql`json(${col})` : col;
        return [sql`${f.name}, ${value}`, sql`${f.changedAt}, ${identifier(f.changedAt, TRIAGE_COLUMN_NAMES)}`];
      }),
      sql`, `,
    )}, 'updated_at', updated_at)`;
    return this.db.snapshot(() => {
      /** One part: the objects of `from`'s rows in one JSON array, as bytes (its text cast to a blob), and how many. */
      const part = (object: Sql, from: Sql, extra: Sql = sql``) =>
        this.db.get<{ j: Buffer; n: number; notes?: number }>(
          sql`SELECT CAST(COALESCE(json_group_array(${object}), '[]') AS BLOB) AS j, count(*) AS n${extra} FROM (${from})`,
        )!;
      const head = JSON.stringify({ format: RECORD_FORMAT, version: RECORD_VERSION, app_version: appVersion, created_at: now.toISOString() }).slice(0, -1);
      // The key and its part handed over in one piece: the first, the triage, is then compressed whole while the rest is built.
      const emit = (key: string, p: { j: Buffer }) => out(Buffer.concat([Buffer.from(key, 'utf8'), p.j]));
      // Each object straight into the array (not through a subquery's column, which would hand it over as text to parse again).
      const t = part(triageObject, sql`SELECT * FROM triage ORDER BY brand_id, opportunity_id`, sql`, sum(note != '') AS notes`);
      emit(`${head},"triage":`, t);
      const d = part(
        sql`json_object('kind', kind, 'value', value, 'note', note, 'added_at', added_at)`,
        sql`SELECT * FROM do_not_contact ORDER BY kind, value`,
      );
      emit(',"do_not_contact":', d);
      const e = part(
        sql`json_object('id', id, 'at', at, 'brand_id', brand_id, 'preset', preset, 'file_name', file_name,
            'rows', rows, 'opportunities', opportunities, 'marked_exported', marked_exported, 'carried', json(carried), 'sent_at', sent_at)`,
        sql`SELECT * FROM exports ORDER BY at`,
      );
      emit(',"exports":', e);
      const h = part(
        sql`json_object('brand_id', brand_id, 'opportunity_id', opportunity_id, 'at', at, 'kind', kind, 'detail', detail)`,
        sql`SELECT * FROM history ORDER BY id`,
      );
      emit(',"history":', h);
      const dr = part(
        sql`json_object('brand_id', brand_id, 'opportunity_id', opportunity_id, 'kind', kind, 'subject', subject, 'body', body,
            'base_subject', base_subject, 'base_body', base_body, 'updated_at', updated_at)`,
        sql`SELECT * FROM drafts ORDER BY brand_id, opportunity_id, kind`,
      );
      emit(',"drafts":', dr);
      const sn = part(
        sql`json_object('id', id, 'kind', kind, 'name', name, 'text', text, 'updated_at', updated_at)`,
        sql`SELECT * FROM snippets ORDER BY kind, name COLLATE NOCASE`,
      );
      emit(',"snippets":', sn);
      out(Buffer.from('}'));
      return {
        triage: t.n,
        notes: t.notes ?? 0,
        do_not_contact: d.n,
        exports: e.n,
        history: h.n,
        drafts: dr.n,
        snippets: sn.n,
      };
    });
  }

  /**
   * A short summary that changes whenever the user's record does (counts and
   * latest write times), so a backup is taken only after a change.
   */
  fingerprint(): string {
    const row = this.db.get<Record<string, unknown>>(
      sql`SELECT (SELECT count(*) || '/' || COALESCE(max(updated_at), '') FROM triage) AS t,
        (SELECT count(*) || '/' || COALESCE(max(added_at), '') || '/' || COALESCE(sum(length(note)), 0) FROM do_not_contact) AS d,
        (SELECT count(*) || '/' || COALESCE(max(at), '') FROM exports) AS e,
        (SELECT count(*) || '/' || (SELECT n FROM history_next) || '/' || COALESCE(max(at), '') FROM history) AS h,
        (SELECT count(*) || '/' || COALESCE(max(updated_at), '') FROM drafts) AS dr,
        (SELECT count(*) || '/' || COALESCE(max(updated_at), '') FROM snippets) AS sn`,
    )!;
    return `${String(row.t)};${String(row.d)};${String(row.e)};${String(row.h)};${String(row.dr)};${String(row.sn)}`;
  }

  /**
   * Merge a record into the cache. Triage by opportunity id, field by field:
   * a field only one side has set takes that side's value; set on both sides
   * to different values is a conflict, settled by the later write. The
   * do-not-contact list and the exports are unions; history events are kept
   * once. With `dryRun`, the report of what would change, and nothing changes.
   * Importing the same record twice changes nothing the second time.
   */
  merge(record: RecordFile, opts: { dryRun?: boolean } = {}): MergeReport {
    const report: MergeReport = {
      triage: { added: 0, updated: 0, unchanged: 0 },
      do_not_contact: { added: 0, unchanged: 0 },
      exports: { added: 0 },
      history: { added: 0 },
      drafts: { added: 0, updated: 0 },
      snippets: { added: 0, updated: 0 },
      conflicts: [],
      nothingChanged: true,
    };
    // The file's own history, in the order its events reached it (its cache's insertion order).
    const theirs = new Map(record.history.map((h, i) => [eventKey(h.brand_id, h.opportunity_id, h.kind, h.at), i]));
    const apply = () => {
      for (const incoming of record.triage) this.mergeTriage(incoming, report, theirs);
      // Each entry in the normal form every way in gives it (a mixed-case entry would be listed but never honoured).
      for (const d of normalisedEntries(record.do_not_contact)) {
        const had = this.db.get(sql`SELECT 1 FROM do_not_contact WHERE kind = ${d.kind} AND value = ${d.value}`);
        if (had) report.do_not_contact.unchanged++;
        else {
          this.db.run(sql`INSERT INTO do_not_contact (kind, value, note, added_at) VALUES (${d.kind}, ${d.value}, ${d.note}, ${d.added_at})`);
          report.do_not_contact.added++;
        }
      }
      for (const e of record.exports) report.exports.added += this.exports.insert(e);
      report.history.added = insertHistory(this.db, record.history);
      // Drafts and snippets whole: the later one wins; both changed is a conflict like a triage field's.
      for (const d of record.drafts) {
        const local = readDraft(this.db, d.brand_id, d.opportunity_id, d.kind);
        if (!local) {
          putDraft(this.db, d);
          report.drafts.added++;
        } else if ((local.subject !== d.subject || local.body !== d.body) && d.updated_at > local.updated_at) {
          report.conflicts.push({
            brand_id: d.brand_id,
            opportunity_id: d.opportunity_id,
            field: `${d.kind} draft`,
            local: local.body,
            incoming: d.body,
            local_at: local.updated_at,
            incoming_at: d.updated_at,
            kept: 'incoming',
          });
          putDraft(this.db, d);
          report.drafts.updated++;
        } else if (local.subject !== d.subject || local.body !== d.body) {
          report.conflicts.push({
            brand_id: d.brand_id,
            opportunity_id: d.opportunity_id,
            field: `${d.kind} draft`,
            local: local.body,
            incoming: d.body,
            local_at: local.updated_at,
            incoming_at: d.updated_at,
            kept: 'local',
          });
        }
      }
      for (const sn of record.snippets) {
        const local = readSnippet(this.db, sn.id);
        if (!local) report.snippets.added++;
        else if (sn.updated_at > local.updated_at && (local.text !== sn.text || local.name !== sn.name || local.kind !== sn.kind)) report.snippets.updated++;
        else continue;
        putSnippet(this.db, sn);
      }
      report.nothingChanged =
        report.triage.added +
          report.triage.updated +
          report.do_not_contact.added +
          report.exports.added +
          report.history.added +
          report.drafts.added +
          report.drafts.updated +
          report.snippets.added +
          report.snippets.updated ===
        0;
      if (opts.dryRun) throw new DryRun();
    };
    try {
      this.db.transaction(apply);
    } catch (e) {
      if (!(e instanceof DryRun)) throw e;
    }
    return report;
  }

  /**
   * A field that differs is taken by its later write. It is a conflict (both
   * sides changed) unless the side whose write wins had the other's write
   * before it made its own: this cache had the file's write of that field
   * before ours (an old export of ours imported again), or the file had our
   * write before its own (a colleague changed what we sent). Having seen it
   * only after writing is still a conflict; so is anything a history cannot
   * tell (a field without history, a note whose edits were merged).
   */
  private mergeTriage(incoming: TriageRecord, report: MergeReport, theirs: ReadonlyMap<string, number>): void {
    const local = triageRecord(this.db, incoming.brand_id, incoming.opportunity_id);
    if (!local) {
      putTriageRecord(this.db, incoming);
      report.triage.added++;
      return;
    }
    const next: TriageRecord = { ...local };
    let changed = false;
    for (const f of TRIAGE_FIELDS) {
      const [lv, iv] = [local[f.name], incoming[f.name]];
      const [lt, it] = [local[f.changedAt], incoming[f.changedAt]];
      if (JSON.stringify(lv) === JSON.stringify(iv) || it === null) continue;
      if (lt !== null) {
        const kept = it > lt ? 'incoming' : 'local';
        const seen =
          f.history !== null &&
          (kept === 'local'
            ? this.hadBefore(local, f.history, it, lt)
            : before(
                theirs.get(eventKey(local.brand_id, local.opportunity_id, f.history, lt)),
                theirs.get(eventKey(local.brand_id, local.opportunity_id, f.history, it)),
              ));
        if (!seen)
          report.conflicts.push({
            brand_id: local.brand_id,
            opportunity_id: local.opportunity_id,
            field: f.name,
            local: lv,
            incoming: iv,
            local_at: lt,
            incoming_at: it,
            kept,
          });
        if (kept === 'local') continue;
      }
      (next as Record<string, unknown>)[f.name] = iv;
      (next as Record<string, unknown>)[f.changedAt] = it;
      changed = true;
    }
    if (!changed) {
      report.triage.unchanged++;
      return;
    }
    next.updated_at = incoming.updated_at > local.updated_at ? incoming.updated_at : local.updated_at;
    putTriageRecord(this.db, next);
    report.triage.updated++;
  }

  /** This cache had the event at `earlier` before its own at `later`, for this opportunity's field. */
  private hadBefore(r: TriageRecord, kind: HistoryKind, earlier: string, later: string): boolean {
    return before(historyOrder(this.db, r.brand_id, r.opportunity_id, kind, earlier), historyOrder(this.db, r.brand_id, r.opportunity_id, kind, later));
  }

  /** Put a record in place of the user's record (restore from a backup): all of it, or nothing. */
  replace(record: RecordFile): void {
    this.db.transaction(() => {
      clearTriage(this.db);
      clearHistory(this.db);
      clearActions(this.db);
      this.exports.clear();
      clearDrafts(this.db);
      clearSnippets(this.db);
      this.db.run(sql`DELETE FROM do_not_contact`);
      for (const t of record.triage) putTriageRecord(this.db, t);
      for (const d of normalisedEntries(record.do_not_contact)) {
        this.db.run(sql`INSERT OR IGNORE INTO do_not_contact (kind, value, note, added_at) VALUES (${d.kind}, ${d.value}, ${d.note}, ${d.added_at})`);
      }
      for (const e of record.exports) this.exports.insert(e);
      insertHistory(this.db, record.history);
      for (const d of record.drafts) putDraft(this.db, d);
      for (const sn of record.snippets) putSnippet(this.db, sn);
    });
  }
}

/** One history event as a key: an opportunity's change of a kind at a time. */
function eventKey(brandId: string, opportunityId: string, kind: string, at: string): string {
  return `${brandId}\u0000${opportunityId}\u0000${kind}\u0000${at}`;
}

/** Both events known, and the first reached the history before the second. */
function before(a: number | null | undefined, b: number | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && a < b;
}
