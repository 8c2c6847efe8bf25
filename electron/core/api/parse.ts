// Parsing: what came back (status and body, or a transport failure) turned into data or a
// failure in plain words, and response bodies into typed pages with bad records sanitised out.
import type { ZodType } from 'zod';
import type { CitationMode } from '../../../shared/domain';
import { redactKeys } from '../../../shared/rules';
import { parseErrorBody } from '../../../shared/api/error-body';
import {
  brandsResponseSchema,
  citationsResponseSchema,
  outreachResponseSchema,
  sanitizeCitation,
  sanitizeOpportunity,
  sanitizeScorePoint,
  scoresResponseSchema,
  type Brand,
  type Opportunity,
  type Pagination,
  type Sanitized,
  type ScorePoint,
} from '../../../shared/api/schemas';
import { ApiError, type ApiErrorKind, type ApiFailure } from './errors';

// ---- status and body -> data or failure -------------------------------------

export type Reply = { ok: true; data: unknown } | { ok: false; failure: ApiFailure };

export const describeStatus = (status: number): string =>
  status === 401
    ? 'The API key was not accepted (401)'
    : status === 403
      ? 'The API key was rejected (403)'
      : status === 429
        ? 'The service is rate-limiting requests (429)'
        : status >= 500
          ? `The service had an error (${status})`
          : `The service refused the request (${status})`;

/** What to do about a key the service refused (401, 403): said after the service's words. */
export const KEY_NEXT_STEP = 'Check the key in your Trakkr account settings and paste it again.';

function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'key-rejected';
  if (status === 429) return 'rate-limited';
  if (status >= 500 || status === 408) return 'service-error';
  return 'service-refused';
}

/**
 * A response as data: a 2xx body's JSON, or the failure it stands for, in
 * words from either error-body form (or the status alone). `where` names the call.
 */
export function readReply(status: number, text: string, where: string): Reply {
  if (status >= 200 && status < 300) {
    try {
      return { ok: true, data: JSON.parse(text) as unknown };
    } catch {
      const how = text.length === 0 ? 'empty' : 'cut off or malformed';
      return { ok: false, failure: { kind: 'bad-response', message: `The service's answer to ${where} was not valid JSON (${how}).`, status } };
    }
  }
  const facts = parseErrorBody(text);
  const detail = facts.message ?? (facts.json ? undefined : text.trim() === '' ? undefined : 'the answer was not JSON');
  const said = `${describeStatus(status)}${detail ? `: ${detail}` : '.'}`;
  const kind = kindOfStatus(status);
  const message = kind === 'key-rejected' ? `${/[.!?]$/.test(said) ? said : `${said}.`} ${KEY_NEXT_STEP}` : said;
  return { ok: false, failure: { kind, message, status, requestId: facts.requestId, field: facts.details[0]?.field } };
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was dropped',
  ENOTFOUND: 'the host name could not be found',
  EAI_AGAIN: 'the host name could not be looked up; are you offline?',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was dropped',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable; are you offline?',
};

/** Why fetch failed, in plain words (redacted: a fetch error may carry request details). */
export function describeNetworkError(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code;
  if (code && NETWORK_CODES[code]) return NETWORK_CODES[code];
  return redactKeys(err.cause?.message ?? err.message ?? 'unknown network error');
}

/** A request that got no answer; `timedOutAfterMs` when it was the client's timeout that ended it. */
export function networkFailure(e: unknown, host: string, timedOutAfterMs?: number): ApiFailure {
  const reason = timedOutAfterMs !== undefined ? `no answer within ${Math.round(timedOutAfterMs / 1000)} s` : describeNetworkError(e);
  return { kind: 'service-unreachable', message: `Could not reach the service at ${host} (${reason}).`, cause: e };
}

// ---- JSON -> typed pages ----------------------------------------------------

/** The body in its documented shape, or a 'bad-response' error naming where it was not. */
export function envelope<T>(schema: ZodType<T>, json: unknown, endpoint: string): T {
  const env = schema.safeParse(json);
  if (env.success) return env.data;
  const issue = env.error.issues[0];
  const where = issue ? issue.path.map(String).join('.') || 'the body' : 'the body';
  throw new ApiError('bad-response', `The service's answer to ${endpoint} was not in the documented shape (${where}: ${issue?.message ?? 'unexpected'}).`);
}

/** The records that pass `sanitize` (fields of the wrong type dropped), and a warning for each thing dropped. */
export function keepValid<T>(list: readonly unknown[], sanitize: (raw: unknown) => Sanitized<T | null>): { items: T[]; warnings: string[] } {
  const items: T[] = [];
  const warnings: string[] = [];
  for (const raw of list) {
    const s = sanitize(raw);
    warnings.push(...s.warnings);
    if (s.record) items.push(s.record);
  }
  return { items, warnings };
}

export function sanitizeBrand(raw: unknown): Sanitized<Brand | null> {
  const o = raw as Record<string, unknown>;
  if (typeof o === 'object' && o !== null && typeof o.id === 'string' && typeof o.name === 'string')
    return { record: { ...o, id: o.id, name: o.name }, warnings: [] };
  return { record: null, warnings: ['a brand without an id or name was skipped'] };
}

/** Any object, kept as it is (search-queries and knowledge items have no documented fields). */
export function sanitizeObject(raw: unknown): Sanitized<Record<string, unknown> | null> {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return { record: raw as Record<string, unknown>, warnings: [] };
  return { record: null, warnings: ['an item that is not an object was skipped'] };
}

export function brandsFrom(json: unknown): { brands: Brand[]; warnings: string[] } {
  const { items, warnings } = keepValid(envelope(brandsResponseSchema, json, 'get-brands').brands, sanitizeBrand);
  return { brands: items, warnings };
}

export function outreachFrom(json: unknown): { items: Opportunity[]; pagination: Pagination; warnings: string[] } {
  const env = envelope(outreachResponseSchema, json, 'get-outreach');
  return { ...keepValid(env.opportunities, sanitizeOpportunity), pagination: env.pagination };
}

export interface CitationsBody {
  items: Record<string, unknown>[];
  pagination: Pagination;
  warnings: string[];
  updatedAt: string | undefined;
  summary: unknown;
}

export function citationsFrom(json: unknown, mode: CitationMode): CitationsBody {
  const env = envelope(citationsResponseSchema, json, 'get-citations');
  const sanitize = mode === 'citations' ? (sanitizeCitation as (raw: unknown) => Sanitized<Record<string, unknown> | null>) : sanitizeObject;
  const { items, warnings } = keepValid(itemsOf(env as Record<string, unknown>, mode), sanitize);
  return { items, pagination: env.pagination, warnings, updatedAt: env.updated_at, summary: env.summary };
}

/** The list in a get-citations body: the key the mode documents, else the first list found. */
export function itemsOf(body: Record<string, unknown>, mode: CitationMode): unknown[] {
  const preferred = mode === 'citations' ? ['citations'] : mode === 'search-queries' ? ['search_queries', 'queries', 'citations'] : ['knowledge', 'citations'];
  for (const k of [...preferred, 'results', 'items', 'data']) if (Array.isArray(body[k])) return body[k] as unknown[];
  for (const [k, v] of Object.entries(body)) if (k !== 'pagination' && Array.isArray(v)) return v;
  return [];
}

export function scorePointsFrom(json: unknown): { points: ScorePoint[]; warnings: string[] } {
  const { items, warnings } = keepValid(envelope(scoresResponseSchema, json, 'get-scores').data, sanitizeScorePoint);
  return { points: items, warnings };
}
