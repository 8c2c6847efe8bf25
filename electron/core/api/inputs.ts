// Inputs refused before any request: each endpoint's parameters checked against the
// spec and turned into the query (or body) that is sent.
import { CITATIONS_QUERY_PARAM } from '../../../shared/domain';
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
  type RuleResult,
} from '../../../shared/rules';
import type { CitationsQuery, OutreachQuery, ScoresQuery } from '../../../shared/api/schemas';
import { ApiError } from './errors';

export type Query = Record<string, string | number | boolean | undefined>;

/** The checked value, or an 'invalid-input' error naming the field. */
export function must<T>(r: RuleResult<T>): T {
  if (!r.ok) throw new ApiError('invalid-input', r.message, { field: r.field });
  return r.value;
}

/** Check `v` when it was given; undefined stays undefined. */
const optional = <V, T>(v: V | undefined, check: (v: V) => RuleResult<T>): T | undefined => (v === undefined ? undefined : must(check(v)));

/** get-outreach's query, checked. */
export function outreachQuery(q: OutreachQuery): Query {
  return {
    brand: must(checkBrandId(q.brand)),
    opportunity_type: optional(q.opportunity_type, checkOpportunityType),
    status: optional(q.status, checkStatus),
    difficulty: optional(q.difficulty, checkDifficulty),
    domain: q.domain,
    archived: optional(q.archived, (v) => checkBooleanParam(v, 'archived')),
    sort_by: optional(q.sort_by, checkOutreachSort),
    limit: optional(q.limit, checkPageSize),
    cursor: q.cursor,
  };
}

/** get-citations' query, checked, including which filters each mode allows. */
export function citationsQuery(q: CitationsQuery): Query {
  const range = must(checkCitationRange({ start_date: q.start_date, end_date: q.end_date }));
  const mode = optional(q.mode, checkCitationMode);
  if (q.query !== undefined && mode !== 'search-queries')
    throw new ApiError('invalid-input', 'The query-text filter applies only to mode search-queries.', { field: 'query' });
  if ((range.start_date || range.end_date) && mode === 'knowledge')
    throw new ApiError('invalid-input', 'Date filters apply only to modes citations and search-queries.', { field: 'start_date' });
  return {
    brand: must(checkBrandId(q.brand)),
    mode,
    start_date: range.start_date,
    end_date: range.end_date,
    domain: q.domain,
    [CITATIONS_QUERY_PARAM]: q.query,
    limit: optional(q.limit, checkPageSize),
    cursor: q.cursor,
  };
}

/** get-scores' input, checked: the POST body, and the same as a GET query. */
export function scoresInput(q: ScoresQuery): { body: Record<string, unknown>; query: Query } {
  const brand = must(checkBrandId(q.brand));
  const breakdown = must(checkBreakdown(q.breakdown));
  const range = must(checkScoresRange({ start_date: q.start_date, end_date: q.end_date }));
  return {
    body: { brand, ...(breakdown.length ? { breakdown } : {}), ...range },
    query: { brand, start_date: range.start_date, end_date: range.end_date, breakdown: breakdown.length ? breakdown.join(',') : undefined },
  };
}

/** The URL for `path` under the base, with the query's defined parameters. */
export function requestUrl(baseUrl: string, path: string, query: Query): URL {
  const url = new URL(baseUrl + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url;
}
