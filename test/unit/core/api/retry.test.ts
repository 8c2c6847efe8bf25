// The retry policy alone: which failures retry, how long each wait is, caps, and when it stops.
import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../../../electron/core/api/errors';
import {
  DEFAULT_RETRY_POLICY,
  NO_TRIES,
  backoffSeconds,
  capWait,
  isRetried,
  nextStep,
  parseRateLimitReset,
  parseRetryAfter,
  rateLimitSeconds,
  retryPolicy,
  type StepContext,
  type Tries,
} from '../../../../electron/core/api/retry';

const NOW = Date.UTC(2026, 0, 1, 0, 0, 0);
const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });
const half = () => 0.5;
const ctx = (over: Partial<StepContext> = {}): StepContext => ({ tries: NO_TRIES, policy: DEFAULT_RETRY_POLICY, nowMs: NOW, random: half, ...over });
const limited: ApiFailure = { kind: 'rate-limited', message: 'The service is rate-limiting requests (429).', status: 429, requestId: 'r1', field: 'brand' };
const server: ApiFailure = { kind: 'service-error', message: 'The service had an error (503).', status: 503, requestId: 'r2', field: 'x' };

describe('headers', () => {
  it('Retry-After: delta-seconds or an HTTP date, never negative; nonsense is no answer', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter(' 1.5 ', NOW)).toBe(1.5);
    expect(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30);
    expect(parseRetryAfter(new Date(NOW - 30_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('  ', NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
  });
  it('X-RateLimit-Reset: a Unix time above 1e9, otherwise seconds', () => {
    expect(parseRateLimitReset(String(NOW / 1000 + 42), NOW)).toBe(42);
    expect(parseRateLimitReset(String(NOW / 1000 - 5), NOW)).toBe(0);
    expect(parseRateLimitReset('42', NOW)).toBe(42);
    expect(parseRateLimitReset('-1', NOW)).toBeNull();
    expect(parseRateLimitReset(null, NOW)).toBeNull();
  });
});

describe('how long to wait', () => {
  it('after a 429: Retry-After first, then X-RateLimit-Reset, then backing off towards a minute with jitter', () => {
    expect(rateLimitSeconds(headers({ 'retry-after': '3', 'x-ratelimit-reset': '9' }), NOW, 1, half)).toBe(3);
    expect(rateLimitSeconds(headers({ 'x-ratelimit-reset': '9' }), NOW, 1, half)).toBe(9);
    expect([1, 2, 3, 4, 5, 6].map((n) => rateLimitSeconds(undefined, NOW, n, half))).toEqual([5, 10, 20, 40, 60, 60]);
    expect(rateLimitSeconds(headers({}), NOW, 1, () => 0)).toBeCloseTo(4.5);
    expect(rateLimitSeconds(headers({}), NOW, 1, () => 1)).toBeCloseTo(5.5);
  });
  it('after a failure: 0.5, 1, 2, 4 … s up to 30, each between half and all of that', () => {
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, () => 1))).toEqual([0.5, 1, 2, 4]);
    expect([1, 2, 3].map((n) => backoffSeconds(n, half))).toEqual([0.375, 0.75, 1.5]);
    expect(backoffSeconds(20, () => 0)).toBe(15);
    expect(backoffSeconds(20, () => 1)).toBe(30);
  });
  it('a wait longer than the maximum is cut to it and reported as capped; none is negative', () => {
    const w = { reason: 'rate-limit' as const, attempt: 1, status: 429, message: 'm' };
    expect(capWait({ ...w, seconds: 3600 }, 90_000)).toEqual({ ...w, seconds: 90, capped: true });
    expect(capWait({ ...w, seconds: 90 }, 90_000)).toEqual({ ...w, seconds: 90, capped: false });
    expect(capWait({ ...w, seconds: -1 }, 90_000)).toEqual({ ...w, seconds: 0, capped: false });
  });
});

describe('which failures retry', () => {
  it('network, server and unreadable bodies retry; key, input and request problems do not', () => {
    expect(['service-unreachable', 'service-error', 'bad-response'].every((k) => isRetried(k as never))).toBe(true);
    expect(['key-rejected', 'service-refused', 'invalid-input', 'no-key', 'cancelled', 'rate-limited'].some((k) => isRetried(k as never))).toBe(false);
  });
  it('options left out take the defaults', () => {
    expect(retryPolicy({})).toEqual({ maxAttempts: 5, maxRateLimitRetries: 8, maxWaitMs: 120_000 });
    expect(retryPolicy({ maxAttempts: 2, maxWaitMs: undefined })).toEqual({ maxAttempts: 2, maxRateLimitRetries: 8, maxWaitMs: 120_000 });
  });
});

describe('the next step', () => {
  it('401, 403 and other 4xx stop at once with the failure as it is', () => {
    for (const [kind, status] of [
      ['key-rejected', 401],
      ['key-rejected', 403],
      ['service-refused', 400],
    ] as const) {
      const failure: ApiFailure = { kind, message: 'no', status };
      expect(nextStep(failure, ctx())).toEqual({ action: 'stop', failure });
    }
  });

  it('a 429 waits as asked, reports the wait, and does not use up a try', () => {
    const tries: Tries = { failures: 2, rateLimitWaits: 0 };
    const step = nextStep(limited, ctx({ tries, headers: headers({ 'retry-after': '4' }) }));
    expect(step).toEqual({
      action: 'wait',
      wait: { reason: 'rate-limit', seconds: 4, attempt: 1, status: 429, message: limited.message, capped: false },
      tries: { failures: 2, rateLimitWaits: 1 },
    });
  });

  it('a long Retry-After is capped at the policy maximum', () => {
    const step = nextStep(limited, ctx({ headers: headers({ 'retry-after': '3600' }), policy: { ...DEFAULT_RETRY_POLICY, maxWaitMs: 90_000 } }));
    expect(step).toMatchObject({ action: 'wait', wait: { seconds: 90, capped: true } });
  });

  it('gives up after the allowed number of 429 waits, keeping status, request id and field', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxRateLimitRetries: 2 };
    expect(nextStep(limited, ctx({ policy, tries: { failures: 0, rateLimitWaits: 1 } })).action).toBe('wait');
    expect(nextStep(limited, ctx({ policy, tries: { failures: 0, rateLimitWaits: 2 } }))).toEqual({
      action: 'stop',
      failure: { ...limited, message: `${limited.message} Still limited after 2 waits; try again later.` },
    });
  });

  it('a server error backs off with jitter, counting tries', () => {
    let tries = NO_TRIES;
    const seconds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const step = nextStep(server, ctx({ tries }));
      if (step.action !== 'wait') throw new Error('expected a wait');
      expect(step.wait).toMatchObject({ reason: 'retry', attempt: i + 1, status: 503, capped: false });
      seconds.push(step.wait.seconds);
      tries = step.tries;
    }
    expect(seconds).toEqual([0.375, 0.75, 1.5]);
    expect(tries).toEqual({ failures: 3, rateLimitWaits: 0 });
  });

  it('gives up on the last try, saying how many, with status and request id only', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 };
    expect(nextStep(server, ctx({ policy, tries: { failures: 2, rateLimitWaits: 5 } }))).toEqual({
      action: 'stop',
      failure: { kind: 'service-error', message: 'The service had an error (503). Gave up after 3 tries.', status: 503, requestId: 'r2' },
    });
    const network: ApiFailure = { kind: 'service-unreachable', message: 'Could not reach the service.', cause: new Error('x') };
    expect(nextStep(network, ctx({ policy: { ...policy, maxAttempts: 1 } }))).toEqual({
      action: 'stop',
      failure: { kind: 'service-unreachable', message: 'Could not reach the service. Gave up after 1 tries.', status: undefined, requestId: undefined },
    });
  });

  it('a reported wait never carries a key', () => {
    const key = 'sk_live_' + 'K'.repeat(32);
    const step = nextStep({ ...limited, message: `limited for ${key}` }, ctx({ headers: headers({ 'retry-after': '1' }) }));
    expect(step.action === 'wait' && step.wait.message).toBe('limited for sk_live_[redacted]');
  });
});
