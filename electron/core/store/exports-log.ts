// The exports the user made: when, which brand and preset, how many rows, and
// the file's name (never its folder: the record may travel to a colleague);
// and, kept on this computer, which addresses it carried and when the user
// said it was sent (an export is not a contact until then).
import { randomUUID } from 'node:crypto';
import type { ExportRecord } from '../../../shared/user-record';
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';

/** The columns the record file carries (not the addresses carried, nor when it was confirmed sent: those stay on this computer). */
const RECORD_COLUMNS = sql`id, at, brand_id, preset, file_name, rows, opportunities, marked_exported`;

export class ExportLog {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  /** A new export; `carried`: the addresses it wrote, per opportunity id (what "I sent it" marks contacted). */
  add(e: Omit<ExportRecord, 'id'> & { id?: string; carried?: ReadonlyMap<string, readonly string[]> }): ExportRecord {
    const { carried, ...rest } = e;
    const rec: ExportRecord = { ...rest, id: e.id ?? randomUUID() };
    this.insert(rec);
    if (carried?.size) this.statements.run(sql`UPDATE exports SET carried = ${JSON.stringify([...carried])} WHERE id = ${rec.id}`);
    return rec;
  }

  /** One export with the addresses it carried and when it was confirmed sent; `latest`: the newest one. */
  sent(id: string | 'latest'): (ExportRecord & { carried: [string, string[]][]; sent_at: string | null }) | undefined {
    const row = this.statements.get<ExportRecord & { carried: string | null; sent_at: string | null }>(
      id === 'latest' ? sql`SELECT * FROM exports ORDER BY at DESC, rowid DESC LIMIT 1` : sql`SELECT * FROM exports WHERE id = ${id}`,
    );
    return row && { ...row, carried: row.carried ? (JSON.parse(row.carried) as [string, string[]][]) : [] };
  }

  /** The export was sent (the user said so): when. */
  markSent(id: string, at: string): void {
    this.statements.run(sql`UPDATE exports SET sent_at = ${at} WHERE id = ${id}`);
  }

  /** Insert as is; an export already known (same id) is kept once. Returns 1 when new. */
  insert(e: ExportRecord): number {
    return this.statements.run(
      sql`INSERT OR IGNORE INTO exports (id, at, brand_id, preset, file_name, rows, opportunities, marked_exported)
        VALUES (${e.id}, ${e.at}, ${e.brand_id}, ${e.preset}, ${e.file_name}, ${e.rows}, ${e.opportunities}, ${e.marked_exported})`,
    ).changes;
  }

  /** Newest first. */
  list(limit = 1000): ExportRecord[] {
    return this.statements.all<ExportRecord>(sql`SELECT ${RECORD_COLUMNS} FROM exports ORDER BY at DESC LIMIT ${limit}`);
  }

  all(): ExportRecord[] {
    return this.statements.all<ExportRecord>(sql`SELECT ${RECORD_COLUMNS} FROM exports ORDER BY at`);
  }

  clear(): void {
    this.statements.run(sql`DELETE FROM exports`);
  }
}
