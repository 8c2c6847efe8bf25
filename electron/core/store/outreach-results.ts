// The user's outreach as the Results read it: each opportunity pitched
// (marked contacted: by hand, or by confirming an export was sent; an export
// never confirmed sent is no pitch), replied to or won, with the day of its
// pitch, its stage, and where it is (domain, address). Reads only: functions
// over a ReadableDB (database.ts).
import type { Stage } from '../../../shared/pipeline';
import type { ReadableDB } from './database';
import { sql, sqlJoin } from './sql';
import { BlockReader } from './opportunity-blocks';

export interface OutreachRow {
  id: string;
  /** The day it was pitched (its contacted day); null when never pitched (won without a pitch). */
  pitched_on: string | null;
  stage: Stage | null;
  /** When the stage was last set (the day a Won was marked). */
  stage_changed_at: string | null;
  /** null when the opportunity is no longer in the cache (the record outlives server rows). */
  title: string | null;
  domain: string | null;
  url: string | null;
  opportunity_type: string | null;
  rowid: number | null;
}

/** Every opportunity of the brand pitched, or at stage Replied or Won (`brandKey`: the brand's small key). */
export function outreachRows(db: ReadableDB, brandId: string, brandKey: number): OutreachRow[] {
  type T = [string, string | null, Stage | null, string | null, string | null, string | null, string | null, string | null, number | null];
  // As tuples: a busy account has tens of thousands.
  return db
    .tuples<T>(
      sql`SELECT t.opportunity_id AS id,
        t.contacted_at AS pitched_on, t.stage, t.stage_changed_at, o.title, o.domain, o.url, o.opportunity_type, o.rowid AS rowid
      FROM triage t LEFT JOIN opportunities o ON o.brand_key = ${brandKey} AND o.id = t.opportunity_id
      WHERE t.brand_id = ${brandId} AND (t.contacted_at IS NOT NULL OR t.stage IN ('Replied', 'Won'))`,
    )
    .map(([id, pitched_on, stage, stage_changed_at, title, domain, url, opportunity_type, rowid]) => ({
      id,
      pitched_on,
      stage,
      stage_changed_at,
      title,
      domain,
      url,
      opportunity_type,
      rowid,
    }));
}

/**
 * Of these opportunities, those that were ever at `stage` (now, or on the
 * way since): by their history's stage lines. `undone: 'skip'` leaves out a
 * stage set by an action that was then undone (a mistaken r is no reply);
 * 'count' counts it (the automatic Won: one the user took back is not marked
 * again).
 */
export function everAtStage(db: ReadableDB, brandId: string, ids: readonly string[], stage: Stage, undone: 'skip' | 'count'): Set<string> {
  const out = new Set<string>();
  // A stage line and the action that wrote it share their time (triage.ts writes both with one `at`).
  const notUndone =
    undone === 'skip'
      ? sql`AND NOT EXISTS (SELECT 1 FROM triage_actions a JOIN triage_action_changes c ON c.action_id = a.id
          WHERE a.brand_id = h.brand_id AND a.at = h.at AND a.undone_at IS NOT NULL AND c.opportunity_id = h.opportunity_id AND c.field = 'stage')`
      : sql``;
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const list = sqlJoin(
      part.map((id) => sql`${id}`),
      sql`, `,
    );
    for (const r of db.all<{ id: string }>(
      sql`SELECT DISTINCT t.opportunity_id AS id FROM triage t WHERE t.brand_id = ${brandId} AND t.opportunity_id IN (${list})
        AND (t.stage = ${stage} OR EXISTS (SELECT 1 FROM history h WHERE h.brand_id = t.brand_id AND h.opportunity_id = t.opportunity_id
          AND h.kind = 'stage' AND h.detail = ${stage} ${notUndone}))`,
    ))
      out.add(r.id);
  }
  return out;
}

/** The publication's type (the record's site_type: news publication, niche blog, …) of each of these opportunities. */
export function siteTypes(db: ReadableDB, rowids: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  // In rowid order, so each block of records is inflated once.
  const records = new BlockReader(db);
  for (const rowid of [...rowids].sort((a, b) => a - b)) {
    const json = records.json(rowid);
    if (json === null) continue;
    try {
      const type = (JSON.parse(json) as { site_type?: unknown }).site_type;
      if (typeof type === 'string' && type.trim()) out.set(rowid, type.trim());
    } catch {
      // an unreadable record has no type
    }
  }
  return out;
}

/** Where one opportunity is (its page and domain), null when it is not in the cache. */
export function placeOf(db: ReadableDB, brandKey: number, id: string): { url: string | null; domain: string | null } | null {
  return db.get<{ url: string | null; domain: string | null }>(sql`SELECT url, domain FROM opportunities WHERE brand_key = ${brandKey} AND id = ${id}`) ?? null;
}
