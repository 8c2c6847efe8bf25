// Brands reachable with the key, as last seen.
import type { Brand } from '../../../shared/api/schemas';
import type { DB } from './db';
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

  list(): CachedBrand[] {
    const rows = this.statements.all<Omit<CachedBrand, 'removed_on_server'> & { removed_on_server: number }>(
      sql`SELECT b.id, b.name, b.removed_on_server,
          (SELECT max(finished_at) FROM sync_runs r WHERE r.brand_id = b.id AND r.kind = 'opportunities' AND r.state = 'done') AS last_synced_at,
          (SELECT count(*) FROM opportunities o JOIN brand_keys k ON k.key = o.brand_key WHERE k.id = b.id AND o.removed_on_server = 0) AS opportunities
        FROM brands b ORDER BY b.removed_on_server, b.name COLLATE NOCASE`,
    );
    return rows.map((r) => ({ ...r, removed_on_server: r.removed_on_server === 1 }));
  }

  get(id: string): CachedBrand | undefined {
    return this.list().find((b) => b.id === id);
  }
}
