// What a row shows in its first column: the value the list is sorted by, so
// the order reads at a glance (the priority, the fit, the day last seen, how
// well it matches the search). Sorted by title or domain, those are in the row
// already: the column shows the priority.
import type { ListItem, ListSort } from '../../../shared/model';

export interface SortCell {
  text: string;
  /** 0–100 for a bar under the number; null for none. */
  bar: number | null;
  /** In words, for the tooltip and the screen reader. */
  title: string;
}

const score = (v: number | null, name: string): SortCell => ({ text: v === null ? '–' : String(v), bar: v, title: `${name} ${v ?? 'not given'}` });

export function sortCell(sort: ListSort | undefined, o: ListItem): SortCell {
  if (sort === 'fit') return score(o.fit_score, 'Fit');
  if (sort === 'last_seen') {
    const d = o.last_seen ?? null;
    return { text: d ? d.slice(5, 10) : '–', bar: null, title: d ? `Last seen ${d.slice(0, 10)}` : 'Never seen by date' };
  }
  if (sort === 'relevance' && typeof o.sort_value === 'number') {
    // The core's rank is minus the match's score (the best first).
    const s = Math.round(-o.sort_value * 10) / 10;
    return { text: String(s), bar: null, title: `Best match: score ${s} (the searched words by how rare they are, most in the title)` };
  }
  return score(o.priority_score, 'Priority');
}
