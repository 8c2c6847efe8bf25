// The Trakkr API client: all four endpoints with every documented parameter,
// inputs checked before any request, resilient to 429s, 5xx, dropped
// connections and bad bodies, paced under the plan's rate, and incapable of
// letting the key leave in a message. Answers are taken only from the origin
// asked: a redirect to another address is an error, never data. The request
// loop lives here; its parts are inputs.ts, pacing.ts, retry.ts, parse.ts and
// cursors.ts.
import { DEFAULT_BASE_URL, type CitationMode } from '../../../shared/domain';
import type { Brand, CitationsQuery, Opportunity, OutreachQuery, Pagination, ScorePoint, ScoresQuery } from '../../../shared/api/schemas';
import { checkApiBaseUrl } from '../../../shared/api-origin';
import type { WaitInfo } from '../../../shared/model';
import { systemClock, type Clock, type SecretStore, type Transport } from '../seams';
import { ApiError, cancelledError, toApiError, type ApiFailure } from './errors';
import { followCursors, type CursorLimits } from './cursors';
import { redactSecret } from '../../../shared/rules';
import { citationsQuery, outreachQuery, requestUrl, scoresInput, type Query } from './inputs';
import { Pacer, sleepOrCancel } from './pacing';
import { brandsFrom, citationsFrom, networkFailure, outreachFrom, readReply, scorePointsFrom, type Reply } from './parse';
import { NO_TRIES, nextStep, retryPolicy, type HeaderReader, type RetryPolicy } from './retry';
export type { WaitInfo } from '../../../shared/model';
export { parseRateLimitReset, parseRetryAfter } from './retry';

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
  /** When following pages stops a misbehaving service (empty pages, repeats, too many pages or too long). */
  pageLimits?: CursorLimits;
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

/** One try's outcome: the response as text, or a failure before any response. */
type Sent = { ok: true; status: number; text: string; headers: HeaderReader } | Extract<Reply, { ok: false }>;

export class TrakkrClient {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;
  private readonly clock: Clock;
  private readonly fetchImpl: Transport;
  private readonly random: () => number;
  private readonly pacer: Pacer;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
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
    this.pacer = new Pacer(this.clock, opts.requestsPerMinute ?? 60);
    this.policy = retryPolicy(opts);
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.onWait = opts.onWait;
  }

  private async key(): Promise<string> {
    const key = this.opts.apiKey ?? (await this.opts.secrets?.get()) ?? null;
    if (!key) throw new ApiError('no-key', 'No API key is stored. Add one in Settings, or with `workbench key set`.');
    // The key in use is redacted in every form (whole, without its prefix, URL-encoded) from every message of this process.
    redactSecret(key);
    return key;
  }

  /** One call with retries; returns the parsed JSON body. */
  async request(method: 'GET' | 'POST', path: string, query: Query, body: unknown, signal?: AbortSignal): Promise<unknown> {
    const key = await this.key();
    const url = requestUrl(this.baseUrl, path, query);
    let tries = NO_TRIES;
    for (;;) {
      if (signal?.aborted) throw cancelledError();
      await this.pacer.wait(signal);
      const sent = await this.send(method, url, key, body, signal);
      const reply = sent.ok ? readReply(sent.status, sent.text, `${method} ${path}`) : sent;
      if (reply.ok) return reply.data;
      const step = nextStep(reply.failure, {
        headers: sent.ok ? sent.headers : undefined,
        tries,
        policy: this.policy,
        nowMs: this.clock.now(),
        random: this.random,
      });
      if (step.action === 'stop') throw toApiError(step.failure);
      tries = step.tries;
      this.onWait?.(step.wait);
      await sleepOrCancel(this.clock, step.wait.seconds * 1000, signal);
    }
  }

  /** One try over the transport, under the per-request timeout. */
  private async send(method: 'GET' | 'POST', url: URL, key: string, body: unknown, signal?: AbortSignal): Promise<Sent> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await this.fetchImpl(url, {
        method,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headers: {
          Authorization: `Bearer ${key}`,
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const elsewhere = answeredFrom(url, res);
      if (elsewhere) {
        await res.body?.cancel().catch(() => {});
        return { ok: false, failure: elsewhere };
      }
      return { ok: true, status: res.status, headers: res.headers, text: await res.text() };
    } catch (e) {
      if (signal?.aborted) throw cancelledError();
      return { ok: false, failure: networkFailure(e, url.host, timeout.aborted ? this.timeoutMs : undefined) };
    }
  }

  // ---- endpoints -----------------------------------------------------------

  async brands(signal?: AbortSignal): Promise<{ brands: Brand[]; warnings: string[] }> {
    return brandsFrom(await this.request('GET', '/get-brands', {}, undefined, signal));
  }

  /** Check inputs of get-outreach; returns the query to send. */
  static outreachQuery(q: OutreachQuery): Query {
    return outreachQuery(q);
  }

  async outreachPage(q: OutreachQuery, signal?: AbortSignal): Promise<Page<Opportunity>> {
    const query = outreachQuery(q);
    const json = await this.request('GET', '/get-outreach', query, undefined, signal);
    return { ...outreachFrom(json), cursor: q.cursor };
  }

  /** Every page of get-outreach from `q.cursor` (or the first) to the end. */
  outreachPages(q: OutreachQuery, signal?: AbortSignal): AsyncGenerator<Page<Opportunity>> {
    outreachQuery(q); // refuse bad input before the first request
    return followCursors((cursor) => this.outreachPage({ ...q, cursor }, signal), q.cursor, this.opts.pageLimits);
  }

  static citationsQuery(q: CitationsQuery): Query {
    return citationsQuery(q);
  }

  async citationsPage(q: CitationsQuery, signal?: AbortSignal): Promise<CitationsPage> {
    const query = citationsQuery(q);
    const mode: CitationMode = q.mode ?? 'citations';
    const json = await this.request('GET', '/get-citations', query, undefined, signal);
    return { ...citationsFrom(json, mode), cursor: q.cursor, mode };
  }

  citationsPages(q: CitationsQuery, signal?: AbortSignal): AsyncGenerator<CitationsPage> {
    citationsQuery(q);
    return followCursors((cursor) => this.citationsPage({ ...q, cursor }, signal), q.cursor, this.opts.pageLimits);
  }

  /** get-scores; POST with a JSON body when a breakdown is asked for (how GET encodes it is not documented). */
  async scores(q: ScoresQuery, opts: { method?: 'GET' | 'POST'; signal?: AbortSignal } = {}): Promise<ScoresResult> {
    const input = scoresInput(q);
    const method = opts.method ?? ('breakdown' in input.body ? 'POST' : 'GET');
    const json =
      method === 'POST'
        ? await this.request('POST', '/get-scores', {}, input.body, opts.signal)
        : await this.request('GET', '/get-scores', input.query, undefined, opts.signal);
    return { response: json as Record<string, unknown>, ...scorePointsFrom(json) };
  }
}

/**
 * A response that did not come from the origin asked (fetch followed a
 * redirect elsewhere, without the key), or a redirect left unfollowed: a
 * failure, never data. A redirect within the same origin is followed as fetch
 * does. Not retried: the address itself sends the request away.
 */
function answeredFrom(asked: URL, res: Response): ApiFailure | null {
  const status = res.status;
  let from: URL | null = null;
  try {
    from = res.url ? new URL(res.url) : null;
  } catch {
    from = null;
  }
  const advice = 'The answer was not used. Check the API address (Settings, or --base-url); if it is right, the service is at fault.';
  if (from && from.origin !== asked.origin)
    return {
      kind: 'bad-response',
      final: true,
      status,
      message: `The service at ${asked.origin} sent the request on to another address (${from.origin}). ${advice}`,
    };
  if ((status >= 300 && status < 400) || res.type === 'opaqueredirect')
    return {
      kind: 'bad-response',
      final: true,
      status,
      message: `The service at ${asked.origin} answered with a redirect (${status || 'opaque'}) instead of data. ${advice}`,
    };
  return null;
}
