// The remote API in code: runtime schemas (zod) and their types, for every
// endpoint's request and response (spec: ../shared/spec/api-spec.md, gaps
// filled from api-facts.md). Records keep fields the spec does not list.
import { z } from 'zod';
import { BREAKDOWN_KINDS, CITATION_MODES, DIFFICULTIES, OPPORTUNITY_TYPES, OUTREACH_SORTS, STATUSES } from '../domain';
import { apiFields, apiKey, type ApiFieldKinds, type ApiKind } from '../opportunity-fields';

const int = () => z.number().int();
const str = () => z.string();
const strArray = () => z.array(z.string());

// ---- records ---------------------------------------------------------------

export const brandSchema = z.looseObject({ id: str(), name: str() });
export type Brand = z.infer<typeof brandSchema>;

export const paginationSchema = z.looseObject({
  limit: int(),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** A zod schema for each kind of field in the opportunity's field table. */
const ZOD_OF_KIND = {
  string: () => str(),
  'string|null': () => str().nullable(),
  int: () => int(),
  boolean: () => z.boolean(),
  'string[]': () => strArray(),
} satisfies Record<ApiKind, () => z.ZodType>;
type ZodOfKind = { [K in ApiKind]: ReturnType<(typeof ZOD_OF_KIND)[K]> };

/** Every field of spec 2.3, from the field table (../opportunity-fields.ts); used field by field (see sanitizeRecord). */
export const opportunityShape = Object.fromEntries(apiFields().map((f) => [apiKey(f), ZOD_OF_KIND[f.kind]()])) as {
  [K in keyof ApiFieldKinds]: ZodOfKind[ApiFieldKinds[K]];
};

export const opportunitySchema = z.looseObject(
  Object.fromEntries(Object.entries(opportunityShape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof opportunityShape]: z.ZodOptional<(typeof opportunityShape)[K]>;
  },
);
export type Opportunity = z.infer<typeof opportunitySchema>;

export const citationSearchQuerySchema = z.looseObject({ query: str(), count: int() });

export const citationItemShape = {
  url: str(),
  domain: str(),
  times_cited: int(),
  first_seen: str(),
  last_seen: str(),
  competitors_referenced: strArray(),
  prompts: strArray(),
  search_queries: z.array(citationSearchQuerySchema),
  sentiment: int(),
  domain_rating: int(),
  page_authority: int(),
  topics: strArray(),
  h1: str(),
  mentions_brand: z.boolean(),
} as const;
export const citationItemSchema = z.looseObject(
  Object.fromEntries(Object.entries(citationItemShape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof citationItemShape]: z.ZodOptional<(typeof citationItemShape)[K]>;
  },
);
export type CitationItem = z.infer<typeof citationItemSchema>;

export const citationSummarySchema = z.looseObject({
  total_citations: int(),
  top_domains: z.array(z.looseObject({ domain: str(), count: int(), citation_share: z.number() })),
  top_competitors: z.array(z.looseObject({ competitor: str(), count: int(), citation_share: z.number() })),
});
export type CitationSummary = z.infer<typeof citationSummarySchema>;

/** A daily score; with a breakdown the entries carry extra keys (model, prompt), which are kept. */
export const scorePointSchema = z.looseObject({
  date: str(),
  visibility: z.number(),
  presence: z.number(),
});
export type ScorePoint = z.infer<typeof scorePointSchema>;

// ---- requests --------------------------------------------------------------

const brandParam = str();

export const outreachQuerySchema = z.object({
  brand: brandParam,
  opportunity_type: z.enum(OPPORTUNITY_TYPES).optional(),
  status: z.enum(STATUSES).optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  domain: str().optional(),
  archived: z.boolean().optional(),
  sort_by: z.enum(OUTREACH_SORTS).optional(),
  limit: int().min(1).max(500).optional(),
  cursor: str().optional(),
});
export type OutreachQuery = z.infer<typeof outreachQuerySchema>;

export const citationsQuerySchema = z.object({
  brand: brandParam,
  mode: z.enum(CITATION_MODES).optional(),
  start_date: str().optional(),
  end_date: str().optional(),
  domain: str().optional(),
  query: str().optional(),
  limit: int().min(1).max(500).optional(),
  cursor: str().optional(),
});
export type CitationsQuery = z.infer<typeof citationsQuerySchema>;

export const scoresQuerySchema = z.object({
  brand: brandParam,
  breakdown: z.array(z.enum(BREAKDOWN_KINDS)).max(2).optional(),
  start_date: str().optional(),
  end_date: str().optional(),
});
export type ScoresQuery = z.infer<typeof scoresQuerySchema>;

// ---- responses -------------------------------------------------------------

export const brandsResponseSchema = z.looseObject({ brands: z.array(z.unknown()) });

/** Envelope only: items are validated one by one so one bad record never sinks a page. */
export const outreachResponseSchema = z.looseObject({
  brand_id: str(),
  opportunities: z.array(z.unknown()),
  pagination: paginationSchema,
});
export type OutreachPage = { brand_id: string; opportunities: Opportunity[]; pagination: Pagination };

export const citationsResponseSchema = z.looseObject({
  brand_id: str().optional(),
  mode: str().optional(),
  updated_at: str().optional(),
  summary: z.unknown().optional(),
  pagination: paginationSchema,
});

export const scoresResponseSchema = z.looseObject({
  brand_id: str(),
  brand_name: str().optional(),
  start_date: str(),
  end_date: str(),
  breakdown: z.array(str()),
  data: z.array(z.unknown()),
  errors: z.array(str()).nullable().optional(),
});
export type ScoresResponse = {
  brand_id: string;
  brand_name?: string;
  start_date: string;
  end_date: string;
  breakdown: string[];
  data: ScorePoint[];
  errors?: string[] | null;
  [k: string]: unknown;
};

// ---- error bodies ----------------------------------------------------------

/** Spec 2.7, the code form and the message-text form (both put a string in `error`). */
export const errorBodySchema = z.looseObject({
  error: str(),
  timestamp: str().optional(),
  message: str().optional(),
  errors: strArray().optional(),
  details: z.array(z.looseObject({ field: str().optional(), message: str().optional() })).optional(),
  request_id: str().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ---- tolerant record validation -------------------------------------------

/**
 * The type of each known field as a small code, checked by hand: sync
 * validates every field of 100,000 records, and a plain typeof is an order of
 * magnitude cheaper than a schema call. The zod shapes above say the same
 * thing; a test keeps the two in agreement.
 */
export type FieldKind = 'string' | 'string|null' | 'int' | 'number' | 'boolean' | 'string[]' | 'query[]';

function kindOf(schema: z.ZodType): FieldKind {
  const probe = (v: unknown) => schema.safeParse(v).success;
  if (probe(['a'])) return 'string[]';
  if (probe([{ query: 'q', count: 1 }])) return 'query[]';
  if (probe(true)) return 'boolean';
  if (probe('a')) return probe(null) ? 'string|null' : 'string';
  if (probe(1.5)) return 'number';
  return 'int';
}

export function fieldKinds(shape: Record<string, z.ZodType>): Record<string, FieldKind> {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, kindOf(v)]));
}

function isStringArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (typeof x !== 'string') return false;
  return true;
}

export function fitsKind(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'string|null':
      return v === null || typeof v === 'string';
    case 'int':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string[]':
      return isStringArray(v);
    case 'query[]':
      return (
        Array.isArray(v) &&
        v.every(
          (q) =>
            typeof q === 'object' &&
            q !== null &&
            typeof (q as Record<string, unknown>).query === 'string' &&
            Number.isSafeInteger((q as Record<string, unknown>).count),
        )
      );
  }
}

export interface Sanitized<T> {
  record: T;
  /** One line per field that was dropped because its type was wrong. */
  warnings: string[];
}

/**
 * Validate a record field by field: a field of the wrong type is dropped and
 * counted as a warning, unknown fields are kept as they are. Not an object at
 * all: null record.
 */
export function sanitizeRecord<T extends Record<string, unknown>>(kinds: Record<string, FieldKind>, raw: unknown): Sanitized<T | null> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { record: null, warnings: ['a record that is not an object was skipped'] };
  }
  const input = raw as Record<string, unknown>;
  let warnings: string[] | null = null;
  let out: Record<string, unknown> | null = null;
  for (const key in input) {
    const kind = kinds[key];
    const value = input[key];
    if (kind === undefined || value === undefined || fitsKind(kind, value)) continue;
    // Copy on first bad field only: the common case returns the input as it is.
    out ??= { ...input };
    delete out[key];
    (warnings ??= []).push(`field "${key}" had the wrong type (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}) and was dropped`);
  }
  return { record: (out ?? input) as T, warnings: warnings ?? [] };
}

export const OPPORTUNITY_FIELD_KINDS: Record<string, FieldKind> = Object.fromEntries(apiFields().map((f) => [apiKey(f), f.kind]));
export const CITATION_FIELD_KINDS = fieldKinds(citationItemShape);
const SCORE_FIELD_KINDS: Record<string, FieldKind> = { date: 'string', visibility: 'number', presence: 'number' };

export function sanitizeOpportunity(raw: unknown): Sanitized<Opportunity | null> {
  return sanitizeRecord<Opportunity>(OPPORTUNITY_FIELD_KINDS, raw);
}

export function sanitizeCitation(raw: unknown): Sanitized<CitationItem | null> {
  return sanitizeRecord<CitationItem>(CITATION_FIELD_KINDS, raw);
}

export function sanitizeScorePoint(raw: unknown): Sanitized<ScorePoint | null> {
  const r = sanitizeRecord<ScorePoint>(SCORE_FIELD_KINDS, raw);
  if (r.record && (typeof r.record.date !== 'string' || (typeof r.record.visibility !== 'number' && typeof r.record.presence !== 'number'))) {
    return { record: null, warnings: [...r.warnings, 'a score entry without a date or values was skipped'] };
  }
  return r;
}
