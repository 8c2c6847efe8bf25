// The exports the user made: when, which brand and preset, how many rows, and
// the file's name (never its folder: the record may travel to a colleague);
// which addresses it carried and when the user said it was sent (an export is
// not a contact until then). The record file carries all of it.
import { randomUUID } from 'node:crypto';
import type { ExportRecord } from '../../../shared/user-record';
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';

/** The columns the record file carries. */
const RECORD_COLUMNS = sql`id, at, brand_id, preset, file_name, rows, opportunities, marked_exported, carried, sent_at`;

/** How long an export not confirmed sent keeps the addresses it carried (for "I sent these"). */
export const CARRIED_KEPT_DAYS = 180;

type StoredExport = Omit<ExportRecord, 'carried'> & { carried: string | null };

/** A row as the record holds it: the addresses carried as a list. */
const toRecord = (r: StoredExport): ExportRecord => ({ ...r, carried: r.carried ? (JSON.parse(r.carried) as [string, string[]][]) : null });

export class ExportLog {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  /**
   * A new export; `carried`: the addresses it wrote, per opportunity id (what
   * "I sent it" marks contacted). The addresses of exports never confirmed
   * within CARRIED_KEPT_DAYS of this one are let go (a large export carries
   * megabytes of them); the export itself stays in the log.
   */
  add(e: Omit<ExportRecord, 'id' | 'carried'> & { id?: string; carried?: ReadonlyMap<string, readonly string[]> }): ExportRecord {
    const { carried, ...rest } = e;
    const rec: ExportRecord = { ...rest, id: e.id ?? randomUUID(), carried: carried?.size ? [...carried].map(([o, a]) => [o, [...a]]) : null };
    const before = new Date(Date.parse(e.at) - CARRIED_KEPT_DAYS * 86_400_000).toISOString();
    this.statements.run(sql`UPDATE exports SET carried = NULL WHERE carried IS NOT NULL AND sent_at IS NULL AND at < ${before}`);
    this.insert(rec);
    return rec;
  }

  /** One export with the addresses it carried and when it was confirmed sent; `latest`: the newest one. */
  sent(id: string | 'latest'): (ExportRecord & { carried: [string, string[]][]; sent_at: string | null }) | undefined {
    const row = this.statements.get<ExportRecord & { carried: string | null; sent_at: string | null }>(
      id === 'latest' ? sql`SELECT * FROM exports ORDER BY at DESC, rowid DESC LIMIT 1` : sql`SELECT * FROM exports WHERE id = ${id}`,
    );
    return row && { ...row, carried: row.carried ? (JSON.parse(row.carried) as [string, string[]][]) : [] };
  }

  /** The export was sent (the user said so): when. Its addresses are in the triage now, so they are let go here. */
  markSent(id: string, at: string): void {
    this.statements.run(sql`UPDATE exports SET sent_at = ${at}, carried = NULL WHERE id = ${id}`);
  }

  /** Insert as is; an export already known (same id) is kept once. Returns 1 when new. */
  insert(e: ExportRecord): number {
    const carried = e.carried?.length ? JSON.stringify(e.carried) : null;
    return this.statements.run(
      sql`INSERT OR IGNORE INTO exports (id, at, brand_id, preset, file_name, rows, opportunities, marked_exported, carried, sent_at)
        VALUES (${e.id}, ${e.at}, ${e.brand_id}, ${e.preset}, ${e.file_name}, ${e.rows}, ${e.opportunities}, ${e.marked_exported}, ${carried}, ${e.sent_at ?? null})`,
    ).changes;
  }

  /** Newest first. */
  list(limit = 1000): ExportRecord[] {
    return this.statements.all<StoredExport>(sql`SELECT ${RECORD_COLUMNS} FROM exports ORDER BY at DESC LIMIT ${limit}`).map(toRecord);
  }

  all(): ExportRecord[] {
    return this.statements.all<StoredExport>(sql`SELECT ${RECORD_COLUMNS} FROM exports ORDER BY at`).map(toRecord);
  }

  clear(): void {
    this.statements.run(sql`DELETE FROM exports`);
  }
}
