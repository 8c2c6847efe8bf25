// Evidence of a win, the one place its rules live: a citation is evidence
// that a pitch worked when it is at the outlet the user pitched (the
// opportunity's page exactly, or another page of its domain), it mentions the
// brand, and it came after the pitch: first seen on or after the pitch date,
// or (stronger) seen by a sync to turn from not mentioning the brand to
// mentioning it, where the last sync that saw it without the mention was on
// or after that date (a change seen only after the pitch, but that may have
// happened before it, is no flip). Days are this computer's calendar days
// (a service timestamp is put on the local day of its moment). On a shared
// platform (medium.com, reddit.com, …) only the page pitched counts: another
// author's page there is not the outlet's. Pure functions over plain data: the
// core's matcher, the CLI and the tests use the same ones.
//
// `EvidenceIndex` answers the same question as `bestEvidence` for many pitches
// at once without comparing every pitch with every citation (a property test
// holds the two to the same answers).
import { dayNumber, localDayOf } from './calendar';

/** A pitch as matching sees it: the opportunity, where it is, and the day it was pitched (YYYY-MM-DD). */
export interface PitchLike {
  opportunity_id: string;
  url: string | null;
  domain: string | null;
  pitched_on: string;
}

/** A citation as matching sees it (the service's fields, and the day a sync saw its brand mention appear). */
export interface CitationFact {
  url: string;
  domain: string;
  first_seen: string | null;
  last_seen: string | null;
  times_cited: number;
  prompts: string[];
  /** null: the service did not say. */
  mentions_brand: boolean | null;
  /** The day (YYYY-MM-DD) a sync saw mentions_brand turn from false to true; null when never seen to. */
  flipped_on: string | null;
  /** The day of the last sync that saw it not mention the brand (before the flip); null when none did. */
  unmentioned_on: string | null;
  /** pageKeyOf(url), when the caller already has it (the store keeps it): saves parsing the address again. */
  page_key?: string | null;
}

/** Where the citation is: the page pitched, or another page of its outlet. */
export type MatchKind = 'page' | 'outlet';
/** `flip`: the page turned to mention the brand after the pitch (stronger); `new`: first seen after the pitch, mentioning it. */
export type Strength = 'flip' | 'new';

export interface Evidence {
  opportunity_id: string;
  pitched_on: string;
  /** The strongest citation: the page pitched before another page of its outlet, a flip before a new one, then the most cited. */
  citation: CitationFact;
  match: MatchKind;
  strength: Strength;
  /** The day that citation counts from: the flip's day for a flip, else the day it was first seen. */
  since: string;
  /** The earliest such day among every citation that is evidence of this pitch. */
  first_since: string;
  /** Days from the pitch to `first_since`. */
  days: number;
  /** How many cited pages are evidence of this pitch. */
  pages: number;
}

/** Why a citation is or is not evidence of a pitch, in one word (tests and the CLI's --explain use it). */
export type Verdict =
  | { evidence: true; match: MatchKind; strength: Strength; since: string }
  | { evidence: false; why: 'other-outlet' | 'no-mention' | 'before-pitch' };

const TRACKING = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref)$/i;

/** The prefixes that name the same outlet's web, mobile or AMP pages: www.wired.com, m.wired.com and amp.wired.com are wired.com. */
const SAME_SITE_PREFIX = /^(www|m|amp)\.(?=[^.]+\.)/;

/**
 * The host of a domain or address: lower case, no port, no trailing dot, no
 * leading www., m. or amp., an international name in its ASCII form
 * (bücher.de is xn--bcher-kva.de, as the URL parser writes it). '' when
 * there is none.
 */
export function outletOf(domainOrUrl: string | null | undefined): string {
  let s = (domainOrUrl ?? '').trim().toLowerCase();
  const scheme = s.indexOf('://');
  if (scheme >= 0) s = s.slice(scheme + 3);
  s = s.replace(/[/?#].*$/s, '');
  s = s.replace(/^[^@]*@/, '');
  s = s.replace(/:\d*$/, '');
  s = s.replace(/\.+$/, '');
  // eslint-disable-next-line no-control-regex -- any character past ASCII
  if (/[^\x00-\x7f]/.test(s)) s = asciiHost(s);
  return s.replace(SAME_SITE_PREFIX, '');
}

/** A host in its ASCII (punycode) form, as the URL parser gives it; as it was when the parser refuses it. */
function asciiHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname.replace(/\.+$/, '');
  } catch {
    return host;
  }
}

/**
 * Shared platforms, where many authors publish under one host: pitching one
 * page there is not pitching the platform, so only that page counts (a post by
 * someone else on medium.com is not the pitch's outlet). A host with no dot
 * (com, localhost) and the public suffixes under which sites register
 * (co.uk, com.au, …) are no outlet either.
 */
const PAGE_ONLY_OUTLETS: ReadonlySet<string> = new Set([
  'medium.com',
  'substack.com',
  'reddit.com',
  'youtube.com',
  'youtu.be',
  'linkedin.com',
  'quora.com',
  'github.io',
  'github.com',
  'blogspot.com',
  'wordpress.com',
  'tumblr.com',
  'x.com',
  'twitter.com',
  'facebook.com',
  'instagram.com',
  'tiktok.com',
  'pinterest.com',
  'dev.to',
  'hashnode.dev',
  'notion.site',
  'co.uk',
  'org.uk',
  'ac.uk',
  'com.au',
  'net.au',
  'co.nz',
  'co.jp',
  'com.br',
  'co.in',
  'co.za',
]);

/** An outlet where only the page pitched counts (a shared platform, a public suffix), not its other pages. */
export const pageOnlyOutlet = (outlet: string): boolean => !outlet.includes('.') || PAGE_ONLY_OUTLETS.has(outlet);

/**
 * One page, however it is written: http or https, with or without www., a
 * trailing slash, a #fragment or tracking parameters (utm_…, fbclid, gclid)
 * are the same page; the path and the other parameters must be equal. null
 * when it is not a web address.
 */
export function pageKeyOf(url: string | null | undefined): string | null {
  if (!url) return null;
  return simplePageKey(url) ?? pageKeyViaParser(url);
}

/** An address with nothing to normalise but its host, its trailing slash and its fragment (most are): without the URL parser. */
const SIMPLE_URL = /^https?:\/\/([A-Za-z0-9.-]+)(?::(\d*))?(\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)?(?:#.*)?$/s;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

function simplePageKey(url: string): string | null {
  const m = SIMPLE_URL.exec(url.trim());
  if (!m) return null;
  const path = m[3] ?? '';
  // A dot segment, a host the parser would read as an IPv4 address (its last label a number), a port out of range: the parser decides.
  if (DOT_SEGMENT.test(path) || /(^|\.)(\d+|0x[0-9a-f]*)\.?$/i.test(m[1]!) || Number(m[2] ?? 0) > 65535) return null;
  const outlet = outletOf(m[1]);
  return outlet ? `${outlet}${path.replace(/\/+$/, '')}` : null;
}

/** pageKeyOf through the URL parser (every address it can read). Exported for the test that holds the quick path to it. */
export function pageKeyViaParser(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const outlet = outletOf(u.hostname);
  if (!outlet) return null;
  // %2f and %2F are one character; the parameters in any order are one page.
  const path = u.pathname.replace(/\/+$/, '').replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
  const kept = [...u.searchParams].filter(([k]) => !TRACKING.test(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
  return `${outlet}${path}${query}`;
}

/** The outlet of a citation: its domain, else its address's host. */
export const citationOutlet = (c: Pick<CitationFact, 'url' | 'domain'>): string => outletOf(c.domain || c.url);
/** The outlet of a pitch: the opportunity's domain, else its address's host. */
export const pitchOutlet = (p: Pick<PitchLike, 'url' | 'domain'>): string => outletOf(p.domain || p.url);

/** The same outlet: the same host, or a subdomain of the one pitched (blog.wired.com is Wired); never a shared platform as a whole. */
export function sameOutlet(pitched: string, cited: string): boolean {
  return pitched !== '' && !pageOnlyOutlet(pitched) && (cited === pitched || cited.endsWith(`.${pitched}`));
}

/** The day on this computer's calendar of a date or a timestamp, or null (calendar.ts localDayOf). */
export const dayOf = localDayOf;

/** Seen to flip after the pitch: the mention appeared, and the last sighting without it was on or after the pitch's day. */
const flippedAfter = (c: CitationFact, pitchedOn: string): boolean =>
  c.flipped_on !== null && c.unmentioned_on !== null && c.unmentioned_on >= pitchedOn && c.flipped_on >= pitchedOn;

/** Whole days from one YYYY-MM-DD to another. */
export const daysBetween = (from: string, to: string): number => (dayNumber(to) ?? 0) - (dayNumber(from) ?? 0);

/** Is this citation evidence of this pitch, and if not, why not. The rule. */
export function verdict(p: PitchLike, c: CitationFact): Verdict {
  return verdictAt(p, pageKeyOf(p.url), pitchOutlet(p), c);
}

/** The citation's page key: the one given, else worked out. */
const keyOf = (c: CitationFact): string | null => (c.page_key !== undefined ? c.page_key : pageKeyOf(c.url));

/** The rule, with the pitch's page and outlet worked out once. */
function verdictAt(p: PitchLike, page: string | null, outlet: string, c: CitationFact): Verdict {
  const match: MatchKind | null = page !== null && keyOf(c) === page ? 'page' : sameOutlet(outlet, citationOutlet(c)) ? 'outlet' : null;
  if (!match) return { evidence: false, why: 'other-outlet' };
  if (c.mentions_brand !== true) return { evidence: false, why: 'no-mention' };
  if (flippedAfter(c, p.pitched_on)) return { evidence: true, match, strength: 'flip', since: c.flipped_on! };
  const first = dayOf(c.first_seen);
  if (first !== null && first >= p.pitched_on) return { evidence: true, match, strength: 'new', since: first };
  return { evidence: false, why: 'before-pitch' };
}

interface Ranked {
  c: CitationFact;
  match: MatchKind;
  strength: Strength;
  since: string;
}

/** Which of two pieces of evidence is shown: the page before its outlet, a flip before a new page, the most cited, the earliest, then by address. */
function better(a: Ranked, b: Ranked): boolean {
  if (a.match !== b.match) return a.match === 'page';
  if (a.strength !== b.strength) return a.strength === 'flip';
  if (a.c.times_cited !== b.c.times_cited) return a.c.times_cited > b.c.times_cited;
  if (a.since !== b.since) return a.since < b.since;
  return a.c.url < b.c.url;
}

function finish(p: PitchLike, best: Ranked | null, firstSince: string | null, pages: number): Evidence | null {
  if (!best || firstSince === null) return null;
  return {
    opportunity_id: p.opportunity_id,
    pitched_on: p.pitched_on,
    citation: best.c,
    match: best.match,
    strength: best.strength,
    since: best.since,
    first_since: firstSince,
    days: daysBetween(p.pitched_on, firstSince),
    pages,
  };
}

/** The evidence of one pitch among these citations (each compared with the pitch: for one opportunity). */
export function bestEvidence(p: PitchLike, citations: readonly CitationFact[]): Evidence | null {
  let best: Ranked | null = null;
  let first: string | null = null;
  let pages = 0;
  for (const c of citations) {
    const v = verdict(p, c);
    if (!v.evidence) continue;
    pages++;
    const r: Ranked = { c, match: v.match, strength: v.strength, since: v.since };
    if (!best || better(r, best)) best = r;
    if (first === null || v.since < first) first = v.since;
  }
  return finish(p, best, first, pages);
}

interface Entry {
  c: CitationFact;
  first: string | null;
  page: string | null;
}

interface OutletGroup {
  /** Mentioning the brand, with a first-seen day, by that day (then by address): the candidates for `new`. */
  byFirst: Entry[];
  /** For each position of byFirst, the best of it and everything after it as a new-page piece of evidence at the outlet. */
  suffixBest: number[];
  /** Mentioning the brand and seen to flip: few. */
  flips: Entry[];
}

/**
 * Many pitches against many citations: the citations grouped by outlet (and
 * by page) once, each pitch answered with a binary search in its outlet's
 * citations sorted by first-seen day and the few flips there. Its answers
 * are bestEvidence's.
 */
export class EvidenceIndex {
  private readonly byPage = new Map<string, CitationFact[]>();
  private readonly groups = new Map<string, OutletGroup>();

  /** `outlets`: the outlets pitched (only their citations are kept; all when left out). */
  constructor(citations: Iterable<CitationFact>, outlets?: ReadonlySet<string>) {
    const raw = new Map<string, { byFirst: Entry[]; flips: Entry[] }>();
    for (const c of citations) {
      const key = keyOf(c);
      if (key !== null) {
        const list = this.byPage.get(key);
        if (list) list.push(c);
        else this.byPage.set(key, [c]);
      }
      if (c.mentions_brand !== true) continue;
      const e: Entry = { c, first: dayOf(c.first_seen), page: key };
      // Each outlet the citation counts for: its own host and every parent of it (a subdomain counts for its outlet).
      let o = citationOutlet(c);
      while (o) {
        if ((!outlets || outlets.has(o)) && !pageOnlyOutlet(o)) {
          let g = raw.get(o);
          if (!g) raw.set(o, (g = { byFirst: [], flips: [] }));
          if (e.first !== null) g.byFirst.push(e);
          if (c.flipped_on !== null && c.unmentioned_on !== null) g.flips.push(e);
        }
        const dot = o.indexOf('.');
        o = dot < 0 ? '' : o.slice(dot + 1);
      }
    }
    for (const [outlet, g] of raw) {
      g.byFirst.sort((a, b) => (a.first! < b.first! ? -1 : a.first! > b.first! ? 1 : a.c.url < b.c.url ? -1 : a.c.url > b.c.url ? 1 : 0));
      const suffixBest = new Array<number>(g.byFirst.length);
      for (let i = g.byFirst.length - 1; i >= 0; i--) {
        const j = suffixBest[i + 1];
        suffixBest[i] = j === undefined || this.newBetter(g.byFirst[i]!, g.byFirst[j]!) ? i : j;
      }
      this.groups.set(outlet, { byFirst: g.byFirst, suffixBest, flips: g.flips });
    }
  }

  /** Two new-page candidates at one outlet, as `better` orders them. */
  private newBetter(a: Entry, b: Entry): boolean {
    return better({ c: a.c, match: 'outlet', strength: 'new', since: a.first! }, { c: b.c, match: 'outlet', strength: 'new', since: b.first! });
  }

  /** The same answer as bestEvidence(p, every citation given). */
  best(p: PitchLike): Evidence | null {
    const acc: { best: Ranked | null; first: string | null } = { best: null, first: null };
    let pages = 0;
    /** A piece of evidence at the page itself, or a flip: no new page elsewhere at the outlet can be shown before it. */
    let strong = false;
    const take = (r: Ranked) => {
      if (!acc.best || better(r, acc.best)) acc.best = r;
      if (acc.first === null || r.since < acc.first) acc.first = r.since;
    };
    const outlet = pitchOutlet(p);
    const page = pageKeyOf(p.url);
    // The page pitched (few citations): each by the rule itself.
    for (const c of page !== null ? (this.byPage.get(page) ?? []) : []) {
      const v = verdictAt(p, page, outlet, c);
      if (!v.evidence) continue;
      take({ c, match: v.match, strength: v.strength, since: v.since });
      strong = true;
      // Counted with its outlet below when it is there.
      if (!sameOutlet(outlet, citationOutlet(c))) pages++;
    }
    const g = outlet && !pageOnlyOutlet(outlet) ? this.groups.get(outlet) : undefined;
    if (!g) return finish(p, acc.best, acc.first, pages);
    const flipped = (e: Entry) => flippedAfter(e.c, p.pitched_on);
    // Flips on or after the pitch (few): each is evidence, a flip, whatever its first-seen day.
    let flipsBefore = 0;
    for (const e of g.flips) {
      if (!flipped(e)) continue;
      strong = true;
      if (e.first === null || e.first < p.pitched_on) flipsBefore++;
      if (page === null || e.page !== page) take({ c: e.c, match: 'outlet', strength: 'flip', since: e.c.flipped_on! });
    }
    // First seen on or after the pitch: a binary search, then the best of the rest (precomputed) and the earliest that is not a flip.
    let lo = 0;
    let hi = g.byFirst.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (g.byFirst[mid]!.first! < p.pitched_on) lo = mid + 1;
      else hi = mid;
    }
    pages += g.byFirst.length - lo + flipsBefore;
    if (lo < g.byFirst.length) {
      // Without a page or a flip, the best of the rest is neither (either would have made one).
      if (!strong) {
        const top = g.byFirst[g.suffixBest[lo]!]!;
        take({ c: top.c, match: 'outlet', strength: 'new', since: top.first! });
      }
      let k = lo;
      while (k < g.byFirst.length && flipped(g.byFirst[k]!)) k++;
      if (k < g.byFirst.length && (acc.first === null || g.byFirst[k]!.first! < acc.first)) acc.first = g.byFirst[k]!.first!;
    }
    return finish(p, acc.best, acc.first, pages);
  }
}
