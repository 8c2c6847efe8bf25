// The demo's outreach and what it won: a handful of each brand's
// opportunities the demo user "pitched" in the last weeks (the app's demo
// puts them in its record), and citations at those outlets: pages first seen
// after the pitch, pages that turn to mention the brand between two syncs
// (not mentioning it until the first full pass of the citations has been
// served, mentioning it after), and one first seen before the pitch (no
// evidence). Deterministic from (seed, brand, index).
import { dateFromDayNumber, dayNumber } from '../../shared/calendar';
import { buildOpportunity, slug, skeleton, TOPICS, type DataOptions } from './data';
import { hash32, Rng } from './rng';
import { promptsFor } from './scores';

export type DemoCitation = 'outlet-new' | 'page-new' | 'page-flip' | 'before' | null;

export interface DemoPitch {
  opportunityId: string;
  /** The record's index in the simulator. */
  index: number;
  domain: string;
  url: string | null;
  /** YYYY-MM-DD. */
  pitchedOn: string;
  stage: 'Contacted' | 'Replied';
  /** The addresses it went to (the record's personal ones). */
  addresses: string[];
  /** What citation the simulator serves at its outlet. */
  cited: DemoCitation;
}

interface BrandLike {
  index: number;
  name: string;
  base: number;
  removed: ReadonlySet<number>;
}

/** How many pitches a brand of this size gets. */
const howMany = (size: number) => Math.min(30, Math.max(4, Math.floor(size / 60)));

function personal(emails: unknown): string[] {
  if (!Array.isArray(emails)) return [];
  return emails
    .filter((e): e is string => typeof e === 'string')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => !e.endsWith(' catch') && /^[^@\s]+@[^@\s]+\.[a-z]+$/.test(e))
    .slice(0, 2);
}

/** The brand's demo pitches, the oldest first. */
export function demoPitches(opts: DataOptions, brand: BrandLike): DemoPitch[] {
  const today = dayNumber(opts.today) ?? 0;
  const out: DemoPitch[] = [];
  const seen = new Set<number>();
  const want = Math.min(howMany(brand.base), brand.base);
  for (let k = 0; out.length < want && k < want * 20; k++) {
    const i = hash32(opts.seed, brand.index, k, 717) % Math.max(1, brand.base);
    if (seen.has(i) || brand.removed.has(i)) continue;
    seen.add(i);
    if (skeleton(opts.seed, brand.index, i, 0, today).archived) continue;
    const r = buildOpportunity(opts, brand, i, 0);
    const h = hash32(opts.seed, brand.index, i, 718);
    const url = typeof r.url === 'string' ? r.url : null;
    const roll = h % 10;
    const cited: DemoCitation =
      roll < 3 ? 'outlet-new' : roll < 5 ? (url ? 'page-flip' : 'outlet-new') : roll < 6 ? (url ? 'page-new' : 'outlet-new') : roll < 7 ? 'before' : null;
    out.push({
      opportunityId: String(r._id),
      index: i,
      domain: String(r.domain),
      url,
      pitchedOn: dateFromDayNumber(today - (4 + ((h >>> 8) % 52))),
      stage: hash32(opts.seed, brand.index, i, 720) % 10 < 3 ? 'Replied' : 'Contacted',
      addresses: personal(r.contact_emails),
      cited,
    });
  }
  return out.sort((a, b) => a.pitchedOn.localeCompare(b.pitchedOn) || a.index - b.index);
}

/**
 * The citation served at a demo pitch's outlet, if any. `passes`: the full
 * passes over the citations already served (a page that flips mentions the
 * brand from the second pass, that is the second sync, on).
 */
export function pitchCitation(opts: DataOptions, brand: BrandLike, p: DemoPitch, passes: number): Record<string, unknown> | null {
  if (!p.cited) return null;
  const rng = new Rng(hash32(opts.seed, brand.index, p.index, 719));
  const today = dayNumber(opts.today) ?? 0;
  const pitched = dayNumber(p.pitchedOn) ?? today;
  const topic = rng.pick(TOPICS);
  const day = (n: number) => `${dateFromDayNumber(Math.min(today, n))}T0${rng.int(6, 9)}:${rng.int(10, 59)}:00.000Z`;
  const after = day(pitched + Math.min(today - pitched, rng.int(2, 20)));
  const base = {
    domain: p.domain,
    times_cited: rng.int(5, 60),
    last_seen: day(today),
    competitors_referenced: [],
    prompts: rng.some(promptsFor(brand.name), 1, 3),
    search_queries: [{ query: `${brand.name} ${topic}`, count: rng.int(1, 20) }],
    sentiment: rng.int(20, 90),
    domain_rating: rng.int(30, 95),
    page_authority: rng.int(20, 80),
    topics: [topic],
  };
  const path = `${slug(brand.name)}-${slug(topic)}`;
  switch (p.cited) {
    case 'outlet-new':
      return {
        url: `https://${p.domain}/${path}-roundup-${p.index}`,
        ...base,
        first_seen: after,
        h1: `${brand.name} and the best of ${topic}`,
        mentions_brand: true,
      };
    case 'page-new':
      return { url: p.url, ...base, first_seen: after, h1: `Updated: ${topic}`, mentions_brand: true };
    case 'page-flip':
      return { url: p.url, ...base, first_seen: day(pitched - rng.int(10, 60)), h1: `${topic}: the shortlist`, mentions_brand: passes >= 1 };
    case 'before':
      return {
        url: `https://${p.domain}/${path}-${p.index}-earlier`,
        ...base,
        first_seen: day(pitched - rng.int(5, 40)),
        h1: `${topic}`,
        mentions_brand: true,
      };
  }
}
