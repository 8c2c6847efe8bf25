// Input rules with the spec's bounds, as zod schemas (the same system as the
// API's data and the contract's arguments). The check* functions run a rule
// and return a Result, so callers (the API client, the CLI, the simulator, the
// UI) can say exactly what is wrong, in plain words, before anything is sent.
import { z } from 'zod';
import { addDays, DATE_PATTERN, dayNumber } from './calendar';
import { BREAKDOWN_KINDS, CITATION_MODES, DIFFICULTIES, LIMITS, OPPORTUNITY_TYPES, OUTREACH_SORTS, STATUSES } from './domain';

export type RuleResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** Run a rule: its value, or its first problem in plain words with the field it concerns. */
function checkWith<T>(schema: z.ZodType<T>, v: unknown, field: string): RuleResult<T> {
  const r = schema.safeParse(v);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  // A rule over several fields (a date range) names the one at fault; a list's items are the list's field.
  const at = issue?.path.find((p): p is string => typeof p === 'string');
  return { ok: false, field: at ?? field, message: issue?.message ?? `${field} is not valid.` };
}

export const BRAND_ID_PATTERN = /^[0-9a-fx]{32}$/;
export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9]{32}$/;
/** Anything that looks like a key, anywhere in a text: used to redact. */
export const API_KEY_ANYWHERE = /sk_live_[A-Za-z0-9]{32}/g;

const lengthOf = (input: unknown): number => (typeof input === 'string' ? input.length : 0);

// ---- the schemas -----------------------------------------------------------

const brandRequired = 'The brand id is required.';
export const brandIdSchema = z
  .string({ error: brandRequired })
  .min(1, { error: brandRequired, abort: true })
  .length(LIMITS.brandIdLength, { error: (iss) => `A brand id has exactly 32 characters; this one has ${lengthOf(iss.input)}.`, abort: true })
  .regex(BRAND_ID_PATTERN, 'A brand id may hold only digits, the letters a to f and x.');

const KEY_PREFIX = 'sk_live_';
/** The key as pasted (surrounding spaces and line ends trimmed). */
const apiKeySchema = z
  .string({ error: 'Paste your API key.' })
  .trim()
  .min(1, { error: 'Paste your API key.', abort: true })
  .startsWith(KEY_PREFIX, { error: `An API key starts with "${KEY_PREFIX}".`, abort: true })
  .refine((key) => key.length - KEY_PREFIX.length === 32, {
    error: (iss) => `An API key has 32 characters after "${KEY_PREFIX}"; this one has ${lengthOf(iss.input) - KEY_PREFIX.length}.`,
    abort: true,
  })
  .regex(API_KEY_PATTERN, `An API key holds only letters and digits after "${KEY_PREFIX}".`);

/** A calendar date written YYYY-MM-DD, nothing before or after it; `field` names it in the messages. */
export const dateSchema = (field = 'date') =>
  z
    .string({ error: `${field} must be a date written YYYY-MM-DD.` })
    .regex(DATE_PATTERN, { error: `${field} must be a date written YYYY-MM-DD.`, abort: true })
    .refine((v) => dayNumber(v) !== null, { error: (iss) => `${field} is not a real calendar date (${String(iss.input)}).` });

export interface DateRange {
  start_date?: string;
  end_date?: string;
}

const dateRange = z.object({ start_date: dateSchema('start_date').optional(), end_date: dateSchema('end_date').optional() });
const startAfterEnd = 'The start date is after the end date.';

/**
 * Scores date range: both optional; end minus start at most 90 days, start not
 * after end. When only end is given the service uses the 28 days before it.
 */
const scoresRangeSchema = dateRange.superRefine((r, ctx) => {
  const start = r.start_date === undefined ? null : dayNumber(r.start_date);
  const end = r.end_date === undefined ? null : dayNumber(r.end_date);
  if (start === null || end === null) return;
  const span = end - start;
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['start_date'], message: startAfterEnd });
  else if (span > LIMITS.scoresMaxRangeDays) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: `The date range is ${span} days; the service allows at most ${LIMITS.scoresMaxRangeDays}.` });
  }
});

/** Citation last-seen filters: same date format; no 90-day rule is published, so only order is checked. */
const citationRangeSchema = dateRange.refine((r) => !(r.start_date && r.end_date && r.start_date > r.end_date), { path: ['start_date'], error: startAfterEnd });

/** Valid combinations: [], [model], [prompt], [model, prompt] (the pair in either order is normalised). */
const breakdownSchema = z.preprocess(
  (v) => v ?? [],
  z
    .array(z.unknown(), { error: 'breakdown must be a list of "model" and/or "prompt".' })
    .max(LIMITS.breakdownMaxItems, { error: 'breakdown takes at most 2 items.', abort: true })
    .pipe(z.array(z.enum(BREAKDOWN_KINDS, { error: (iss) => `Unknown breakdown "${String(iss.input)}"; use "model" and/or "prompt".` })))
    .refine((v) => !(v.length === 2 && v[0] === v[1]), { error: (iss) => `breakdown lists "${String((iss.input as unknown[])[0])}" twice.` })
    .transform((v) => BREAKDOWN_KINDS.filter((k) => v.includes(k))),
);

/** A page size from 1 to 500; query-string digits count as a number. */
const pageSizeSchema = (field = 'limit') => {
  const whole = `${field} must be a whole number from 1 to 500.`;
  const range = { error: (iss: { input?: unknown }) => `${field} must be from 1 to 500; got ${String(iss.input)}.` };
  return z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: whole }).refine(Number.isInteger, { error: whole, abort: true }).min(LIMITS.pageSizeMin, range).max(LIMITS.pageSizeMax, range),
  );
};

/** Query-string booleans: only the words true and false. */
const booleanParamSchema = (field: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: `${field} must be true or false.` }));

// ---- the checks, for callers that want a Result -----------------------------

export const checkBrandId = (v: unknown, field = 'brand') => checkWith(brandIdSchema, v, field);
export const checkApiKeyShape = (v: unknown) => checkWith(apiKeySchema, v, 'key');
export const checkDate = (v: unknown, field: string) => checkWith(dateSchema(field), v, field);
export const checkScoresRange = (r: DateRange) => checkWith<DateRange>(scoresRangeSchema, r, 'start_date');
export const checkCitationRange = (r: DateRange) => checkWith<DateRange>(citationRangeSchema, r, 'start_date');
export const checkBreakdown = (v: unknown) => checkWith(breakdownSchema, v, 'breakdown');
export const checkPageSize = (v: unknown, field = 'limit') => checkWith(pageSizeSchema(field), v, field);
export const checkBooleanParam = (v: unknown, field: string) => checkWith(booleanParamSchema(field), v, field);

/** An enumeration of the spec: exactly its values, in their case. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, field: string) {
  const schema = z.enum(values, { error: `${field} must be one of: ${values.join(', ')}.` });
  return (v: unknown) => checkWith(schema, v, field);
}

export const checkOpportunityType = oneOf(OPPORTUNITY_TYPES, 'opportunity_type');
export const checkStatus = oneOf(STATUSES, 'status');
export const checkDifficulty = oneOf(DIFFICULTIES, 'difficulty');
export const checkOutreachSort = oneOf(OUTREACH_SORTS, 'sort_by');
export const checkCitationMode = oneOf(CITATION_MODES, 'mode');

/** The start date the service uses when start_date is omitted. */
export function defaultScoresStart(endDate: string): string {
  return addDays(endDate, -LIMITS.scoresDefaultWindowDays);
}

/**
 * Any key-like run (a longer or mistyped paste leaves no tail behind) and any
 * Bearer token. A placeholder in angle brackets (the service's own 401 text says
 * "as 'Bearer <api_key>'") is documentation, not a token, and stays readable.
 */
const KEY_LIKE = /sk_live_[A-Za-z0-9_-]+/g;
const BEARER = /\b(Bearer)\s+(?!sk_live_\[redacted\])(?!<[A-Za-z_ -]{1,40}>(?![^\s"'`,;)}\]]))[^\s"'`,;)}\]]+/gi;

/**
 * The keys in use in this process, each as a pattern that finds it in any
 * form it can take in a text: whole, without its `sk_live_` prefix (a service
 * echoing the secret part), and URL-encoded (any of its characters written
 * %XX, as a query string or a form body would carry it).
 */
const secrets = new Map<string, RegExp>();

function anyEncoding(ch: string): string {
  const hex = ch.charCodeAt(0).toString(16).padStart(2, '0');
  const pct = `%${[...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('')}`;
  return `(?:${ch.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`)}|${pct})`;
}

/**
 * Redact this key from every text redactKeys sees in this process, in every
 * form it can take (see `secrets`). Called with the key in use wherever it is
 * read (the API client, the CLI); a key too short to be one is ignored.
 */
export function redactSecret(key: string): void {
  const k = key.trim();
  if (k.length < 16 || secrets.has(k)) return;
  const body = k.startsWith(KEY_PREFIX) ? k.slice(KEY_PREFIX.length) : k;
  if (body.length < 16) return;
  const prefix = [...KEY_PREFIX].map(anyEncoding).join('');
  secrets.set(k, new RegExp(`(?:${prefix})?${[...body].map(anyEncoding).join('')}`, 'g'));
}

/** Text that may reach a person, a log or the renderer, with every key and Bearer token taken out (the keys in use in every form). */
export function redactKeys(text: string): string {
  let out = text;
  for (const pattern of secrets.values()) out = out.replace(pattern, 'sk_live_[redacted]');
  return out.replace(API_KEY_ANYWHERE, 'sk_live_[redacted]').replace(KEY_LIKE, 'sk_live_[redacted]').replace(BEARER, '$1 [redacted]');
}
