// What the window shows, remembered between launches on this computer: the
// brand, the view, the list's filters and sort (never the search being
// typed), and the outlets collapsed while grouped. Kept in the page's own storage, as the window's own business; a
// storage that cannot be read or written (a test in Node, a full disk) is
// forgotten quietly: the window then opens as it does the first time.
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES } from '../../../shared/domain';
import { LIST_SORTS, type ListFilter } from '../../../shared/model';
import { STAGES } from '../../../shared/pipeline';

export interface Remembered {
  brandId?: string;
  view?: 'opportunities' | 'insights' | 'results' | 'settings';
  filter?: Omit<ListFilter, 'brandId' | 'search'>;
  grouped?: boolean;
  /** Grouped by publication: the outlets collapsed (lower-case domains). */
  collapsed?: string[];
}

const KEY = 'workbench.window';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const oneOf =
  <T>(values: readonly T[]) =>
  (v: unknown): boolean =>
    values.includes(v as T);
const flag = (v: unknown) => typeof v === 'boolean';
/** Each filter kept, and what its value may be: anything else (an older app's, a hand edit) is left out. */
const FILTER: Record<string, (v: unknown) => boolean> = {
  sort: oneOf(LIST_SORTS),
  status: oneOf(STATUSES),
  stage: oneOf(STAGES),
  type: oneOf(OPPORTUNITY_TYPES),
  difficulty: oneOf(DIFFICULTIES),
  view: oneOf(['due', 'snoozed']),
  catchAll: oneOf(['only', 'exclude']),
  domain: (v) => typeof v === 'string' && v.length > 0 && v.length <= 200,
  hasContacts: flag,
  alreadyPitched: flag,
  starred: flag,
  includeArchived: flag,
  includeRemoved: flag,
};

/** What was remembered, each part checked (a part that does not fit is left out). */
export function recall(): Remembered {
  try {
    const v = JSON.parse(storage()?.getItem(KEY) ?? '{}') as Record<string, unknown> | null;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Remembered = {};
    if (typeof v.brandId === 'string') out.brandId = v.brandId;
    if (oneOf(['opportunities', 'insights', 'results', 'settings'])(v.view)) out.view = v.view as Remembered['view'];
    if (typeof v.grouped === 'boolean') out.grouped = v.grouped;
    if (Array.isArray(v.collapsed)) out.collapsed = v.collapsed.filter((d): d is string => typeof d === 'string' && d.length <= 200).slice(-1000);
    if (v.filter && typeof v.filter === 'object' && !Array.isArray(v.filter))
      out.filter = Object.fromEntries(Object.entries(v.filter).filter(([k, x]) => FILTER[k]?.(x) === true)) as Remembered['filter'];
    return out;
  } catch {
    return {};
  }
}

export function remember(patch: Remembered): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ ...recall(), ...patch }));
  } catch {
    // Not kept: the next launch opens as the first one did.
  }
}
