// The addresses a contact marked without naming them was made with: those
// the pitch pre-selects (shared/mail-links.ts defaultRecipients: personal
// addresses; role addresses only without one; catch-alls only when that is
// all; never one on the do-not-contact list), read from the opportunity's
// parsed contacts. The triage store records them when contact is marked that
// way (the list's key C, `triage --contacted`), and migration 7 did for the
// contacts marked before they were recorded.
import type { Contact } from '../../../shared/contacts';
import { defaultRecipients } from '../../../shared/mail-links';
import type { DB } from './db';
import { isBlocked } from './do-not-contact';
import { sql } from './sql';

/** A contacts row as the store keeps it. */
export interface StoredContact {
  raw: string;
  email: string;
  identity: string;
  domain: string;
  catch_all: number;
  valid: number;
}

export const toContact = (c: StoredContact): Contact => ({
  raw: c.raw,
  email: c.email,
  identity: c.identity,
  domain: c.domain,
  catchAll: c.catch_all === 1,
  valid: c.valid === 1,
});

/** The addresses the pitch of opportunity `id` pre-selects, in their order. */
export function preselectedAddresses(db: DB, brandId: string, id: string): string[] {
  const q = sql`SELECT COALESCE(c.raw, c.email) AS raw, c.email, c.identity, c.domain, c.catch_all, c.valid, ${isBlocked(sql`c.identity`, sql`c.domain`)} AS blocked
    FROM brand_keys b JOIN opportunities o ON o.brand_key = b.key AND o.id = ${id} JOIN contacts c ON c.opportunity_rowid = o.rowid
    WHERE b.id = ${brandId} ORDER BY c.position`;
  const rows = db.prepare(q.text).all(...q.params) as (StoredContact & { blocked: number })[];
  const blocked = new Set(rows.filter((r) => r.blocked === 1).map((r) => r.identity));
  return defaultRecipients(rows.map(toContact), { exclude: (c) => blocked.has(c.identity) });
}
