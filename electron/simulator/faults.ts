// Faults on demand (options, addFaults, POST /__sim/faults): which pending fault a request meets, and
// the broken answers it gets. Only the full simulator (server.ts) uses this; the demo leaves it out.
import { internalError, RawResponse, type Ctx } from './http';
import type { ForcedRateLimit, RateLimiter } from './rate-limit';
import { authError } from './routes';
import type { Hooks } from './serve';
import type { SimState } from './state';

/**
 * Which requests a fault meets (`path`: only that endpoint), how many times (default once), and how
 * many of them it lets pass untouched first (`after`: e.g. 2 breaks the third page, not the first).
 */
interface Scope {
  count?: number;
  path?: string;
  after?: number;
}

export type Fault =
  | ({ kind: 'rate-limit' } & Scope & ForcedRateLimit)
  | ({ kind: 'server-error'; status?: number } & Scope)
  | ({ kind: 'drop' } & Scope)
  | ({ kind: 'truncate' } & Scope)
  | ({ kind: 'non-json'; status?: number } & Scope)
  | ({ kind: 'repeat-cursor' } & Scope)
  // A 200 with valid JSON of the wrong shape: the body's list (`field`; default every top-level list,
  // e.g. `opportunities`, `data`) sent as an object keyed by position, as a buggy server might.
  | ({ kind: 'wrong-shape'; field?: string } & Scope)
  | ({ kind: 'auth-store-down' } & Scope)
  | ({ kind: 'latency'; ms: number } & Scope);

export const FAULT_KINDS = [
  'rate-limit',
  'server-error',
  'drop',
  'truncate',
  'non-json',
  'repeat-cursor',
  'wrong-shape',
  'auth-store-down',
  'latency',
] as const;

/** The faults still to happen, each with the number of requests it has left. */
export class FaultQueue {
  private pending: (Fault & { left: number })[] = [];

  constructor(faults: Fault[] = []) {
    this.add(...faults);
  }

  add(...faults: Fault[]): void {
    this.pending.push(...faults.map((f) => ({ ...f, left: f.count ?? 1, after: f.after ?? 0 })));
  }

  clear(): void {
    this.pending = [];
  }

  list(): readonly (Fault & { left: number })[] {
    return this.pending;
  }

  /** The first pending fault of this kind for this path, used up by one (or, while it lets requests pass first, one fewer to let pass). */
  take<K extends Fault['kind']>(path: string, kind: K): Extract<Fault, { kind: K }> | undefined {
    const meets = (x: Fault & { left: number }): x is Extract<Fault, { kind: K }> & { left: number } =>
      x.kind === kind && x.left > 0 && (!x.path || x.path === path);
    const f = this.pending.find(meets);
    if (!f) return undefined;
    if (f.after) {
      f.after -= 1;
      return undefined;
    }
    f.left -= 1;
    this.pending = this.pending.filter((x) => x.left > 0);
    return f;
  }
}

function isPage(result: unknown): result is { pagination: Record<string, unknown> } {
  const pagination = (result as { pagination?: unknown } | null)?.pagination;
  return typeof pagination === 'object' && pagination !== null;
}

/** The body with its list (`field`, else every top-level list) turned into an object keyed by position. */
function wrongShape(result: unknown, field?: string): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return { items: result };
  const keyed = (list: unknown[]) => Object.fromEntries(list.map((x, i) => [String(i), x]));
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Array.isArray(v) && (field === undefined || field === k) ? keyed(v) : v]));
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
      if (nonJson)
        throw new RawResponse(nonJson.status ?? 502, 'text/html', '<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>');
    },
    rewrite(ctx, result) {
      // A page asked for with a cursor hands the same cursor back: a client must notice the loop.
      const cursor = ctx.url.searchParams.get('cursor');
      let out = result;
      if (cursor !== null && isPage(out) && faults.take(ctx.path, 'repeat-cursor'))
        out = { ...out, pagination: { ...out.pagination, has_more: true, next_cursor: cursor } };
      const shape = faults.take(ctx.path, 'wrong-shape');
      return shape ? wrongShape(out, shape.field) : out;
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
