// The rowids a text search matches, kept in a temporary table of this
// connection while the same search is asked again: typing a word asks for the
// list, its total, its chip counts and, while scrolling, more pages, each of
// which would otherwise read the full-text index and build the set again.
// Kept until the search changes or anything in the cache does (a write by this
// connection, or by another process: SQLite's data_version).
import type { DB } from './db';
import { sql, type Sql } from './sql';
import { Statements } from './statements';

export class SearchHits {
  private readonly statements: Statements;
  private key: string | null = null;
  private size = 0;
  private ready = false;

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  private setUp(): void {
    if (this.ready) return;
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS search_hits (rowid INTEGER PRIMARY KEY)');
    this.ready = true;
  }

  /** Fill the table for the FTS query `q` (unless it holds it already); returns the table and how many rows match. */
  for(q: string): { table: Sql; size: number } {
    this.setUp();
    const state = this.statements.get<{ v: number; c: number }>(sql`SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c`)!;
    const key = `${state.v}/${state.c}/${q}`;
    if (key !== this.key) {
      this.db
        .transaction(() => {
          this.statements.run(sql`DELETE FROM temp.search_hits`);
          this.size = this.statements.run(sql`INSERT INTO temp.search_hits (rowid) SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${q}`).changes;
        })
        // Deferred: only the temporary table is written, never the cache, so no write lock is taken.
        .deferred();
      // The filling itself counts as changes: remember the state after it.
      const after = this.statements.get<{ v: number; c: number }>(sql`SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c`)!;
      this.key = `${after.v}/${after.c}/${q}`;
    }
    return { table: sql`temp.search_hits`, size: this.size };
  }
}
