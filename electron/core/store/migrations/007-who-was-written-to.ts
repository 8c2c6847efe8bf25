// Version 7: "pitched" means a person was written to.
// - An export records which addresses it carried, per opportunity (`carried`,
//   JSON: [[opportunity id, [address, …]], …]), and when the user confirmed it
//   was sent (`sent_at`): an export is not a contact until then.
// - A contact marked before the addresses used were recorded gets the ones the
//   pitch would have pre-selected (personal addresses; role addresses only
//   without one; catch-alls only when that is all; never one on the
//   do-not-contact list), written at the time of that contact, so follow-ups
//   and "already contacted" read one rule.
// - Addresses are kept with their domain lower-cased (shared/contacts.ts), and
//   do-not-contact entries in the one normal form every way in now gives them
//   (a record imported before this version may hold "Ana@Wired.com" or
//   "tips@wired.com CATCH", which no export honoured).
import type Database from 'better-sqlite3';
import { preselectedAddresses } from '../contacted-addresses';
import { parseDoNotContact } from '../do-not-contact';

export const version = 7;

export const sql = /* sql */ `
ALTER TABLE exports ADD COLUMN carried TEXT;
ALTER TABLE exports ADD COLUMN sent_at TEXT;
UPDATE contacts SET email = substr(email, 1, instr(email, '@')) || lower(substr(email, instr(email, '@') + 1))
  WHERE valid = 1 AND email != substr(email, 1, instr(email, '@')) || lower(substr(email, instr(email, '@') + 1));
`;

export function up(db: Database.Database): void {
  // The do-not-contact list, in its normal form (kept as it was when it cannot be read: it never matched anything).
  const entries = db.prepare('SELECT kind, value, note, added_at FROM do_not_contact ORDER BY added_at').all() as {
    kind: string;
    value: string;
    note: string;
    added_at: string;
  }[];
  const drop = db.prepare('DELETE FROM do_not_contact WHERE kind = ? AND value = ?');
  const put = db.prepare('INSERT OR IGNORE INTO do_not_contact (kind, value, note, added_at) VALUES (?, ?, ?, ?)');
  for (const e of entries) {
    const p = parseDoNotContact(e.value);
    if ('error' in p || (p.kind === e.kind && p.value === e.value)) continue;
    drop.run(e.kind, e.value);
    put.run(p.kind, p.value, e.note, e.added_at);
  }

  // Contacts marked without the addresses used: the pre-selected ones, dated as that contact.
  const unnamed = db
    .prepare(`SELECT t.brand_id, t.opportunity_id, COALESCE(t.contacted_changed_at, t.updated_at) AS at FROM triage t
      WHERE t.contacted_at IS NOT NULL AND t.contacted_addresses IS NULL`)
    .all() as { brand_id: string; opportunity_id: string; at: string }[];
  const record = db.prepare('UPDATE triage SET contacted_addresses = ?, contacted_addresses_changed_at = ? WHERE brand_id = ? AND opportunity_id = ?');
  for (const t of unnamed) {
    const used = preselectedAddresses(db, t.brand_id, t.opportunity_id);
    if (used.length) record.run(JSON.stringify(used), t.at, t.brand_id, t.opportunity_id);
  }
}
