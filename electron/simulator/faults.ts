// Faults on demand (options, addFaults, POST /__sim/faults): which pending fault a request meets, and
// the broken answers it gets. Only the full simulator (server.ts) uses this; the demo leaves it out.
import { internalError, RawResponse, type Ctx } from './http';
import type { ForcedRateLimit, RateLimiter } from './rate-limit';
import { authError } from './routes';
import type { Hooks } from './serve';
import type { SimState } from './state';

/** Which requests a fault meets (`path`: only that endpoint), and how many times (default once). */
interface Scope {
  count?: number;
  path?: string;
}

export type Fault =
  | ({ kind: 'rate-limit' } & Scope & ForcedRateLimit)
  | ({ kind: 'server-error'; status?: number } & Scope)
  | ({ kind: 'drop' } & Scope)
  | ({ kind: 'truncate' } & Scope)
  | ({ kind: 'non-json'; status?: number } & Scope)
  | ({ kind: 'repeat-cursor' } & Scope)
  | ({ kind: 'auth-store-down' } & Scope)
  | ({ kind: 'latency'; ms: number } & Scope);

export const FAULT_KINDS = ['rate-limit', 'server-error', 'drop', 'truncate', 'non-json', 'repeat-cursor', 'auth-store-down', 'latency'] as const;

/** The faults still to happen, each with the number of requests it has left. */
export class FaultQueue {
  private pending: (Fault & { left: number })[] = [];

  constructor(faults: Fault[] = []) {
    this.add(...faults);
  }

  add(...faults: Fault[]): void {
    this.pending.push(...faults.map((f) => ({ ...f, left: f.count ?? 1 })));
  }

  clear(): void {
    this.pending = [];
  }

  list(): readonly (Fault & { left: number })[] {
    return this.pending;
  }

  /** The first pending fault of this kind for this path, used up by one. */
  take<K extends Fault['kind']>(path: string, kind: K): Extract<Fault, { kind: K }> | undefined {
    const meets = (x: Fault & { left: number }): x is Extract<Fault, { kind: K }> & { left: number } => x.kind === kind && x.left > 0 && (!x.path || x.path === path);
    const f = this.pending.find(meets);
    if (!f) return undefined;
    f.left -= 1;
    this.pending = this.pending.filter((x) => x.left > 0);
    return f;
  }
}

function isPage(result: unknown): result is { pagination: Record<string, unknown> } {
  const pagination = (result as { pagination?: unknown } | null)?.pagination;
  return typeof pagination === 'object' && pagination !== null;
}

/** The pipeline's hooks that apply the pending faults, the rate limit and the steady latency. */
export function faultHooks(state: SimState, faults: FaultQueue, limiter: RateLimiter, latencyMs: number): Hooks {
  return {
    async arrive(ctx: Ctx) {
      const ms = faults.take(ctx.path, 'latency')?.ms ?? latencyMs;
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      if (!faults.take(ctx.path, 'drop')) return false;
      ctx.req.socket.destroy();
      return true;
    },
    beforeAuth(ctx) {
      if (faults.take(ctx.path, 'auth-store-down')) throw authError('store', state.errorForm);
    },
    admitted(ctx, key) {
      limiter.admit(ctx, key, faults.take(ctx.path, 'rate-limit'));
      const serverError = faults.take(ctx.path, 'server-error');
      if (serverError) throw internalError(serverError.status ?? 500);
      const nonJson = faults.take(ctx.path, 'non-json');
      if (nonJson) throw new RawResponse(nonJson.status ?? 502, 'text/html', '<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>');
    },
    rewrite(ctx, result) {
      // A page asked for with a cursor hands the same cursor back: a client must notice the loop.
      const cursor = ctx.url.searchParams.get('cursor');
      if (cursor === null || !isPage(result) || !faults.take(ctx.path, 'repeat-cursor')) return result;
      return { ...result, pagination: { ...result.pagination, has_more: true, next_cursor: cursor } };
    },
    deliver(ctx, result) {
      if (!faults.take(ctx.path, 'truncate')) return false;
      const text = JSON.stringify(result);
      ctx.res.writeHead(200, { 'Content-Type': 'application/json' });
      ctx.res.end(text.slice(0, Math.floor(text.length / 2)));
      return true;
    },
  };
}
