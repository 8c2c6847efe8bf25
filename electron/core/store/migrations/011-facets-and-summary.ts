// Version 11: what a filter tests, kept narrow and kept counted, by triggers.
// - `opportunity_facets`: each opportunity's columns the filters test (brand,
//   removed, archived, stage, snooze, Trakkr's status, type, difficulty, star,
//   contacts, catch-alls), keyed by its rowid. A search's total and chip counts
//   join the full-text matches to these narrow rows (a few pages for the whole
//   cache) instead of copying every match into a table first or reading each
//   match's wide row.
// - `opportunity_summary`: how many opportunities have each combination of
//   those values (contacts and catch-alls as "has any": the only way a filter
//   tests them), so the chip counts and the total of a list without a search
//   add up a few hundred rows instead of walking every opportunity's entry.
// Both are derived data, kept by triggers on the opportunities (the sync's
// writes, and the mirror of the user's triage: migration 8's triggers update
// the opportunity, whose triggers update these); neither is the user's record
// and nothing writes them but these triggers.
export const version = 11;

/** The columns a filter tests, in the facets and the summary. */
const COLUMNS = [
  'brand_key',
  'removed_on_server',
  'archived',
  'stage',
  'snoozed_until',
  'status',
  'opportunity_type',
  'difficulty',
  'starred',
  'contact_count',
  'catch_all_count',
] as const;
/** Their declarations (the opportunities' own types: stage, snooze and Trakkr's text may be empty). */
const DECLARED = COLUMNS.map(
  (c) => `  ${c} ${['stage', 'snoozed_until', 'status', 'opportunity_type', 'difficulty'].includes(c) ? 'TEXT' : 'INTEGER NOT NULL'}`,
).join(',\n');
/** Contacts and catch-alls are counted as "has any" in the summary (filters test > 0 or = 0). */
const HAS_ANY = new Set(['contact_count', 'catch_all_count']);
const summaryValue = (row: 'NEW' | 'OLD', c: string) => (HAS_ANY.has(c) ? `(${row}.${c} > 0)` : `${row}.${c}`);
/** The summary row of the facets row `row` (IS: a NULL stage, snooze or status is a value here). */
const groupOf = (row: 'NEW' | 'OLD') => COLUMNS.map((c) => `s.${c} IS ${summaryValue(row, c)}`).join(' AND ');
const changed = (value: (row: 'NEW' | 'OLD', c: string) => string) => COLUMNS.map((c) => `${value('NEW', c)} IS NOT ${value('OLD', c)}`).join(' OR ');
const count = (row: 'NEW' | 'OLD', by: '+ 1' | '- 1') => `
  INSERT INTO opportunity_summary (${COLUMNS.join(', ')}, n)
    SELECT ${COLUMNS.map((c) => summaryValue(row, c)).join(', ')}, 0
    WHERE NOT EXISTS (SELECT 1 FROM opportunity_summary s WHERE ${groupOf(row)});
  UPDATE opportunity_summary AS s SET n = n ${by} WHERE ${groupOf(row)};`;

export const sql = /* sql */ `
CREATE TABLE opportunity_facets (
  rowid INTEGER PRIMARY KEY,
${DECLARED}
) STRICT;

-- (Its contact_count and catch_all_count are 1 when the opportunity has any, 0 when none.)
CREATE TABLE opportunity_summary (
${DECLARED},
  n INTEGER NOT NULL
) STRICT;
-- The chips' four columns first after the brand and the two flags every list tests: grouped in the index's order.
CREATE INDEX opportunity_summary_by_group ON opportunity_summary (brand_key, removed_on_server, archived, status, opportunity_type, difficulty, stage,
  snoozed_until, starred, contact_count, catch_all_count);

-- Filled from what the cache holds, before the triggers keep them.
INSERT INTO opportunity_facets (rowid, ${COLUMNS.join(', ')}) SELECT rowid, ${COLUMNS.join(', ')} FROM opportunities;
INSERT INTO opportunity_summary (${COLUMNS.join(', ')}, n)
  SELECT ${COLUMNS.map((c) => (HAS_ANY.has(c) ? `(${c} > 0)` : c)).join(', ')}, count(*) FROM opportunity_facets GROUP BY ${COLUMNS.map((_, i) => i + 1).join(', ')};

-- The summary follows the facets.
CREATE TRIGGER opportunity_facets_counted AFTER INSERT ON opportunity_facets BEGIN ${count('NEW', '+ 1')}
END;
CREATE TRIGGER opportunity_facets_uncounted AFTER DELETE ON opportunity_facets BEGIN
  UPDATE opportunity_summary AS s SET n = n - 1 WHERE ${groupOf('OLD')};
  DELETE FROM opportunity_summary AS s WHERE n = 0 AND ${groupOf('OLD')};
END;
CREATE TRIGGER opportunity_facets_recounted AFTER UPDATE ON opportunity_facets WHEN ${changed(summaryValue)} BEGIN
  UPDATE opportunity_summary AS s SET n = n - 1 WHERE ${groupOf('OLD')};
  DELETE FROM opportunity_summary AS s WHERE n = 0 AND ${groupOf('OLD')};${count('NEW', '+ 1')}
END;

-- The facets follow the opportunities (a sync's insert, update and the triage mirror's update; a removal).
CREATE TRIGGER opportunities_faceted AFTER INSERT ON opportunities BEGIN
  INSERT INTO opportunity_facets (rowid, ${COLUMNS.join(', ')}) VALUES (NEW.rowid, ${COLUMNS.map((c) => `NEW.${c}`).join(', ')});
END;
CREATE TRIGGER opportunities_refaceted AFTER UPDATE OF ${COLUMNS.join(', ')} ON opportunities
  WHEN ${changed((row, c) => `${row}.${c}`)} BEGIN
  UPDATE opportunity_facets SET ${COLUMNS.map((c) => `${c} = NEW.${c}`).join(', ')} WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER opportunities_unfaceted AFTER DELETE ON opportunities BEGIN
  DELETE FROM opportunity_facets WHERE rowid = OLD.rowid;
END;

`;
