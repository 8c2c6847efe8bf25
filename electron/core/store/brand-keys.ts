// The brand_keys table: a small integer per brand id (index entries stay
// short), looked up once per brand and remembered.
import { sql } from './sql';
import type { Statements } from './statements';

export class BrandKeys {
  private readonly keys = new Map<string, number>();

  constructor(private readonly statements: Statements) {}

  /** The brand's key; created on first write. -1 for a brand never written (matches nothing). */
  key(brandId: string, create = false): number {
    const hit = this.keys.get(brandId);
    if (hit !== undefined) return hit;
    if (create) this.statements.run(sql`INSERT OR IGNORE INTO brand_keys (id) VALUES (${brandId})`);
    const row = this.statements.get<{ key: number }>(sql`SELECT key FROM brand_keys WHERE id = ${brandId}`);
    if (!row) return -1;
    this.keys.set(brandId, row.key);
    return row.key;
  }
}
