// The rules of evidence (shared/evidence.ts), case by case as the issue lists
// them: the page pitched exactly, another page of the same outlet, a citation
// from before the pitch, one that does not mention the brand, and one whose
// brand mention appeared between two syncs. Then the fast index against the
// rule itself, on random data.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bestEvidence, EvidenceIndex, outletOf, pageKeyOf, pageKeyViaParser, verdict, type CitationFact, type PitchLike } from '../../../shared/evidence';

// The rule puts a service timestamp on this computer's calendar day; the cases here are written in UTC (the
// Results' integration tests run the same rules in zones west and east of it).
process.env.TZ = 'UTC';

const pitch: PitchLike = { opportunity_id: 'o1', url: 'https://www.wired.com/story/best-cold-brew/', domain: 'wired.com', pitched_on: '2026-10-10' };

const cite = (over: Partial<CitationFact> = {}): CitationFact => ({
  url: 'https://www.wired.com/story/best-cold-brew/',
  domain: 'wired.com',
  first_seen: '2026-10-20T08:00:00Z',
  last_seen: '2026-11-01T08:00:00Z',
  times_cited: 12,
  prompts: ['best cold brew'],
  mentions_brand: true,
  flipped_on: null,
  unmentioned_on: null,
  ...over,
});

describe('what is the same page, and the same outlet', () => {
  it('a page is the same with http or https, www or not, a trailing slash, a fragment or tracking parameters', () => {
    const k = pageKeyOf('https://www.wired.com/story/best-cold-brew/');
    expect(k).toBe('wired.com/story/best-cold-brew');
    for (const u of [
      'http://wired.com/story/best-cold-brew',
      'https://WIRED.com/story/best-cold-brew/#top',
      'https://wired.com/story/best-cold-brew?utm_source=x&fbclid=y',
    ])
      expect(pageKeyOf(u)).toBe(k);
    expect(pageKeyOf('https://wired.com/story/best-cold-brew-2')).not.toBe(k);
    expect(pageKeyOf('https://wired.com/story/best-cold-brew?page=2')).not.toBe(k);
    expect(pageKeyOf('javascript:alert(1)')).toBeNull();
    expect(pageKeyOf('not a url')).toBeNull();
  });
  it('the quick reading of an address gives what the URL parser gives, for any address', () => {
    const part = fc.string({
      unit: fc.constantFrom('a', 'B', '0', '-', '.', '/', '%', '2e', '?', '#', '=', '&', '@', ':', ' ', '~', '\\', 'é', 'utm_source=1'),
    });
    const address = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', ''),
        fc.constantFrom(
          'www.wired.com',
          'Wired.COM',
          'a.b.c',
          'x.com:8080',
          'x.com:',
          'u@x.com',
          '',
          '..',
          'a..b',
          '-a.com',
          '.a.com',
          'x.y.',
          '1.2.3.4',
          '0x7f.1',
          'xn--bcher-kva.com',
          'www.',
        ),
        part,
      )
      .map((t) => t.join(''));
    fc.assert(
      fc.property(address, (u) => {
        expect(pageKeyOf(u)).toBe(pageKeyViaParser(u));
      }),
      { numRuns: 20000 },
    );
  });
  it('an outlet is its host without www., port or case; an address gives its host', () => {
    expect(outletOf('WWW.Wired.com')).toBe('wired.com');
    expect(outletOf('https://user@blog.wired.com:8443/x?y#z')).toBe('blog.wired.com');
    expect(outletOf('')).toBe('');
  });
  it('an international name is one outlet however written; the mobile and AMP hosts are the outlet; parameters in any order, escapes in any case, are one page', () => {
    expect(outletOf('bücher.de')).toBe('xn--bcher-kva.de');
    expect(outletOf('https://www.bücher.de/a')).toBe(outletOf('https://xn--bcher-kva.de/b'));
    expect(pageKeyOf('https://bücher.de/a')).toBe(pageKeyOf('https://xn--bcher-kva.de/a'));
    const idn: PitchLike = { ...pitch, url: 'https://bücher.de/a', domain: 'bücher.de' };
    expect(verdict(idn, cite({ url: 'https://xn--bcher-kva.de/other', domain: 'xn--bcher-kva.de' }))).toMatchObject({ evidence: true, match: 'outlet' });
    expect(verdict({ ...pitch, url: null, domain: 'xn--bcher-kva.de' }, cite({ url: 'https://bücher.de/x', domain: 'bücher.de' }))).toMatchObject({
      evidence: true,
    });
    expect(outletOf('m.wired.com')).toBe('wired.com');
    expect(outletOf('https://amp.wired.com/story')).toBe('wired.com');
    expect(verdict({ ...pitch, url: null, domain: 'm.wired.com' }, cite({ url: 'https://www.wired.com/gear/x' }))).toMatchObject({
      evidence: true,
      match: 'outlet',
    });
    expect(pageKeyOf('https://m.wired.com/story/best-cold-brew/')).toBe(pageKeyOf(pitch.url));
    // m.com and amp.io are themselves hosts, not a prefix and a suffix.
    expect(outletOf('m.com')).toBe('m.com');
    expect(pageKeyOf('https://wired.com/s?b=2&a=1')).toBe(pageKeyOf('https://wired.com/s?a=1&b=2'));
    expect(pageKeyOf('https://wired.com/caf%c3%a9')).toBe(pageKeyOf('https://wired.com/caf%C3%A9'));
  });
});

describe('the rule: a citation is evidence of a pitch when…', () => {
  it('it is the exact page pitched, mentions the brand, first seen after the pitch: evidence at the page', () => {
    expect(verdict(pitch, cite())).toEqual({ evidence: true, match: 'page', strength: 'new', since: '2026-10-20' });
  });
  it('first seen on the very day of the pitch counts', () => {
    expect(verdict(pitch, cite({ first_seen: '2026-10-10T23:59:00Z' }))).toMatchObject({ evidence: true, since: '2026-10-10' });
  });
  it('another page of the same domain (or a subdomain of it) is evidence at the outlet', () => {
    expect(verdict(pitch, cite({ url: 'https://wired.com/gear/espresso-roundup' }))).toMatchObject({ evidence: true, match: 'outlet' });
    expect(verdict(pitch, cite({ url: 'https://blog.wired.com/x', domain: 'blog.wired.com' }))).toMatchObject({ evidence: true, match: 'outlet' });
    // …but not another outlet whose name merely ends the same way, nor the parent of a subdomain pitched.
    expect(verdict(pitch, cite({ url: 'https://notwired.com/x', domain: 'notwired.com' }))).toEqual({ evidence: false, why: 'other-outlet' });
    const sub = { ...pitch, url: null, domain: 'blog.wired.com' };
    expect(verdict(sub, cite({ url: 'https://wired.com/x' }))).toEqual({ evidence: false, why: 'other-outlet' });
  });
  it('first seen before the pitch is not evidence, even at the page and mentioning the brand', () => {
    expect(verdict(pitch, cite({ first_seen: '2026-10-09T10:00:00Z' }))).toEqual({ evidence: false, why: 'before-pitch' });
  });
  it('a citation that does not mention the brand is not evidence (nor one that does not say)', () => {
    expect(verdict(pitch, cite({ mentions_brand: false }))).toEqual({ evidence: false, why: 'no-mention' });
    expect(verdict(pitch, cite({ mentions_brand: null }))).toEqual({ evidence: false, why: 'no-mention' });
  });
  it('a page cited before the pitch that turned to mention the brand after it (seen between two syncs) is stronger evidence', () => {
    const flipped = cite({ first_seen: '2026-08-01T00:00:00Z', unmentioned_on: '2026-10-18', flipped_on: '2026-10-25' });
    expect(verdict(pitch, flipped)).toEqual({ evidence: true, match: 'page', strength: 'flip', since: '2026-10-25' });
    // Seen without the mention on the pitch's day itself, then with it: still after the pitch.
    expect(verdict(pitch, { ...flipped, unmentioned_on: '2026-10-10' })).toMatchObject({ evidence: true, strength: 'flip' });
    // A flip seen before the pitch is not the pitch's doing.
    expect(verdict(pitch, { ...flipped, unmentioned_on: '2026-09-20', flipped_on: '2026-10-01' })).toEqual({ evidence: false, why: 'before-pitch' });
    // A page that flipped and then stopped mentioning the brand is not evidence now.
    expect(verdict(pitch, { ...flipped, mentions_brand: false })).toEqual({ evidence: false, why: 'no-mention' });
  });
  it('a flip whose last sighting without the mention came before the pitch may have happened before it: no flip, the first-seen rule decides', () => {
    // Seen without the brand on 11-01, pitched 11-10, seen with it on 11-20: it may have changed on 11-02.
    const p = { ...pitch, pitched_on: '2026-11-10' };
    const unknown = cite({ first_seen: '2026-01-01T00:00:00Z', unmentioned_on: '2026-11-01', flipped_on: '2026-11-20' });
    expect(verdict(p, unknown)).toEqual({ evidence: false, why: 'before-pitch' });
    // First seen after the pitch, it is evidence, but a new page, not the stronger flip.
    expect(verdict(p, { ...unknown, first_seen: '2026-11-12T08:00:00Z' })).toEqual({ evidence: true, match: 'page', strength: 'new', since: '2026-11-12' });
    // Seen without it after the pitch (11-12), with it on 11-20: the change came after the pitch.
    expect(verdict(p, { ...unknown, unmentioned_on: '2026-11-12' })).toEqual({ evidence: true, match: 'page', strength: 'flip', since: '2026-11-20' });
    // A flip with no sighting without the mention kept is no flip.
    expect(verdict(p, { ...unknown, unmentioned_on: null })).toEqual({ evidence: false, why: 'before-pitch' });
  });
  it('on a shared platform (medium.com, reddit.com, …) only the page pitched counts, not another author there', () => {
    const post: PitchLike = { opportunity_id: 'm', url: 'https://medium.com/@alice/post', domain: 'medium.com', pitched_on: '2026-10-10' };
    const at = (url: string, domain: string) => cite({ url, domain });
    expect(verdict(post, at('https://medium.com/@bob/other', 'medium.com'))).toEqual({ evidence: false, why: 'other-outlet' });
    expect(verdict(post, at('https://bob.medium.com/other', 'bob.medium.com'))).toEqual({ evidence: false, why: 'other-outlet' });
    expect(verdict(post, at('https://medium.com/@alice/post/', 'medium.com'))).toMatchObject({ evidence: true, match: 'page' });
    for (const host of ['reddit.com', 'substack.com', 'youtube.com', 'linkedin.com', 'quora.com', 'github.io'])
      expect(verdict({ ...post, url: `https://${host}/x`, domain: host }, at(`https://${host}/y`, host))).toEqual({ evidence: false, why: 'other-outlet' });
    // An author's own subdomain is their outlet; a public suffix is no outlet at all.
    const own: PitchLike = { ...post, url: 'https://alice.substack.com/p/one', domain: 'alice.substack.com' };
    expect(verdict(own, at('https://alice.substack.com/p/two', 'alice.substack.com'))).toMatchObject({ evidence: true, match: 'outlet' });
    expect(verdict({ ...post, url: null, domain: 'co.uk' }, at('https://bbc.co.uk/news', 'bbc.co.uk'))).toEqual({ evidence: false, why: 'other-outlet' });
    expect(bestEvidence(post, [at('https://medium.com/@bob/other', 'medium.com'), at('https://medium.com/@alice/post', 'medium.com')])).toMatchObject({
      pages: 1,
      match: 'page',
    });
  });
  it('the page itself beats another page of the outlet; a flip beats a new page; then the most cited', () => {
    const other = cite({ url: 'https://wired.com/a', times_cited: 90 });
    const page = cite({ times_cited: 2 });
    expect(bestEvidence(pitch, [other, page])).toMatchObject({ match: 'page', citation: page, pages: 2 });
    const flip = cite({
      url: 'https://wired.com/b',
      times_cited: 1,
      first_seen: '2026-01-01T00:00:00Z',
      unmentioned_on: '2026-10-30',
      flipped_on: '2026-11-02',
    });
    expect(bestEvidence({ ...pitch, url: null }, [other, flip])).toMatchObject({ strength: 'flip', citation: flip, pages: 2 });
    expect(bestEvidence({ ...pitch, url: null }, [other, cite({ url: 'https://wired.com/c', times_cited: 5 })])).toMatchObject({ citation: other });
  });
  it('says when the first evidence came, in days after the pitch', () => {
    const e = bestEvidence(pitch, [
      cite({ url: 'https://wired.com/late', first_seen: '2026-11-09T00:00:00Z', times_cited: 99 }),
      cite({ url: 'https://wired.com/early', first_seen: '2026-10-13T00:00:00Z', times_cited: 1 }),
    ]);
    expect(e).toMatchObject({ since: '2026-11-09', first_since: '2026-10-13', days: 3, pages: 2 });
    expect(bestEvidence(pitch, [cite({ mentions_brand: false })])).toBeNull();
  });
});

describe('the index answers as the rule does', () => {
  const outlets = ['wired.com', 'blog.wired.com', 'verge.com', 'a.verge.com', 'medium.com', 'a.medium.com'];
  const days = ['2026-10-01', '2026-10-05', '2026-10-10', '2026-10-15', '2026-10-20'];
  const paths = ['/a', '/a/', '/b', '/b?utm_source=x', '/c?id=1'];
  const citation = fc.record({
    url: fc.tuple(fc.constantFrom('http://', 'https://www.', 'https://'), fc.constantFrom(...outlets), fc.constantFrom(...paths)).map((t) => t.join('')),
    first: fc.option(fc.constantFrom(...days)),
    times: fc.integer({ min: 0, max: 4 }),
    mentions: fc.constantFrom(true, false, null),
    flip: fc.option(fc.constantFrom(...days)),
    unmentioned: fc.option(fc.constantFrom(...days)),
    domainFromUrl: fc.boolean(),
  });
  const pitchArb = fc.record({
    url: fc.option(fc.tuple(fc.constantFrom('https://'), fc.constantFrom(...outlets), fc.constantFrom(...paths)).map((t) => t.join(''))),
    domain: fc.constantFrom(...outlets, 'elsewhere.org'),
    day: fc.constantFrom(...days),
  });

  it('for any citations and pitches, EvidenceIndex.best is bestEvidence', () => {
    fc.assert(
      fc.property(fc.array(citation, { maxLength: 25 }), fc.array(pitchArb, { minLength: 1, maxLength: 8 }), (cs, ps) => {
        // One citation a page, as the store keeps them (its key is the page).
        const onePerPage = [...new Map(cs.map((c) => [pageKeyOf(c.url) ?? c.url, c])).values()];
        const facts: CitationFact[] = onePerPage.map((c) => ({
          url: c.url,
          domain: c.domainFromUrl ? '' : outletOf(c.url),
          first_seen: c.first ? `${c.first}T12:00:00Z` : null,
          last_seen: null,
          times_cited: c.times,
          prompts: [],
          mentions_brand: c.mentions,
          flipped_on: c.flip,
          unmentioned_on: c.unmentioned,
          // As the store gives them: the page's key worked out already (half of them here).
          ...(c.times % 2 ? { page_key: pageKeyOf(c.url) } : {}),
        }));
        const pitches: PitchLike[] = ps.map((p, i) => ({ opportunity_id: `p${i}`, url: p.url, domain: p.domain, pitched_on: p.day }));
        const index = new EvidenceIndex(facts, new Set(pitches.map((p) => outletOf(p.domain))));
        for (const p of pitches) expect(index.best(p)).toEqual(bestEvidence(p, facts));
      }),
      { numRuns: 1000 },
    );
  });
});
