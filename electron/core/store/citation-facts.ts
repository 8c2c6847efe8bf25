// What the syncs saw of each cited page, kept from one sync to the next
// (migration 9): the service's facts as last seen, and the time a sync saw the
// brand mention appear where an earlier one saw it missing. Written by the
// sync with each page of citations (in the page's transaction); read by the
// matcher (core/results/match.ts). Functions over the cache's two faces
// (database.ts): the sync's write takes a WritableDB, every read a ReadableDB.
import { localDayOf } from '../../../shared/calendar';
import { outletOf, pageKeyOf, type CitationFact } from '../../../shared/evidence';
import type { ReadableDB, WritableDB } from './database';
import { slot, sql } from './sql';

/** A cited page as stored, with when the syncs first saw it. */
export interface StoredFact extends CitationFact {
  page_key: string | null;
  observed_first_at: string;
  /** When a sync saw its brand mention appear (the full time; flipped_on is its day). */
  flipped_at: string | null;
}

type Row = {
  page_key: string;
  url: string;
  domain: string;
  first_seen: string | null;
  last_seen: string | null;
  times_cited: number;
  prompts: string;
  mentions_brand: number | null;
  flipped_at: string | null;
  unmentioned_at: string | null;
  observed_first_at: string;
};

/** An outlet's labels reversed, with a closing dot: wired.com -> com.wired. (its subdomains sort right after it). */
export function outletKey(outlet: string): string {
  return outlet ? `${outlet.split('.').reverse().join('.')}.` : '';
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function toFact(r: Row): StoredFact {
  let prompts: string[] = [];
  try {
    const p = JSON.parse(r.prompts) as unknown;
    if (Array.isArray(p)) prompts = p.filter((x): x is string => typeof x === 'string');
  } catch {
    // a damaged value reads as none
  }
  return {
    page_key: pageKey(r.page_key),
    url: r.url,
    domain: r.domain,
    first_seen: r.first_seen,
    last_seen: r.last_seen,
    times_cited: r.times_cited,
    prompts,
    mentions_brand: r.mentions_brand === null ? null : r.mentions_brand === 1,
    flipped_on: localDayOf(r.flipped_at),
    unmentioned_on: localDayOf(r.unmentioned_at),
    flipped_at: r.flipped_at,
    observed_first_at: r.observed_first_at,
  };
}

/** A stored key as pageKeyOf gives it (an address that is not a web page is kept under raw:…, and has none). */
const pageKey = (k: string): string | null => (k.startsWith('raw:') ? null : k);

const COLUMNS = sql`page_key, url, domain, first_seen, last_seen, times_cited, prompts, mentions_brand, flipped_at, unmentioned_at, observed_first_at`;

/**
 * One page of the citations mode as a sync saw it at `now` (inside the
 * page's transaction). Rows of one cited page in one sync (the service can
 * list a page twice: http and https, a tracking parameter) are one sighting:
 * a mention in any, the times cited summed. A page that mentions the brand where the
 * last sync that said anything saw it not mention it gets `flipped_at` (a
 * sync that did not say is passed over); the first sight of a page, and
 * two rows of one sync, are no flip. `unmentioned_at` keeps the last time it
 * was seen without the mention: the flip counts for a pitch only when that
 * was on or after the pitch (shared/evidence.ts).
 */
export function observeCitations(db: WritableDB, brandId: string, items: readonly Record<string, unknown>[], now: string): void {
  // A row of a page this sync has seen already (the same observed_at): the mention in either, the counts added.
  const upsert = db.prepareOnce(
    sql`INSERT INTO citation_facts (brand_id, page_key, url, domain, outlet_key, first_seen, last_seen, times_cited, prompts, mentions_brand,
        unmentioned_at, observed_first_at, observed_at)
      VALUES (${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot})
      ON CONFLICT DO UPDATE SET url = excluded.url, domain = excluded.domain, outlet_key = excluded.outlet_key,
        first_seen = excluded.first_seen, last_seen = excluded.last_seen,
        times_cited = CASE WHEN citation_facts.observed_at = excluded.observed_at THEN citation_facts.times_cited + excluded.times_cited ELSE excluded.times_cited END,
        prompts = excluded.prompts,
        flipped_at = CASE WHEN excluded.mentions_brand = 1 AND citation_facts.mentions_brand IS NOT 1
            AND citation_facts.unmentioned_at < excluded.observed_at
            AND (citation_facts.flipped_at IS NULL OR citation_facts.unmentioned_at > citation_facts.flipped_at)
          THEN excluded.observed_at ELSE citation_facts.flipped_at END,
        unmentioned_at = CASE WHEN citation_facts.observed_at = excluded.observed_at AND citation_facts.mentions_brand = 1 THEN citation_facts.unmentioned_at
          ELSE coalesce(excluded.unmentioned_at, citation_facts.unmentioned_at) END,
        mentions_brand = CASE WHEN citation_facts.observed_at = excluded.observed_at AND citation_facts.mentions_brand = 1 THEN 1 ELSE excluded.mentions_brand END,
        observed_at = excluded.observed_at`,
  );
  for (const it of items) {
    const url = text(it.url);
    if (url === null) continue;
    const domain = text(it.domain) ?? '';
    const mentions = typeof it.mentions_brand === 'boolean' ? (it.mentions_brand ? 1 : 0) : null;
    const prompts = Array.isArray(it.prompts) ? it.prompts.filter((p): p is string => typeof p === 'string').slice(0, 50) : [];
    upsert.run(
      brandId,
      pageKeyOf(url) ?? `raw:${url}`,
      url,
      domain,
      outletKey(outletOf(domain || url)),
      text(it.first_seen),
      text(it.last_seen),
      typeof it.times_cited === 'number' && Number.isFinite(it.times_cited) ? Math.trunc(it.times_cited) : 0,
      JSON.stringify(prompts),
      mentions,
      mentions === 0 ? now : null,
      now,
      now,
    );
  }
}

/**
 * The brand's pages that mention it, with what matching reads and nothing
 * more (no prompts, no last-seen day: `factDetails` gives those for the
 * evidence shown). Rows as tuples: the match reads tens of thousands.
 */
export function factsForMatching(db: ReadableDB, brandId: string): StoredFact[] {
  type T = [string, string, string, string | null, number, string | null, string | null, string];
  return db
    .tuples<T>(
      sql`SELECT page_key, url, domain, first_seen, times_cited, flipped_at, unmentioned_at, observed_first_at FROM citation_facts
        WHERE brand_id = ${brandId} AND mentions_brand = 1`,
    )
    .map(([key, url, domain, first_seen, times_cited, flipped_at, unmentioned_at, observed_first_at]) => ({
      page_key: pageKey(key),
      url,
      domain,
      first_seen,
      last_seen: null,
      times_cited,
      prompts: [],
      mentions_brand: true,
      flipped_on: localDayOf(flipped_at),
      unmentioned_on: localDayOf(unmentioned_at),
      flipped_at,
      observed_first_at,
    }));
}

/**
 * Did the syncs keep any of the brand's cited pages before `at`? Not on the
 * first sync after an upgrade or a rebuilt cache: what that sync sees is the
 * baseline, not news.
 */
export function keptBefore(db: ReadableDB, brandId: string, at: string): boolean {
  return db.get(sql`SELECT 1 AS one FROM citation_facts WHERE brand_id = ${brandId} AND observed_first_at < ${at} LIMIT 1`) !== undefined;
}

/** These pages whole (by address), for the evidence shown. */
export function factDetails(db: ReadableDB, brandId: string, urls: readonly string[]): Map<string, StoredFact> {
  const out = new Map<string, StoredFact>();
  for (const url of new Set(urls)) {
    const r = db.get<Row>(sql`SELECT ${COLUMNS} FROM citation_facts WHERE brand_id = ${brandId} AND page_key = ${pageKeyOf(url) ?? `raw:${url}`}`);
    if (r) out.set(url, toFact(r));
  }
  return out;
}

/** The stored pages at an outlet and its subdomains (one opportunity's evidence). */
export function factsAtOutlet(db: ReadableDB, brandId: string, outlet: string): StoredFact[] {
  const key = outletKey(outlet);
  if (!key) return [];
  // com.wired. up to com.wired/ ('/' follows '.'): the outlet and every subdomain of it.
  const end = `${key.slice(0, -1)}/`;
  return db.all<Row>(sql`SELECT ${COLUMNS} FROM citation_facts WHERE brand_id = ${brandId} AND outlet_key >= ${key} AND outlet_key < ${end}`).map(toFact);
}

/** One page by its key. */
export function factsAtPage(db: ReadableDB, brandId: string, pageKey: string): StoredFact[] {
  return db.all<Row>(sql`SELECT ${COLUMNS} FROM citation_facts WHERE brand_id = ${brandId} AND page_key = ${pageKey}`).map(toFact);
}
