// Version 6: "already pitched" without reading the contacts. The set of
// opportunities that share an address with one contacted or exported is
// found from the pitched addresses along contacts_by_identity; with `valid`
// in that index (the primary key, opportunity_rowid and position, rides in
// every entry already), the walk reads index entries only. At 100,000
// opportunities with 2,500 contacted, about 56,000 opportunities share one of
// their addresses (press@, editor@ at large outlets): a lookup of the contact
// row for each took 150 ms.
export const version = 6;

export const sql = /* sql */ `
DROP INDEX contacts_by_identity;
CREATE INDEX contacts_by_identity ON contacts (brand_key, identity, valid);
`;
