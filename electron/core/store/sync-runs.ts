// Sync runs: progress written with each page, so a sync killed at any instant
// can be resumed by the next one.
import type { DB } from './db';

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
  constructor(private readonly db: DB) {}

  /** The unfinished run of this kind, if a sync was killed or cancelled mid-way. */
  unfinished(brandId: string, kind: RunKind): SyncRun | undefined {
    return this.db
      .prepare("SELECT * FROM sync_runs WHERE brand_id = ? AND kind = ? AND state IN ('running', 'cancelled', 'failed') AND id > COALESCE((SELECT max(id) FROM sync_runs WHERE brand_id = ? AND kind = ? AND state = 'done'), 0) ORDER BY id DESC LIMIT 1")
      .get(brandId, kind, brandId, kind) as SyncRun | undefined;
  }

  start(brandId: string, kind: RunKind, now: string): SyncRun {
    const id = Number(this.db.prepare("INSERT INTO sync_runs (brand_id, kind, started_at, state) VALUES (?, ?, ?, 'running')").run(brandId, kind, now).lastInsertRowid);
    return this.get(id)!;
  }

  resume(id: number): void {
    this.db.prepare("UPDATE sync_runs SET state = 'running', error = NULL, finished_at = NULL WHERE id = ?").run(id);
  }

  /** Record a page's progress (call in the page's transaction). */
  progress(id: number, p: { cursor: string | null; items: number; added: number; changed: number; warnings: number }): void {
    this.db
      .prepare('UPDATE sync_runs SET cursor = ?, pages = pages + 1, items = items + ?, added = added + ?, changed = changed + ?, warnings = warnings + ? WHERE id = ?')
      .run(p.cursor, p.items, p.added, p.changed, p.warnings, id);
  }

  finish(id: number, state: 'done' | 'failed' | 'cancelled', now: string, extra: { removed?: number; error?: string } = {}): void {
    this.db.prepare('UPDATE sync_runs SET state = ?, finished_at = ?, removed = removed + ?, error = ? WHERE id = ?').run(state, now, extra.removed ?? 0, extra.error ?? null, id);
  }

  get(id: number): SyncRun | undefined {
    return this.db.prepare('SELECT * FROM sync_runs WHERE id = ?').get(id) as SyncRun | undefined;
  }

  last(brandId: string, kind: RunKind = 'opportunities'): SyncRun | undefined {
    return this.db.prepare('SELECT * FROM sync_runs WHERE brand_id = ? AND kind = ? ORDER BY id DESC LIMIT 1').get(brandId, kind) as SyncRun | undefined;
  }
}
