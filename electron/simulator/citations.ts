// Citations, search queries and knowledge items for get-citations's three modes, and the summary
// of the citations mode; deterministic from (seed, brand, index).
import { dayNumber } from '../../shared/calendar';
import { COMPETITORS, DOMAINS, isoAt, LANGS, slug, TOPICS, type DataOptions } from './data';
import { Rng, hash32 } from './rng';
import { promptsFor } from './scores';

export function buildCitation(opts: DataOptions, brand: { index: number; name: string }, i: number): Record<string, unknown> {
  const rng = new Rng(hash32(opts.seed, brand.index, i, 808));
  const todayDay = dayNumber(opts.today) ?? 0;
  const domain = DOMAINS[hash32(opts.seed, brand.index, i, 809) % DOMAINS.length]!;
  const topic = rng.pick(TOPICS);
  const first = todayDay - rng.int(30, 200);
  const last = Math.min(todayDay, first + rng.int(0, 120));
  const mentions = rng.chance(0.35);
  return {
    url: `https://${domain}/${slug(topic)}-${i}`,
    domain,
    times_cited: rng.int(1, 120),
    first_seen: isoAt(first, rng),
    last_seen: isoAt(last, rng),
    competitors_referenced: rng.some(COMPETITORS, 0, 3),
    prompts: rng.some(promptsFor(brand.name), 1, 3),
    search_queries: rng
      .some([`best ${topic}`, `${topic} review`, `${topic} alternatives`, `${brand.name} ${topic}`], 1, 3)
      .map((q) => ({ query: q, count: rng.int(1, 25) })),
    sentiment: rng.int(-100, 100),
    domain_rating: rng.int(10, 95),
    page_authority: rng.int(5, 80),
    topics: rng.some(TOPICS, 1, 3),
    h1: `${topic[0]?.toUpperCase() ?? ''}${topic.slice(1)}: ${rng.pick(['a complete guide', 'what experts say', 'tested', 'the shortlist'])}`,
    mentions_brand: mentions,
  };
}

export function buildSearchQuery(opts: DataOptions, brand: { index: number; name: string }, i: number): Record<string, unknown> {
  const rng = new Rng(hash32(opts.seed, brand.index, i, 909));
  const todayDay = dayNumber(opts.today) ?? 0;
  const topic = rng.pick(TOPICS);
  const n = rng.int(1, 4);
  return {
    query: `${rng.pick(['best', 'top', 'cheapest', 'most reliable'])} ${topic} ${i}`,
    count: rng.int(1, 50),
    last_seen: isoAt(todayDay - rng.int(0, 90), rng),
    prompts: rng.some(promptsFor(brand.name), 1, 2),
    citations: Array.from({ length: n }, () => {
      const d = rng.pick(DOMAINS);
      return { url: `https://${d}/${slug(topic)}`, domain: d };
    }),
  };
}

export function buildKnowledge(opts: DataOptions, brand: { index: number; name: string }, i: number): Record<string, unknown> {
  const rng = new Rng(hash32(opts.seed, brand.index, i, 1010));
  const domain = rng.pick(DOMAINS);
  const topic = rng.pick(TOPICS);
  return {
    id: `kb_${hash32(opts.seed, brand.index, i).toString(16)}`,
    url: `https://${domain}/kb/${slug(topic)}-${i}`,
    domain,
    title: `${topic} explained`,
    source_type: rng.pick(['article', 'forum', 'documentation', 'video']),
    excerpt: `${brand.name} and ${rng.pick(COMPETITORS)} are compared on ${topic}.`,
    retrieved_at: isoAt((dayNumber(opts.today) ?? 0) - rng.int(0, 60), rng),
    metadata: { word_count: rng.int(300, 4000), language: rng.pick(LANGS), has_schema_markup: rng.chance(0.5) },
  };
}

export function citationSummary(items: Record<string, unknown>[]): Record<string, unknown> {
  let total = 0;
  const domains = new Map<string, number>();
  const comps = new Map<string, number>();
  for (const c of items) {
    const n = c.times_cited as number;
    total += n;
    domains.set(c.domain as string, (domains.get(c.domain as string) ?? 0) + n);
    for (const comp of c.competitors_referenced as string[]) comps.set(comp, (comps.get(comp) ?? 0) + n);
  }
  const top = (m: Map<string, number>, key: string) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([k, count]) => ({ [key]: k, count, citation_share: total ? Math.round((count / total) * 10000) / 100 : 0 }));
  return { total_citations: total, top_domains: top(domains, 'domain'), top_competitors: top(comps, 'competitor') };
}
