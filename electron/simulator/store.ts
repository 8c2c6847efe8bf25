// The simulator's per-brand state: which records exist (with changes made
// between syncs), compact attribute arrays for filtering and sorting, and
// the generated citations. Records themselves are built only for the page
// being served.
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES, type OutreachSort } from '../../shared/domain';
import { dayNumber } from '../../shared/calendar';
import { buildCitation, buildKnowledge, buildSearchQuery } from './citations';
import { BRAND_NAMES, DOMAINS, brandId, buildOpportunity, skeleton, type DataOptions } from './data';
import { demoPitches, pitchCitation, type DemoPitch } from './pitches';

interface Attributes {
  type: Uint8Array;
  status: Uint8Array;
  difficulty: Uint8Array;
  archived: Uint8Array;
  live: Uint8Array;
  priority: Int16Array;
  fit: Int16Array;
  lastSeen: Int32Array;
  domain: Uint16Array;
}

export interface OutreachFilter {
  opportunity_type?: string;
  status?: string;
  difficulty?: string;
  domain?: string;
  archived: boolean;
}

export class BrandState {
  readonly id: string;
  readonly name: string;
  /** Records generated from the seed. */
  base: number;
  added = 0;
  readonly removed = new Set<number>();
  /** index -> version (0 is the original). */
  readonly changed = new Map<number, number>();
  /** Records put in by hand (tests of hostile data); index = base + added + k. */
  readonly injected: Record<string, unknown>[] = [];
  private attrs: Attributes | null = null;
  private readonly sorted = new Map<OutreachSort, Int32Array>();
  private citationCache = new Map<string, Record<string, unknown>[]>();
  /** Full passes over the citations mode served so far (a demo page that flips mentions the brand from the second on). */
  citationPasses = 0;
  /** Citations put in or changed by hand between syncs (tests), by address. */
  private readonly cited = new Map<string, Record<string, unknown>>();
  private pitchList: DemoPitch[] | null = null;

  constructor(
    readonly index: number,
    private readonly opts: DataOptions,
    size: number,
  ) {
    this.id = brandId(opts.seed, index);
    this.name = BRAND_NAMES[index % BRAND_NAMES.length]! + (index >= BRAND_NAMES.length ? ` ${index + 1}` : '');
    this.base = size;
  }

  get total(): number {
    return this.base + this.added + this.injected.length;
  }

  /** Live records (not removed). */
  get count(): number {
    return this.base + this.added + this.injected.length - this.removed.size;
  }

  record(i: number): Record<string, unknown> {
    const generated = this.base + this.added;
    if (i >= generated) return this.injected[i - generated]!;
    return buildOpportunity(this.opts, this, i, this.changed.get(i) ?? 0);
  }

  invalidate(): void {
    this.attrs = null;
    this.sorted.clear();
  }

  private attributes(): Attributes {
    if (this.attrs) return this.attrs;
    const n = this.total;
    const a: Attributes = {
      type: new Uint8Array(n),
      status: new Uint8Array(n),
      difficulty: new Uint8Array(n),
      archived: new Uint8Array(n),
      live: new Uint8Array(n),
      priority: new Int16Array(n),
      fit: new Int16Array(n),
      lastSeen: new Int32Array(n),
      domain: new Uint16Array(n),
    };
    const today = dayNumber(this.opts.today) ?? 0;
    const generated = this.base + this.added;
    for (let i = 0; i < n; i++) {
      a.live[i] = this.removed.has(i) ? 0 : 1;
      if (i < generated) {
        const s = skeleton(this.opts.seed, this.index, i, this.changed.get(i) ?? 0, today);
        a.type[i] = s.type;
        a.status[i] = s.status;
        a.difficulty[i] = s.difficulty;
        a.archived[i] = s.archived ? 1 : 0;
        a.priority[i] = s.priority;
        a.fit[i] = s.fit;
        a.lastSeen[i] = s.lastSeenDay;
        a.domain[i] = s.domain;
      } else {
        const r = this.injected[i - generated]!;
        const idx = (list: readonly string[], v: unknown) => Math.max(0, list.indexOf(String(v)));
        a.type[i] = idx(OPPORTUNITY_TYPES, r.opportunity_type);
        a.status[i] = idx(STATUSES, r.status);
        a.difficulty[i] = idx(DIFFICULTIES, r.difficulty);
        a.archived[i] = r.archived === true ? 1 : 0;
        a.priority[i] = typeof r.priority_score === 'number' ? r.priority_score : 0;
        a.fit[i] = typeof r.fit_score === 'number' ? r.fit_score : 0;
        a.lastSeen[i] = dayNumber(String(r.last_seen_date ?? '').slice(0, 10)) ?? 0;
        a.domain[i] = 0xffff; // use the record's own domain
      }
    }
    this.attrs = a;
    return a;
  }

  domainOf(i: number): string {
    const d = this.attributes().domain[i]!;
    return d === 0xffff ? String(this.record(i).domain ?? '') : DOMAINS[d]!;
  }

  /** Record indices in the order of sort_by, highest first, ties by index. */
  order(sort: OutreachSort): Int32Array {
    const cached = this.sorted.get(sort);
    if (cached) return cached;
    const a = this.attributes();
    const key = sort === 'priority_score' ? a.priority : sort === 'fit_score' ? a.fit : a.lastSeen;
    const idx = Array.from({ length: this.total }, (_, i) => i);
    idx.sort((x, y) => key[y]! - key[x]! || x - y);
    const arr = Int32Array.from(idx);
    this.sorted.set(sort, arr);
    return arr;
  }

  matches(i: number, f: OutreachFilter): boolean {
    const a = this.attributes();
    if (!a.live[i]) return false;
    if (!f.archived && a.archived[i]) return false;
    if (f.opportunity_type !== undefined && OPPORTUNITY_TYPES[a.type[i]!] !== f.opportunity_type) return false;
    if (f.status !== undefined && STATUSES[a.status[i]!] !== f.status) return false;
    if (f.difficulty !== undefined && DIFFICULTIES[a.difficulty[i]!] !== f.difficulty) return false;
    if (f.domain !== undefined && !this.domainOf(i).toLowerCase().includes(f.domain.toLowerCase())) return false;
    return true;
  }

  /** Pick `count` distinct live indices deterministically from a salt. */
  pickLive(count: number, salt: number): number[] {
    const out: number[] = [];
    const n = this.base + this.added;
    if (n === 0) return out;
    let k = 0;
    const seen = new Set<number>();
    while (out.length < count && k < count * 50 + 100) {
      const i = Math.floor(((Math.sin(salt * 9301 + k * 49297) + 1) / 2) * n) % n;
      k++;
      if (seen.has(i) || this.removed.has(i)) continue;
      seen.add(i);
      out.push(i);
    }
    return out;
  }

  /** The demo user's pitches of this brand (the app's demo keeps them in its record). */
  pitches(): DemoPitch[] {
    return (this.pitchList ??= demoPitches(this.opts, this));
  }

  /** A full pass over the citations mode was served: the next one is a later sync's. */
  citationPassDone(): void {
    this.citationPasses++;
  }

  /** Put in a citation, or change the one at its address (the fields given), as happens between two syncs. */
  cite(item: Record<string, unknown>): void {
    const url = String(item.url ?? '');
    this.cited.set(url, { ...this.cited.get(url), ...item });
    this.citationCache.clear();
  }

  citations(mode: string): Record<string, unknown>[] {
    const key = mode === 'citations' ? `${mode}:${this.citationPasses}` : mode;
    const hit = this.citationCache.get(key);
    if (hit) return hit;
    const n = this.opts.citationsPerBrand;
    let items: Record<string, unknown>[];
    if (mode === 'citations') {
      // The demo pitches' citations take the place of the last generated ones, so the count stays the one asked for.
      const pitched = this.pitches()
        .map((p) => pitchCitation(this.opts, this, p, this.citationPasses))
        .filter((c): c is Record<string, unknown> => c !== null)
        .slice(0, n);
      items = Array.from({ length: n - pitched.length }, (_, i) => buildCitation(this.opts, this, i)).concat(pitched);
      for (const [url, c] of this.cited) {
        const at = items.findIndex((x) => x.url === url);
        if (at >= 0) items[at] = { ...items[at], ...c };
        else items.push({ domain: '', times_cited: 1, competitors_referenced: [], prompts: [], mentions_brand: false, ...c });
      }
      items.sort((x, y) => (y.times_cited as number) - (x.times_cited as number) || String(x.url).localeCompare(String(y.url)));
      for (const k of this.citationCache.keys()) if (k.startsWith('citations:')) this.citationCache.delete(k);
    } else if (mode === 'search-queries') {
      items = Array.from({ length: Math.ceil(n / 2) }, (_, i) => buildSearchQuery(this.opts, this, i));
      items.sort((x, y) => (y.count as number) - (x.count as number) || String(x.query).localeCompare(String(y.query)));
    } else {
      items = Array.from({ length: Math.ceil(n / 3) }, (_, i) => buildKnowledge(this.opts, this, i));
    }
    this.citationCache.set(key, items);
    return items;
  }
}

export function makeBrands(opts: DataOptions): BrandState[] {
  return Array.from({ length: opts.brands }, (_, i) => new BrandState(i, opts, i === 0 ? opts.opportunities : opts.otherBrandOpportunities));
}
