// Version 5: the outreach pipeline, kept as the user's record. Each
// opportunity may have a local stage (Drafted, Contacted, Followed up,
// Replied, Won, Not a fit with its reason), a snooze date, the date of its
// follow-up and the addresses it was sent to, each field with the time it was
// last written; a draft of the pitch and of the follow-up per opportunity; and
// the user's own snippets (openings, sign-offs). The stage and the snooze date
// are mirrored on the opportunity, and every list index carries them, so the
// default list (snoozed ones out) and the stage filters stay on indexes.
export const version = 5;

const SORT_INDEX_TAIL = `archived, local_status, status, stage, snoozed_until, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain`;

export const sql = /* sql */ `
ALTER TABLE triage ADD COLUMN stage TEXT;
ALTER TABLE triage ADD COLUMN stage_changed_at TEXT;
ALTER TABLE triage ADD COLUMN stage_reason TEXT;
ALTER TABLE triage ADD COLUMN stage_reason_changed_at TEXT;
ALTER TABLE triage ADD COLUMN snoozed_until TEXT;
ALTER TABLE triage ADD COLUMN snoozed_changed_at TEXT;
ALTER TABLE triage ADD COLUMN followed_up_at TEXT;
ALTER TABLE triage ADD COLUMN followed_up_changed_at TEXT;
ALTER TABLE triage ADD COLUMN contacted_addresses TEXT;
ALTER TABLE triage ADD COLUMN contacted_addresses_changed_at TEXT;
-- An opportunity already marked contacted is at that stage.
UPDATE triage SET stage = 'Contacted', stage_changed_at = contacted_changed_at WHERE contacted_at IS NOT NULL;

-- The drafts the user writes: the pitch, and the one follow-up. base_*: the service's pitch the draft started from,
-- so a later change of it under the draft can be shown (the draft is never overwritten).
CREATE TABLE drafts (
  brand_id TEXT NOT NULL,
  opportunity_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pitch', 'followup')),
  subject TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  base_subject TEXT,
  base_body TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (brand_id, opportunity_id, kind)
) STRICT, WITHOUT ROWID;

-- The user's snippets: openings, sign-offs, anything they insert with a key.
CREATE TABLE snippets (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('opening', 'signoff', 'other')),
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

ALTER TABLE opportunities ADD COLUMN stage TEXT;
ALTER TABLE opportunities ADD COLUMN snoozed_until TEXT;
UPDATE opportunities SET stage = t.stage, snoozed_until = t.snoozed_until
  FROM triage t JOIN brand_keys b ON b.id = t.brand_id
  WHERE b.key = opportunities.brand_key AND t.opportunity_id = opportunities.id;

DROP TRIGGER triage_mirror_insert;
DROP TRIGGER triage_mirror_update;
DROP TRIGGER triage_mirror_delete;
CREATE TRIGGER triage_mirror_insert AFTER INSERT ON triage BEGIN
  UPDATE opportunities SET local_status = NEW.status, starred = NEW.starred, stage = NEW.stage, snoozed_until = NEW.snoozed_until
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_update AFTER UPDATE OF status, starred, stage, snoozed_until ON triage BEGIN
  UPDATE opportunities SET local_status = NEW.status, starred = NEW.starred, stage = NEW.stage, snoozed_until = NEW.snoozed_until
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_delete AFTER DELETE ON triage BEGIN
  UPDATE opportunities SET local_status = NULL, starred = 0, stage = NULL, snoozed_until = NULL
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = OLD.brand_id) AND id = OLD.opportunity_id;
END;

DROP INDEX opportunities_by_priority;
DROP INDEX opportunities_by_fit;
DROP INDEX opportunities_by_last_seen;
DROP INDEX opportunities_by_title;
DROP INDEX opportunities_by_domain;
DROP INDEX opportunities_by_chip;
CREATE INDEX opportunities_by_priority ON opportunities (brand_key, removed_on_server, priority_score DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_fit ON opportunities (brand_key, removed_on_server, fit_score DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_last_seen ON opportunities (brand_key, removed_on_server, last_seen DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_title ON opportunities (brand_key, removed_on_server, title COLLATE NOCASE, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_domain ON opportunities (brand_key, removed_on_server, domain COLLATE NOCASE, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_chip ON opportunities (brand_key, removed_on_server, archived, local_status, status, opportunity_type, difficulty,
  stage, snoozed_until, starred, contact_count, catch_all_count, domain);
`;
