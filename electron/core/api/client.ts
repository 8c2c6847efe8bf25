// The Trakkr API client: all four endpoints with every documented parameter,
// inputs checked before any request, resilient to 429s, 5xx, dropped
// connections and bad bodies, paced under the plan's rate, and incapable of
// letting the key leave in a message.
import { CITATIONS_QUERY_PARAM, DEFAULT_BASE_URL, type CitationMode } from '../../../shared/domain';
import {
  checkBooleanParam,
  checkBrandId,
  checkBreakdown,
  checkCitationMode,
  checkCitationRange,
  checkDifficulty,
  checkOpportunityType,
  checkOutreachSort,
  checkPageSize,
  checkScoresRange,
  checkStatus,
  redactKeys,
  type RuleResult,
} from '../../../shared/rules';
import {
  brandsResponseSchema,
  citationsResponseSchema,
  outreachResponseSchema,
  sanitizeCitation,
  sanitizeOpportunity,
  sanitizeScorePoint,
  scoresResponseSchema,
  type Brand,
  type CitationItem,
  type CitationsQuery,
  type Opportunity,
  type OutreachQuery,
  type Pagination,
  type ScorePoint,
  type ScoresQuery,
} from '../../../shared/api/schemas';
import { parseErrorBody } from '../../../shared/api/error-body';
import { checkApiBaseUrl } from '../../../shared/api-origin';
import { ApiError } from './errors';
import { systemClock, type Clock, type SecretStore, type Transport } from '../seams';
import type { WaitInfo } from '../../../shared/model';
export type { WaitInfo } from '../../../shared/model';


export interface ClientOptions {
  baseUrl?: string;
  /** An explicit key; otherwise `secrets` is asked. */
  apiKey?: string;
  secrets?: SecretStore;
  fetch?: Transport;
  clock?: Clock;
  /** Steady pace, requests per minute; 0 turns pacing off (benchmarks). Default 60. */
  requestsPerMinute?: number;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** Tries for 5xx and network failures. Default 5. */
  maxAttempts?: number;
  /** Retries after 429. Default 8. */
  maxRateLimitRetries?: number;
  /** The longest single wait; longer requests are cut to this and the user is told. Default 120 s. */
  maxWaitMs?: number;
  random?: () => number;
  onWait?: (w: WaitInfo) => void;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
  /** One line per field or record dropped because it did not fit the spec. */
  warnings: string[];
  /** The cursor this page was fetched with (undefined for the first). */
  cursor: string | undefined;
}

export interface CitationsPage extends Page<Record<string, unknown>> {
  mode: CitationMode;
  updatedAt: string | undefined;
  summary: unknown;
}

export interface ScoresResult {
  /** The response as the API sent it (brand_name, extra keys on data entries kept). */
  response: Record<string, unknown>;
  points: ScorePoint[];
  warnings: string[];
}

type Query = Record<string, string | number | boolean | undefined>;

function must<T>(r: RuleResult<T>): T {
  if (!r.ok) throw new ApiError('invalid-input', r.message, { field: r.field });
  return r.value;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, (t - nowMs) / 1000);
}

/** Seconds from X-RateLimit-Reset: values above 1e9 are a Unix time, smaller ones seconds. */
export function parseRateLimitReset(value: string | null, nowMs: number): number | null {
  if (value === null || !/^\d+(\.\d+)?$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n > 1e9 ? Math.max(0, n - nowMs / 1000) : n;
}

const describeStatus = (status: number): string =>
  status === 401
    ? 'The API key was not accepted (401)'
    : status === 403
      ? 'The API key was rejected (403)'
      : status === 429
        ? 'The service is rate-limiting requests (429)'
        : status >= 500
          ? `The service had an error (${status})`
          : `The service refused the request (${status})`;

export class TrakkrClient {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;
  private readonly clock: Clock;
  private readonly fetchImpl: Transport;
  private readonly random: () => number;
  private nextSlot = 0;
  /** Told about every wait (rate limit or retry backoff); a sync job forwards these as progress. */
  onWait: ((w: WaitInfo) => void) | undefined;

  constructor(opts: ClientOptions = {}) {
    this.opts = opts;
    // The key goes only to https://, or to this computer over http:// (the simulator).
    const checked = checkApiBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL);
    if (!checked.ok) throw new ApiError('invalid-input', `Nothing was sent. ${checked.reason}`, { field: 'baseUrl' });
    this.baseUrl = checked.url;
    this.clock = opts.clock ?? systemClock;
    this.fetchImpl = opts.fetch ?? fetch;
    this.random = opts.random ?? Math.random;
    this.onWait = opts.onWait;
  }

  private async key(): Promise<string> {
    const key = this.opts.apiKey ?? (await this.opts.secrets?.get()) ?? null;
    if (!key) throw new ApiError('no-key', 'No API key is stored. Add one in Settings, or with `workbench key set`.');
    return key;
  }

  /** Wait for this request's slot under the steady pace. */
  private async pace(signal?: AbortSignal): Promise<void> {
    const rpm = this.opts.requestsPerMinute ?? 60;
    if (rpm <= 0) return;
    const interval = 60_000 / rpm;
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + interval;
    if (slot > now) await this.sleep(slot - now, signal);
  }

  private async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch {
      throw new ApiError('cancelled', 'Cancelled.');
    }
  }

  private wait(info: Omit<WaitInfo, 'capped' | 'seconds'> & { seconds: number }): number {
    const maxS = (this.opts.maxWaitMs ?? 120_000) / 1000;
    const capped = info.seconds > maxS;
    const seconds = Math.max(0, Math.min(info.seconds, maxS));
    this.onWait?.({ ...info, seconds, capped });
    return seconds * 1000;
  }

  /** One call with retries; returns the parsed JSON body. */
  async request(method: 'GET' | 'POST', path: string, query: Query, body: unknown, signal?: AbortSignal): Promise<unknown> {
    const key = await this.key();
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const maxAttempts = this.opts.maxAttempts ?? 5;
    const maxRateRetries = this.opts.maxRateLimitRetries ?? 8;
    let attempt = 0;
    let rateRetries = 0;
    const where = `${method} ${path}`;

    for (;;) {
      if (signal?.aborted) throw new ApiError('cancelled', 'Cancelled.');
      attempt++;
      await this.pace(signal);
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let status = 0;
      let text = '';
      let headers: Headers | undefined;
      let failure: ApiError | undefined;
      try {
        const res = await this.fetchImpl(url, {
          method,
          signal: combined,
          headers: {
            Authorization: `Bearer ${key}`,
            Accept: 'application/json',
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        status = res.status;
        headers = res.headers;
        text = await res.text();
      } catch (e) {
        if (signal?.aborted) throw new ApiError('cancelled', 'Cancelled.');
        const timedOut = timeout.aborted;
        const reason = timedOut ? `no answer within ${Math.round((this.opts.timeoutMs ?? 30_000) / 1000)} s` : describeNetworkError(e);
        failure = new ApiError('network', `Could not reach the service at ${url.host} (${reason}).`, { cause: e });
      }

      if (!failure && status >= 200 && status < 300) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          failure = new ApiError('bad-response', `The service's answer to ${where} was not valid JSON (${text.length === 0 ? 'empty' : 'cut off or malformed'}).`, { status });
        }
      }

      if (!failure) {
        const facts = parseErrorBody(text);
        const detail = facts.message ?? (facts.json ? undefined : text.trim() === '' ? undefined : 'the answer was not JSON');
        const message = `${describeStatus(status)}${detail ? `: ${detail}` : '.'}`;
        const opts = { status, requestId: facts.requestId, field: facts.details[0]?.field };
        if (status === 401) throw new ApiError('unauthorized', message, opts);
        if (status === 403) throw new ApiError('forbidden', message, opts);
        if (status === 429) {
          rateRetries++;
          if (rateRetries > maxRateRetries) throw new ApiError('rate-limited', `${message} Still limited after ${maxRateRetries} waits; try again later.`, opts);
          const now = this.clock.now();
          const asked = parseRetryAfter(headers?.get('retry-after') ?? null, now) ?? parseRateLimitReset(headers?.get('x-ratelimit-reset') ?? null, now);
          // No hint: back off towards a minute (5, 10, 20, 40, 60 s), with a little jitter.
          const fallback = Math.min(60, 5 * 2 ** (rateRetries - 1)) * (0.9 + 0.2 * this.random());
          const ms = this.wait({ reason: 'rate-limit', seconds: asked ?? fallback, attempt: rateRetries, status, message });
          attempt--; // a rate-limit wait does not use up a try for errors
          await this.sleep(ms, signal);
          continue;
        }
        if (status >= 500 || status === 408) failure = new ApiError('server', message, opts);
        else throw new ApiError('bad-request', message, opts);
      }

      if (attempt >= maxAttempts) {
        throw new ApiError(failure.kind, `${failure.message} Gave up after ${attempt} tries.`, { status: failure.status, requestId: failure.requestId });
      }
      // Capped exponential backoff with jitter: 0.5, 1, 2, 4 … up to 30 s, each between half and all of that.
      const base = Math.min(30, 0.5 * 2 ** (attempt - 1));
      const ms = this.wait({ reason: 'retry', seconds: base / 2 + (base / 2) * this.random(), attempt, status: failure.status, message: failure.message });
      await this.sleep(ms, signal);
    }
  }

  // ---- endpoints -----------------------------------------------------------

  async brands(signal?: AbortSignal): Promise<{ brands: Brand[]; warnings: string[] }> {
    const json = await this.request('GET', '/get-brands', {}, undefined, signal);
    const env = brandsResponseSchema.safeParse(json);
    if (!env.success) throw shapeError('get-brands', env.error);
    const warnings: string[] = [];
    const brands: Brand[] = [];
    for (const b of env.data.brands) {
      const o = b as Record<string, unknown>;
      if (typeof o === 'object' && o !== null && typeof o.id === 'string' && typeof o.name === 'string') brands.push({ ...o, id: o.id, name: o.name });
      else warnings.push('a brand without an id or name was skipped');
    }
    return { brands, warnings };
  }

  /** Check inputs of get-outreach; returns the query to send. */
  static outreachQuery(q: OutreachQuery): Query {
    return {
      brand: must(checkBrandId(q.brand)),
      opportunity_type: q.opportunity_type === undefined ? undefined : must(checkOpportunityType(q.opportunity_type)),
      status: q.status === undefined ? undefined : must(checkStatus(q.status)),
      difficulty: q.difficulty === undefined ? undefined : must(checkDifficulty(q.difficulty)),
      domain: q.domain,
      archived: q.archived === undefined ? undefined : must(checkBooleanParam(q.archived, 'archived')),
      sort_by: q.sort_by === undefined ? undefined : must(checkOutreachSort(q.sort_by)),
      limit: q.limit === undefined ? undefined : must(checkPageSize(q.limit)),
      cursor: q.cursor,
    };
  }

  async outreachPage(q: OutreachQuery, signal?: AbortSignal): Promise<Page<Opportunity>> {
    const query = TrakkrClient.outreachQuery(q);
    const json = await this.request('GET', '/get-outreach', query, undefined, signal);
    const env = outreachResponseSchema.safeParse(json);
    if (!env.success) throw shapeError('get-outreach', env.error);
    const warnings: string[] = [];
    const items: Opportunity[] = [];
    for (const raw of env.data.opportunities) {
      const s = sanitizeOpportunity(raw);
      warnings.push(...s.warnings);
      if (s.record) items.push(s.record);
    }
    return { items, pagination: env.data.pagination, warnings, cursor: q.cursor };
  }

  /** Every page of get-outreach from `q.cursor` (or the first) to the end. */
  outreachPages(q: OutreachQuery, signal?: AbortSignal): AsyncGenerator<Page<Opportunity>> {
    TrakkrClient.outreachQuery(q); // refuse bad input before the first request
    return this.follow((cursor) => this.outreachPage({ ...q, cursor }, signal), q.cursor);
  }

  static citationsQuery(q: CitationsQuery): Query {
    const range = must(checkCitationRange({ start_date: q.start_date, end_date: q.end_date }));
    const mode = q.mode === undefined ? undefined : must(checkCitationMode(q.mode));
    if (q.query !== undefined && mode !== 'search-queries') throw new ApiError('invalid-input', 'The query-text filter applies only to mode search-queries.', { field: 'query' });
    if ((range.start_date || range.end_date) && mode === 'knowledge') throw new ApiError('invalid-input', 'Date filters apply only to modes citations and search-queries.', { field: 'start_date' });
    return {
      brand: must(checkBrandId(q.brand)),
      mode,
      start_date: range.start_date,
      end_date: range.end_date,
      domain: q.domain,
      [CITATIONS_QUERY_PARAM]: q.query,
      limit: q.limit === undefined ? undefined : must(checkPageSize(q.limit)),
      cursor: q.cursor,
    };
  }

  async citationsPage(q: CitationsQuery, signal?: AbortSignal): Promise<CitationsPage> {
    const query = TrakkrClient.citationsQuery(q);
    const mode: CitationMode = q.mode ?? 'citations';
    const json = await this.request('GET', '/get-citations', query, undefined, signal);
    const env = citationsResponseSchema.safeParse(json);
    if (!env.success) throw shapeError('get-citations', env.error);
    const body = env.data as Record<string, unknown>;
    const list = itemsOf(body, mode);
    const warnings: string[] = [];
    const items: Record<string, unknown>[] = [];
    for (const raw of list) {
      if (mode === 'citations') {
        const s = sanitizeCitation(raw);
        warnings.push(...s.warnings);
        if (s.record) items.push(s.record as CitationItem & Record<string, unknown>);
      } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) items.push(raw as Record<string, unknown>);
      else warnings.push('an item that is not an object was skipped');
    }
    return { items, pagination: env.data.pagination, warnings, cursor: q.cursor, mode, updatedAt: env.data.updated_at, summary: env.data.summary };
  }

  citationsPages(q: CitationsQuery, signal?: AbortSignal): AsyncGenerator<CitationsPage> {
    TrakkrClient.citationsQuery(q);
    return this.follow((cursor) => this.citationsPage({ ...q, cursor }, signal), q.cursor);
  }

  /** get-scores; POST with a JSON body when a breakdown is asked for (how GET encodes it is not documented). */
  async scores(q: ScoresQuery, opts: { method?: 'GET' | 'POST'; signal?: AbortSignal } = {}): Promise<ScoresResult> {
    const brand = must(checkBrandId(q.brand));
    const breakdown = must(checkBreakdown(q.breakdown));
    const range = must(checkScoresRange({ start_date: q.start_date, end_date: q.end_date }));
    const method = opts.method ?? (breakdown.length ? 'POST' : 'GET');
    const input = { brand, ...(breakdown.length ? { breakdown } : {}), ...range };
    const json =
      method === 'POST'
        ? await this.request('POST', '/get-scores', {}, input, opts.signal)
        : await this.request('GET', '/get-scores', { brand, start_date: range.start_date, end_date: range.end_date, breakdown: breakdown.length ? breakdown.join(',') : undefined }, undefined, opts.signal);
    const env = scoresResponseSchema.safeParse(json);
    if (!env.success) throw shapeError('get-scores', env.error);
    const warnings: string[] = [];
    const points: ScorePoint[] = [];
    for (const raw of env.data.data) {
      const s = sanitizeScorePoint(raw);
      warnings.push(...s.warnings);
      if (s.record) points.push(s.record);
    }
    return { response: json as Record<string, unknown>, points, warnings };
  }

  /**
   * Follow cursors to the end; a cursor seen twice is an error, not a loop.
   * The next page is requested while the caller works on this one, so the
   * network and the caller's writes overlap.
   */
  private async *follow<P extends { pagination: Pagination }>(fetchPage: (cursor: string | undefined) => Promise<P>, start: string | undefined): AsyncGenerator<P> {
    const seen = new Set<string>();
    if (start !== undefined) seen.add(start);
    let pending: Promise<P> | null = fetchPage(start);
    try {
      while (pending) {
        const page: P = await pending;
        pending = null;
        const next = page.pagination.next_cursor;
        const more = page.pagination.has_more && next !== null && next !== '';
        if (more) {
          if (seen.has(next)) {
            yield page;
            throw new ApiError('cursor-loop', 'The service handed back a page cursor it had already given; stopped to avoid fetching the same pages forever. Try the sync again later.');
          }
          seen.add(next);
          pending = fetchPage(next);
          pending.catch(() => {}); // handled when awaited; the caller may stop early
        }
        yield page;
      }
    } finally {
      pending = null;
    }
  }
}

function itemsOf(body: Record<string, unknown>, mode: CitationMode): unknown[] {
  const preferred = mode === 'citations' ? ['citations'] : mode === 'search-queries' ? ['search_queries', 'queries', 'citations'] : ['knowledge', 'citations'];
  for (const k of [...preferred, 'results', 'items', 'data']) if (Array.isArray(body[k])) return body[k] as unknown[];
  for (const [k, v] of Object.entries(body)) if (k !== 'pagination' && Array.isArray(v)) return v;
  return [];
}

function shapeError(endpoint: string, error: { issues: { path: PropertyKey[]; message: string }[] }): ApiError {
  const issue = error.issues[0];
  const where = issue ? issue.path.map(String).join('.') || 'the body' : 'the body';
  return new ApiError('bad-response', `The service's answer to ${endpoint} was not in the documented shape (${where}: ${issue?.message ?? 'unexpected'}).`);
}

function describeNetworkError(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code;
  const byCode: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'the connection was dropped',
    ENOTFOUND: 'the host name could not be found',
    EAI_AGAIN: 'the host name could not be looked up; are you offline?',
    ETIMEDOUT: 'the connection timed out',
    UND_ERR_SOCKET: 'the connection was dropped',
    EHOSTUNREACH: 'the host is unreachable',
    ENETUNREACH: 'the network is unreachable; are you offline?',
  };
  if (code && byCode[code]) return byCode[code];
  return redactKeys(err.cause?.message ?? err.message ?? 'unknown network error');
}

