// The log of triage actions an undo reads: each action (one key, or one bulk
// change) with what it changed, field by field, before and after, as stored.
// Not part of the record file: it is what this cache's windows and terminals
// did, to take back. The latest few hundred are kept.
import type { ReadableDB, WritableDB } from './database';
import { sql } from './sql';
import type { FieldChange } from './triage';

/** How many actions are kept for undo. */
export const ACTIONS_KEPT = 500;
/** Note edits of one opportunity this close together are one action (the note is saved as the user types). */
const NOTE_EDITS_MERGE_MS = 10 * 60_000;

export interface TriageActionRow {
  id: number;
  at: string;
  brand_id: string;
  kind: string;
  label: string;
  opportunities: number;
  undone_at: string | null;
}

type Changes = ReadonlyMap<string, readonly FieldChange[]>;

function insertChanges(db: WritableDB, actionId: number, changes: Changes): void {
  for (const [id, list] of changes)
    for (const c of list)
      db.run(
        sql`INSERT INTO triage_action_changes (action_id, opportunity_id, field, before, after) VALUES (${actionId}, ${id}, ${c.field}, ${json(c.before)}, ${json(c.after)})
          ON CONFLICT (action_id, opportunity_id, field) DO UPDATE SET after = excluded.after`,
      );
}

const json = (v: string | number | null): string => JSON.stringify(v);

/**
 * Log an action that changed something (in the caller's transaction); returns
 * its id. A note edit right after one of the same opportunity joins it, so one
 * undo takes back a run of typing.
 */
export function logAction(db: WritableDB, a: { at: string; brandId: string; kind: string; label: string; changes: Changes }): number {
  if (a.kind === 'note' && a.changes.size === 1) {
    const [id] = [...a.changes.keys()];
    const last = latestAction(db);
    if (
      last &&
      last.kind === 'note' &&
      last.undone_at === null &&
      last.brand_id === a.brandId &&
      Date.parse(a.at) - Date.parse(last.at) < NOTE_EDITS_MERGE_MS &&
      db.get(sql`SELECT 1 FROM triage_action_changes WHERE action_id = ${last.id} AND opportunity_id = ${id!}`) !== undefined
    ) {
      // The first edit's "before" stays; the last edit's "after" is what an undo expects to find.
      insertChanges(db, last.id, a.changes);
      db.run(sql`UPDATE triage_actions SET at = ${a.at} WHERE id = ${last.id}`);
      return last.id;
    }
  }
  const opportunities = a.changes.size;
  const actionId = Number(
    db.run(sql`INSERT INTO triage_actions (at, brand_id, kind, label, opportunities) VALUES (${a.at}, ${a.brandId}, ${a.kind}, ${a.label}, ${opportunities})`)
      .lastInsertRowid,
  );
  insertChanges(db, actionId, a.changes);
  db.run(sql`DELETE FROM triage_actions WHERE id <= ${actionId - ACTIONS_KEPT}`);
  return actionId;
}

/** The latest action, of a brand or of any; `open`: only one not undone yet. */
export function latestAction(db: ReadableDB, opts: { brandId?: string; open?: boolean } = {}): TriageActionRow | undefined {
  return db.get<TriageActionRow>(
    sql`SELECT * FROM triage_actions WHERE 1 ${opts.brandId ? sql`AND brand_id = ${opts.brandId}` : sql``} ${opts.open ? sql`AND undone_at IS NULL` : sql``}
      ORDER BY id DESC LIMIT 1`,
  );
}

export function actionById(db: ReadableDB, id: number): TriageActionRow | undefined {
  return db.get<TriageActionRow>(sql`SELECT * FROM triage_actions WHERE id = ${id}`);
}

/** What an action changed, by opportunity. */
export function actionChanges(db: ReadableDB, id: number): Map<string, FieldChange[]> {
  const out = new Map<string, FieldChange[]>();
  const rows = db.all<{ opportunity_id: string; field: FieldChange['field']; before: string; after: string }>(
    sql`SELECT opportunity_id, field, before, after FROM triage_action_changes WHERE action_id = ${id} ORDER BY opportunity_id, field`,
  );
  for (const r of rows) {
    const list = out.get(r.opportunity_id) ?? [];
    list.push({ field: r.field, before: JSON.parse(r.before) as FieldChange['before'], after: JSON.parse(r.after) as FieldChange['after'] });
    out.set(r.opportunity_id, list);
  }
  return out;
}

export function markUndone(db: WritableDB, id: number, at: string): void {
  db.run(sql`UPDATE triage_actions SET undone_at = ${at} WHERE id = ${id}`);
}

/** Forget every action (the record was replaced: a restore): nothing before it can be taken back. */
export function clearActions(db: WritableDB): void {
  db.run(sql`DELETE FROM triage_actions`);
}
