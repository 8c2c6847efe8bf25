import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  brandSchema,
  CITATION_FIELD_KINDS,
  citationItemSchema,
  citationItemShape,
  fitsKind,
  OPPORTUNITY_FIELD_KINDS,
  opportunityShape,
  citationSummarySchema,
  errorBodySchema,
  opportunitySchema,
  outreachQuerySchema,
  outreachResponseSchema,
  paginationSchema,
  sanitizeCitation,
  sanitizeOpportunity,
  sanitizeScorePoint,
  scoresQuerySchema,
  scoresResponseSchema,
} from '../../../shared/api/schemas';
import { parseErrorBody } from '../../../shared/api/error-body';

const fullOpportunity = {
  _id: '1690000000000x123456789012345678',
  unique_key: 'low-hanging-fruit:wired.com/best-cold-brew',
  opportunity_type: 'low-hanging-fruit',
  url: 'https://wired.com/best-cold-brew',
  domain: 'wired.com',
  title: 'Best cold brew',
  content_type: 'listicle',
  language: 'en',
  country: null,
  status: 'New',
  archived: false,
  difficulty: 'Easy',
  strategy_name: 'Get added to list',
  topics_covered: ['coffee'],
  site_type: 'news',
  audience_profile: 'buyers',
  content_style: 'hands-on',
  competitors: ['Stumptown'],
  competitor_count: 1,
  gap_analysis: 'missing',
  why_competitors_win: 'named',
  brand_angle: 'data',
  fit_score: 80,
  topics_aligned: ['coffee'],
  audience_match: 'strong',
  why_relevant: 'cited',
  pitch_subject: 'Hello',
  pitch_body: 'Hi,\n\nBody',
  author_name: null,
  contact_emails: ['a@wired.com', 'tips@wired.com CATCH'],
  contact_confidence: 'high',
  appearance_count: 3,
  prompt_count: 2,
  query_count: 1,
  priority_score: 90,
  brand_citations_on_prompt: 0,
  competitor_citations_on_prompt: 4,
  original_prompts: ['best cold brew'],
  search_queries: ['best cold brew: 4'],
  weak_prompt: null,
  competitors_winning: ['Stumptown'],
  instructions: ['Read', 'Send'],
  what_itll_do: 'lift',
  last_seen_date: '2026-11-01T10:00:00.000Z',
  'Created Date': '2026-10-01T10:00:00.000Z',
  'Modified Date': '2026-11-01T10:00:00.000Z',
};

describe('records', () => {
  it('an opportunity with every spec field parses, and so does an empty one', () => {
    expect(opportunitySchema.parse(fullOpportunity)).toEqual(fullOpportunity);
    expect(opportunitySchema.parse({})).toEqual({});
  });

  it('unknown fields are kept', () => {
    const parsed = opportunitySchema.parse({ ...fullOpportunity, future_field: { a: 1 } });
    expect(parsed).toHaveProperty('future_field', { a: 1 });
  });

  it('sanitize drops a field of the wrong type, keeps the rest, and says which', () => {
    const r = sanitizeOpportunity({ ...fullOpportunity, priority_score: 'high', contact_emails: 'a@b.com', extra: 1 });
    expect(r.record).not.toHaveProperty('priority_score');
    expect(r.record).not.toHaveProperty('contact_emails');
    expect(r.record).toMatchObject({ title: 'Best cold brew', extra: 1 });
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings.join(' ')).toContain('"priority_score"');
    expect(r.warnings.join(' ')).toContain('"contact_emails"');
  });

  it('sanitize skips a record that is not an object', () => {
    expect(sanitizeOpportunity('nope').record).toBeNull();
    expect(sanitizeOpportunity(null).record).toBeNull();
    expect(sanitizeOpportunity([1]).record).toBeNull();
  });

  it('the fast field checks agree with the zod shapes on any value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(opportunityShape)), fc.anything(), (key, value) => {
        const zodSays = (opportunityShape as Record<string, { safeParse(v: unknown): { success: boolean } }>)[key]!.safeParse(value).success;
        expect(fitsKind(OPPORTUNITY_FIELD_KINDS[key]!, value)).toBe(zodSays);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(citationItemShape)), fc.anything(), (key, value) => {
        const zodSays = (citationItemShape as Record<string, { safeParse(v: unknown): { success: boolean } }>)[key]!.safeParse(value).success;
        expect(fitsKind(CITATION_FIELD_KINDS[key]!, value)).toBe(zodSays);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: sanitize never throws and its output always parses', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...Object.keys(fullOpportunity), 'x', 'y'), fc.anything()), (raw) => {
        const r = sanitizeOpportunity(raw);
        expect(opportunitySchema.safeParse(r.record).success).toBe(true);
      }),
    );
  });

  it('citations, summaries, score points, brands and pagination parse', () => {
    const c = {
      url: 'https://a.com/x',
      domain: 'a.com',
      times_cited: 3,
      first_seen: 'x',
      last_seen: 'y',
      competitors_referenced: [],
      prompts: ['p'],
      search_queries: [{ query: 'q', count: 2 }],
      sentiment: -3,
      domain_rating: 50,
      page_authority: 20,
      topics: [],
      h1: 'H',
      mentions_brand: true,
    };
    expect(citationItemSchema.parse(c)).toEqual(c);
    expect(sanitizeCitation({ ...c, times_cited: '3' }).warnings).toHaveLength(1);
    expect(
      citationSummarySchema.safeParse({ total_citations: 1, top_domains: [{ domain: 'a', count: 1, citation_share: 100 }], top_competitors: [] }).success,
    ).toBe(true);
    expect(sanitizeScorePoint({ date: '2026-01-01', visibility: 85.5, presence: 92.3, model: 'gpt-4o' }).record).toEqual({
      date: '2026-01-01',
      visibility: 85.5,
      presence: 92.3,
      model: 'gpt-4o',
    });
    expect(sanitizeScorePoint({ visibility: 1 }).record).toBeNull();
    expect(brandSchema.safeParse({ id: 'x', name: 'y' }).success).toBe(true);
    expect(paginationSchema.safeParse({ limit: 100, has_more: false, next_cursor: null }).success).toBe(true);
    expect(paginationSchema.safeParse({ limit: 100, has_more: 'no', next_cursor: null }).success).toBe(false);
  });
});

describe('requests and responses', () => {
  it('outreach query bounds and enumerations', () => {
    expect(outreachQuerySchema.safeParse({ brand: 'b', limit: 500, sort_by: 'last_seen', archived: true }).success).toBe(true);
    expect(outreachQuerySchema.safeParse({ brand: 'b', limit: 501 }).success).toBe(false);
    expect(outreachQuerySchema.safeParse({ brand: 'b', status: 'Closed' }).success).toBe(false);
    expect(scoresQuerySchema.safeParse({ brand: 'b', breakdown: ['model', 'prompt', 'model'] }).success).toBe(false);
  });
  it('envelopes', () => {
    expect(outreachResponseSchema.safeParse({ brand_id: 'b', opportunities: [{}], pagination: { limit: 1, has_more: false, next_cursor: null } }).success).toBe(
      true,
    );
    expect(outreachResponseSchema.safeParse({ brand_id: 'b', opportunities: {}, pagination: {} }).success).toBe(false);
    const scores = { brand_id: 'b', brand_name: 'N', start_date: 'a', end_date: 'b', breakdown: [], data: [], errors: null };
    expect(scoresResponseSchema.parse(scores)).toEqual(scores);
  });
});

describe('error bodies, every form', () => {
  it('code form', () => {
    const body = {
      error: 'INVALID_PARAMETER',
      message: "The 'brand' parameter is required",
      details: [{ field: 'brand', message: 'required' }],
      timestamp: 't',
      request_id: 'r1',
    };
    expect(errorBodySchema.safeParse(body).success).toBe(true);
    expect(parseErrorBody(JSON.stringify(body))).toMatchObject({
      code: 'INVALID_PARAMETER',
      headline: "The 'brand' parameter is required",
      message: 'brand: required',
      requestId: 'r1',
      json: true,
    });
  });
  it('message-text form with errors', () => {
    const f = parseErrorBody(JSON.stringify({ error: 'Invalid API key', errors: ['No accounts found for this API key'], timestamp: 't' }));
    expect(f).toMatchObject({ code: undefined, headline: 'Invalid API key', message: 'No accounts found for this API key' });
  });
  it('code form with message and errors', () => {
    const f = parseErrorBody(JSON.stringify({ error: 'FORBIDDEN', message: 'Invalid API key', errors: ['No accounts found for this API key'] }));
    expect(f).toMatchObject({ code: 'FORBIDDEN', headline: 'Invalid API key', message: 'No accounts found for this API key' });
  });
  it('error as an object', () => {
    expect(parseErrorBody('{"error":{"code":"rate_limit_exceeded","message":"Slow down"}}')).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      rawCode: 'rate_limit_exceeded',
      message: 'Slow down',
    });
  });
  it('detail string and detail object', () => {
    expect(parseErrorBody('{"detail":"brand_id is required"}')).toMatchObject({ message: 'brand_id is required' });
    expect(parseErrorBody('{"detail":{"code":"forbidden","message":"No access"}}')).toMatchObject({ code: 'FORBIDDEN', message: 'No access' });
  });
  it('plain rate-limit text', () => {
    expect(parseErrorBody('{"error":"Rate limit exceeded: 60 per 1 minute"}')).toMatchObject({
      code: undefined,
      message: 'Rate limit exceeded: 60 per 1 minute',
    });
  });
  it('no JSON at all', () => {
    expect(parseErrorBody('<html>Bad gateway</html>')).toEqual({ details: [], json: false });
    expect(parseErrorBody('')).toEqual({ details: [], json: false });
    expect(parseErrorBody('[1,2]')).toEqual({ details: [], json: true });
  });
  it('property: never throws on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (t) => {
        expect(parseErrorBody(t).details).toBeInstanceOf(Array);
      }),
    );
  });
});
