// Version 1: the cache of server data and the user's own data, kept apart.
// Never edit a migration after it lands; add the next file instead.
export const version = 1;

export const sql = /* sql */ `
CREATE TABLE brands (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  raw TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  removed_on_server INTEGER NOT NULL DEFAULT 0
) STRICT;

-- A small integer per brand id: index entries stay short (a brand id is 32 characters).
CREATE TABLE brand_keys (
  key INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE
) STRICT;

-- Server data: sync may rewrite these rows, never delete them.
CREATE TABLE opportunities (
  rowid INTEGER PRIMARY KEY,
  brand_key INTEGER NOT NULL REFERENCES brand_keys (key),
  id TEXT NOT NULL,
  unique_key TEXT,
  opportunity_type TEXT,
  status TEXT,
  archived INTEGER NOT NULL DEFAULT 0,
  difficulty TEXT,
  domain TEXT NOT NULL DEFAULT '',
  url TEXT,
  title TEXT NOT NULL DEFAULT '',
  priority_score INTEGER,
  fit_score INTEGER,
  last_seen TEXT,
  author_name TEXT,
  contact_count INTEGER NOT NULL DEFAULT 0,
  catch_all_count INTEGER NOT NULL DEFAULT 0,
  raw_hash TEXT NOT NULL,
  removed_on_server INTEGER NOT NULL DEFAULT 0,
  first_synced_at TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  seen_in_run INTEGER NOT NULL DEFAULT 0,
  UNIQUE (brand_key, id)
) STRICT;

-- The record as the server sent it (fields the spec does not list survive here).
-- Kept out of the opportunities table so its rows stay small and list scans stay in cache.
CREATE TABLE opportunity_records (
  rowid INTEGER PRIMARY KEY REFERENCES opportunities (rowid) ON DELETE CASCADE,
  raw TEXT NOT NULL
) STRICT;

-- One index per list sort (every index costs each synced row a write, so no more than these).
CREATE INDEX opportunities_by_priority ON opportunities (brand_key, removed_on_server, archived, priority_score DESC);
CREATE INDEX opportunities_by_fit ON opportunities (brand_key, removed_on_server, archived, fit_score DESC);
CREATE INDEX opportunities_by_last_seen ON opportunities (brand_key, removed_on_server, archived, last_seen DESC);
CREATE INDEX opportunities_by_title ON opportunities (brand_key, title COLLATE NOCASE);
CREATE INDEX opportunities_by_domain ON opportunities (brand_key, domain COLLATE NOCASE);

-- Contacts parsed once from contact_emails: catch-all and validity flags, identity for dedupe.
CREATE TABLE contacts (
  opportunity_rowid INTEGER NOT NULL REFERENCES opportunities (rowid) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  brand_key INTEGER NOT NULL,
  raw TEXT NOT NULL,
  email TEXT NOT NULL,
  identity TEXT NOT NULL,
  domain TEXT NOT NULL,
  catch_all INTEGER NOT NULL,
  valid INTEGER NOT NULL,
  PRIMARY KEY (opportunity_rowid, position)
) STRICT, WITHOUT ROWID;
CREATE INDEX contacts_by_identity ON contacts (brand_key, identity);

-- Full-text search over what a person searches by. Contentless: the text lives in opportunities.raw.
CREATE VIRTUAL TABLE opportunity_search USING fts5 (
  title, domain, topics, pitch_subject, pitch_body, gap_analysis, brand_angle, author, contacts,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);

-- The user's data: sync never writes here. No foreign key: triage outlives any server row.
CREATE TABLE triage (
  brand_id TEXT NOT NULL,
  opportunity_id TEXT NOT NULL,
  status TEXT CHECK (status IN ('New', 'In Progress', 'Done', 'Archived')),
  note TEXT NOT NULL DEFAULT '',
  starred INTEGER NOT NULL DEFAULT 0,
  contacted_at TEXT,
  exported_at TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (brand_id, opportunity_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX triage_by_status ON triage (brand_id, status);

CREATE TABLE scores (
  brand_id TEXT NOT NULL,
  breakdown TEXT NOT NULL,
  date TEXT NOT NULL,
  model TEXT NOT NULL DEFAULT '',
  prompt TEXT NOT NULL DEFAULT '',
  visibility REAL,
  presence REAL,
  raw TEXT NOT NULL,
  PRIMARY KEY (brand_id, breakdown, date, model, prompt)
) STRICT, WITHOUT ROWID;

CREATE TABLE score_fetches (
  brand_id TEXT NOT NULL,
  breakdown TEXT NOT NULL,
  brand_name TEXT,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  errors TEXT,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (brand_id, breakdown)
) STRICT;

CREATE TABLE citations (
  brand_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  item_key TEXT NOT NULL,
  position INTEGER NOT NULL,
  domain TEXT NOT NULL DEFAULT '',
  url TEXT,
  times_cited INTEGER,
  last_seen TEXT,
  raw TEXT NOT NULL,
  seen_in_run INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (brand_id, mode, item_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX citations_by_domain ON citations (brand_id, mode, domain);

CREATE TABLE citation_snapshots (
  brand_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  updated_at TEXT,
  summary TEXT,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (brand_id, mode)
) STRICT;

CREATE TABLE sync_runs (
  id INTEGER PRIMARY KEY,
  brand_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
  cursor TEXT,
  pages INTEGER NOT NULL DEFAULT 0,
  items INTEGER NOT NULL DEFAULT 0,
  added INTEGER NOT NULL DEFAULT 0,
  changed INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  warnings INTEGER NOT NULL DEFAULT 0,
  error TEXT
) STRICT;
CREATE INDEX sync_runs_by_brand ON sync_runs (brand_id, kind, id DESC);
`;
