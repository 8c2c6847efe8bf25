// Version 10 (9 is left to the citation facts of another change): each sort's
// index holds the rowid right after the sort value, so a page's order
// (the value, then the rowid: a total order every keyset cursor names) is the
// index's own order. Before, the filter columns came between the value and
// the (implicit, last) rowid, so SQLite sorted each run of equal values by
// rowid in a temporary B-tree ("USE TEMP B-TREE FOR LAST TERM OF ORDER BY"):
// a priority score shared by a thousand rows cost every page a sort of a
// thousand. The columns the filters test follow as before, so a page still
// walks index entries only. (The table's `rowid` is a declared INTEGER
// PRIMARY KEY column, which is what lets an index name it.)
export const version = 10;

const TAIL = `archived, status, stage, snoozed_until, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain`;

export const sql = /* sql */ `
DROP INDEX opportunities_by_priority;
DROP INDEX opportunities_by_fit;
DROP INDEX opportunities_by_last_seen;
DROP INDEX opportunities_by_title;
DROP INDEX opportunities_by_domain;
CREATE INDEX opportunities_by_priority ON opportunities (brand_key, removed_on_server, priority_score DESC, rowid, ${TAIL});
CREATE INDEX opportunities_by_fit ON opportunities (brand_key, removed_on_server, fit_score DESC, rowid, ${TAIL});
CREATE INDEX opportunities_by_last_seen ON opportunities (brand_key, removed_on_server, last_seen DESC, rowid, ${TAIL});
CREATE INDEX opportunities_by_title ON opportunities (brand_key, removed_on_server, title COLLATE NOCASE, rowid, ${TAIL});
CREATE INDEX opportunities_by_domain ON opportunities (brand_key, removed_on_server, domain COLLATE NOCASE, rowid, ${TAIL});
`;
