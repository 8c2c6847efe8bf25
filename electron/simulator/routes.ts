// The Trakkr API's four endpoints and its authentication, as the spec and
// api-facts.md describe them: parameters checked, pages cut with cursors.
import { CITATIONS_QUERY_PARAM, LIMITS, type OutreachSort } from '../../shared/domain';
import { addDays, dayNumber } from '../../shared/calendar';
import {
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
  type RuleResult,
} from '../../shared/rules';
import { citationSummary } from './citations';
import { scoreEntries } from './scores';
import { HttpError, invalidParams, now, readBody, type Ctx, type ParamErrors } from './http';
import { hashString } from './rng';
import type { ErrorForm, SimState } from './state';
import type { BrandState, OutreachFilter } from './store';

export interface Route {
  methods: string[];
  run: (ctx: Ctx) => unknown;
}

/** The API's endpoints by path. */
export function apiRoutes(state: SimState): Record<string, Route> {
  return {
    '/get-brands': { methods: ['GET'], run: () => ({ brands: state.brandList() }) },
    '/get-outreach': { methods: ['GET'], run: (ctx) => getOutreach(state, ctx) },
    '/get-citations': { methods: ['GET'], run: (ctx) => getCitations(state, ctx) },
    '/get-scores': { methods: ['GET', 'POST'], run: (ctx) => getScores(state, ctx) },
  };
}

// ---- authentication (spec section 5) ---------------------------------------------------------------

export function authError(kind: 'missing' | 'invalid' | 'store', errorForm: ErrorForm): HttpError {
  const table = {
    missing: {
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Missing API key',
      entry: "API key must be provided in the Authorization header as 'Bearer <api_key>'",
    },
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

/** The request's key, when it is one the simulator accepts. */
export function authenticate(state: SimState, ctx: Ctx): string {
  const header = ctx.req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S.*)$/i.exec(header.trim()) : null;
  if (!m) throw authError('missing', state.errorForm);
  const key = m[1]!.trim();
  if (!state.keys.has(key)) throw authError('invalid', state.errorForm);
  return key;
}

// ---- parameters and cursors ------------------------------------------------------------------------

function brandFor(state: SimState, v: unknown, errors: ParamErrors): BrandState | null {
  const b = checkBrandId(v);
  if (!b.ok) {
    errors.push({ field: 'brand', message: v === undefined || v === '' ? "The 'brand' parameter is required" : b.message });
    return null;
  }
  return state.brand(b.value) ?? null;
}

function collect<T>(r: RuleResult<T>, errors: ParamErrors): T | undefined {
  if (r.ok) return r.value;
  errors.push({ field: r.field, message: r.message });
  return undefined;
}

function param(ctx: Ctx, name: string): string | undefined {
  const v = ctx.url.searchParams.get(name);
  return v === null ? undefined : v;
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

/** Position a cursor points at (0 without one); a forged or stale cursor is a parameter error. */
function readCursor(cursor: string | undefined, tag: string, errors: ParamErrors): number {
  if (cursor === undefined) return 0;
  const pos = decodeCursor(cursor, tag);
  if (pos !== null) return pos;
  errors.push({ field: 'cursor', message: 'The cursor is not valid for this query (it may have expired).' });
  return 0;
}

function notReachable(): HttpError {
  return new HttpError(403, { error: 'FORBIDDEN', message: 'Access denied: this brand is not reachable with this API key', timestamp: now() });
}

// ---- the endpoints ---------------------------------------------------------------------------------

function getOutreach(state: SimState, ctx: Ctx): unknown {
  const errors: ParamErrors = [];
  const brand = brandFor(state, param(ctx, 'brand'), errors);
  const p = (n: string) => param(ctx, n);
  const filter: OutreachFilter = { archived: false };
  if (p('opportunity_type') !== undefined) filter.opportunity_type = collect(checkOpportunityType(p('opportunity_type')), errors);
  if (p('status') !== undefined) filter.status = collect(checkStatus(p('status')), errors);
  if (p('difficulty') !== undefined) filter.difficulty = collect(checkDifficulty(p('difficulty')), errors);
  if (p('domain') !== undefined) filter.domain = p('domain');
  if (p('archived') !== undefined) filter.archived = collect(checkBooleanParam(p('archived'), 'archived'), errors) ?? false;
  const sort: OutreachSort = p('sort_by') !== undefined ? (collect(checkOutreachSort(p('sort_by')), errors) ?? 'priority_score') : 'priority_score';
  const limit = p('limit') !== undefined ? (collect(checkPageSize(p('limit')), errors) ?? 100) : LIMITS.outreachDefaultPageSize;
  const tag = hashString(JSON.stringify([brand?.id, filter, sort, state.mutations])).toString(36);
  const start = readCursor(p('cursor'), tag, errors);
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
  const next = more ? encodeCursor(pos, tag) : null;
  return { brand_id: brand.id, opportunities: items, pagination: { limit, has_more: next !== null, next_cursor: next } };
}

/** get-scores takes its parameters from the query (GET) or a JSON body (POST). */
async function scoresInput(ctx: Ctx): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  if (ctx.req.method === 'POST') {
    const text = await readBody(ctx.req);
    try {
      const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as Record<string, unknown>;
    } catch {
      throw invalidParams([{ field: 'body', message: 'The request body must be a JSON object.' }]);
    }
  }
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
      return r
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    });
  }
  return input;
}

async function getScores(state: SimState, ctx: Ctx): Promise<unknown> {
  const input = await scoresInput(ctx);
  const errors: ParamErrors = [];
  const brand = brandFor(state, input.brand, errors);
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
  const end = range?.end_date ?? state.data.today;
  const start = range?.start_date ?? addDays(end, -LIMITS.scoresDefaultWindowDays);
  if ((dayNumber(end) ?? 0) < (dayNumber(start) ?? 0)) throw invalidParams([{ field: 'start_date', message: 'start_date is after end_date' }]);
  return {
    brand_id: brand.id,
    brand_name: brand.name,
    start_date: start,
    end_date: end,
    breakdown,
    data: scoreEntries(state.data.seed, brand, start, end, breakdown),
    errors: null,
  };
}

function getCitations(state: SimState, ctx: Ctx): unknown {
  const errors: ParamErrors = [];
  const p = (n: string) => param(ctx, n);
  const brand = brandFor(state, p('brand'), errors);
  const mode = p('mode') !== undefined ? (collect(checkCitationMode(p('mode')), errors) ?? 'citations') : 'citations';
  const startDate = p('start_date') !== undefined ? collect(checkDate(p('start_date'), 'start_date'), errors) : undefined;
  const endDate = p('end_date') !== undefined ? collect(checkDate(p('end_date'), 'end_date'), errors) : undefined;
  const domain = p('domain');
  const query = p(CITATIONS_QUERY_PARAM);
  const limit = p('limit') !== undefined ? (collect(checkPageSize(p('limit')), errors) ?? 100) : 100;
  const filtered = startDate !== undefined || endDate !== undefined || domain !== undefined || query !== undefined;
  const tag = hashString(JSON.stringify([brand?.id, mode, startDate, endDate, domain, query])).toString(36);
  const start = readCursor(p('cursor'), tag, errors);
  if (errors.length) throw invalidParams(errors);
  if (!brand) throw notReachable();
  const dated = mode !== 'knowledge';
  const all = brand.citations(mode).filter((c) => {
    const seen = String(c.last_seen ?? '').slice(0, 10);
    if (dated && startDate !== undefined && seen < startDate) return false;
    if (dated && endDate !== undefined && seen > endDate) return false;
    if (domain !== undefined) {
      const d =
        typeof c.domain === 'string' ? c.domain : Array.isArray(c.citations) ? (c.citations as { domain: string }[]).map((x) => x.domain).join(' ') : '';
      if (!d.toLowerCase().includes(domain.toLowerCase())) return false;
    }
    if (mode === 'search-queries' && query !== undefined && !String(c.query).toLowerCase().includes(query.toLowerCase())) return false;
    return true;
  });
  const page = all.slice(start, start + limit);
  const end = start + page.length;
  const next = end < all.length ? encodeCursor(end, tag) : null;
  // The last page of a whole pass: the next pass is a later sync's (a demo page may flip its brand mention by then).
  if (mode === 'citations' && !filtered && next === null) brand.citationPassDone();
  const key = mode === 'citations' ? 'citations' : mode === 'search-queries' ? 'search_queries' : 'knowledge';
  const body: Record<string, unknown> = {
    brand_id: brand.id,
    mode,
    updated_at: `${state.data.today}T01:42:25.502006+00:00`,
  };
  if (mode === 'citations' && !filtered) body.summary = citationSummary(brand.citations('citations'));
  body[key] = page;
  body.pagination = { limit, has_more: next !== null, next_cursor: next };
  return body;
}
