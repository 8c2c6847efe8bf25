// Domain vocabulary shared by every room: the enumerations of the remote API
// and the names the user sees. Pure data, no environment.

export const OPPORTUNITY_TYPES = ['low-hanging-fruit', 'publication-gap'] as const;
export type OpportunityType = (typeof OPPORTUNITY_TYPES)[number];

export const STATUSES = ['New', 'In Progress', 'Done', 'Archived'] as const;
export type Status = (typeof STATUSES)[number];

export const DIFFICULTIES = ['Easy', 'Medium', 'Hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const OUTREACH_SORTS = ['priority_score', 'fit_score', 'last_seen'] as const;
export type OutreachSort = (typeof OUTREACH_SORTS)[number];

export const CITATION_MODES = ['citations', 'search-queries', 'knowledge'] as const;
export type CitationMode = (typeof CITATION_MODES)[number];

export const BREAKDOWN_KINDS = ['model', 'prompt'] as const;
export type BreakdownKind = (typeof BREAKDOWN_KINDS)[number];

/** The documented error codes (spec section 7). */
export const ERROR_CODES = ['INVALID_PARAMETER', 'UNAUTHORIZED', 'FORBIDDEN', 'INTERNAL_ERROR', 'RATE_LIMIT_EXCEEDED'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Bounds from the spec (section 8). */
export const LIMITS = {
  pageSizeMin: 1,
  pageSizeMax: 500,
  outreachDefaultPageSize: 100,
  scoresMaxRangeDays: 90,
  scoresDefaultWindowDays: 28,
  breakdownMaxItems: 2,
  brandIdLength: 32,
} as const;

export const DEFAULT_BASE_URL = 'https://api.trakkr.ai';

/** Query-text filter of get-citations (mode search-queries): the name is not public, keep it in one place. */
export const CITATIONS_QUERY_PARAM = 'query';

export function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}
