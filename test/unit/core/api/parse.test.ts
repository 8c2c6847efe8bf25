// Parsing alone: status and body to data or a failure, both error-body forms,
// transport failures in plain words, and bodies to sanitised, typed pages.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/core/api/errors';
import {
  brandsFrom,
  citationsFrom,
  describeNetworkError,
  envelope,
  itemsOf,
  keepValid,
  networkFailure,
  outreachFrom,
  readReply,
  sanitizeObject,
  scorePointsFrom,
} from '../../../../electron/core/api/parse';
import { outreachResponseSchema } from '../../../../shared/api/schemas';

const pagination = { limit: 2, has_more: false, next_cursor: null };
const failureOf = (status: number, text: string) => {
  const r = readReply(status, text, 'GET /get-brands');
  if (r.ok) throw new Error('expected a failure');
  return r.failure;
};

describe('status and body', () => {
  it('a 2xx body is its JSON', () => {
    expect(readReply(200, '{"brands":[]}', 'GET /get-brands')).toEqual({ ok: true, data: { brands: [] } });
    expect(readReply(204, 'null', 'GET /x')).toEqual({ ok: true, data: null });
  });

  it('a 2xx body that is not JSON is a bad response, empty or cut off', () => {
    expect(failureOf(200, '')).toEqual({ kind: 'bad-response', message: "The service's answer to GET /get-brands was not valid JSON (empty).", status: 200 });
    expect(failureOf(200, '{"bra').message).toBe("The service's answer to GET /get-brands was not valid JSON (cut off or malformed).");
  });

  it('the code form: errors[] are the words, request id and field kept', () => {
    const body = {
      error: 'FORBIDDEN',
      message: 'Invalid API key',
      errors: ['No accounts found for this API key'],
      request_id: 'req-1',
      details: [{ field: 'brand', message: 'unknown' }],
    };
    expect(failureOf(403, JSON.stringify(body))).toEqual({
      kind: 'key-rejected',
      message:
        'The API key was rejected (403): No accounts found for this API key; brand: unknown. Check the key in your Trakkr account settings and paste it again.',
      status: 403,
      requestId: 'req-1',
      field: 'brand',
    });
  });

  it('a refused key says what to do next, after the words or the status alone (never two full stops)', () => {
    const next = 'Check the key in your Trakkr account settings and paste it again.';
    expect(failureOf(403, '').message).toBe(`The API key was rejected (403). ${next}`);
    expect(failureOf(401, JSON.stringify({ error: 'Invalid API key.' })).message).toBe(`The API key was not accepted (401): Invalid API key. ${next}`);
    expect(failureOf(429, '').message).toBe('The service is rate-limiting requests (429).');
  });

  it('the message-text form: the error text is the words', () => {
    const f = failureOf(401, JSON.stringify({ error: 'API key must be provided' }));
    expect(f).toMatchObject({
      kind: 'key-rejected',
      message: 'The API key was not accepted (401): API key must be provided. Check the key in your Trakkr account settings and paste it again.',
      status: 401,
    });
    expect(failureOf(429, JSON.stringify({ error: { code: 'rate_limit_exceeded', message: 'Slow down' } })).message).toBe(
      'The service is rate-limiting requests (429): Slow down',
    );
  });

  it('each status has its kind; a body that is not JSON, or none, is said so', () => {
    expect(failureOf(429, '').kind).toBe('rate-limited');
    expect(failureOf(500, '').kind).toBe('service-error');
    expect(failureOf(408, '').kind).toBe('service-error');
    expect(failureOf(400, '{}').kind).toBe('service-refused');
    expect(failureOf(404, '{}').kind).toBe('service-refused');
    expect(failureOf(502, '<html>Bad gateway</html>').message).toBe('The service had an error (502): the answer was not JSON');
    expect(failureOf(503, '  ').message).toBe('The service had an error (503).');
    expect(failureOf(404, '{}').message).toBe('The service refused the request (404).');
  });
});

describe('transport failures', () => {
  it('known codes in plain words, other messages redacted, timeouts with the limit', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(networkFailure(refused, '127.0.0.1:9')).toEqual({
      kind: 'service-unreachable',
      message: 'Could not reach the service at 127.0.0.1:9 (connection refused).',
      cause: refused,
    });
    expect(networkFailure(new Error('aborted'), 'api.trakkr.ai', 30_000).message).toBe('Could not reach the service at api.trakkr.ai (no answer within 30 s).');
    const key = 'sk_live_' + 'K'.repeat(32);
    expect(describeNetworkError(new TypeError(`fetch failed for ${key}`))).toBe('fetch failed for sk_live_[redacted]');
    expect(describeNetworkError({ cause: { message: 'other socket error' } })).toBe('other socket error');
    expect(describeNetworkError({})).toBe('unknown network error');
  });
});

describe('bodies to pages', () => {
  it('a body not in the documented shape is a bad response naming where', () => {
    expect(() => envelope(outreachResponseSchema, { brand_id: 'b', opportunities: [] }, 'get-outreach')).toThrow(ApiError);
    try {
      envelope(outreachResponseSchema, { brand_id: 'b', opportunities: [] }, 'get-outreach');
    } catch (e) {
      expect(e).toMatchObject({ kind: 'bad-response' });
      expect((e as ApiError).message).toMatch(/^The service's answer to get-outreach was not in the documented shape \(pagination: /);
    }
    expect(() => brandsFrom(null)).toThrow(/get-brands was not in the documented shape \(the body: /);
  });

  it('keepValid keeps what passes, collects every warning, skips what does not', () => {
    const r = keepValid([1, 'x', 2], (raw) =>
      typeof raw === 'number' ? { record: raw * 10, warnings: raw === 2 ? ['two'] : [] } : { record: null, warnings: ['skipped'] },
    );
    expect(r).toEqual({ items: [10, 20], warnings: ['skipped', 'two'] });
  });

  it('brands without an id or name are skipped with a warning', () => {
    expect(brandsFrom({ brands: [{ id: 'a', name: 'A', extra: 1 }, { id: 'b' }, 'c'] })).toEqual({
      brands: [{ id: 'a', name: 'A', extra: 1 }],
      warnings: ['a brand without an id or name was skipped', 'a brand without an id or name was skipped'],
    });
  });

  it('outreach: a field of the wrong type is dropped, the record kept; a non-object skipped', () => {
    const page = outreachFrom({ brand_id: 'b', pagination, opportunities: [{ _id: 'o1', title: 'T', priority_score: 'high' }, 7] });
    expect(page.items).toEqual([{ _id: 'o1', title: 'T' }]);
    expect(page.pagination).toEqual(pagination);
    expect(page.warnings).toEqual(['field "priority_score" had the wrong type (string) and was dropped', 'a record that is not an object was skipped']);
  });

  it('citations are sanitised the same way; other modes keep any object', () => {
    const cit = citationsFrom(
      { pagination, updated_at: '2026-11-20', summary: { total_citations: 1 }, citations: [{ url: 'u', times_cited: 'many' }] },
      'citations',
    );
    expect(cit).toEqual({
      items: [{ url: 'u' }],
      pagination,
      warnings: ['field "times_cited" had the wrong type (string) and was dropped'],
      updatedAt: '2026-11-20',
      summary: { total_citations: 1 },
    });
    const sq = citationsFrom({ pagination, search_queries: [{ query: 'best', count: 'x' }, null] }, 'search-queries');
    expect(sq.items).toEqual([{ query: 'best', count: 'x' }]);
    expect(sq.warnings).toEqual(['an item that is not an object was skipped']);
    expect(sanitizeObject([1])).toEqual({ record: null, warnings: ['an item that is not an object was skipped'] });
  });

  it("the citations list is found under the mode's key, else the first list", () => {
    expect(itemsOf({ knowledge: [1], citations: [2] }, 'knowledge')).toEqual([1]);
    expect(itemsOf({ queries: [3] }, 'search-queries')).toEqual([3]);
    expect(itemsOf({ pagination: [], whatever: [4] }, 'citations')).toEqual([4]);
    expect(itemsOf({ pagination }, 'citations')).toEqual([]);
  });

  it('score points without a date or values are skipped; breakdown keys kept', () => {
    const body = {
      brand_id: 'b',
      start_date: '2026-11-01',
      end_date: '2026-11-02',
      breakdown: ['model'],
      data: [{ date: '2026-11-01', visibility: 1, presence: 2, model: 'm' }, { visibility: 1 }],
    };
    expect(scorePointsFrom(body)).toEqual({
      points: [{ date: '2026-11-01', visibility: 1, presence: 2, model: 'm' }],
      warnings: ['a score entry without a date or values was skipped'],
    });
  });
});
