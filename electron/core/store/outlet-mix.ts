// Group by publication's heads: each outlet (domain, any case) of the filtered
// list, in the list's own order (the domain sort), with how many it has and
// how many are at each of the user's stages. One read over the list as
// prepared; it never writes.
import { STAGES, type Stage } from '../../../shared/pipeline';
import type { ReadableDB } from './database';
import type { ListQuery } from './opportunity-list';
import { sql } from './sql';

export interface OutletMix {
  /** The outlet as the rows spell it (the first, in sort order). */
  domain: string;
  /** How many of the list are at this outlet. */
  total: number;
  /** How many at each stage (only the stages present). */
  stages: Partial<Record<Stage, number>>;
}

/** The outlets of the list, in the order the list sorted by domain shows them. */
export function outletMix(db: ReadableDB, q: ListQuery): OutletMix[] {
  const rows = db.tuples<[string | null, string | null, number]>(
    sql`SELECT min(o.domain), o.stage, count(*) FROM opportunities o WHERE ${q.where}
      GROUP BY o.domain COLLATE NOCASE, o.stage ORDER BY o.domain COLLATE NOCASE`,
  );
  const out: OutletMix[] = [];
  for (const [domain, stage, n] of rows) {
    const d = domain ?? '';
    let last = out[out.length - 1];
    if (!last || last.domain.toLowerCase() !== d.toLowerCase()) {
      last = { domain: d, total: 0, stages: {} };
      out.push(last);
    }
    const s: Stage = stage !== null && (STAGES as readonly string[]).includes(stage) ? (stage as Stage) : 'New';
    last.total += n;
    last.stages[s] = (last.stages[s] ?? 0) + n;
  }
  return out;
}
