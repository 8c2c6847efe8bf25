// Input checks alone: each endpoint's parameters refused or turned into the query sent.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/core/api/errors';
import { citationsQuery, outreachQuery, requestUrl, scoresInput } from '../../../../electron/core/api/inputs';

const BRAND = 'a'.repeat(32);
const refusal = (f: () => unknown): { kind: string; field: string | undefined } | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { kind: e.kind, field: e.field };
  }
};

describe('outreach', () => {
  it('sends every parameter given, checked, and leaves the rest out', () => {
    expect(outreachQuery({ brand: BRAND, status: 'In Progress', archived: true, limit: 500, cursor: 'c1' })).toMatchObject({
      brand: BRAND,
      status: 'In Progress',
      archived: true,
      limit: 500,
      cursor: 'c1',
      sort_by: undefined,
      domain: undefined,
    });
  });
  it('refuses bad values naming the field', () => {
    expect(refusal(() => outreachQuery({ brand: 'abc' }))).toEqual({ kind: 'invalid-input', field: 'brand' });
    expect(refusal(() => outreachQuery({ brand: BRAND, limit: 501 }))).toEqual({ kind: 'invalid-input', field: 'limit' });
    expect(refusal(() => outreachQuery({ brand: BRAND, status: 'Closed' as never }))).toEqual({ kind: 'invalid-input', field: 'status' });
  });
});

describe('citations', () => {
  it('the query text only with search-queries, dates not with knowledge', () => {
    expect(refusal(() => citationsQuery({ brand: BRAND, mode: 'citations', query: 'x' }))).toEqual({ kind: 'invalid-input', field: 'query' });
    expect(refusal(() => citationsQuery({ brand: BRAND, mode: 'knowledge', start_date: '2026-01-01' }))).toEqual({
      kind: 'invalid-input',
      field: 'start_date',
    });
    expect(refusal(() => citationsQuery({ brand: BRAND, start_date: '2026-1-1' }))).toEqual({ kind: 'invalid-input', field: 'start_date' });
    expect(citationsQuery({ brand: BRAND, mode: 'search-queries', query: 'best' })).toMatchObject({ brand: BRAND, mode: 'search-queries' });
  });
});

describe('scores', () => {
  it('the same input as a POST body and as a GET query', () => {
    expect(scoresInput({ brand: BRAND, breakdown: ['model', 'prompt'], start_date: '2026-09-01', end_date: '2026-09-30' })).toEqual({
      body: { brand: BRAND, breakdown: ['model', 'prompt'], start_date: '2026-09-01', end_date: '2026-09-30' },
      query: { brand: BRAND, breakdown: 'model,prompt', start_date: '2026-09-01', end_date: '2026-09-30' },
    });
    expect(scoresInput({ brand: BRAND }).body).not.toHaveProperty('breakdown');
  });
  it('refuses a range over 90 days and a repeated breakdown', () => {
    expect(refusal(() => scoresInput({ brand: BRAND, start_date: '2026-01-01', end_date: '2026-04-02' }))).toEqual({
      kind: 'invalid-input',
      field: 'end_date',
    });
    expect(refusal(() => scoresInput({ brand: BRAND, breakdown: ['model', 'model'] as never }))).toEqual({ kind: 'invalid-input', field: 'breakdown' });
  });
});

describe('requestUrl', () => {
  it('joins base and path and sets only the defined parameters', () => {
    expect(requestUrl('https://proxy.example/trakkr', '/get-outreach', { brand: 'b', limit: 5, archived: false, cursor: undefined }).href).toBe(
      'https://proxy.example/trakkr/get-outreach?brand=b&limit=5&archived=false',
    );
  });
});
