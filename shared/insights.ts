// Computations behind Insights, as pure functions over cached data: daily
// series with gaps, changes against 7 and 28 days before, citation shares,
// and the domains that cite competitors but not the brand.
import { addDays, dayNumber } from './calendar';

export interface ScoreLike {
  date: string;
  model?: string;
  prompt?: string;
  visibility: number | null;
  presence: number | null;
}

export interface DayPoint {
  date: string;
  /** null: no report that day (a gap, never a zero). */
  visibility: number | null;
  presence: number | null;
}

/** One point per calendar day from start to end; days without a report are gaps. */
export function dailySeries(rows: readonly ScoreLike[], start: string, end: string): DayPoint[] {
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const out: DayPoint[] = [];
  const s = dayNumber(start);
  const e = dayNumber(end);
  if (s === null || e === null) return out;
  for (let d = 0; d <= e - s; d++) {
    const date = addDays(start, d);
    const r = byDate.get(date);
    out.push({ date, visibility: r?.visibility ?? null, presence: r?.presence ?? null });
  }
  return out;
}

/** Rows split into one series per key (a model or a prompt). */
export function splitBy(rows: readonly ScoreLike[], key: 'model' | 'prompt'): Map<string, ScoreLike[]> {
  const out = new Map<string, ScoreLike[]>();
  for (const r of rows) {
    const k = r[key] ?? '';
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(r);
  }
  return out;
}

export interface Change {
  latest: number | null;
  latestDate: string | null;
  /** Latest minus the value `days` before it (or the nearest earlier report); null when unknown. */
  change7: number | null;
  change28: number | null;
}

function valueOnOrBefore(series: readonly DayPoint[], date: string, field: 'visibility' | 'presence'): number | null {
  for (let i = series.length - 1; i >= 0; i--) {
    const p = series[i]!;
    if (p.date <= date && p[field] !== null) return p[field];
  }
  return null;
}

export function changes(series: readonly DayPoint[], field: 'visibility' | 'presence'): Change {
  let last: DayPoint | undefined;
  for (let i = series.length - 1; i >= 0; i--)
    if (series[i]![field] !== null) {
      last = series[i];
      break;
    }
  if (!last) return { latest: null, latestDate: null, change7: null, change28: null };
  const v = last[field]!;
  const diff = (days: number) => {
    const before = valueOnOrBefore(series, addDays(last.date, -days), field);
    return before === null ? null : Math.round((v - before) * 10) / 10;
  };
  return { latest: v, latestDate: last.date, change7: diff(7), change28: diff(28) };
}

export interface CitationLike {
  domain?: string;
  times_cited?: number;
  competitors_referenced?: string[];
  mentions_brand?: boolean;
}

export interface DomainGap {
  domain: string;
  /** Citations of pages on this domain that reference a competitor and never the brand. */
  citations: number;
  pages: number;
  competitors: string[];
}

/**
 * Domains that cite competitors but not the brand, ranked by how often AI
 * answers cite them: the gap a PR person wants to close. A domain with any
 * page that mentions the brand is not a gap.
 */
export function competitorGaps(items: readonly CitationLike[]): DomainGap[] {
  const byDomain = new Map<string, { citations: number; pages: number; competitors: Set<string>; mentionsBrand: boolean }>();
  for (const c of items) {
    if (!c.domain) continue;
    const d = byDomain.get(c.domain) ?? { citations: 0, pages: 0, competitors: new Set<string>(), mentionsBrand: false };
    if (c.mentions_brand) d.mentionsBrand = true;
    const comps = c.competitors_referenced ?? [];
    if (comps.length) {
      d.citations += c.times_cited ?? 0;
      d.pages++;
      for (const x of comps) d.competitors.add(x);
    }
    byDomain.set(c.domain, d);
  }
  return [...byDomain.entries()]
    .filter(([, d]) => !d.mentionsBrand && d.competitors.size > 0)
    .map(([domain, d]) => ({ domain, citations: d.citations, pages: d.pages, competitors: [...d.competitors].sort() }))
    .sort((a, b) => b.citations - a.citations || b.competitors.length - a.competitors.length || a.domain.localeCompare(b.domain));
}

export interface DomainCitations {
  timesCited: number;
  pages: number;
  competitors: string[];
  mentionsBrand: boolean;
}

/** What the cache knows about one domain's citations. Subdomains count for their parent. */
export function domainCitations(items: readonly CitationLike[], domain: string): DomainCitations {
  const d = domain.toLowerCase().replace(/^www\./, '');
  let timesCited = 0;
  let pages = 0;
  let mentionsBrand = false;
  const competitors = new Set<string>();
  for (const c of items) {
    const cd = (c.domain ?? '').toLowerCase().replace(/^www\./, '');
    if (cd !== d && !cd.endsWith(`.${d}`)) continue;
    timesCited += c.times_cited ?? 0;
    pages++;
    if (c.mentions_brand) mentionsBrand = true;
    for (const x of c.competitors_referenced ?? []) competitors.add(x);
  }
  return { timesCited, pages, competitors: [...competitors].sort(), mentionsBrand };
}

/** Share of a total, in percent with one decimal. */
export function share(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 1000) / 10 : 0;
}
