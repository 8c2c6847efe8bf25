// Version 14: the outlets kept counted, by triggers.
// - `opportunity_outlets`: how many opportunities of each outlet (its domain,
//   lowercased: a filter finds it in any case) have each combination of the
//   values the summary of version 11 counts. The chip counts and total of a
//   list within an outlet add up the groups of the outlets whose name holds
//   what was typed (each outlet found by a seek), instead of walking every
//   opportunity's chip index entry: the cost of the outlets' groups, which do
//   not grow with the opportunities as their entries do.
// Derived data, kept by triggers on the opportunities (the sync's writes, and
// the mirror of the user's triage: migration 8's triggers update the
// opportunity, whose triggers update this); not the user's record, and nothing
// writes it but these triggers. Filled in the migration's transaction (a kill
// part-way leaves version 13 as it was), after the schema (sql), by `up`.
import type Database from 'better-sqlite3';

export const version = 14;

/** The summary's columns (version 11), each a group's value here; contacts and catch-alls as "has any". */
const COLUMNS = [
  'brand_key',
  'domain',
  'removed_on_server',
  'archived',
  'status',
  'opportunity_type',
  'difficulty',
  'stage',
  'snoozed_until',
  'starred',
  'contact_count',
  'catch_all_count',
] as const;
const valueOf = (row: 'NEW' | 'OLD' | 'o', c: string) =>
  c === 'domain' ? `lower(${row}.domain)` : c === 'contact_count' || c === 'catch_all_count' ? `(${row}.${c} > 0)` : `${row}.${c}`;
/** The group of the opportunity `row` (IS: a NULL stage, snooze or status is a value here). */
const groupOf = (row: 'NEW' | 'OLD') => COLUMNS.map((c) => `opportunity_outlets.${c} IS ${valueOf(row, c)}`).join(' AND ');
const uncount = (row: 'OLD') => `
  UPDATE opportunity_outlets SET n = n - 1 WHERE ${groupOf(row)};
  DELETE FROM opportunity_outlets WHERE n = 0 AND ${groupOf(row)};`;
const count = (row: 'NEW') => `
  INSERT INTO opportunity_outlets (${COLUMNS.join(', ')}, n)
    SELECT ${COLUMNS.map((c) => valueOf(row, c)).join(', ')}, 0
    WHERE NOT EXISTS (SELECT 1 FROM opportunity_outlets WHERE ${groupOf(row)});
  UPDATE opportunity_outlets SET n = n + 1 WHERE ${groupOf(row)};`;

export const sql = /* sql */ `
CREATE TABLE opportunity_outlets (
  brand_key INTEGER NOT NULL,
  domain TEXT NOT NULL,
  removed_on_server INTEGER NOT NULL,
  archived INTEGER NOT NULL,
  status TEXT,
  opportunity_type TEXT,
  difficulty TEXT,
  stage TEXT,
  snoozed_until TEXT,
  starred INTEGER NOT NULL,
  contact_count INTEGER NOT NULL,
  catch_all_count INTEGER NOT NULL,
  n INTEGER NOT NULL
) STRICT;
-- The brand's outlets in order (each found by a seek), then the flags every list tests, then the chips' columns.
CREATE INDEX opportunity_outlets_by_group ON opportunity_outlets (${COLUMNS.join(', ')}, n);

CREATE TRIGGER opportunities_outlet_counted AFTER INSERT ON opportunities BEGIN ${count('NEW')}
END;
CREATE TRIGGER opportunities_outlet_uncounted AFTER DELETE ON opportunities BEGIN ${uncount('OLD')}
END;
CREATE TRIGGER opportunities_outlet_recounted AFTER UPDATE OF ${COLUMNS.join(', ')} ON opportunities
  WHEN ${COLUMNS.map((c) => `${valueOf('NEW', c)} IS NOT ${valueOf('OLD', c)}`).join(' OR ')} BEGIN ${uncount('OLD')}${count('NEW')}
END;
`;

/** Filled from what the cache holds, before the triggers keep it. */
export function up(db: Database.Database): void {
  db.exec(`INSERT INTO opportunity_outlets (${COLUMNS.join(', ')}, n)
    SELECT ${COLUMNS.map((c) => valueOf('o', c)).join(', ')}, count(*) FROM opportunities o
    GROUP BY ${COLUMNS.map((_, i) => i + 1).join(', ')}`);
}
