import { describe, expect, it } from 'vitest';
import { changes, competitorGaps, dailySeries, domainCitations, share, splitBy } from '../../../shared/insights';

const rows = [
  { date: '2026-01-01', visibility: 40, presence: 60 },
  { date: '2026-01-02', visibility: 42, presence: 61 },
  // 2026-01-03 missing
  { date: '2026-01-04', visibility: 45, presence: 62.5 },
  { date: '2026-01-29', visibility: 50, presence: 70 },
  { date: '2026-02-05', visibility: 55.5, presence: 71 },
];

describe('daily series', () => {
  it('one point per day; a missing day is a gap, not a zero', () => {
    const s = dailySeries(rows, '2026-01-01', '2026-01-05');
    expect(s.map((p) => p.visibility)).toEqual([40, 42, null, 45, null]);
    expect(s).toHaveLength(5);
  });
  it('split by model', () => {
    const m = splitBy(
      [
        { date: 'd', model: 'a', visibility: 1, presence: 1 },
        { date: 'd', model: 'b', visibility: 2, presence: 2 },
        { date: 'e', model: 'a', visibility: 3, presence: 3 },
      ],
      'model',
    );
    expect([...m.keys()]).toEqual(['a', 'b']);
    expect(m.get('a')).toHaveLength(2);
  });
});

describe('changes against 7 and 28 days before', () => {
  it('uses the latest report and the nearest earlier report on or before each mark', () => {
    const s = dailySeries(rows, '2026-01-01', '2026-02-05');
    expect(changes(s, 'visibility')).toEqual({ latest: 55.5, latestDate: '2026-02-05', change7: 5.5, change28: 10.5 });
    expect(changes(s, 'presence')).toEqual({ latest: 71, latestDate: '2026-02-05', change7: 1, change28: 8.5 });
  });
  it('unknown when there is nothing that far back, or no data', () => {
    const s = dailySeries(rows.slice(0, 2), '2026-01-01', '2026-01-02');
    expect(changes(s, 'visibility')).toEqual({ latest: 42, latestDate: '2026-01-02', change7: null, change28: null });
    expect(changes([], 'visibility').latest).toBeNull();
  });
});

describe('citations', () => {
  const items = [
    { domain: 'wired.com', times_cited: 30, competitors_referenced: ['Stumptown'], mentions_brand: false },
    { domain: 'wired.com', times_cited: 10, competitors_referenced: ['Blue Bottle', 'Stumptown'], mentions_brand: false },
    { domain: 'verge.com', times_cited: 50, competitors_referenced: ['Stumptown'], mentions_brand: true },
    { domain: 'eater.com', times_cited: 45, competitors_referenced: ['Blue Bottle'], mentions_brand: false },
    { domain: 'blog.eater.com', times_cited: 5, competitors_referenced: [], mentions_brand: false },
    { domain: 'quiet.com', times_cited: 90, competitors_referenced: [], mentions_brand: false },
  ];
  it('ranks domains that cite competitors but never the brand', () => {
    expect(competitorGaps(items)).toEqual([
      { domain: 'eater.com', citations: 45, pages: 1, competitors: ['Blue Bottle'] },
      { domain: 'wired.com', citations: 40, pages: 2, competitors: ['Blue Bottle', 'Stumptown'] },
    ]);
  });
  it('what the cache knows about a domain, subdomains included', () => {
    expect(domainCitations(items, 'www.eater.com')).toEqual({ timesCited: 50, pages: 2, competitors: ['Blue Bottle'], mentionsBrand: false });
    expect(domainCitations(items, 'nowhere.org')).toEqual({ timesCited: 0, pages: 0, competitors: [], mentionsBrand: false });
  });
  it('shares in percent', () => {
    expect(share(1, 3)).toBe(33.3);
    expect(share(5, 0)).toBe(0);
  });
});
