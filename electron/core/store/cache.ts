// The cache: one SQLite file and the stores over it.
import { statSync } from 'node:fs';
import { closeDatabase, openDatabase, type DB, type OpenOptions } from './db';
import { checkIntegrityOffThread, type CheckedIntegrity } from './integrity';
import { BrandStore } from './brands';
import { CitationStore } from './citations';
import { DoNotContactStore } from './do-not-contact';
import { ExportRowStore } from './export-rows';
import { ExportLog } from './exports-log';
import { HistoryStore } from './history';
import { SyncLocks } from './sync-lock';
import { DraftStore, SnippetStore } from './drafts';
import { UserRecordStore } from './user-record';
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
  readonly history: HistoryStore;
  readonly exports: ExportLog;
  readonly locks: SyncLocks;
  readonly drafts: DraftStore;
  readonly snippets: SnippetStore;
  /** The user's record as one piece: read, merged, replaced. */
  readonly record: UserRecordStore;
  /** Set when checkIntegrity found damage: then close() is not a clean close, and the next open checks again. */
  private damaged = false;

  private constructor(
    readonly db: DB,
    readonly path: string,
  ) {
    this.brands = new BrandStore(db);
    this.opportunities = new OpportunityStore(db);
    this.history = new HistoryStore(db);
    this.triage = new TriageStore(db, this.history);
    this.exports = new ExportLog(db);
    this.locks = new SyncLocks(db);
    this.drafts = new DraftStore(db, this.history);
    this.snippets = new SnippetStore(db);
    this.record = new UserRecordStore(this);
    this.scores = new ScoreStore(db);
    this.citations = new CitationStore(db);
    this.runs = new SyncRunStore(db);
    this.doNotContact = new DoNotContactStore(db);
    this.exportRows = new ExportRowStore(db, this.opportunities, this.triage);
  }

  static async open(path: string, opts: OpenOptions = {}): Promise<Cache> {
    return new Cache(await openDatabase(path, opts), path);
  }

  /**
   * Run fn in one synchronous write transaction (never across an await),
   * taking the write lock at its start (BEGIN IMMEDIATE): with another process
   * writing the same file, a transaction that read first and wrote later could
   * otherwise fail at its first write instead of waiting its turn.
   */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * The full integrity check the open skips after a clean shutdown (PRAGMA
   * quick_check), for the app to run once the window has data. It reads the
   * whole file (about a second at 100,000 opportunities) in a worker thread,
   * so calls keep being answered meanwhile (integrity.ts). When it finds
   * damage, this session's open marker is kept at close, so the next open
   * checks again and takes the recovery path instead of opening it unchecked.
   */
  async checkIntegrity(opts: { module?: string } = {}): Promise<CheckedIntegrity> {
    const result = await checkIntegrityOffThread(this.path, this.db, opts);
    if (!result.ok) this.damaged = true;
    return result;
  }

  /**
   * Run a long read that touches every record once (an export) with a small
   * page cache, then give the memory back: caching pages read once only
   * grows the process. The list's pages come back into the cache as it is used.
   */
  async readingOnce<T>(fn: () => Promise<T>): Promise<T> {
    const size = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma('cache_size = -8192');
    this.db.pragma('shrink_memory');
    try {
      return await fn();
    } finally {
      if (this.db.open) {
        this.db.pragma(`cache_size = ${Math.trunc(Number(size))}`);
        this.db.pragma('shrink_memory');
      }
    }
  }

  /** The file's size with its write-ahead log, in bytes (0 for a cache in memory). */
  sizeOnDisk(): number {
    if (this.path === ':memory:') return 0;
    let bytes = 0;
    for (const f of [this.path, `${this.path}-wal`]) {
      try {
        bytes += statSync(f).size;
      } catch {
        // no WAL right now
      }
    }
    return bytes;
  }

  /**
   * Give pages freed by rewritten records back to the disk, when they are more
   * than a tenth of the file (the cache uses incremental auto-vacuum). After a sync.
   */
  reclaimSpace(): number {
    const free = this.db.pragma('freelist_count', { simple: true }) as number;
    const pages = this.db.pragma('page_count', { simple: true }) as number;
    if (free === 0 || free * 10 < pages) return 0;
    this.db.pragma('incremental_vacuum');
    return free;
  }

  /** True once checkIntegrity has found damage in this session. */
  get isDamaged(): boolean {
    return this.damaged;
  }

  /** Close cleanly: the next open skips the integrity check (see the open marker in db.ts). */
  close(): void {
    closeDatabase(this.db, { keepMarker: this.damaged });
  }
}
