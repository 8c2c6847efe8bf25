// The brand_keys table: a small integer per brand id, so index entries stay
// short (a brand id is 32 characters).
import type { ReadableDB, WritableDB } from './database';
import { sql } from './sql';

/** The brand's key; -1 for a brand never written (it matches nothing). */
export function brandKey(db: ReadableDB, brandId: string): number {
  return db.get<{ key: number }>(sql`SELECT key FROM brand_keys WHERE id = ${brandId}`)?.key ?? -1;
}

/** The brand's key, created on its first write. */
export function ensureBrandKey(db: WritableDB, brandId: string): number {
  db.run(sql`INSERT OR IGNORE INTO brand_keys (id) VALUES (${brandId})`);
  return brandKey(db, brandId);
}
