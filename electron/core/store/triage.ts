// The user's triage: local status, note, star, contacted and exported dates.
// Only the user's actions write here; sync never does.
import { isOneOf, STATUSES, type Status } from '../../../shared/domain';
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';
import type { TriagePatch } from '../../../shared/model';
export type { TriagePatch } from '../../../shared/model';

interface Row {
  status: Status | null;
  note: string;
  starred: number;
  contacted_at: string | null;
  exported_at: string | null;
}

export const MAX_NOTE_LENGTH = 100_000;

export class TriageStore {
  private readonly statements: Statements;

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  private write(brandId: string, id: string, patch: TriagePatch, now: string): void {
    if (patch.status !== undefined && patch.status !== null && !isOneOf(STATUSES, patch.status)) {
      throw new RangeError(`A status is one of ${STATUSES.join(', ')}.`);
    }
    if (patch.note !== undefined && patch.note.length > MAX_NOTE_LENGTH) throw new RangeError('A note may hold at most 100,000 characters.');
    const cur = this.statements.get<Row>(sql`SELECT status, note, starred, contacted_at, exported_at FROM triage WHERE brand_id = ${brandId} AND opportunity_id = ${id}`);
    const next: Row = {
      status: patch.status !== undefined ? patch.status : (cur?.status ?? null),
      note: patch.note ?? cur?.note ?? '',
      starred: patch.starred !== undefined ? (patch.starred ? 1 : 0) : (cur?.starred ?? 0),
      contacted_at: patch.contacted_at !== undefined ? patch.contacted_at : (cur?.contacted_at ?? null),
      exported_at: patch.exported_at !== undefined ? patch.exported_at : (cur?.exported_at ?? null),
    };
    this.statements.run(
      sql`INSERT INTO triage (brand_id, opportunity_id, status, note, starred, contacted_at, exported_at, updated_at)
        VALUES (${brandId}, ${id}, ${next.status}, ${next.note}, ${next.starred}, ${next.contacted_at}, ${next.exported_at}, ${now})
        ON CONFLICT (brand_id, opportunity_id) DO UPDATE SET status = excluded.status, note = excluded.note, starred = excluded.starred,
          contacted_at = excluded.contacted_at, exported_at = excluded.exported_at, updated_at = excluded.updated_at`,
    );
  }

  set(brandId: string, id: string, patch: TriagePatch, now = new Date().toISOString()): void {
    this.db.transaction(() => this.write(brandId, id, patch, now))();
  }

  /** The same change to many opportunities, all or nothing. */
  setMany(brandId: string, ids: readonly string[], patch: TriagePatch, now = new Date().toISOString()): number {
    this.db.transaction(() => {
      for (const id of ids) this.write(brandId, id, patch, now);
    })();
    return ids.length;
  }

  /** Record the export date on each of these opportunities (nothing else of their triage changes). */
  markExported(brandId: string, ids: readonly string[], when: string): number {
    this.db.transaction(() => {
      for (const id of ids) {
        this.statements.run(
          sql`INSERT INTO triage (brand_id, opportunity_id, exported_at, updated_at) VALUES (${brandId}, ${id}, ${when}, ${when})
            ON CONFLICT (brand_id, opportunity_id) DO UPDATE SET exported_at = excluded.exported_at, updated_at = excluded.updated_at`,
        );
      }
    })();
    return ids.length;
  }
}
