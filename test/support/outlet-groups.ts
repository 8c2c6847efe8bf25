// The outlets' groups (migration 14's opportunity_outlets) as the triggers
// kept them, and as the opportunities themselves say they are: the two
// compared by the tests that change opportunities (counted-sets.test.ts) and
// that kill the upgrade which fills the table (faults/kill.test.ts).
import type Database from 'better-sqlite3';

/** The table's group columns, in the order both reads give them. */
const GROUPS =
  'brand_key, domain, removed_on_server, archived, status, opportunity_type, difficulty, stage, snoozed_until, starred, contact_count, catch_all_count'.split(
    ', ',
  );
/** The same groups of an opportunity row: the domain lowered, contacts and catch-alls as "has any". */
const OF_ROW: Record<string, string> = { domain: 'lower(domain)', contact_count: 'contact_count > 0', catch_all_count: 'catch_all_count > 0' };
const ORDER = GROUPS.map((_, i) => i + 1).join(', ');

/** Every outlet group and its count, as the table keeps them (raw rows, in the groups' order). */
export function outletsAsKept(db: Database.Database): unknown[][] {
  return db
    .prepare(`SELECT ${GROUPS.join(', ')}, n FROM opportunity_outlets ORDER BY ${ORDER}`)
    .raw(true)
    .all() as unknown[][];
}

/** Every outlet group and its count, as the opportunities say them (counted row by row; the same shape). */
export function outletsAsCounted(db: Database.Database): unknown[][] {
  const columns = GROUPS.map((c) => OF_ROW[c] ?? c).join(', ');
  return db.prepare(`SELECT ${columns}, count(*) FROM opportunities GROUP BY ${ORDER} ORDER BY ${ORDER}`).raw(true).all() as unknown[][];
}
