// Citations per mode, replaced by each complete sync; the summary per mode.
import type { DB } from './db';

export function citationKey(item: Record<string, unknown>): string {
  for (const k of ['url', 'id', '_id', 'query']) if (typeof item[k] === 'string' && item[k] !== '') return `${k}:${item[k] as string}`;
  return `json:${JSON.stringify(item)}`;
}

export class CitationStore {
  constructor(private readonly db: DB) {}

  /** Write one page (inside the caller's transaction). */
  upsertPage(brandId: string, mode: string, items: Record<string, unknown>[], runId: number, startPosition: number): void {
    const ins = this.db.prepare(
      `INSERT INTO citations (brand_id, mode, item_key, position, domain, url, times_cited, last_seen, raw, seen_in_run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET position = excluded.position, domain = excluded.domain, url = excluded.url, times_cited = excluded.times_cited,
         last_seen = excluded.last_seen, raw = excluded.raw, seen_in_run = excluded.seen_in_run`,
    );
    items.forEach((it, i) => {
      const str = (k: string) => (typeof it[k] === 'string' ? (it[k] as string) : null);
      ins.run(brandId, mode, citationKey(it), startPosition + i, str('domain') ?? '', str('url'), typeof it.times_cited === 'number' ? Math.trunc(it.times_cited) : null, str('last_seen'), JSON.stringify(it), runId);
    });
  }

  /** After a complete pass: drop items this run did not see (server data only) and keep the snapshot facts. */
  finish(brandId: string, mode: string, runId: number, snapshot: { updated_at?: string; summary?: unknown }, now: string): number {
    const gone = this.db.prepare('DELETE FROM citations WHERE brand_id = ? AND mode = ? AND seen_in_run != ?').run(brandId, mode, runId).changes;
    this.db
      .prepare(
        `INSERT INTO citation_snapshots (brand_id, mode, updated_at, summary, fetched_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET updated_at = excluded.updated_at, summary = excluded.summary, fetched_at = excluded.fetched_at`,
      )
      .run(brandId, mode, snapshot.updated_at ?? null, snapshot.summary === undefined ? null : JSON.stringify(snapshot.summary), now);
    return gone;
  }

  /** Items of one mode, in the service's order; domain substring and last-seen dates (YYYY-MM-DD, inclusive) filter. */
  list(brandId: string, mode: string, filter: { domain?: string; start?: string; end?: string } = {}): Record<string, unknown>[] {
    const rows = this.db
      .prepare(
        `SELECT raw FROM citations WHERE brand_id = @brand AND mode = @mode
           AND (@domain IS NULL OR instr(lower(domain), lower(@domain)) > 0)
           AND (@start IS NULL OR substr(last_seen, 1, 10) >= @start)
           AND (@end IS NULL OR substr(last_seen, 1, 10) <= @end)
         ORDER BY position`,
      )
      .all({ brand: brandId, mode, domain: filter.domain ?? null, start: filter.start ?? null, end: filter.end ?? null }) as { raw: string }[];
    return rows.map((r) => JSON.parse(r.raw) as Record<string, unknown>);
  }

  snapshot(brandId: string, mode: string): { updated_at: string | null; summary: unknown; fetched_at: string } | undefined {
    const r = this.db.prepare('SELECT updated_at, summary, fetched_at FROM citation_snapshots WHERE brand_id = ? AND mode = ?').get(brandId, mode) as
      | { updated_at: string | null; summary: string | null; fetched_at: string }
      | undefined;
    return r ? { updated_at: r.updated_at, summary: r.summary ? (JSON.parse(r.summary) as unknown) : null, fetched_at: r.fetched_at } : undefined;
  }
}
