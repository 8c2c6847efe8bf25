// Sync runs: progress written with each page, so a sync killed at any instant
// can be resumed by the next one.
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';

export type RunKind = 'opportunities' | 'citations:citations' | 'citations:search-queries' | 'citations:knowledge';

export interface SyncRun {
  id: number;
  brand_id: string;
  kind: RunKind;
  started_at: string;
  finished_at: string | null;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  cursor: string | null;
  pages: number;
  items: number;
  added: number;
  changed: number;
  removed: number;
  warnings: number;
  error: string | null;
}

export class SyncRunStore {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  /** The unfinished run of this kind, if a sync was killed or cancelled mid-way. */
  unfinished(brandId: string, kind: RunKind): SyncRun | undefined {
    return this.statements.get<SyncRun>(
      sql`SELECT * FROM sync_runs WHERE brand_id = ${brandId} AND kind = ${kind} AND state IN ('running', 'cancelled', 'failed')
        AND id > COALESCE((SELECT max(id) FROM sync_runs WHERE brand_id = ${brandId} AND kind = ${kind} AND state = 'done'), 0) ORDER BY id DESC LIMIT 1`,
    );
  }

  start(brandId: string, kind: RunKind, now: string): SyncRun {
    const id = Number(
      this.statements.run(sql`INSERT INTO sync_runs (brand_id, kind, started_at, state) VALUES (${brandId}, ${kind}, ${now}, 'running')`).lastInsertRowid,
    );
    return this.get(id)!;
  }

  resume(id: number): void {
    this.statements.run(sql`UPDATE sync_runs SET state = 'running', error = NULL, finished_at = NULL WHERE id = ${id}`);
  }

  /** Record a page's progress (call in the page's transaction). */
  progress(id: number, p: { cursor: string | null; items: number; added: number; changed: number; warnings: number }): void {
    this.statements.run(
      sql`UPDATE sync_runs SET cursor = ${p.cursor}, pages = pages + 1, items = items + ${p.items}, added = added + ${p.added}, changed = changed + ${p.changed},
        warnings = warnings + ${p.warnings} WHERE id = ${id}`,
    );
  }

  finish(id: number, state: 'done' | 'failed' | 'cancelled', now: string, extra: { removed?: number; error?: string } = {}): void {
    this.statements.run(
      sql`UPDATE sync_runs SET state = ${state}, finished_at = ${now}, removed = removed + ${extra.removed ?? 0}, error = ${extra.error ?? null} WHERE id = ${id}`,
    );
  }

  get(id: number): SyncRun | undefined {
    return this.statements.get<SyncRun>(sql`SELECT * FROM sync_runs WHERE id = ${id}`);
  }

  /** The last run of this kind that went through to the end: how many items a whole pass of the brand had then. */
  lastComplete(brandId: string, kind: RunKind = 'opportunities'): SyncRun | undefined {
    return this.statements.get<SyncRun>(
      sql`SELECT * FROM sync_runs WHERE brand_id = ${brandId} AND kind = ${kind} AND state = 'done' ORDER BY id DESC LIMIT 1`,
    );
  }

  last(brandId: string, kind: RunKind = 'opportunities'): SyncRun | undefined {
    return this.statements.get<SyncRun>(sql`SELECT * FROM sync_runs WHERE brand_id = ${brandId} AND kind = ${kind} ORDER BY id DESC LIMIT 1`);
  }
}
