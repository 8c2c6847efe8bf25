// Daily visibility and presence scores, per breakdown, as last fetched.
import type { ScorePoint } from '../../../shared/api/schemas';
import type { DB } from './db';
import { slot, sql } from './sql';
import { Statements } from './statements';
import type { ScoreRow } from '../../../shared/model';
export type { ScoreRow } from '../../../shared/model';

export class ScoreStore {
  private readonly statements: Statements;

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  /** Replace the stored series of one (brand, breakdown) with a fresh fetch, in one transaction. */
  replace(
    brandId: string,
    breakdown: string[],
    points: ScorePoint[],
    meta: { brand_name?: string; start_date: string; end_date: string; errors?: string[] | null },
    now: string,
  ): void {
    const key = breakdown.join(',');
    this.db.transaction(() => {
      this.statements.run(sql`DELETE FROM scores WHERE brand_id = ${brandId} AND breakdown = ${key} AND date BETWEEN ${meta.start_date} AND ${meta.end_date}`);
      const ins = this.statements.prepareOnce(
        sql`INSERT INTO scores (brand_id, breakdown, date, model, prompt, visibility, presence, raw) VALUES (${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot})
          ON CONFLICT DO UPDATE SET visibility = excluded.visibility, presence = excluded.presence, raw = excluded.raw`,
      );
      for (const p of points) {
        const r = p as Record<string, unknown>;
        ins.run(
          brandId,
          key,
          p.date,
          typeof r.model === 'string' ? r.model : '',
          typeof r.prompt === 'string' ? r.prompt : '',
          typeof p.visibility === 'number' ? p.visibility : null,
          typeof p.presence === 'number' ? p.presence : null,
          JSON.stringify(p),
        );
      }
      const errors = meta.errors ? JSON.stringify(meta.errors) : null;
      this.statements.run(
        sql`INSERT INTO score_fetches (brand_id, breakdown, brand_name, start_date, end_date, errors, fetched_at)
          VALUES (${brandId}, ${key}, ${meta.brand_name ?? null}, ${meta.start_date}, ${meta.end_date}, ${errors}, ${now})
          ON CONFLICT DO UPDATE SET brand_name = excluded.brand_name, start_date = excluded.start_date, end_date = excluded.end_date, errors = excluded.errors, fetched_at = excluded.fetched_at`,
      );
    })();
  }

  /** When the series was fetched, and the brand name the service gave. */
  meta(brandId: string, breakdown: string[]): { brand_name: string | null; fetched_at: string; start_date: string; end_date: string } | undefined {
    return this.statements.get<{ brand_name: string | null; fetched_at: string; start_date: string; end_date: string }>(
      sql`SELECT brand_name, fetched_at, start_date, end_date FROM score_fetches WHERE brand_id = ${brandId} AND breakdown = ${breakdown.join(',')}`,
    );
  }

  series(brandId: string, breakdown: string[], range: { start?: string; end?: string } = {}): ScoreRow[] {
    return this.statements.all<ScoreRow>(
      sql`SELECT date, model, prompt, visibility, presence FROM scores WHERE brand_id = ${brandId} AND breakdown = ${breakdown.join(',')}
        AND date >= ${range.start ?? '0000-00-00'} AND date <= ${range.end ?? '9999-99-99'} ORDER BY date, model, prompt`,
    );
  }
}
