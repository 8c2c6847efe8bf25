// Sets the list's queries read many times while nothing changes, worked out
// once into temporary tables of this connection: a text search's matches and
// their rank for Best match (any other order reads the full-text index within
// each query: opportunity-list.ts); the brand's pitched addresses with their
// latest date (every page shows it) and, for the "already pitched" filter,
// the opportunities that have one; the follow-ups due; and those sets' rows
// grouped as the summary's (list-counts.ts), the pitched one followed through
// a triage write by a temporary trigger over the pitched set's rows.
// Each is kept until its key changes or anything in the cache does (a write
// by this connection or, by SQLite's data_version, by another process); the
// filling itself is not counted as a change. Filling them is the explicit
// step a read comes after (store/opportunity-list.ts, prepareList): a read
// itself never writes.
import type { DB } from './db';
import { contactedAddress, dueRowids, type PipelineDays } from './opportunity-filter';
import { ftsTerms, rankMatches } from './search-rank';
import { sql, type Sql } from './sql';
import { Statements } from './statements';

/** At most this many two-letter prefixes stand for a one-letter one (else the one letter is searched as typed). */
const HEADS = 48;

export class DerivedTables {
  private readonly statements: Statements;
  private ready = false;
  /** Changes this connection made filling these tables (total_changes counts them too). */
  private own = 0;
  private searchKey: string | null = null;
  private searchSize = 0;
  private rankedKey: string | null = null;
  private pitchedKey: string | null = null;
  private pitchedRowidsKey: string | null = null;
  /** Each searched prefix's exact terms (null: too many to list), for the generation in `termsKey`. */
  private terms = new Map<string, string[] | null>();
  private dueKey: string | null = null;
  private termsKey: string | null = null;
  /** Each summary of a set's key (summarized), and those a trigger of their own keeps through a triage write. */
  private summaries = new Map<string, string>();
  private followed = new Set<string>();

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  private setUp(): void {
    if (this.ready) return;
    this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS search_hits (rowid INTEGER PRIMARY KEY);
      CREATE TEMP TABLE IF NOT EXISTS search_rank (rowid INTEGER PRIMARY KEY, rank REAL NOT NULL);
      CREATE TEMP TABLE IF NOT EXISTS pitched (identity TEXT PRIMARY KEY, at TEXT NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE IF NOT EXISTS pitched_rowids (rowid INTEGER PRIMARY KEY);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocabulary USING fts5vocab(main, opportunity_search, row);`);
    this.ready = true;
  }

  /**
   * What the cache holds now, as a key: any write since the last look (by this connection or another program)
   * changes it, this object's own fills do not. What memory keeps of the cache is keyed by it.
   */
  version(): string {
    const s = this.statements.get<{ v: number; c: number }>(sql`SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c`)!;
    return `${s.v}/${s.c - this.own}`;
  }

  /** How many changes this connection made filling these tables (temporary: no change of the cache itself). */
  ownChanges(): number {
    return this.own;
  }

  /** Fill temporary tables; what they change is not a change of the cache. Only temp tables: no write lock on the cache. */
  private fill(statements: Sql[]): number[] {
    const before = this.statements.get<{ c: number }>(sql`SELECT total_changes() AS c`)!.c;
    const counts = this.db.transaction(() => statements.map((s) => this.statements.run(s).changes)).deferred();
    this.own += this.statements.get<{ c: number }>(sql`SELECT total_changes() AS c`)!.c - before;
    return counts;
  }

  /**
   * The rowids the FTS query `q` matches, in `temp.search_hits`; returns the
   * table and how many. `ranked`: each match's rank for Best match too, in
   * `temp.search_rank` (search-rank.ts), worked out once per search.
   */
  searchHits(q: string, ranked = false): { table: Sql; size: number } {
    this.setUp();
    const key = `${this.version()}/${q}`;
    if (key !== this.searchKey) {
      const [, n] = this.fill([
        sql`DELETE FROM temp.search_hits`,
        sql`INSERT INTO temp.search_hits (rowid) SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${q}`,
      ]);
      this.searchSize = n!;
      this.searchKey = key;
      this.rankedKey = null;
    }
    if (ranked && this.rankedKey !== key) {
      this.fill(rankMatches(this.statements, q));
      this.rankedKey = key;
    }
    return { table: sql`temp.search_hits`, size: this.searchSize };
  }

  /**
   * The FTS query `q` (quoted prefix terms, ftsQuery's) with each prefix of
   * three letters or more written out as the index's own words that begin
   * with it (`"cof"*` becomes `("coffee" OR "coffeereview")`); two-letter
   * prefixes stay, the index keeps them (prefix = '2'). The same rows match.
   * Tested against one row (`rowid = ?`), it costs a seek per word, where a
   * long prefix would merge every word it begins before each test. Null when
   * a prefix begins more than 8 words, or a one-letter one. The words of a
   * prefix are read once per change of the cache; a longer prefix typed next
   * keeps those of the shorter one that it begins. A one-letter prefix (a
   * word just begun) becomes the two-letter prefixes the index holds that
   * begin with it, and the one-letter word itself when there is one
   * (`"c"*` becomes `("ca"* OR "ch"* OR …)`): each read from the index's
   * two-letter prefix index, where the one letter merged every word it
   * begins (the dearest keystroke of a search).
   */
  exactTerms(q: string): string | null {
    const groups = this.groupsOf(q);
    return groups === null || groups.length === 0 ? null : groups.map((g) => g.fts).join(' AND ');
  }

  /**
   * The search as exactTerms writes it, with its last one-letter word apart:
   * `rest`, the other words (null when there are none), and `heads`, the
   * one letter's alternatives, the most common first. A row matches the
   * search when it matches `rest` and any one of `heads`: a page tests them
   * one by one against a row and stops at the first that holds, where the
   * whole of them at once would be merged for each row. Null without a
   * one-letter word, or when exactTerms gives null.
   */
  headsApart(q: string): { rest: string | null; heads: string[] } | null {
    const groups = this.groupsOf(q);
    if (groups === null) return null;
    let last = groups.length - 1;
    while (last >= 0 && !groups[last]!.heads?.length) last--;
    if (last < 0) return null;
    const rest = groups.filter((_, i) => i !== last).map((g) => g.fts);
    return { rest: rest.length === 0 ? null : rest.join(' AND '), heads: groups[last]!.heads! };
  }

  /** Each word of `q` as the index's words (`fts`), and a one-letter word's alternatives (`heads`). */
  private groupsOf(q: string): { fts: string; heads: string[] | null }[] | null {
    this.setUp();
    const gen = this.version();
    if (gen !== this.termsKey) {
      this.terms.clear();
      this.termsKey = gen;
    }
    const groups: { fts: string; heads: string[] | null }[] = [];
    for (const term of ftsTerms(q)) {
      const word = term.slice(1, term.endsWith('*') ? -2 : -1).replace(/""/g, '"');
      const quote = (w: string) => `"${w}"`;
      // Only letters and digits the tokenizer keeps as they are (it folds accents: "café" is the index's "cafe").
      if (!/^[a-z0-9]+$/.test(word) || !term.endsWith('*')) return null;
      if (word.length === 2) groups.push({ fts: term, heads: null });
      else if (word.length === 1) {
        const heads = this.headsOf(word);
        if (heads === null) return null;
        // No word begins with it: the letter as a word is not in the index either, and matches no row as the prefix did not.
        groups.push({ fts: heads.length === 0 ? quote(word) : `(${heads.join(' OR ')})`, heads });
      } else {
        const words = this.wordsBeginning(word);
        if (words === null) return null;
        // No word begins with it: the word itself is not in the index either, and matches no row as the prefix did not.
        groups.push({ fts: words.length === 0 ? quote(word) : `(${words.map(quote).join(' OR ')})`, heads: null });
      }
    }
    return groups;
  }

  /**
   * A one-letter prefix as the two-letter prefixes the index holds beginning
   * with it (and the word of that one letter when indexed): the same rows.
   * Found by seeking the vocabulary once per such prefix, once per change of
   * the cache; put in order of how many rows each matches (most first, from
   * where its first matches end). Null past HEADS (the old plan then).
   */
  private headsOf(letter: string): string[] | null {
    const key = `\u0000${letter}`;
    const known = this.terms.get(key);
    if (known !== undefined) return known;
    const end = String.fromCodePoint(letter.codePointAt(0)! + 1);
    let heads: string[] | null = [];
    let from = letter;
    for (;;) {
      const term = this.statements.get<{ term: string }>(sql`SELECT term FROM temp.search_vocabulary WHERE term >= ${from} AND term < ${end} LIMIT 1`)?.term;
      if (term === undefined) break;
      const chars = [...term];
      if (chars.length === 1) {
        heads.push(`"${term}"`);
        from = `${term}\u0000`;
        continue;
      }
      const second = chars[1]!.codePointAt(0)!;
      // The next two-letter prefix starts past every word this one begins (a surrogate is no character: past them).
      const past = second === 0xd7ff ? 0xe000 : second + 1;
      if (heads.length >= HEADS || past > 0x10ffff) {
        heads = null;
        break;
      }
      heads.push(`"${chars[0]}${chars[1]}"*`);
      from = chars[0]! + String.fromCodePoint(past);
    }
    if (heads !== null) {
      // Where its first 64 matches end: the lower, the more rows it matches.
      const reach = new Map(
        heads.map((h) => [
          h,
          this.statements.get<{ r: number | null }>(
            sql`SELECT max(rowid) AS r FROM (SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${h} LIMIT 64)`,
          )!.r ?? Number.MAX_SAFE_INTEGER,
        ]),
      );
      heads.sort((a, b) => reach.get(a)! - reach.get(b)!);
    }
    this.terms.set(key, heads);
    return heads;
  }

  private wordsBeginning(prefix: string): string[] | null {
    const known = this.terms.get(prefix);
    if (known !== undefined) return known;
    // A shorter prefix's words, when they were all listed, hold every word this one begins.
    for (let k = prefix.length - 1; k >= 3; k--) {
      const shorter = this.terms.get(prefix.slice(0, k));
      if (shorter) {
        const words = shorter.filter((w) => w.startsWith(prefix));
        this.terms.set(prefix, words);
        return words;
      }
    }
    const last = prefix.codePointAt(prefix.length - 1)!;
    const past = prefix.slice(0, -1) + String.fromCodePoint(last + 1);
    const found = this.statements
      .all<{ term: string }>(sql`SELECT term FROM temp.search_vocabulary WHERE term >= ${prefix} AND term < ${past} LIMIT 9`)
      .map((r) => r.term)
      .filter((w) => w.startsWith(prefix));
    const words = found.length > 8 ? null : found;
    this.terms.set(prefix, words);
    return words;
  }

  /**
   * A temporary summary (list-counts.ts: a set's rows grouped as the opportunity summary is) filled by `statements`
   * once per change of the cache and `key`. `followed`: its own temporary trigger keeps it through a triage write
   * that leaves the pitched set as it is (triageWrite), else it is filled again after any write.
   */
  summarized(table: string, key: string, statements: () => Sql[], followed = false): void {
    this.setUp();
    const k = `${this.version()}/${key}`;
    if (this.summaries.get(table) === k) return;
    this.fill(statements());
    this.summaries.set(table, k);
    if (followed) this.followed.add(table);
  }

  /**
   * Run `write`, a change of the user's triage alone (never the opportunities,
   * their contacts or the search index): a search's matches, if current
   * before it, stay current after it; so do the pitched sets, unless the
   * write may set or clear a contacted date or its addresses (`pitched`). A key or
   * a typed note then costs no refill. Only this connection's own write is
   * let through: another process's write since a fill still makes it stale.
   */
  triageWrite<T>(write: () => T, opts: { pitched: boolean }): T {
    const before = this.version();
    const keep = (key: string | null) => (key !== null && key.startsWith(`${before}/`) ? key.slice(before.length + 1) : null);
    const search = keep(this.searchKey);
    const ranked = keep(this.rankedKey);
    const pitched = opts.pitched ? null : keep(this.pitchedKey);
    const rowids = opts.pitched ? null : keep(this.pitchedRowidsKey);
    const terms = this.termsKey === before;
    const summaries = opts.pitched ? [] : [...this.followed].map((t) => [t, keep(this.summaries.get(t) ?? null)] as const);
    const result = write();
    const after = this.version();
    // Another program committed while this write waited for its lock: what it changed was never followed.
    if (after.split('/')[0] !== before.split('/')[0]) return result;
    if (terms) this.termsKey = after;
    if (search !== null) this.searchKey = `${after}/${search}`;
    if (ranked !== null) this.rankedKey = `${after}/${ranked}`;
    if (pitched !== null) this.pitchedKey = `${after}/${pitched}`;
    if (rowids !== null) this.pitchedRowidsKey = `${after}/${rowids}`;
    for (const [t, k] of summaries) if (k !== null) this.summaries.set(t, `${after}/${k}`);
    return result;
  }

  /**
   * The brand's pitched addresses (`temp.pitched`: identity, latest date),
   * which every page and detail reads. Found from the triage rows that say
   * contacted (the addresses they used), never by fanning out from each opportunity over
   * every other one that shares a generic address such as press@.
   */
  pitched(brandId: string, bk: number): void {
    this.setUp();
    const key = `${this.version()}/${brandId}`;
    if (key === this.pitchedKey) return;
    this.fill([
      sql`DELETE FROM temp.pitched`,
      // CROSS JOIN keeps this order: from the few triage rows out, whatever the statistics say.
      sql`INSERT INTO temp.pitched (identity, at)
        SELECT c2.identity, max(t2.contacted_at)
        FROM triage t2 CROSS JOIN opportunities o2 CROSS JOIN contacts c2
        WHERE t2.brand_id = ${brandId} AND t2.contacted_at IS NOT NULL
          AND o2.brand_key = ${bk} AND o2.id = t2.opportunity_id AND c2.opportunity_rowid = o2.rowid AND c2.valid = 1
          AND ${contactedAddress(sql`t2`, sql`c2`, sql`o2`)}
        GROUP BY c2.identity`,
    ]);
    this.pitchedKey = key;
  }

  /**
   * The opportunities with a pitched address (`temp.pitched_rowids`), for the
   * "already pitched" filter only: a generic address shared by thousands of
   * opportunities makes this set large, so it is worked out when a filter
   * asks for it, not for every page.
   */
  pitchedRowids(brandId: string, bk: number): void {
    this.pitched(brandId, bk);
    const key = `${this.version()}/${brandId}`;
    if (key === this.pitchedRowidsKey) return;
    this.fill([
      sql`DELETE FROM temp.pitched_rowids`,
      // Index entries only (migration 6: valid is in contacts_by_identity).
      sql`INSERT INTO temp.pitched_rowids (rowid)
        SELECT DISTINCT c3.opportunity_rowid FROM temp.pitched p3 CROSS JOIN contacts c3
        WHERE c3.brand_key = ${bk} AND c3.identity = p3.identity AND c3.valid = 1`,
    ]);
    this.pitchedRowidsKey = key;
    // A summary followed by its trigger follows the rows of this set: another brand's set (or a new one) leaves it behind.
    for (const t of this.followed) this.summaries.delete(t);
  }

  /**
   * The brand's opportunities due for a follow-up today (`temp.due_rowids`),
   * for the "due" view: worked out once per change of the cache (a triage
   * write changes it too: it may set a stage or a follow-up), so each page
   * tests a set of rowids instead of building it and reading every row's
   * addresses again.
   */
  dueRowids(brandId: string, bk: number, days: PipelineDays): void {
    this.setUp();
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS due_rowids (rowid INTEGER PRIMARY KEY)');
    const key = `${this.version()}/${brandId}/${days.dueOnOrBefore}`;
    if (key === this.dueKey) return;
    this.fill([sql`DELETE FROM temp.due_rowids`, sql`INSERT INTO temp.due_rowids (rowid) ${dueRowids(brandId, bk, days)}`]);
    this.dueKey = key;
  }
}
