// One opportunity whole (its row, the raw record as Trakkr sent it, its
// contacts with the do-not-contact list applied, the user's triage), and the
// small reads around it: which ids the cache holds, contacts of many, and
// earlier contacts of the same people or outlet. Reads only; a detail reads
// the brand's prepared pitched addresses (prepareBrand).
import type { Opportunity } from '../../../shared/api/schemas';
import type { Contact } from '../../../shared/contacts';
import type { ContactWarning, DetailContact, OpportunityDetail } from '../../../shared/model';
import type { ReadableDB } from './database';
import { brandKey } from './brand-keys';
import { toContact, type StoredContact } from './contacted-addresses';
import { isBlocked } from './do-not-contact';
import { itemsOf, rowFlags, type BrandReady } from './list-items';
import { contactedAddress } from './opportunity-filter';
import { BlockReader } from './opportunity-blocks';
import { sql } from './sql';
import { readTriage } from './triage';

type ContactRow = StoredContact;

export function readOpportunity(db: ReadableDB, ready: BrandReady, id: string): OpportunityDetail | null {
  const it = itemsOf(db.fields);
  return db.snapshot(() => {
    const row = db.get<Record<string, unknown> & { _rowid: number }>(
      sql`SELECT o.rowid AS _rowid, ${it.columns}, ${rowFlags(sql`o.rowid`)}
        FROM opportunities o LEFT JOIN triage t ON t.brand_id = ${ready.brandId} AND t.opportunity_id = o.id
        WHERE o.brand_key = ${ready.bk} AND o.id = ${id}`,
    );
    const json = row ? new BlockReader(db).json(row._rowid) : null;
    if (!row || json === null) return null;
    const contacts = db
      .all<ContactRow & { blocked: number }>(
        sql`SELECT COALESCE(c.raw, c.email) AS raw, c.email, c.identity, c.domain, c.catch_all, c.valid, ${isBlocked(sql`c.identity`, sql`c.domain`)} AS blocked
          FROM contacts c WHERE c.opportunity_rowid = ${row._rowid} ORDER BY c.position`,
      )
      .map((c): DetailContact => ({ ...toContact(c), blocked: c.valid === 1 && c.blocked === 1 }));
    return {
      item: it.map(row),
      raw: JSON.parse(json) as Opportunity & Record<string, unknown>,
      contacts,
      triage: readTriage(db, ready.brandId, id),
    };
  });
}

/** Parsed contacts of many opportunities at once, in their original order. */
export function contactsOf(db: ReadableDB, brandId: string, ids: readonly string[]): Map<string, Contact[]> {
  const out = new Map<string, Contact[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = db.all<ContactRow & { id: string }>(
    sql`SELECT o.id, COALESCE(c.raw, c.email) AS raw, c.email, c.identity, c.domain, c.catch_all, c.valid FROM opportunities o JOIN contacts c ON c.opportunity_rowid = o.rowid
      WHERE o.brand_key = ${brandKey(db, brandId)} AND o.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY o.rowid, c.position`,
  );
  for (const r of rows) out.get(r.id)?.push(toContact(r));
  return out;
}

/** Of these ids, the ones the cache does not hold for the brand. */
export function missingIds(db: ReadableDB, brandId: string, ids: readonly string[]): string[] {
  const bk = brandKey(db, brandId);
  const have = new Set(
    db
      .tuples<[string]>(sql`SELECT id FROM opportunities WHERE brand_key = ${bk} AND id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
      .map(([id]) => id),
  );
  return ids.filter((id) => !have.has(id));
}

export function opportunityExists(db: ReadableDB, brandId: string, id: string): boolean {
  return db.get(sql`SELECT 1 FROM opportunities WHERE brand_key = ${brandKey(db, brandId)} AND id = ${id}`) !== undefined;
}

/** How many opportunities the brand has in the cache, any state (removed on the server too). */
export function storedCount(db: ReadableDB, brandId: string): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM opportunities WHERE brand_key = ${brandKey(db, brandId)}`)!.n;
}

/**
 * Contacts made since `since` (YYYY-MM-DD) of the same people (these
 * addresses, where they were among those written to) or the same outlet (the
 * opportunity's domain, through an address written to there), in other
 * opportunities of the brand, newest first: what is said before a pitch goes.
 */
export function earlierContacts(db: ReadableDB, brandId: string, id: string, addresses: readonly string[], since: string): ContactWarning[] {
  const bk = brandKey(db, brandId);
  const rows = db.all<{ what: string; kind: 'person' | 'outlet'; opportunity_id: string; title: string; contacted_at: string }>(
    sql`SELECT * FROM (
        SELECT c2.email AS what, 'person' AS kind, o2.id AS opportunity_id, o2.title, t2.contacted_at
        FROM contacts c2 JOIN opportunities o2 ON o2.rowid = c2.opportunity_rowid
        JOIN triage t2 ON t2.brand_id = ${brandId} AND t2.opportunity_id = o2.id
        WHERE c2.brand_key = ${bk} AND c2.identity IN (SELECT value FROM json_each(${JSON.stringify(addresses.map((a) => a.trim().toLowerCase()))}))
          AND o2.id != ${id} AND t2.contacted_at >= ${since} AND ${contactedAddress(sql`t2`, sql`c2`, sql`o2`)}
        UNION ALL
        -- An outlet was pitched at only through its addresses: an opportunity there whose contact wrote to one of its addresses.
        SELECT o2.domain AS what, 'outlet' AS kind, o2.id AS opportunity_id, o2.title, t2.contacted_at
        FROM opportunities o JOIN opportunities o2 ON o2.brand_key = o.brand_key AND o2.removed_on_server IN (0, 1) AND o2.domain = o.domain COLLATE NOCASE AND o2.id != o.id
        JOIN triage t2 ON t2.brand_id = ${brandId} AND t2.opportunity_id = o2.id
        WHERE o.brand_key = ${bk} AND o.id = ${id} AND o.domain != '' AND t2.contacted_at >= ${since}
          AND EXISTS (SELECT 1 FROM contacts c3 WHERE c3.opportunity_rowid = o2.rowid AND c3.valid = 1 AND ${contactedAddress(sql`t2`, sql`c3`, sql`o2`)})
      ) ORDER BY contacted_at DESC, kind LIMIT 20`,
  );
  return rows.map((r) => ({
    ...r,
    message:
      r.kind === 'person'
        ? `${r.what} was contacted on ${r.contacted_at} for «${r.title}».`
        : `${r.what} was contacted on ${r.contacted_at} for «${r.title}» (the same outlet).`,
  }));
}
