import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, dayNumber } from '../../../shared/calendar';
import {
  checkApiKeyShape,
  checkBooleanParam,
  checkBrandId,
  checkBreakdown,
  checkCitationRange,
  checkDate,
  checkDifficulty,
  checkOpportunityType,
  checkOutreachSort,
  checkPageSize,
  checkScoresRange,
  checkStatus,
  defaultScoresStart,
  redactKeys,
  redactSecret,
} from '../../../shared/rules';

describe('brand id', () => {
  it('accepts the documented examples', () => {
    expect(checkBrandId('1749113348709x432280934699237400').ok).toBe(true);
    expect(checkBrandId('0000000000000x000000000000000000').ok).toBe(true);
  });
  it('refuses wrong length, wrong letters, missing', () => {
    expect(checkBrandId('1749113348709x43228093469923740')).toMatchObject({ ok: false, field: 'brand' });
    expect(checkBrandId('1749113348709X432280934699237400').ok).toBe(false);
    expect(checkBrandId('1749113348709g432280934699237400').ok).toBe(false);
    expect(checkBrandId(undefined).ok).toBe(false);
    expect(checkBrandId(42).ok).toBe(false);
  });
  it('property: exactly the strings of 32 characters from [0-9a-fx] pass', () => {
    const good = fc.string({ unit: fc.constantFrom(...'0123456789abcdefx'), minLength: 32, maxLength: 32 });
    fc.assert(fc.property(good, (s) => checkBrandId(s).ok));
    fc.assert(fc.property(fc.string(), (s) => checkBrandId(s).ok === /^[0-9a-fx]{32}$/.test(s)));
  });
});

describe('API key shape', () => {
  it('needs sk_live_ and 32 letters or digits', () => {
    expect(checkApiKeyShape('sk_live_' + 'a'.repeat(32))).toEqual({ ok: true, value: 'sk_live_' + 'a'.repeat(32) });
    expect(checkApiKeyShape('  sk_live_' + 'A1'.repeat(16) + '\n').ok).toBe(true);
    expect(checkApiKeyShape('sk_test_' + 'a'.repeat(32)).ok).toBe(false);
    expect(checkApiKeyShape('sk_live_' + 'a'.repeat(31))).toMatchObject({ ok: false, message: expect.stringContaining('this one has 31') });
    expect(checkApiKeyShape('sk_live_' + 'a'.repeat(31) + '-').ok).toBe(false);
    expect(checkApiKeyShape('').ok).toBe(false);
  });
});

describe('dates', () => {
  it('accepts real calendar dates only', () => {
    expect(checkDate('2024-02-29', 'end_date').ok).toBe(true);
    expect(checkDate('2023-02-29', 'end_date')).toMatchObject({ ok: false, message: expect.stringContaining('not a real calendar date') });
    expect(checkDate('2024-13-01', 'end_date').ok).toBe(false);
    expect(checkDate('2024-04-31', 'end_date').ok).toBe(false);
    expect(checkDate('2024-4-1', 'end_date').ok).toBe(false);
    expect(checkDate('2024-04-01T00:00:00Z', 'end_date').ok).toBe(false);
  });
  it('property: every real date formats and parses back to itself', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1971-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }), (d) => {
        const s = d.toISOString().slice(0, 10);
        expect(checkDate(s, 'd')).toEqual({ ok: true, value: s });
        expect(addDays(addDays(s, 17), -17)).toBe(s);
      }),
    );
  });
});

describe('scores range', () => {
  it('allows exactly 90 days and refuses 91', () => {
    expect(checkScoresRange({ start_date: '2026-01-01', end_date: addDays('2026-01-01', 90) }).ok).toBe(true);
    expect(checkScoresRange({ start_date: '2026-01-01', end_date: addDays('2026-01-01', 91) })).toMatchObject({
      ok: false,
      message: 'The date range is 91 days; the service allows at most 90.',
    });
  });
  it('refuses a start after the end, and bad dates on either side', () => {
    expect(checkScoresRange({ start_date: '2026-02-02', end_date: '2026-02-01' }).ok).toBe(false);
    expect(checkScoresRange({ start_date: '2026-02-30' })).toMatchObject({ ok: false, field: 'start_date' });
    expect(checkScoresRange({}).ok).toBe(true);
  });
  it('the default window is the 28 days before the end date', () => {
    expect(defaultScoresStart('2026-03-01')).toBe('2026-02-01');
  });
  it('property: ranges pass exactly when 0 <= span <= 90', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40000 }), fc.integer({ min: -10, max: 200 }), (start, span) => {
        const s = new Date(start * 86400000).toISOString().slice(0, 10);
        const e = addDays(s, span);
        expect(dayNumber(e)! - dayNumber(s)!).toBe(span);
        expect(checkScoresRange({ start_date: s, end_date: e }).ok).toBe(span >= 0 && span <= 90);
      }),
    );
  });
  it('citation ranges check order only', () => {
    expect(checkCitationRange({ start_date: '2025-01-01', end_date: '2026-01-01' }).ok).toBe(true);
    expect(checkCitationRange({ start_date: '2026-01-02', end_date: '2026-01-01' }).ok).toBe(false);
  });
});

describe('breakdown', () => {
  it('accepts the four valid combinations', () => {
    expect(checkBreakdown(undefined)).toEqual({ ok: true, value: [] });
    expect(checkBreakdown([])).toEqual({ ok: true, value: [] });
    expect(checkBreakdown(['model'])).toEqual({ ok: true, value: ['model'] });
    expect(checkBreakdown(['prompt'])).toEqual({ ok: true, value: ['prompt'] });
    expect(checkBreakdown(['prompt', 'model'])).toEqual({ ok: true, value: ['model', 'prompt'] });
  });
  it('refuses everything else', () => {
    for (const bad of [['model', 'model'], ['model', 'prompt', 'model'], ['country'], 'model', [1]]) {
      expect(checkBreakdown(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });
  it('property: only subsets of {model, prompt} pass', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('model', 'prompt', 'x'), { maxLength: 4 }), (arr) => {
        const valid = arr.length <= 2 && new Set(arr).size === arr.length && arr.every((a) => a !== 'x');
        expect(checkBreakdown(arr).ok).toBe(valid);
      }),
    );
  });
});

describe('page size and enumerations', () => {
  it('page size is a whole number from 1 to 500', () => {
    expect(checkPageSize(1)).toEqual({ ok: true, value: 1 });
    expect(checkPageSize('500')).toEqual({ ok: true, value: 500 });
    for (const bad of [0, 501, 1.5, '10a', '', null, -3]) expect(checkPageSize(bad).ok, String(bad)).toBe(false);
    fc.assert(fc.property(fc.integer(), (n) => checkPageSize(n).ok === (n >= 1 && n <= 500)));
  });
  it('enumerations take exactly the spec values', () => {
    expect(checkOpportunityType('low-hanging-fruit').ok).toBe(true);
    expect(checkOpportunityType('Low-Hanging-Fruit').ok).toBe(false);
    expect(checkStatus('In Progress').ok).toBe(true);
    expect(checkStatus('in progress').ok).toBe(false);
    expect(checkDifficulty('Hard').ok).toBe(true);
    expect(checkOutreachSort('last_seen').ok).toBe(true);
    expect(checkOutreachSort('title').ok).toBe(false);
    expect(checkBooleanParam('true', 'archived')).toEqual({ ok: true, value: true });
    expect(checkBooleanParam('1', 'archived').ok).toBe(false);
  });
});

describe('redactKeys', () => {
  it('removes anything shaped like a key, wherever it is', () => {
    const key = 'sk_live_' + 'Ab3'.repeat(10) + 'xy';
    expect(redactKeys(`Bearer ${key} failed; again ${key}.`)).toBe('Bearer sk_live_[redacted] failed; again sk_live_[redacted].');
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: fc.constantFrom(...'abcXYZ0123'), minLength: 32, maxLength: 32 }), fc.string(), (a, k, b) => {
        expect(redactKeys(a + 'sk_live_' + k + b)).not.toContain(k);
      }),
    );
  });
  it('takes out any Bearer token, but keeps a documented placeholder readable', () => {
    expect(redactKeys('sent Authorization: Bearer abc.DEF-123 to the host')).toBe('sent Authorization: Bearer [redacted] to the host');
    expect(redactKeys("must be provided in the Authorization header as 'Bearer <api_key>'")).toBe(
      "must be provided in the Authorization header as 'Bearer <api_key>'",
    );
    // A token that only starts like a placeholder is still a token.
    expect(redactKeys('Bearer <x>secret123')).toBe('Bearer [redacted]');
  });
});

describe('redactSecret: the key in use, in every form it can take', () => {
  // A key unlike any other in these tests, registered once for this process.
  const key = 'sk_live_Qw7Er9Ty2Ui4Op6As8Df1Gh3Jk5Lz0Xc';
  const body = key.slice('sk_live_'.length);
  redactSecret(key);
  const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');

  it.each([
    ['whole', `the key ${key} was refused`],
    ['without its prefix', `token ${body} is not valid`],
    ['URL-encoded with its underscores', `GET /x?key=${encodeURIComponent(key).replace(/_/g, '%5F')}`],
    ['every character percent-encoded', `body=${pct(key)}`],
    ['only its secret part percent-encoded, in lower case', `q=${pct(body).toLowerCase()}`],
    ['some characters encoded, some not', `sk_live_${body.slice(0, 10)}${pct(body.slice(10, 12))}${body.slice(12)}`],
  ])('%s', (_, text) => {
    const out = redactKeys(text);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(body.slice(0, 8));
    expect(out).not.toContain(body.slice(-8));
    expect(out.toLowerCase()).not.toContain(pct(body.slice(0, 6)).toLowerCase());
  });

  it('leaves other text alone, and ignores what is too short to be a key', () => {
    redactSecret('short');
    expect(redactKeys('a short note about Qw7Er9 and shortcuts')).toBe('a short note about Qw7Er9 and shortcuts');
  });
});
