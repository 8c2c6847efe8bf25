// The remote API in code: runtime schemas (zod) and their types, for every
// endpoint's request and response (spec: ../shared/spec/api-spec.md, gaps
// filled from api-facts.md). Records keep fields the spec does not list.
import { z } from 'zod';
import {
  BREAKDOWN_KINDS,
  CITATION_MODES,
  DIFFICULTIES,
  OPPORTUNITY_TYPES,
  OUTREACH_SORTS,
  STATUSES,
} from '../domain';

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

/** Every field of spec 2.3, each optional; the shape is used field by field (see sanitizeRecord). */
export const opportunityShape = {
  _id: str(),
  unique_key: str(),
  opportunity_type: str(),
  url: str(),
  domain: str(),
  title: str(),
  content_type: str(),
  language: str(),
  country: str().nullable(),
  status: str(),
  archived: z.boolean(),
  difficulty: str(),
  strategy_name: str(),
  topics_covered: strArray(),
  site_type: str(),
  audience_profile: str(),
  content_style: str(),
  competitors: strArray(),
  competitor_count: int(),
  gap_analysis: str(),
  why_competitors_win: str(),
  brand_angle: str(),
  fit_score: int(),
  topics_aligned: strArray(),
  audience_match: str(),
  why_relevant: str(),
  pitch_subject: str(),
  pitch_body: str(),
  author_name: str().nullable(),
  contact_emails: strArray(),
  contact_confidence: str(),
  appearance_count: int(),
  prompt_count: int(),
  query_count: int(),
  priority_score: int(),
  brand_citations_on_prompt: int(),
  competitor_citations_on_prompt: int(),
  original_prompts: strArray(),
  search_queries: strArray(),
  weak_prompt: str().nullable(),
  competitors_winning: strArray(),
  instructions: strArray(),
  what_itll_do: str(),
  last_seen_date: str(),
  'Created Date': str(),
  'Modified Date': str(),
} as const;

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
export function sanitizeRecord<T extends Record<string, unknown>>(
  shape: Record<string, z.ZodType>,
  raw: unknown,
): Sanitized<T | null> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { record: null, warnings: ['a record that is not an object was skipped'] };
  }
  const out: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const schema = shape[key];
    if (!schema || value === undefined) {
      out[key] = value;
      continue;
    }
    // null for a field the spec does not allow null in: treated as absent, with a warning.
    if (schema.safeParse(value).success) out[key] = value;
    else warnings.push(`field "${key}" had the wrong type (${value === null ? 'null' : typeof value}) and was dropped`);
  }
  return { record: out as T, warnings };
}

export function sanitizeOpportunity(raw: unknown): Sanitized<Opportunity | null> {
  return sanitizeRecord<Opportunity>(opportunityShape, raw);
}

export function sanitizeCitation(raw: unknown): Sanitized<CitationItem | null> {
  return sanitizeRecord<CitationItem>(citationItemShape, raw);
}

export function sanitizeScorePoint(raw: unknown): Sanitized<ScorePoint | null> {
  const r = sanitizeRecord<ScorePoint>({ date: str(), visibility: z.number(), presence: z.number() }, raw);
  if (r.record && (typeof r.record.date !== 'string' || typeof r.record.visibility !== 'number' && typeof r.record.presence !== 'number')) {
    return { record: null, warnings: [...r.warnings, 'a score entry without a date or values was skipped'] };
  }
  return r;
}
