// Best match: how well each match of a search fits it, in the spirit of BM25
// (FTS5's bm25() needs the words' positions, which this index does not keep:
// it stores which column a word is in, a third of the size). Each searched
// word counts by how rare it is in the cache (its inverse document frequency,
// as BM25 weighs it), in each column it is found in, by the column's weight:
// a word in the title says more than one in the body. The rank is minus the
// score, so the best match sorts first.
import { sql, type Sql } from './sql';
import type { Statements } from './statements';

/** How much a word found in each full-text column counts (a column not listed: 1). */
export const SEARCH_WEIGHTS: Readonly<Record<string, number>> = {
  title: 4,
  domain: 3,
  author: 2.5,
  contacts: 2.5,
  topics: 2,
  pitch_subject: 1.5,
  pitch_body: 1,
  gap_analysis: 1,
  brand_angle: 1,
};

/** The quoted terms of an FTS query made by ftsQuery ("w"* each). */
export function ftsTerms(q: string): string[] {
  return [...q.matchAll(/"(?:[^"]|"")*"\*?/g)].map((m) => m[0]);
}

/** BM25's inverse document frequency of a word found in `n` of `all` rows (never below 0). */
export const idf = (n: number, all: number): number => Math.log(1 + (all - n + 0.5) / (n + 0.5));

/**
 * The statements that rank the matches of `q` (in `temp.search_hits`) into
 * `temp.search_rank`: for each word and each group of columns of one weight,
 * the matches with the word in those columns gain weight times the word's rarity.
 */
export function rankMatches(statements: Statements, q: string): Sql[] {
  const columns = statements.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('opportunity_search')`).map((c) => c.name);
  const groups = new Map<number, string[]>();
  for (const c of columns) {
    const w = SEARCH_WEIGHTS[c] ?? 1;
    groups.set(w, [...(groups.get(w) ?? []), c]);
  }
  const all = Math.max(1, statements.get<{ n: number }>(sql`SELECT count(*) AS n FROM opportunities`)!.n);
  const out: Sql[] = [sql`DELETE FROM temp.search_rank`, sql`INSERT INTO temp.search_rank (rowid, rank) SELECT rowid, 0 FROM temp.search_hits`];
  for (const term of ftsTerms(q)) {
    const n = statements.get<{ n: number }>(sql`SELECT count(*) AS n FROM opportunity_search WHERE opportunity_search MATCH ${term}`)!.n;
    const rarity = idf(n, all);
    for (const [weight, cols] of groups) {
      // Column names come from the index's own schema, as FTS5's column filter: {title domain} : "word"*
      const match = `{${cols.join(' ')}} : ${term}`;
      out.push(
        sql`UPDATE temp.search_rank SET rank = rank - ${weight * rarity}
          WHERE rowid IN (SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${match})`,
      );
    }
  }
  return out;
}
