// Matching citations to the user's outreach, after each sync and whenever the
// Results are read: every pitched opportunity of a brand against the cited
// pages the syncs kept (store/citation-facts.ts), by the rules of
// shared/evidence.ts. One read of the pitches and one of the pages that
// mention the brand, then an index (binary searches per outlet): its cost
// grows with the pitches and the pages, not with their product. Reads only
// (a ReadableDB): nothing here needs a derived table prepared.
import { bestEvidence, EvidenceIndex, pageKeyOf, pageOnlyOutlet, pitchOutlet, type Evidence, type PitchLike } from '../../../shared/evidence';
import { brandKey } from '../store/brand-keys';
import type { ReadableDB } from '../store/database';
import { factDetails, factsAtOutlet, factsAtPage, factsForMatching, type StoredFact } from '../store/citation-facts';
import { outreachRows, placeOf, type OutreachRow } from '../store/outreach-results';
import { readTriage } from '../store/triage';

export interface BrandMatch {
  /** Every opportunity pitched, replied to or won. */
  rows: OutreachRow[];
  /** Evidence by opportunity id (only those with some). */
  evidence: Map<string, Evidence>;
}

const pitchOf = (r: OutreachRow): PitchLike | null =>
  r.pitched_on === null ? null : { opportunity_id: r.id, url: r.url, domain: r.domain, pitched_on: r.pitched_on };

/**
 * Match every pitch of the brand. The evidence's citations carry what
 * matching reads; `withDetails` fills in their prompts and last-seen day
 * (for the evidence shown: a few lookups each).
 */
export function matchBrand(db: ReadableDB, brandId: string): BrandMatch {
  const rows = outreachRows(db, brandId, brandKey(db, brandId));
  const pitches = rows.map(pitchOf).filter((p): p is PitchLike => p !== null);
  const evidence = new Map<string, Evidence>();
  if (pitches.length === 0) return { rows, evidence };
  const index = new EvidenceIndex(factsForMatching(db, brandId), new Set(pitches.map(pitchOutlet)));
  for (const p of pitches) {
    const e = index.best(p);
    if (e) evidence.set(p.opportunity_id, e);
  }
  return { rows, evidence };
}

/** The same evidence with its citations whole (prompts, last seen): for the few shown. */
export function withDetails(db: ReadableDB, brandId: string, evidence: readonly Evidence[]): Evidence[] {
  const whole = factDetails(
    db,
    brandId,
    evidence.map((e) => e.citation.url),
  );
  return evidence.map((e) => ({ ...e, citation: whole.get(e.citation.url) ?? e.citation }));
}

/** The evidence of one opportunity (the detail pane): its outlet's pages and its own page, by the rule itself. null when not pitched or none. */
export function evidenceFor(db: ReadableDB, brandId: string, id: string): Evidence | null {
  // Pitched: marked contacted (an export counts once confirmed sent, which marks it so).
  const pitched = readTriage(db, brandId, id).contacted_at;
  if (!pitched) return null;
  const o = placeOf(db, brandKey(db, brandId), id);
  const p: PitchLike = { opportunity_id: id, url: o?.url ?? null, domain: o?.domain ?? null, pitched_on: pitched };
  const byPage = new Map<string, StoredFact>();
  const outlet = pitchOutlet(p);
  // On a shared platform only the page counts: its other pages are not read.
  if (!pageOnlyOutlet(outlet)) for (const f of factsAtOutlet(db, brandId, outlet)) byPage.set(f.url, f);
  const page = pageKeyOf(p.url);
  if (page) for (const f of factsAtPage(db, brandId, page)) byPage.set(f.url, f);
  return bestEvidence(p, [...byPage.values()]);
}

/** Evidence this sync brought: a page first kept, or seen to flip, since `since` (an ISO time). */
export function isNewSince(e: Evidence, since: string): boolean {
  const c = e.citation as Partial<StoredFact>;
  return (c.observed_first_at ?? '') >= since || (c.flipped_at ?? '') >= since;
}
