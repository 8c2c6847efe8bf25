// Citations per mode, replaced by each complete sync; the summary per mode.
import type { DB } from './db';
import { slot, sql, sqlJoin } from './sql';
import { Statements } from './statements';

export function citationKey(item: Record<string, unknown>): string {
  for (const k of ['url', 'id', '_id', 'query']) if (typeof item[k] === 'string' && item[k] !== '') return `${k}:${item[k] as string}`;
  return `json:${JSON.stringify(item)}`;
}

export class CitationStore {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  /** Write one page (inside the caller's transaction). */
  upsertPage(brandId: string, mode: string, items: Record<string, unknown>[], runId: number, startPosition: number): void {
    const ins = this.statements.prepareOnce(
      sql`INSERT INTO citations (brand_id, mode, item_key, position, domain, url, times_cited, last_seen, raw, seen_in_run)
        VALUES (${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot})
        ON CONFLICT DO UPDATE SET position = excluded.position, domain = excluded.domain, url = excluded.url, times_cited = excluded.times_cited,
          last_seen = excluded.last_seen, raw = excluded.raw, seen_in_run = max(seen_in_run, excluded.seen_in_run)`,
    );
    items.forEach((it, i) => {
      const str = (k: string) => (typeof it[k] === 'string' ? (it[k] as string) : null);
      ins.run(
        brandId,
        mode,
        citationKey(it),
        startPosition + i,
        str('domain') ?? '',
        str('url'),
        typeof it.times_cited === 'number' ? Math.trunc(it.times_cited) : null,
        str('last_seen'),
        JSON.stringify(it),
        runId,
      );
    });
  }

  /** After a complete pass: drop items this run did not see (server data only) and keep the snapshot facts. */
  finish(brandId: string, mode: string, runId: number, snapshot: { updated_at?: string; summary?: unknown }, now: string): number {
    const gone = this.statements.run(sql`DELETE FROM citations WHERE brand_id = ${brandId} AND mode = ${mode} AND seen_in_run < ${runId}`).changes;
    const summary = snapshot.summary === undefined ? null : JSON.stringify(snapshot.summary);
    this.statements.run(
      sql`INSERT INTO citation_snapshots (brand_id, mode, updated_at, summary, fetched_at) VALUES (${brandId}, ${mode}, ${snapshot.updated_at ?? null}, ${summary}, ${now})
        ON CONFLICT DO UPDATE SET updated_at = excluded.updated_at, summary = excluded.summary, fetched_at = excluded.fetched_at`,
    );
    return gone;
  }

  /** Items of one mode, in the service's order; domain substring and last-seen dates (YYYY-MM-DD, inclusive) filter. */
  list(brandId: string, mode: string, filter: { domain?: string; start?: string; end?: string } = {}): Record<string, unknown>[] {
    const where = [sql`brand_id = ${brandId}`, sql`mode = ${mode}`];
    if (filter.domain != null) where.push(sql`instr(lower(domain), lower(${filter.domain})) > 0`);
    if (filter.start != null) where.push(sql`substr(last_seen, 1, 10) >= ${filter.start}`);
    if (filter.end != null) where.push(sql`substr(last_seen, 1, 10) <= ${filter.end}`);
    const rows = this.statements.all<{ raw: string }>(sql`SELECT raw FROM citations WHERE ${sqlJoin(where, sql` AND `)} ORDER BY position`);
    return rows.map((r) => JSON.parse(r.raw) as Record<string, unknown>);
  }

  snapshot(brandId: string, mode: string): { updated_at: string | null; summary: unknown; fetched_at: string } | undefined {
    const r = this.statements.get<{ updated_at: string | null; summary: string | null; fetched_at: string }>(
      sql`SELECT updated_at, summary, fetched_at FROM citation_snapshots WHERE brand_id = ${brandId} AND mode = ${mode}`,
    );
    return r ? { updated_at: r.updated_at, summary: r.summary ? (JSON.parse(r.summary) as unknown) : null, fetched_at: r.fetched_at } : undefined;
  }
}
