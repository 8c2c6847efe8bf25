// The list filters shared by `list` and `export`: their flags and how they
// become the store's ListFilter (--status is Trakkr's status; --stage yours).
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES } from '../../shared/domain';
import { LIST_SORTS, type ListFilter, type ListSort } from '../../shared/model';
import { STAGES } from '../../shared/pipeline';
import { oneOf, UsageError } from './options';

export const LIST_OPTIONS = {
  brand: { type: 'string' },
  status: { type: 'string' },
  stage: { type: 'string' },
  type: { type: 'string' },
  difficulty: { type: 'string' },
  domain: { type: 'string' },
  search: { type: 'string' },
  'include-archived': { type: 'boolean' },
  'include-removed': { type: 'boolean' },
  sort: { type: 'string' },
  limit: { type: 'string' },
} as const;

const SORTS: Record<string, ListSort> = {
  priority_score: 'priority',
  fit_score: 'fit',
  last_seen: 'last_seen',
  priority: 'priority',
  fit: 'fit',
  title: 'title',
  domain: 'domain',
  relevance: 'relevance',
  best: 'relevance',
};

export function listFilter(values: Record<string, string | boolean | string[] | undefined>, brandId: string): ListFilter {
  const sortFlag = values.sort as string | undefined;
  if (sortFlag !== undefined && !SORTS[sortFlag])
    throw new UsageError(`--sort must be one of: priority_score, fit_score, last_seen, ${LIST_SORTS.slice(3).join(', ')} (best match while searching).`);
  return {
    brandId,
    status: oneOf(STATUSES, values.status as string | undefined, '--status'),
    stage: oneOf(STAGES, values.stage as string | undefined, '--stage'),
    type: oneOf(OPPORTUNITY_TYPES, values.type as string | undefined, '--type'),
    difficulty: oneOf(DIFFICULTIES, values.difficulty as string | undefined, '--difficulty'),
    domain: values.domain as string | undefined,
    search: values.search as string | undefined,
    includeArchived: values['include-archived'] === true,
    includeRemoved: values['include-removed'] === true,
    sort: sortFlag ? SORTS[sortFlag] : 'priority',
  };
}
