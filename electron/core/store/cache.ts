// The cache: one SQLite file and the stores over it.
import { openDatabase, type DB, type OpenOptions } from './db';
import { BrandStore } from './brands';
import { CitationStore } from './citations';
import { DoNotContactStore } from './do-not-contact';
import { ExportRowStore } from './export-rows';
import { OpportunityStore } from './opportunities';
import { ScoreStore } from './scores';
import { SyncRunStore } from './sync-runs';
import { TriageStore } from './triage';

export class Cache {
  readonly brands: BrandStore;
  readonly opportunities: OpportunityStore;
  readonly triage: TriageStore;
  readonly scores: ScoreStore;
  readonly citations: CitationStore;
  readonly runs: SyncRunStore;
  readonly doNotContact: DoNotContactStore;
  readonly exportRows: ExportRowStore;

  private constructor(
    readonly db: DB,
    readonly path: string,
  ) {
    this.brands = new BrandStore(db);
    this.opportunities = new OpportunityStore(db);
    this.triage = new TriageStore(db);
    this.scores = new ScoreStore(db);
    this.citations = new CitationStore(db);
    this.runs = new SyncRunStore(db);
    this.doNotContact = new DoNotContactStore(db);
    this.exportRows = new ExportRowStore(db, this.opportunities, this.triage);
  }

  static async open(path: string, opts: OpenOptions = {}): Promise<Cache> {
    return new Cache(await openDatabase(path, opts), path);
  }

  /** Run fn in one synchronous transaction (never across an await). */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
