// Version 8: the pipeline stage is the one local triage, and every triage
// action can be undone.
//
// The local status (New, In Progress, Done, Archived, set beside the stage)
// is carried onto the stage, losing nothing, by this rule (the same as
// stageOfLegacyStatus in shared/pipeline.ts, which reads older record files;
// a test holds the two to the same answers): the stage stays where the user's
// last word put it. Where the status says what the stage implied (New: New;
// Drafted, Contacted, Followed up, Replied: In Progress; Won: Done; Not a
// fit: Archived), or the stage was set after the status, the stage stays.
// Otherwise the status was the later word and its stage applies: New -> New,
// In Progress -> Drafted, Done -> Won, Archived -> Not a fit with the reason
// "Archived" (a reason already given is kept), dated when the status was set,
// with a history line saying so. The status column then goes (the history
// keeps its "Status set" lines), and so does its mirror on the opportunity;
// Trakkr's own status and archived flag stay the service's data.
//
// Also: the subject sent when marked contacted (the follow-up replies to it),
// and the log of triage actions that an undo reads (not part of the record
// file: what one window did, to take back).
export const version = 8;

/** The stage the opportunity is at now ('New' for none), and the status that stage implied. */
const STAGE_NOW = `COALESCE(stage, 'New')`;
const IMPLIED = `CASE ${STAGE_NOW} WHEN 'New' THEN 'New' WHEN 'Won' THEN 'Done' WHEN 'Not a fit' THEN 'Archived' ELSE 'In Progress' END`;
/** The status is the later word, and says something else than the stage. */
const STATUS_WINS = `status IS NOT NULL AND status != ${IMPLIED}
  AND (stage_changed_at IS NULL OR (status_changed_at IS NOT NULL AND stage_changed_at < status_changed_at))`;
const NEW_STAGE = `CASE status WHEN 'In Progress' THEN 'Drafted' WHEN 'Done' THEN 'Won' WHEN 'Archived' THEN 'Not a fit' END`;
const NEW_REASON = `CASE WHEN status = 'Archived' THEN CASE WHEN stage = 'Not a fit' AND COALESCE(stage_reason, '') != '' THEN stage_reason ELSE 'Archived' END END`;
const WHEN = `COALESCE(status_changed_at, updated_at)`;

const SORT_INDEX_TAIL = `archived, status, stage, snoozed_until, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain`;

export const sql = /* sql */ `
-- The status carried onto the stage: first the history line, then the stage.
INSERT OR IGNORE INTO history (brand_id, opportunity_id, at, kind, detail)
  SELECT brand_id, opportunity_id, ${WHEN}, 'stage', COALESCE(${NEW_STAGE}, 'New') || ' (your earlier status ' || status || ', carried over)'
  FROM triage WHERE ${STATUS_WINS};
UPDATE triage SET
  stage_reason_changed_at = CASE WHEN ${NEW_REASON} IS NOT stage_reason THEN ${WHEN} ELSE stage_reason_changed_at END,
  stage_reason = ${NEW_REASON},
  stage_changed_at = ${WHEN},
  stage = ${NEW_STAGE}
  WHERE ${STATUS_WINS};

-- The subject the pitch went out with: the follow-up replies to it.
ALTER TABLE triage ADD COLUMN contacted_subject TEXT;
ALTER TABLE triage ADD COLUMN contacted_subject_changed_at TEXT;

-- The local status goes, with its mirror, its index and the triggers that named it.
DROP TRIGGER triage_mirror_insert;
DROP TRIGGER triage_mirror_update;
DROP TRIGGER triage_mirror_delete;
DROP INDEX triage_by_status;
DROP INDEX opportunities_by_priority;
DROP INDEX opportunities_by_fit;
DROP INDEX opportunities_by_last_seen;
DROP INDEX opportunities_by_title;
DROP INDEX opportunities_by_domain;
DROP INDEX opportunities_by_chip;
ALTER TABLE triage DROP COLUMN status_changed_at;
ALTER TABLE triage DROP COLUMN status;
ALTER TABLE opportunities DROP COLUMN local_status;

-- The mirror of the fields the list filters by (shared/triage-fields.ts marks them): star, stage, snooze.
CREATE TRIGGER triage_mirror_insert AFTER INSERT ON triage BEGIN
  UPDATE opportunities SET starred = NEW.starred, stage = NEW.stage, snoozed_until = NEW.snoozed_until
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_update AFTER UPDATE OF starred, stage, snoozed_until ON triage BEGIN
  UPDATE opportunities SET starred = NEW.starred, stage = NEW.stage, snoozed_until = NEW.snoozed_until
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_delete AFTER DELETE ON triage BEGIN
  UPDATE opportunities SET starred = 0, stage = NULL, snoozed_until = NULL
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = OLD.brand_id) AND id = OLD.opportunity_id;
END;
-- In place of the status index: every row's key in a second tree (a damaged table is salvaged through it,
-- store/recover.ts), ordered by stage with what the follow-ups due are found by, so counting them reads this index alone.
CREATE INDEX triage_by_stage ON triage (stage, brand_id, followed_up_at, contacted_at);

CREATE INDEX opportunities_by_priority ON opportunities (brand_key, removed_on_server, priority_score DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_fit ON opportunities (brand_key, removed_on_server, fit_score DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_last_seen ON opportunities (brand_key, removed_on_server, last_seen DESC, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_title ON opportunities (brand_key, removed_on_server, title COLLATE NOCASE, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_domain ON opportunities (brand_key, removed_on_server, domain COLLATE NOCASE, ${SORT_INDEX_TAIL});
CREATE INDEX opportunities_by_chip ON opportunities (brand_key, removed_on_server, archived, status, opportunity_type, difficulty,
  stage, snoozed_until, starred, contact_count, catch_all_count, domain);

-- What each triage action changed, field by field, so it can be taken back.
CREATE TABLE triage_actions (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  brand_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  opportunities INTEGER NOT NULL,
  undone_at TEXT
) STRICT;
CREATE TABLE triage_action_changes (
  action_id INTEGER NOT NULL REFERENCES triage_actions (id) ON DELETE CASCADE,
  opportunity_id TEXT NOT NULL,
  field TEXT NOT NULL,
  before TEXT,
  after TEXT,
  PRIMARY KEY (action_id, opportunity_id, field)
) STRICT, WITHOUT ROWID;
`;
