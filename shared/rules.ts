// Input rules with the spec's bounds, as pure functions. Each check returns a
// Result so callers (the API client, the CLI, the simulator, the UI) can say
// exactly what is wrong before anything is sent.
import {
  BREAKDOWN_KINDS,
  CITATION_MODES,
  DIFFICULTIES,
  LIMITS,
  OPPORTUNITY_TYPES,
  OUTREACH_SORTS,
  STATUSES,
  type BreakdownKind,
  isOneOf,
} from './domain';

export type RuleResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const fail = <T>(field: string, message: string): RuleResult<T> => ({ ok: false, field, message });

export const BRAND_ID_PATTERN = /^[0-9a-fx]{32}$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9]{32}$/;
/** Anything that looks like a key, anywhere in a text: used to redact. */
export const API_KEY_ANYWHERE = /sk_live_[A-Za-z0-9]{32}/g;

export function checkBrandId(v: unknown, field = 'brand'): RuleResult<string> {
  if (typeof v !== 'string' || v.length === 0) return fail(field, `The brand id is required.`);
  if (v.length !== LIMITS.brandIdLength)
    return fail(field, `A brand id has exactly 32 characters; this one has ${v.length}.`);
  if (!BRAND_ID_PATTERN.test(v))
    return fail(field, 'A brand id may hold only digits, the letters a to f and x.');
  return ok(v);
}

export function checkApiKeyShape(v: unknown): RuleResult<string> {
  if (typeof v !== 'string' || v.trim().length === 0) return fail('key', 'Paste your API key.');
  const key = v.trim();
  if (!key.startsWith('sk_live_')) return fail('key', 'An API key starts with "sk_live_".');
  const rest = key.slice('sk_live_'.length);
  if (rest.length !== 32)
    return fail('key', `An API key has 32 characters after "sk_live_"; this one has ${rest.length}.`);
  if (!API_KEY_PATTERN.test(key))
    return fail('key', 'An API key holds only letters and digits after "sk_live_".');
  return ok(key);
}

/** Days since 1970-01-01 for a valid calendar date, or null. */
export function dayNumber(date: string): number | null {
  if (!DATE_PATTERN.test(date)) return null;
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return null;
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return Math.round(t / 86_400_000);
}

export function dateFromDayNumber(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const n = dayNumber(date);
  if (n === null) throw new RangeError(`Not a calendar date: ${date}`);
  return dateFromDayNumber(n + days);
}

export function checkDate(v: unknown, field: string): RuleResult<string> {
  if (typeof v !== 'string' || !DATE_PATTERN.test(v))
    return fail(field, `${field} must be a date written YYYY-MM-DD.`);
  if (dayNumber(v) === null) return fail(field, `${field} is not a real calendar date (${v}).`);
  return ok(v);
}

export interface DateRange {
  start_date?: string;
  end_date?: string;
}

/**
 * Scores date range: both optional; end minus start at most 90 days, start not
 * after end. When only end is given the service uses the 28 days before it.
 */
export function checkScoresRange(r: DateRange): RuleResult<DateRange> {
  const out: DateRange = {};
  if (r.start_date !== undefined) {
    const s = checkDate(r.start_date, 'start_date');
    if (!s.ok) return s;
    out.start_date = s.value;
  }
  if (r.end_date !== undefined) {
    const e = checkDate(r.end_date, 'end_date');
    if (!e.ok) return e;
    out.end_date = e.value;
  }
  if (out.start_date !== undefined && out.end_date !== undefined) {
    const span = (dayNumber(out.end_date) ?? 0) - (dayNumber(out.start_date) ?? 0);
    if (span < 0) return fail('start_date', 'The start date is after the end date.');
    if (span > LIMITS.scoresMaxRangeDays)
      return fail(
        'end_date',
        `The date range is ${span} days; the service allows at most ${LIMITS.scoresMaxRangeDays}.`,
      );
  }
  return ok(out);
}

/** The start date the service uses when start_date is omitted. */
export function defaultScoresStart(endDate: string): string {
  return addDays(endDate, -LIMITS.scoresDefaultWindowDays);
}

/** Citation last-seen filters: same date format; no 90-day rule is published, so only order is checked. */
export function checkCitationRange(r: DateRange): RuleResult<DateRange> {
  const out: DateRange = {};
  for (const f of ['start_date', 'end_date'] as const) {
    if (r[f] !== undefined) {
      const c = checkDate(r[f], f);
      if (!c.ok) return c;
      out[f] = c.value;
    }
  }
  if (out.start_date && out.end_date && out.start_date > out.end_date)
    return fail('start_date', 'The start date is after the end date.');
  return ok(out);
}

/** Valid combinations: [], [model], [prompt], [model, prompt] (the pair in either order is normalised). */
export function checkBreakdown(v: unknown): RuleResult<BreakdownKind[]> {
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v)) return fail('breakdown', 'breakdown must be a list of "model" and/or "prompt".');
  if (v.length > LIMITS.breakdownMaxItems) return fail('breakdown', 'breakdown takes at most 2 items.');
  for (const item of v) {
    if (!isOneOf(BREAKDOWN_KINDS, item))
      return fail('breakdown', `Unknown breakdown "${String(item)}"; use "model" and/or "prompt".`);
  }
  if (v.length === 2 && v[0] === v[1]) return fail('breakdown', `breakdown lists "${String(v[0])}" twice.`);
  return ok(BREAKDOWN_KINDS.filter((k) => v.includes(k)));
}

export function checkPageSize(v: unknown, field = 'limit'): RuleResult<number> {
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n))
    return fail(field, `${field} must be a whole number from 1 to 500.`);
  if (n < LIMITS.pageSizeMin || n > LIMITS.pageSizeMax)
    return fail(field, `${field} must be from 1 to 500; got ${n}.`);
  return ok(n);
}

function checkEnum<T extends string>(values: readonly T[], field: string) {
  return (v: unknown): RuleResult<T> =>
    isOneOf(values, v) ? ok(v) : fail(field, `${field} must be one of: ${values.join(', ')}.`);
}

export const checkOpportunityType = checkEnum(OPPORTUNITY_TYPES, 'opportunity_type');
export const checkStatus = checkEnum(STATUSES, 'status');
export const checkDifficulty = checkEnum(DIFFICULTIES, 'difficulty');
export const checkOutreachSort = checkEnum(OUTREACH_SORTS, 'sort_by');
export const checkCitationMode = checkEnum(CITATION_MODES, 'mode');

/** Query-string booleans: only the words true and false. */
export function checkBooleanParam(v: unknown, field: string): RuleResult<boolean> {
  if (v === true || v === 'true') return ok(true);
  if (v === false || v === 'false') return ok(false);
  return fail(field, `${field} must be true or false.`);
}

/** Replace anything that looks like an API key, so it cannot leave in a message or log line. */
export function redactKeys(text: string): string {
  return text.replace(API_KEY_ANYWHERE, 'sk_live_[redacted]');
}
