// The exports the user made: when, which brand and preset, how many rows, and
// the file's name (never its folder: the record may travel to a colleague).
import { randomUUID } from 'node:crypto';
import type { ExportRecord } from '../../../shared/user-record';
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';

export class ExportLog {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  add(e: Omit<ExportRecord, 'id'> & { id?: string }): ExportRecord {
    const rec: ExportRecord = { ...e, id: e.id ?? randomUUID() };
    this.insert(rec);
    return rec;
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
    return this.statements.all<ExportRecord>(sql`SELECT * FROM exports ORDER BY at DESC LIMIT ${limit}`);
  }

  all(): ExportRecord[] {
    return this.statements.all<ExportRecord>(sql`SELECT * FROM exports ORDER BY at`);
  }

  clear(): void {
    this.statements.run(sql`DELETE FROM exports`);
  }
}
