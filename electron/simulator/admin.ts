// The simulator's admin side (loopback, no key): changing the data between syncs (mutate, inject)
// and the /__sim/* routes that drive it, the faults and the rate limit. The demo leaves it out.
import { FAULT_KINDS, type Fault, type FaultQueue } from './faults';
import { HttpError, notFound, now, readBody, send, type Ctx } from './http';
import type { RateLimiter } from './rate-limit';
import type { Hooks } from './serve';
import type { SimState } from './state';

export interface MutateRequest {
  brand?: string;
  added?: number;
  changed?: number;
  removed?: number;
  /** Citations (mode citations) to put in, or to change at their address: a later sync brings them (a new page, a flip of mentions_brand). */
  cite?: Record<string, unknown>[];
}

export interface MutateResult {
  added: string[];
  changed: string[];
  removed: string[];
  cited: string[];
}

/** Adds, changes and removes records of a brand (default: the first), as happens between two syncs. */
export function mutate(state: SimState, m: MutateRequest): MutateResult {
  const brand = m.brand ? state.brand(m.brand) : state.brands[0];
  if (!brand) throw notFound('No such brand');
  state.mutations++;
  const salt = state.mutations * 7919;
  const result: MutateResult = { added: [], changed: [], removed: [], cited: [] };
  for (const i of brand.pickLive(m.removed ?? 0, salt + 1)) {
    brand.removed.add(i);
    result.removed.push(String(brand.record(i)._id));
  }
  for (const i of brand.pickLive(m.changed ?? 0, salt + 2)) {
    brand.changed.set(i, (brand.changed.get(i) ?? 0) + 1);
    result.changed.push(String(brand.record(i)._id));
  }
  const firstNew = brand.base + brand.added;
  // New records go after the generated ones; injected records keep their place after them.
  if (m.added && brand.injected.length === 0) {
    brand.added += m.added;
    for (let i = firstNew; i < firstNew + m.added; i++) result.added.push(String(brand.record(i)._id));
  }
  for (const c of m.cite ?? []) {
    if (typeof c.url !== 'string' || !c.url)
      throw new HttpError(400, { error: 'INVALID_PARAMETER', message: 'A citation to put in needs its url', timestamp: now() });
    brand.cite(c);
    result.cited.push(c.url);
  }
  brand.invalidate();
  return result;
}

/** Puts a record in by hand (tests of hostile data), after the generated ones. */
export function inject(state: SimState, brandId: string, record: Record<string, unknown>): void {
  const brand = state.brand(brandId);
  if (!brand) throw notFound('No such brand');
  brand.injected.push(record);
  state.mutations++;
  brand.invalidate();
}

const ADMIN_PREFIX = '/__sim/';

/** The pipeline's hook that answers /__sim/* before the API sees it. */
export function adminRoutes(state: SimState, faults: FaultQueue, limiter: RateLimiter): Required<Hooks>['intercept'] {
  async function answer(ctx: Ctx): Promise<unknown> {
    const body = ctx.req.method === 'POST' ? await readBody(ctx.req) : '';
    const json = (): unknown => {
      try {
        return body ? JSON.parse(body) : {};
      } catch {
        throw new HttpError(400, { error: 'INVALID_PARAMETER', message: 'Body must be JSON', timestamp: now() });
      }
    };
    switch (`${ctx.req.method} ${ctx.path}`) {
      case 'GET /__sim/state':
        return {
          requests: state.requests,
          faults: faults.list(),
          rateLimitPerMinute: limiter.limit,
          brands: state.brands.map((b) => ({ id: b.id, name: b.name, opportunities: b.count })),
        };
      case 'POST /__sim/faults': {
        const j = json();
        const list = (Array.isArray(j) ? j : [j]) as Fault[];
        for (const f of list) {
          if (!FAULT_KINDS.includes(f.kind))
            throw new HttpError(400, { error: 'INVALID_PARAMETER', message: `Unknown fault kind ${String(f.kind)}`, timestamp: now() });
        }
        faults.add(...list);
        return { faults: faults.list() };
      }
      case 'DELETE /__sim/faults':
        faults.clear();
        return { faults: faults.list() };
      case 'POST /__sim/rate-limit': {
        const j = json() as { perMinute?: number };
        limiter.set(Number(j.perMinute ?? 0));
        return { rateLimitPerMinute: limiter.limit };
      }
      case 'POST /__sim/mutate':
        return mutate(state, json() as MutateRequest);
      case 'POST /__sim/inject': {
        const j = json() as { brand: string; record: Record<string, unknown> };
        inject(state, j.brand, j.record);
        return { ok: true };
      }
      default:
        throw notFound(`No admin route ${ctx.path}`);
    }
  }
  return async (ctx) => {
    if (!ctx.path.startsWith(ADMIN_PREFIX)) return false;
    send(ctx, 200, await answer(ctx));
    return true;
  };
}
