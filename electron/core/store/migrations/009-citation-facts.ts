// Version 9: what the syncs saw of each cited page, kept from one sync to the
// next, so evidence of a win can be found: a citation at an outlet the user
// pitched, mentioning the brand, first seen after the pitch, or (stronger)
// seen to turn from not mentioning the brand to mentioning it between two
// syncs. One row per cited page (the same page however its address is
// written, shared/evidence.ts), rewritten by each sync of the citations:
// the service's facts as last seen, and the times a sync saw the brand
// mention missing and then appear. Server data, derived: never the user's
// record (a rebuilt cache starts it again at the next sync).
export const version = 9;

export const sql = /* sql */ `
CREATE TABLE citation_facts (
  brand_id TEXT NOT NULL,
  -- The page, however written (shared/evidence.ts pageKeyOf), or the address as given when it is not a web address.
  page_key TEXT NOT NULL,
  url TEXT NOT NULL,
  domain TEXT NOT NULL DEFAULT '',
  -- The outlet's labels reversed with a closing dot (com.wired.blog.), so an outlet and its subdomains are one index range.
  outlet_key TEXT NOT NULL,
  first_seen TEXT,
  last_seen TEXT,
  times_cited INTEGER NOT NULL DEFAULT 0,
  prompts TEXT NOT NULL DEFAULT '[]',
  -- 1 or 0, NULL when the service did not say.
  mentions_brand INTEGER,
  -- When a sync saw it mention the brand after an earlier sync saw it not mention it.
  flipped_at TEXT,
  -- The last sync that saw it not mention the brand.
  unmentioned_at TEXT,
  observed_first_at TEXT NOT NULL,
  observed_at TEXT NOT NULL,
  PRIMARY KEY (brand_id, page_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX citation_facts_by_outlet ON citation_facts (brand_id, outlet_key);
`;
