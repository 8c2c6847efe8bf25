// Version 2: the do-not-contact list (addresses and whole domains), the
// user's own data: never written by sync, honoured by every export.
export const version = 2;

export const sql = /* sql */ `
CREATE TABLE do_not_contact (
  kind TEXT NOT NULL CHECK (kind IN ('address', 'domain')),
  value TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  added_at TEXT NOT NULL,
  PRIMARY KEY (kind, value)
) STRICT, WITHOUT ROWID;
`;
