// Brands reachable with the key, as last seen.
import type { Brand } from '../../../shared/api/schemas';
import type { DB } from './db';
import { filterSql, type PipelineDays } from './opportunity-filter';
import { pipelineDays } from './opportunity-list';
import { slot, sql } from './sql';
import { Statements } from './statements';
import type { CachedBrand } from '../../../shared/model';
export type { CachedBrand } from '../../../shared/model';

export class BrandStore {
  private readonly statements: Statements;

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  /** Record the brands the key reaches now; brands no longer listed are marked, not deleted. */
  replaceAll(brands: Brand[], now: string): void {
    this.db.transaction(() => {
      const upsert = this.statements.prepareOnce(
        sql`INSERT INTO brands (id, name, raw, first_seen_at, removed_on_server) VALUES (${slot}, ${slot}, ${slot}, ${slot}, 0)
          ON CONFLICT (id) DO UPDATE SET name = excluded.name, raw = excluded.raw, removed_on_server = 0`,
      );
      for (const b of brands) upsert.run(b.id, b.name, JSON.stringify(b), now);
      const ids = JSON.stringify(brands.map((b) => b.id));
      this.statements.run(sql`UPDATE brands SET removed_on_server = 1 WHERE id NOT IN (SELECT value FROM json_each(${ids}))`);
    })();
  }

  /**
   * The brands, each with how many opportunities its list shows with no
   * filter on `days` (the same count as the list's total: not archived, not
   * Not a fit, not snoozed, still on Trakkr).
   */
  list(days: PipelineDays = pipelineDays()): CachedBrand[] {
    const rows = this.statements.all<Omit<CachedBrand, 'removed_on_server' | 'opportunities'> & { removed_on_server: number }>(
      sql`SELECT b.id, b.name, b.removed_on_server,
          (SELECT max(finished_at) FROM sync_runs r WHERE r.brand_id = b.id AND r.kind = 'opportunities' AND r.state = 'done') AS last_synced_at
        FROM brands b ORDER BY b.removed_on_server, b.name COLLATE NOCASE`,
    );
    return rows.map((r) => ({ ...r, removed_on_server: r.removed_on_server === 1, opportunities: this.listed(r.id, days) }));
  }

  /** How many the brand's list shows with no filter (the list's own WHERE). */
  private listed(brandId: string, days: PipelineDays): number {
    const bk = this.statements.get<{ key: number }>(sql`SELECT key FROM brand_keys WHERE id = ${brandId}`)?.key ?? -1;
    return this.statements.get<{ n: number }>(sql`SELECT count(*) AS n FROM opportunities o WHERE ${filterSql({ brandId }, bk, days).where}`)!.n;
  }

  /** Every brand this computer knows, id and name (no counts): those still on Trakkr first, then by name. */
  names(): { id: string; name: string; removed_on_server: boolean }[] {
    return this.statements
      .all<{ id: string; name: string; removed_on_server: number }>(
        sql`SELECT id, name, removed_on_server FROM brands ORDER BY removed_on_server, name COLLATE NOCASE`,
      )
      .map((r) => ({ ...r, removed_on_server: r.removed_on_server === 1 }));
  }

  /** A brand's name as last seen (null: not a brand the key reached). */
  name(id: string): string | null {
    return this.statements.get<{ name: string }>(sql`SELECT name FROM brands WHERE id = ${id}`)?.name ?? null;
  }

  get(id: string): { id: string; name: string } | undefined {
    return this.statements.get<{ id: string; name: string }>(sql`SELECT id, name FROM brands WHERE id = ${id}`);
  }
}
