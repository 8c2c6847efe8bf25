// Daily visibility and presence scores, per breakdown, as last fetched.
import type { ScorePoint } from '../../../shared/api/schemas';
import type { DB } from './db';
import type { ScoreRow } from '../../../shared/model';
export type { ScoreRow } from '../../../shared/model';


export class ScoreStore {
  constructor(private readonly db: DB) {}

  /** Replace the stored series of one (brand, breakdown) with a fresh fetch, in one transaction. */
  replace(brandId: string, breakdown: string[], points: ScorePoint[], meta: { brand_name?: string; start_date: string; end_date: string; errors?: string[] | null }, now: string): void {
    const key = breakdown.join(',');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM scores WHERE brand_id = ? AND breakdown = ? AND date BETWEEN ? AND ?').run(brandId, key, meta.start_date, meta.end_date);
      const ins = this.db.prepare(
        `INSERT INTO scores (brand_id, breakdown, date, model, prompt, visibility, presence, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET visibility = excluded.visibility, presence = excluded.presence, raw = excluded.raw`,
      );
      for (const p of points) {
        const r = p as Record<string, unknown>;
        ins.run(brandId, key, p.date, typeof r.model === 'string' ? r.model : '', typeof r.prompt === 'string' ? r.prompt : '', typeof p.visibility === 'number' ? p.visibility : null, typeof p.presence === 'number' ? p.presence : null, JSON.stringify(p));
      }
      this.db
        .prepare(
          `INSERT INTO score_fetches (brand_id, breakdown, brand_name, start_date, end_date, errors, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET brand_name = excluded.brand_name, start_date = excluded.start_date, end_date = excluded.end_date, errors = excluded.errors, fetched_at = excluded.fetched_at`,
        )
        .run(brandId, key, meta.brand_name ?? null, meta.start_date, meta.end_date, meta.errors ? JSON.stringify(meta.errors) : null, now);
    })();
  }

  /** When the series was fetched, and the brand name the service gave. */
  meta(brandId: string, breakdown: string[]): { brand_name: string | null; fetched_at: string; start_date: string; end_date: string } | undefined {
    return this.db.prepare('SELECT brand_name, fetched_at, start_date, end_date FROM score_fetches WHERE brand_id = ? AND breakdown = ?').get(brandId, breakdown.join(',')) as
      | { brand_name: string | null; fetched_at: string; start_date: string; end_date: string }
      | undefined;
  }

  series(brandId: string, breakdown: string[], range: { start?: string; end?: string } = {}): ScoreRow[] {
    return this.db
      .prepare(
        `SELECT date, model, prompt, visibility, presence FROM scores WHERE brand_id = ? AND breakdown = ? AND date >= ? AND date <= ? ORDER BY date, model, prompt`,
      )
      .all(brandId, breakdown.join(','), range.start ?? '0000-00-00', range.end ?? '9999-99-99') as ScoreRow[];
  }
}
