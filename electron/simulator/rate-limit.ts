// Rate limiting for the full simulator (not the demo): N requests a minute per key, and forced 429s,
// answered with Retry-After, the X-RateLimit-* headers and each body form the API is seen to use.
import { HttpError, now, RawResponse, type Ctx } from './http';

export type RateLimitBody = 'code' | 'object' | 'text' | 'detail' | 'none' | 'html';

/** How a forced 429 (a rate-limit fault) is answered. */
export interface ForcedRateLimit {
  retryAfter?: number | string | null;
  body?: RateLimitBody;
  reset?: 'seconds' | 'epoch' | 'none';
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private perMinute: number) {}

  /** Requests per minute per key; 0 = no limit. */
  get limit(): number {
    return this.perMinute;
  }

  set(perMinute: number): void {
    this.perMinute = perMinute;
    this.windows.clear();
  }

  /** Counts the request against its key's minute; throws the 429 when over the limit or forced. */
  admit(ctx: Ctx, key: string, forced?: ForcedRateLimit): void {
    const rateLimit = this.perMinute;
    const t = Date.now();
    let retryAfter: number | string | null = null;
    let limited = false;
    let resetAt = Math.ceil(t / 1000) + 60;
    if (rateLimit > 0) {
      const w = (this.windows.get(key) ?? []).filter((x) => x > t - 60_000);
      this.windows.set(key, w);
      const remaining = Math.max(0, rateLimit - w.length - 1);
      resetAt = Math.ceil(((w[0] ?? t) + 60_000) / 1000);
      ctx.res.setHeader('X-RateLimit-Limit', String(rateLimit));
      if (w.length >= rateLimit) {
        limited = true;
        retryAfter = Math.max(1, Math.ceil(((w[0] ?? t) + 60_000 - t) / 1000));
        ctx.res.setHeader('X-RateLimit-Remaining', '0');
      } else {
        w.push(t);
        ctx.res.setHeader('X-RateLimit-Remaining', String(remaining));
      }
    }
    if (!limited && !forced) return;
    const bodyForm: RateLimitBody = forced?.body ?? 'code';
    if (forced) retryAfter = forced.retryAfter === undefined ? 1 : forced.retryAfter;
    if (retryAfter !== null) ctx.res.setHeader('Retry-After', String(retryAfter));
    const reset = forced?.reset ?? 'epoch';
    if (reset !== 'none') {
      const secs = typeof retryAfter === 'number' ? retryAfter : 60;
      ctx.res.setHeader('X-RateLimit-Reset', String(reset === 'epoch' ? (forced ? Math.ceil(t / 1000) + secs : resetAt) : secs));
      if (!ctx.res.hasHeader('X-RateLimit-Limit')) ctx.res.setHeader('X-RateLimit-Limit', String(rateLimit || 60));
      ctx.res.setHeader('X-RateLimit-Remaining', '0');
    }
    const per = rateLimit || 60;
    const bodies: Record<RateLimitBody, unknown> = {
      code: { error: 'RATE_LIMIT_EXCEEDED', message: 'API rate limit exceeded. Please try again later.', timestamp: now() },
      object: { error: { code: 'rate_limit_exceeded', message: `Rate limit exceeded: ${per} per 1 minute` } },
      text: { error: `Rate limit exceeded: ${per} per 1 minute` },
      detail: { detail: { code: 'rate_limit_exceeded', message: 'Too many requests' } },
      none: null,
      html: null,
    };
    if (bodyForm === 'html') throw new RawResponse(429, 'text/html', '<html><body><h1>429 Too Many Requests</h1></body></html>');
    if (bodyForm === 'none') throw new RawResponse(429, 'text/plain', '');
    throw new HttpError(429, bodies[bodyForm] as Record<string, unknown>);
  }
}
