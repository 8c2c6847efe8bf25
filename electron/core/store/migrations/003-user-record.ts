// Version 3: the user's record made to last. Each triage field keeps the time
// it was last written (so a merge, an import or two processes writing at once
// settle field by field, the later write winning); a per-opportunity history
// of what the user did; the exports made; and the lock that lets one sync of
// a brand run at a time across processes.
export const version = 3;

export const sql = /* sql */ `
ALTER TABLE triage ADD COLUMN status_changed_at TEXT;
ALTER TABLE triage ADD COLUMN note_changed_at TEXT;
ALTER TABLE triage ADD COLUMN starred_changed_at TEXT;
ALTER TABLE triage ADD COLUMN contacted_changed_at TEXT;
ALTER TABLE triage ADD COLUMN exported_changed_at TEXT;
-- What was set before this version was set at the row's last write, the best that is known.
UPDATE triage SET
  status_changed_at = CASE WHEN status IS NOT NULL THEN updated_at END,
  note_changed_at = CASE WHEN note != '' THEN updated_at END,
  starred_changed_at = CASE WHEN starred != 0 THEN updated_at END,
  contacted_changed_at = CASE WHEN contacted_at IS NOT NULL THEN updated_at END,
  exported_changed_at = CASE WHEN exported_at IS NOT NULL THEN updated_at END;

-- What the user did to an opportunity, in plain words for the detail pane and the CLI.
-- The same event is never recorded twice (importing a record twice changes nothing); the
-- unique key also finds an opportunity's history.
CREATE TABLE history (
  id INTEGER PRIMARY KEY,
  brand_id TEXT NOT NULL,
  opportunity_id TEXT NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  UNIQUE (brand_id, opportunity_id, at, kind)
) STRICT;

-- Every export written: when, what, how many, and the file's name (never its folder).
CREATE TABLE exports (
  id TEXT PRIMARY KEY,
  at TEXT NOT NULL,
  brand_id TEXT NOT NULL,
  preset TEXT NOT NULL,
  file_name TEXT NOT NULL,
  rows INTEGER NOT NULL,
  opportunities INTEGER NOT NULL,
  marked_exported INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX exports_by_time ON exports (at);

-- At most one sync per brand at a time, across every process that opens this cache.
CREATE TABLE sync_locks (
  brand_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  label TEXT NOT NULL,
  started_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
) STRICT;
`;
