// The history of what the user did to each opportunity (status set, note
// edited, starred, marked contacted, exported in a file): the one-look answer
// to "did we pitch this outlet already, and when". Written in the same
// transaction as the change it records; sync never writes here.
import { HISTORY_KINDS, type HistoryEntry, type HistoryKind, type HistoryRecord, type OutletHistoryEntry } from '../../../shared/user-record';
import type { ReadableDB, WritableDB } from './database';
import { sql } from './sql';

/** Note or draft edits closer together than this are one entry (both are saved as the user types). */
const NOTE_EDITS_MERGE_MS = 10 * 60_000;
const DETAIL_MAX = 160;

/** One line of detail: whitespace folded, cut at a readable length. */
export function historyDetail(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > DETAIL_MAX ? `${one.slice(0, DETAIL_MAX - 1)}…` : one;
}

/** Record an event (call inside the change's transaction). A note or draft edit soon after the last one updates that entry. */
export function addHistory(db: WritableDB, brandId: string, opportunityId: string, kind: HistoryKind, at: string, detail: string): void {
  const d = historyDetail(detail);
  if (kind === 'note' || kind === 'draft') {
    const last = db.get<{ kind: string; at: string }>(
      sql`SELECT kind, at FROM history WHERE brand_id = ${brandId} AND opportunity_id = ${opportunityId} ORDER BY at DESC, id DESC LIMIT 1`,
    );
    if (last?.kind === kind && Date.parse(at) - Date.parse(last.at) < NOTE_EDITS_MERGE_MS && Date.parse(at) >= Date.parse(last.at)) {
      db.run(
        sql`UPDATE OR IGNORE history SET at = ${at}, detail = ${d} WHERE brand_id = ${brandId} AND opportunity_id = ${opportunityId} AND at = ${last.at} AND kind = ${kind}`,
      );
      return;
    }
  }
  db.run(insertEvent(brandId, opportunityId, at, kind, d));
}

/**
 * One event, unless the same one (opportunity, time, kind) is there already; it
 * takes the next number of the order events reached this cache (history_next,
 * moved on by the history_numbered trigger).
 */
const insertEvent = (brandId: string, opportunityId: string, at: string, kind: string, detail: string) =>
  sql`INSERT OR IGNORE INTO history (brand_id, opportunity_id, at, kind, id, detail)
    VALUES (${brandId}, ${opportunityId}, ${at}, ${kind}, (SELECT n FROM history_next), ${detail})`;

/** Where this event stands in the order events reached this cache (null: not recorded): this opportunity's change of this kind at exactly this time. */
export function historyOrder(db: ReadableDB, brandId: string, opportunityId: string, kind: HistoryKind, at: string): number | null {
  return (
    db.get<{ id: number }>(sql`SELECT id FROM history WHERE brand_id = ${brandId} AND opportunity_id = ${opportunityId} AND kind = ${kind} AND at = ${at}`)
      ?.id ?? null
  );
}

/** Insert records as they are (import, restore); the same event twice is kept once. Returns how many were new. */
export function insertHistory(db: WritableDB, records: readonly HistoryRecord[]): number {
  let n = 0;
  for (const r of records) {
    n += db.run(insertEvent(r.brand_id, r.opportunity_id, r.at, r.kind, r.detail)).changes;
  }
  return n;
}

/** What was done to one opportunity, newest first. */
export function historyOf(db: ReadableDB, brandId: string, opportunityId: string, limit = 200): HistoryEntry[] {
  return db
    .all<HistoryRecord>(
      sql`SELECT brand_id, opportunity_id, at, kind, detail FROM history WHERE brand_id = ${brandId} AND opportunity_id = ${opportunityId} ORDER BY at DESC, id DESC LIMIT ${limit}`,
    )
    .map(withLabel);
}

/**
 * Contacts and exports of the brand's other opportunities at the same outlet
 * (domain), newest first: "did we pitch this outlet already, and when".
 */
export function historyAtOutlet(db: ReadableDB, brandId: string, opportunityId: string, limit = 50): OutletHistoryEntry[] {
  return db
    .all<HistoryRecord & { title: string }>(
      sql`SELECT h.brand_id, h.opportunity_id, h.at, h.kind, h.detail, o2.title
        FROM brand_keys bk
        JOIN opportunities o ON o.brand_key = bk.key AND o.id = ${opportunityId}
        JOIN opportunities o2 ON o2.brand_key = o.brand_key AND o2.domain = o.domain COLLATE NOCASE AND o2.id != o.id
        JOIN history h ON h.brand_id = bk.id AND h.opportunity_id = o2.id
        WHERE bk.id = ${brandId} AND o.domain != '' AND h.kind IN ('contacted', 'exported')
        ORDER BY h.at DESC LIMIT ${limit}`,
    )
    .map((r) => ({ ...withLabel(r), title: r.title }));
}

export function allHistory(db: ReadableDB): HistoryRecord[] {
  return db.all<HistoryRecord>(sql`SELECT brand_id, opportunity_id, at, kind, detail FROM history ORDER BY id`);
}

export function clearHistory(db: WritableDB): void {
  db.run(sql`DELETE FROM history`);
}

const withLabel = (r: HistoryRecord): HistoryEntry => ({ ...r, label: HISTORY_KINDS[r.kind] ?? r.kind });
