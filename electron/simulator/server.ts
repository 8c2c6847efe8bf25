// A local simulator of the Trakkr API (spec: api-spec.md, api-facts.md) on
// loopback, with faults on demand. Used by tests, benchmarks, the CLI's demo
// and the app's demo mode.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { CITATIONS_QUERY_PARAM, LIMITS, type OutreachSort } from '../../shared/domain';
import {
  addDays,
  checkBooleanParam,
  checkBrandId,
  checkBreakdown,
  checkCitationMode,
  checkDate,
  checkDifficulty,
  checkOpportunityType,
  checkOutreachSort,
  checkPageSize,
  checkScoresRange,
  checkStatus,
  dayNumber,
  type RuleResult,
} from '../../shared/rules';
import { citationSummary, scoreEntries, todayUtc, type DataOptions } from './data';
import { hashString } from './rng';
import { type BrandState, makeBrands, type OutreachFilter } from './store';

/** The simulator's demo key: an example key accepted only by this local simulator. */
export const DEMO_KEY = 'sk_live_DEMOdemoDEMOdemoDEMOdemoDEMOdemo'; // example key, not a real credential

export type ErrorForm = 'code' | 'text' | 'mixed';
export type RateLimitBody = 'code' | 'object' | 'text' | 'detail' | 'none' | 'html';

export type Fault =
  | { kind: 'rate-limit'; count?: number; path?: string; retryAfter?: number | string | null; body?: RateLimitBody; reset?: 'seconds' | 'epoch' | 'none' }
  | { kind: 'server-error'; count?: number; path?: string; status?: number }
  | { kind: 'drop'; count?: number; path?: string }
  | { kind: 'truncate'; count?: number; path?: string }
  | { kind: 'non-json'; count?: number; path?: string; status?: number }
  | { kind: 'repeat-cursor'; count?: number; path?: string }
  | { kind: 'auth-store-down'; count?: number; path?: string }
  | { kind: 'latency'; count?: number; path?: string; ms: number };

export const FAULT_KINDS = ['rate-limit', 'server-error', 'drop', 'truncate', 'non-json', 'repeat-cursor', 'auth-store-down', 'latency'] as const;

export interface SimulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  opportunities?: number;
  otherBrandOpportunities?: number;
  brands?: number;
  citationsPerBrand?: number;
  today?: string;
  /** Keys accepted; default: the demo key. */
  keys?: string[];
  /** Requests per minute per key; 0 = no limit. */
  rateLimitPerMinute?: number;
  /** Delay before every answer, ms. */
  latencyMs?: number;
  /** Which error-body form auth and internal errors use ('mixed': both in use). */
  errorForm?: ErrorForm;
  faults?: Fault[];
  log?: (line: string) => void;
}

export interface MutateRequest {
  brand?: string;
  added?: number;
  changed?: number;
  removed?: number;
}

export interface Simulator {
  url: string;
  port: number;
  key: string;
  brands: { id: string; name: string }[];
  readonly requests: number;
  addFaults(...faults: Fault[]): void;
  clearFaults(): void;
  setRateLimit(perMinute: number): void;
  mutate(m: MutateRequest): { added: string[]; changed: string[]; removed: string[] };
  inject(brand: string, record: Record<string, unknown>): void;
  close(): Promise<void>;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  requestId: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error));
  }
}

const now = () => new Date().toISOString();

function invalidParams(errors: { field: string; message: string }[]): HttpError {
  return new HttpError(400, {
    error: 'INVALID_PARAMETER',
    message: errors[0]?.message ?? 'Invalid parameter',
    details: errors,
    timestamp: now(),
  });
}

function encodeCursor(pos: number, tag: string): string {
  return Buffer.from(`${pos}:${tag}`, 'utf8').toString('base64');
}

function decodeCursor(cursor: string, tag: string): number | null {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const m = /^(\d+):([0-9a-z]+)$/.exec(text);
  if (!m || m[2] !== tag) return null;
  return Number(m[1]);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const data: DataOptions = {
    seed: options.seed ?? 1,
    opportunities: options.opportunities ?? 1200,
    otherBrandOpportunities: options.otherBrandOpportunities ?? 150,
    brands: options.brands ?? 3,
    citationsPerBrand: options.citationsPerBrand ?? 300,
    today: options.today ?? todayUtc(),
  };
  const keys = new Set(options.keys ?? [DEMO_KEY]);
  const errorForm: ErrorForm = options.errorForm ?? 'mixed';
  let rateLimit = options.rateLimitPerMinute ?? 0;
  const latencyMs = options.latencyMs ?? 0;
  const log = options.log ?? (() => {});
  const brands = makeBrands(data);
  const byId = new Map(brands.map((b) => [b.id, b]));
  let faults: (Fault & { left: number })[] = (options.faults ?? []).map((f) => ({ ...f, left: f.count ?? 1 }));
  const windows = new Map<string, number[]>();
  let requests = 0;
  let mutations = 0;

  function takeFault(path: string, kinds: Fault['kind'][]): Fault | undefined {
    const f = faults.find((x) => kinds.includes(x.kind) && x.left > 0 && (!x.path || x.path === path));
    if (!f) return undefined;
    f.left -= 1;
    faults = faults.filter((x) => x.left > 0);
    return f;
  }

  function authError(kind: 'missing' | 'invalid' | 'store'): HttpError {
    const table = {
      missing: { status: 401, code: 'UNAUTHORIZED', message: 'Missing API key', entry: "API key must be provided in the Authorization header as 'Bearer <api_key>'" },
      invalid: { status: 403, code: 'FORBIDDEN', message: 'Invalid API key', entry: 'No accounts found for this API key' },
      store: { status: 500, code: 'INTERNAL_ERROR', message: 'Authentication error', entry: 'Could not validate API key against database' },
    }[kind];
    // 'mixed': the message-text form for 401 and the store failure (as on the
    // provider's authentication page), the code form for 403 (as in the reference).
    const text = errorForm === 'text' || (errorForm === 'mixed' && kind !== 'invalid');
    const body = text
      ? { error: table.message, errors: [table.entry], timestamp: now() }
      : { error: table.code, message: table.message, errors: [table.entry], timestamp: now() };
    return new HttpError(table.status, body);
  }

  function authenticate(ctx: Ctx): string {
    const fault = takeFault(ctx.path, ['auth-store-down']);
    if (fault) throw authError('store');
    const header = ctx.req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S.*)$/i.exec(header.trim()) : null;
    if (!m) throw authError('missing');
    const key = m[1]!.trim();
    if (!keys.has(key)) throw authError('invalid');
    return key;
  }

  function rateLimited(ctx: Ctx, key: string): void {
    const forced = takeFault(ctx.path, ['rate-limit']) as Extract<Fault, { kind: 'rate-limit' }> | undefined;
    const t = Date.now();
    let retryAfter: number | string | null = null;
    let limited = false;
    let resetAt = Math.ceil(t / 1000) + 60;
    if (rateLimit > 0) {
      const w = (windows.get(key) ?? []).filter((x) => x > t - 60_000);
      windows.set(key, w);
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

  function brandFor(v: unknown, errors: { field: string; message: string }[]): BrandState | null {
    const b = checkBrandId(v);
    if (!b.ok) {
      errors.push({ field: 'brand', message: v === undefined || v === '' ? "The 'brand' parameter is required" : b.message });
      return null;
    }
    return byId.get(b.value) ?? null;
  }

  function collect<T>(r: RuleResult<T>, errors: { field: string; message: string }[]): T | undefined {
    if (r.ok) return r.value;
    errors.push({ field: r.field, message: r.message });
    return undefined;
  }

  function param(ctx: Ctx, name: string): string | undefined {
    const v = ctx.url.searchParams.get(name);
    return v === null ? undefined : v;
  }

  /** Position a cursor points at (0 without one); a forged or stale cursor is a parameter error. */
  function readCursor(cursor: string | undefined, tag: string, errors: { field: string; message: string }[]): number {
    if (cursor === undefined) return 0;
    const pos = decodeCursor(cursor, tag);
    if (pos !== null) return pos;
    errors.push({ field: 'cursor', message: 'The cursor is not valid for this query (it may have expired).' });
    return 0;
  }

  function notReachable(): HttpError {
    return new HttpError(403, { error: 'FORBIDDEN', message: 'Access denied: this brand is not reachable with this API key', timestamp: now() });
  }

  function getOutreach(ctx: Ctx): unknown {
    const errors: { field: string; message: string }[] = [];
    const brand = brandFor(param(ctx, 'brand'), errors);
    const p = (n: string) => param(ctx, n);
    const filter: OutreachFilter = { archived: false };
    if (p('opportunity_type') !== undefined) filter.opportunity_type = collect(checkOpportunityType(p('opportunity_type')), errors);
    if (p('status') !== undefined) filter.status = collect(checkStatus(p('status')), errors);
    if (p('difficulty') !== undefined) filter.difficulty = collect(checkDifficulty(p('difficulty')), errors);
    if (p('domain') !== undefined) filter.domain = p('domain');
    if (p('archived') !== undefined) filter.archived = collect(checkBooleanParam(p('archived'), 'archived'), errors) ?? false;
    const sort: OutreachSort = p('sort_by') !== undefined ? (collect(checkOutreachSort(p('sort_by')), errors) ?? 'priority_score') : 'priority_score';
    const limit = p('limit') !== undefined ? (collect(checkPageSize(p('limit')), errors) ?? 100) : LIMITS.outreachDefaultPageSize;
    const tag = hashString(JSON.stringify([brand?.id, filter, sort, mutations])).toString(36);
    const cursor = p('cursor');
    const start = readCursor(cursor, tag, errors);
    if (errors.length) throw invalidParams(errors);
    if (!brand) throw notReachable();

    const order = brand.order(sort);
    const items: Record<string, unknown>[] = [];
    let pos = start;
    for (; pos < order.length && items.length < limit; pos++) {
      const i = order[pos]!;
      if (brand.matches(i, filter)) items.push(brand.record(i));
    }
    // Is there anything after this page?
    let more = false;
    for (let q = pos; q < order.length; q++) {
      if (brand.matches(order[q]!, filter)) {
        more = true;
        break;
      }
    }
    let next = more ? encodeCursor(pos, tag) : null;
    if (cursor !== undefined && takeFault(ctx.path, ['repeat-cursor'])) next = cursor;
    return { brand_id: brand.id, opportunities: items, pagination: { limit, has_more: next !== null, next_cursor: next } };
  }

  async function getScores(ctx: Ctx): Promise<unknown> {
    let input: Record<string, unknown> = {};
    if (ctx.req.method === 'POST') {
      const text = await readBody(ctx.req);
      try {
        const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        input = parsed as Record<string, unknown>;
      } catch {
        throw invalidParams([{ field: 'body', message: 'The request body must be a JSON object.' }]);
      }
    } else {
      const sp = ctx.url.searchParams;
      for (const k of ['brand', 'start_date', 'end_date']) if (sp.has(k)) input[k] = sp.get(k);
      const raw = [...sp.getAll('breakdown'), ...sp.getAll('breakdown[]')];
      if (raw.length) {
        input.breakdown = raw.flatMap((r) => {
          if (r.startsWith('[')) {
            try {
              const arr: unknown = JSON.parse(r);
              return Array.isArray(arr) ? arr : [r];
            } catch {
              return [r];
            }
          }
          return r.split(',').map((s) => s.trim()).filter(Boolean);
        });
      }
    }
    const errors: { field: string; message: string }[] = [];
    const brand = brandFor(input.brand, errors);
    const breakdown = collect(checkBreakdown(input.breakdown), errors) ?? [];
    const range = collect(
      checkScoresRange({
        start_date: input.start_date as string | undefined,
        end_date: input.end_date as string | undefined,
      }),
      errors,
    );
    if (errors.length) throw invalidParams(errors);
    if (!brand) throw notReachable();
    const end = range?.end_date ?? data.today;
    const start = range?.start_date ?? addDays(end, -LIMITS.scoresDefaultWindowDays);
    if ((dayNumber(end) ?? 0) < (dayNumber(start) ?? 0)) throw invalidParams([{ field: 'start_date', message: 'start_date is after end_date' }]);
    return {
      brand_id: brand.id,
      brand_name: brand.name,
      start_date: start,
      end_date: end,
      breakdown,
      data: scoreEntries(data.seed, brand, start, end, breakdown),
      errors: null,
    };
  }

  function getCitations(ctx: Ctx): unknown {
    const errors: { field: string; message: string }[] = [];
    const p = (n: string) => param(ctx, n);
    const brand = brandFor(p('brand'), errors);
    const mode = p('mode') !== undefined ? (collect(checkCitationMode(p('mode')), errors) ?? 'citations') : 'citations';
    const startDate = p('start_date') !== undefined ? collect(checkDate(p('start_date'), 'start_date'), errors) : undefined;
    const endDate = p('end_date') !== undefined ? collect(checkDate(p('end_date'), 'end_date'), errors) : undefined;
    const domain = p('domain');
    const query = p(CITATIONS_QUERY_PARAM);
    const limit = p('limit') !== undefined ? (collect(checkPageSize(p('limit')), errors) ?? 100) : 100;
    const filtered = startDate !== undefined || endDate !== undefined || domain !== undefined || query !== undefined;
    const tag = hashString(JSON.stringify([brand?.id, mode, startDate, endDate, domain, query])).toString(36);
    const cursor = p('cursor');
    const start = readCursor(cursor, tag, errors);
    if (errors.length) throw invalidParams(errors);
    if (!brand) throw notReachable();
    const dated = mode !== 'knowledge';
    const all = brand.citations(mode).filter((c) => {
      const seen = String(c.last_seen ?? '').slice(0, 10);
      if (dated && startDate !== undefined && seen < startDate) return false;
      if (dated && endDate !== undefined && seen > endDate) return false;
      if (domain !== undefined) {
        const d = typeof c.domain === 'string' ? c.domain : Array.isArray(c.citations) ? (c.citations as { domain: string }[]).map((x) => x.domain).join(' ') : '';
        if (!d.toLowerCase().includes(domain.toLowerCase())) return false;
      }
      if (mode === 'search-queries' && query !== undefined && !String(c.query).toLowerCase().includes(query.toLowerCase())) return false;
      return true;
    });
    const page = all.slice(start, start + limit);
    const end = start + page.length;
    let next = end < all.length ? encodeCursor(end, tag) : null;
    if (cursor !== undefined && takeFault(ctx.path, ['repeat-cursor'])) next = cursor;
    const key = mode === 'citations' ? 'citations' : mode === 'search-queries' ? 'search_queries' : 'knowledge';
    const body: Record<string, unknown> = {
      brand_id: brand.id,
      mode,
      updated_at: `${data.today}T01:42:25.502006+00:00`,
    };
    if (mode === 'citations' && !filtered) body.summary = citationSummary(brand.citations('citations'));
    body[key] = page;
    body.pagination = { limit, has_more: next !== null, next_cursor: next };
    return body;
  }

  function mutate(m: MutateRequest): { added: string[]; changed: string[]; removed: string[] } {
    const brand = m.brand ? byId.get(m.brand) : brands[0];
    if (!brand) throw new HttpError(404, { error: 'NOT_FOUND', message: 'No such brand', timestamp: now() });
    mutations++;
    const salt = mutations * 7919;
    const result = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
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
    brand.invalidate();
    return result;
  }

  function inject(brandIdValue: string, record: Record<string, unknown>): void {
    const brand = byId.get(brandIdValue);
    if (!brand) throw new HttpError(404, { error: 'NOT_FOUND', message: 'No such brand', timestamp: now() });
    brand.injected.push(record);
    mutations++;
    brand.invalidate();
  }

  async function admin(ctx: Ctx): Promise<unknown> {
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
          requests,
          faults,
          rateLimitPerMinute: rateLimit,
          brands: brands.map((b) => ({ id: b.id, name: b.name, opportunities: b.count })),
        };
      case 'POST /__sim/faults': {
        const j = json();
        const list = (Array.isArray(j) ? j : [j]) as Fault[];
        for (const f of list) {
          if (!FAULT_KINDS.includes(f.kind)) throw new HttpError(400, { error: 'INVALID_PARAMETER', message: `Unknown fault kind ${String(f.kind)}`, timestamp: now() });
        }
        faults.push(...list.map((f) => ({ ...f, left: f.count ?? 1 })));
        return { faults };
      }
      case 'DELETE /__sim/faults':
        faults = [];
        return { faults };
      case 'POST /__sim/rate-limit': {
        const j = json() as { perMinute?: number };
        rateLimit = Number(j.perMinute ?? 0);
        windows.clear();
        return { rateLimitPerMinute: rateLimit };
      }
      case 'POST /__sim/mutate':
        return mutate(json() as MutateRequest);
      case 'POST /__sim/inject': {
        const j = json() as { brand: string; record: Record<string, unknown> };
        inject(j.brand, j.record);
        return { ok: true };
      }
      default:
        throw new HttpError(404, { error: 'NOT_FOUND', message: `No admin route ${ctx.path}`, timestamp: now() });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ctx: Ctx = { req, res, url, path: url.pathname, requestId: `req_${randomUUID().slice(0, 12)}` };
    res.setHeader('X-Request-Id', ctx.requestId);
    if (ctx.path.startsWith('/__sim/')) {
      send(ctx, 200, await admin(ctx));
      return;
    }
    requests++;
    const lat = (takeFault(ctx.path, ['latency']) as { ms?: number } | undefined)?.ms ?? latencyMs;
    if (lat > 0) await new Promise((r) => setTimeout(r, lat));
    if (takeFault(ctx.path, ['drop'])) {
      req.socket.destroy();
      return;
    }
    const routes: Record<string, { methods: string[]; run: (c: Ctx) => unknown }> = {
      '/get-brands': { methods: ['GET'], run: () => ({ brands: brands.map((b) => ({ id: b.id, name: b.name })) }) },
      '/get-outreach': { methods: ['GET'], run: getOutreach },
      '/get-citations': { methods: ['GET'], run: getCitations },
      '/get-scores': { methods: ['GET', 'POST'], run: getScores },
    };
    const route = routes[ctx.path];
    if (!route) throw new HttpError(404, { error: 'NOT_FOUND', message: `No endpoint ${ctx.path}`, timestamp: now() });
    if (!route.methods.includes(req.method ?? 'GET')) {
      res.setHeader('Allow', route.methods.join(', '));
      throw new HttpError(405, { error: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed on ${ctx.path}`, timestamp: now() });
    }
    const key = authenticate(ctx);
    rateLimited(ctx, key);
    const serverError = takeFault(ctx.path, ['server-error']) as { status?: number } | undefined;
    if (serverError) {
      throw new HttpError(serverError.status ?? 500, { error: 'INTERNAL_ERROR', message: 'An unexpected error occurred', timestamp: now() });
    }
    const nonJson = takeFault(ctx.path, ['non-json']) as { status?: number } | undefined;
    if (nonJson) throw new RawResponse(nonJson.status ?? 502, 'text/html', '<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>');
    const result = await route.run(ctx);
    if (takeFault(ctx.path, ['truncate'])) {
      const text = JSON.stringify(result);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(text.slice(0, Math.floor(text.length / 2)));
      return;
    }
    send(ctx, 200, result);
  }

  function send(ctx: Ctx, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    ctx.res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    ctx.res.end(text);
    log(`${ctx.req.method} ${ctx.url.pathname}${ctx.url.search ? '?' + redactQuery(ctx.url) : ''} ${status}`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const ctx: Ctx = { req, res, url, path: url.pathname, requestId: String(res.getHeader('X-Request-Id') ?? '') };
      if (res.headersSent || res.destroyed) return;
      if (err instanceof RawResponse) {
        res.writeHead(err.status, { 'Content-Type': err.type });
        res.end(err.text);
        log(`${req.method} ${url.pathname} ${err.status}`);
      } else if (err instanceof HttpError) {
        const body = err.status === 429 && !('timestamp' in err.body) ? err.body : { ...err.body, request_id: ctx.requestId };
        send(ctx, err.status, body);
      } else {
        send(ctx, 500, { error: 'INTERNAL_ERROR', message: 'An unexpected error occurred', timestamp: now(), request_id: ctx.requestId });
      }
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    key: [...keys][0] ?? DEMO_KEY,
    brands: brands.map((b) => ({ id: b.id, name: b.name })),
    get requests() {
      return requests;
    },
    addFaults: (...f) => faults.push(...f.map((x) => ({ ...x, left: x.count ?? 1 }))),
    clearFaults: () => {
      faults = [];
    },
    setRateLimit: (n) => {
      rateLimit = n;
      windows.clear();
    },
    mutate,
    inject,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

class RawResponse extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly text: string,
  ) {
    super(`raw ${status}`);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        reject(new HttpError(413, { error: 'INVALID_PARAMETER', message: 'Body too large', timestamp: now() }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function redactQuery(url: URL): string {
  return url.searchParams.toString();
}

