// The retry policy, as pure functions: which failures are tried again, and how long to
// wait first (Retry-After, X-RateLimit-Reset, or backoff with jitter), capped and reported.
import { redactKeys } from '../../../shared/rules';
import type { WaitInfo } from '../../../shared/model';
import type { ApiErrorKind, ApiFailure } from './errors';

export interface RetryPolicy {
  /** Tries for 5xx, network failures and unreadable bodies. */
  maxAttempts: number;
  /** Waits allowed after 429 before giving up. */
  maxRateLimitRetries: number;
  /** The longest single wait; longer ones are cut to this and reported as capped. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, maxRateLimitRetries: 8, maxWaitMs: 120_000 };

/** The policy from the client's options; an option left out takes its default. */
export function retryPolicy(opts: { [K in keyof RetryPolicy]?: number | undefined }): RetryPolicy {
  return {
    maxAttempts: opts.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
    maxRateLimitRetries: opts.maxRateLimitRetries ?? DEFAULT_RETRY_POLICY.maxRateLimitRetries,
    maxWaitMs: opts.maxWaitMs ?? DEFAULT_RETRY_POLICY.maxWaitMs,
  };
}

/** What one request has used up so far. A rate-limit wait does not use up a try. */
export interface Tries {
  /** Failed tries (5xx, network, unreadable body). */
  failures: number;
  /** Waits after 429. */
  rateLimitWaits: number;
}

export const NO_TRIES: Tries = { failures: 0, rateLimitWaits: 0 };

/** The part of a response's headers the policy reads (a Headers object will do). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Failures that may go away by themselves: tried again after a backoff. */
const RETRIED: readonly ApiErrorKind[] = ['service-unreachable', 'service-error', 'bad-response'];

export function isRetried(kind: ApiErrorKind): boolean {
  return RETRIED.includes(kind);
}

const NUMBER = /^\d+(\.\d+)?$/;

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (NUMBER.test(v)) return Number(v);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, (t - nowMs) / 1000);
}

/** Seconds from X-RateLimit-Reset: values above 1e9 are a Unix time, smaller ones seconds. */
export function parseRateLimitReset(value: string | null, nowMs: number): number | null {
  if (value === null || !NUMBER.test(value.trim())) return null;
  const n = Number(value.trim());
  return n > 1e9 ? Math.max(0, n - nowMs / 1000) : n;
}

/**
 * Seconds to wait after the `wait`-th 429 in a row: what the service asked for,
 * else backing off towards a minute (5, 10, 20, 40, 60 s) with a little jitter.
 */
export function rateLimitSeconds(headers: HeaderReader | undefined, nowMs: number, wait: number, random: () => number): number {
  const asked = parseRetryAfter(headers?.get('retry-after') ?? null, nowMs) ?? parseRateLimitReset(headers?.get('x-ratelimit-reset') ?? null, nowMs);
  return asked ?? Math.min(60, 5 * 2 ** (wait - 1)) * (0.9 + 0.2 * random());
}

/** Capped exponential backoff with jitter: 0.5, 1, 2, 4 … up to 30 s, each between half and all of that. */
export function backoffSeconds(attempt: number, random: () => number): number {
  const base = Math.min(30, 0.5 * 2 ** (attempt - 1));
  return base / 2 + (base / 2) * random();
}

/** The wait as reported: cut to the maximum (and marked capped when it was), never negative. */
export function capWait(info: Omit<WaitInfo, 'capped'>, maxWaitMs: number): WaitInfo {
  const maxS = maxWaitMs / 1000;
  return { ...info, seconds: Math.max(0, Math.min(info.seconds, maxS)), capped: info.seconds > maxS };
}

export type Step =
  /** Wait this long (seconds in `wait`), then try again with `tries`. */
  | { action: 'wait'; wait: WaitInfo; tries: Tries }
  /** Stop with this failure. */
  | { action: 'stop'; failure: ApiFailure };

export interface StepContext {
  /** The failed response's headers; none for a network failure. */
  headers?: HeaderReader | undefined;
  tries: Tries;
  policy: RetryPolicy;
  nowMs: number;
  random: () => number;
}

/** What to do after a failed try: wait and try again, or stop (with the words to stop with). */
export function nextStep(failure: ApiFailure, ctx: StepContext): Step {
  const { tries, policy } = ctx;
  if (failure.kind === 'rate-limited') {
    const waits = tries.rateLimitWaits + 1;
    if (waits > policy.maxRateLimitRetries) {
      return {
        action: 'stop',
        failure: { ...failure, message: `${failure.message} Still limited after ${policy.maxRateLimitRetries} waits; try again later.` },
      };
    }
    const seconds = rateLimitSeconds(ctx.headers, ctx.nowMs, waits, ctx.random);
    const wait = capWait({ reason: 'rate-limit', seconds, attempt: waits, status: failure.status, message: redactKeys(failure.message) }, policy.maxWaitMs);
    return { action: 'wait', wait, tries: { ...tries, rateLimitWaits: waits } };
  }
  if (failure.final || !isRetried(failure.kind)) return { action: 'stop', failure };
  const attempt = tries.failures + 1;
  if (attempt >= policy.maxAttempts) {
    return {
      action: 'stop',
      failure: { kind: failure.kind, message: `${failure.message} Gave up after ${attempt} tries.`, status: failure.status, requestId: failure.requestId },
    };
  }
  const wait = capWait(
    { reason: 'retry', seconds: backoffSeconds(attempt, ctx.random), attempt, status: failure.status, message: redactKeys(failure.message) },
    policy.maxWaitMs,
  );
  return { action: 'wait', wait, tries: { ...tries, failures: attempt } };
}
