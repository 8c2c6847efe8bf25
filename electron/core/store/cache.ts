// The cache: one SQLite file, its connection's two faces (a ReadableDB the
// store's read functions take, a WritableDB its writes and preparing steps
// take: database.ts), and the stores still kept as objects over it.
import { statSync } from 'node:fs';
import type { FieldTable } from '../../../shared/opportunity-fields';
import { faces, type ReadableDB, type WritableDB } from './database';
import { closeDatabase, openDatabase, type DB, type OpenOptions } from './db';
import { checkIntegrityOffThread, type CheckedIntegrity } from './integrity';
import { awaitWriteLock, writeTransaction } from './lock-wait';
import { BrandStore } from './brands';
import { CitationStore } from './citations';
import { DoNotContactStore } from './do-not-contact';
import { ExportRowStore } from './export-rows';
import { ExportLog } from './exports-log';
import { SyncLocks } from './sync-lock';
import { UserRecordStore } from './user-record';
import { OpportunityWriter } from './opportunities-write';
import { pipelineDays, prepareList, type PipelineDays } from './opportunity-list';
import { ScoreStore } from './scores';
import { SyncRunStore } from './sync-runs';
import { optimizeSearchIndex } from './search-index';
import { looseSpace, loosePays, smallPageCache, vacuumNow, type CompactAtClose, type LooseSpace } from './compaction';
import { markExported } from './triage';

/** Pages given back per step of reclaimSpace (8 KB pages: 2 MB, a few milliseconds of writing). */
const RECLAIM_STEP_PAGES = 256;
/** The pause between two steps, in which another process's write takes its turn. */
const RECLAIM_PAUSE_MS = 15;
export type { CompactAtClose, LooseSpace } from './compaction';

export class Cache {
  /** Reads only: every statement run through it is checked not to write. */
  readonly readable: ReadableDB;
  /** Writes (in transactions that take the write lock first) and the steps that prepare derived tables. */
  readonly writable: WritableDB;
  readonly brands: BrandStore;
  /** The sync's writes of the service's opportunities. */
  readonly opportunities: OpportunityWriter;
  readonly scores: ScoreStore;
  readonly citations: CitationStore;
  readonly runs: SyncRunStore;
  readonly doNotContact: DoNotContactStore;
  readonly exportRows: ExportRowStore;
  readonly exports: ExportLog;
  readonly locks: SyncLocks;
  /** The user's record as one piece: read, merged, replaced. */
  readonly record: UserRecordStore;
  /** The days the pipeline's filters are measured from: the app (or the CLI) sets the user's calendar and follow-up days here. */
  days: () => PipelineDays = () => pipelineDays();
  /** Set when checkIntegrity found damage: then close() is not a clean close, and the next open checks again. */
  private damaged = false;

  private constructor(
    readonly db: DB,
    readonly path: string,
    fields?: FieldTable,
    private readonly compactAtClose: CompactAtClose = {},
  ) {
    ({ readable: this.readable, writable: this.writable } = faces(db, fields, path));
    this.brands = new BrandStore(db);
    this.opportunities = new OpportunityWriter(this.writable);
    this.exports = new ExportLog(db);
    this.locks = new SyncLocks(db);
    this.record = new UserRecordStore(this.writable, this.exports);
    this.scores = new ScoreStore(db);
    this.citations = new CitationStore(db);
    this.runs = new SyncRunStore(db);
    this.doNotContact = new DoNotContactStore(db);
    this.exportRows = new ExportRowStore(
      this.readable,
      db,
      (f) => prepareList(this.writable, f, this.days()),
      (brandId, ids, at, fileName) => markExported(this.writable, brandId, ids, at, fileName),
    );
  }

  /**
   * `fields`: the field table the opportunities table follows (a test may pass one with a field more);
   * `compactAtClose`: when close() gives back the space scattered writes left (see compactIfLoose).
   */
  static async open(path: string, opts: OpenOptions & { fields?: FieldTable; compactAtClose?: CompactAtClose } = {}): Promise<Cache> {
    const compact = opts.readonly ? false : opts.compactAtClose;
    return new Cache(await openDatabase(path, opts), path, opts.fields, compact);
  }

  /**
   * Run fn in one synchronous write transaction (never across an await),
   * taking the write lock at its start (BEGIN IMMEDIATE): with another process
   * writing the same file, a transaction that read first and wrote later could
   * otherwise fail at its first write instead of waiting its turn.
   */
  tx<T>(fn: () => T): T {
    // Another program's lock: said (onLockWait) and waited for, then named in the error (lock-wait.ts).
    return writeTransaction(this.db, this.path, fn);
  }

  /**
   * Wait, without blocking this thread, until no other program holds the
   * write lock (said once through onLockWait), up to the lock wait; then a
   * cache-locked error naming it. Before a write in a long job (each sync
   * page), so the app answers calls while it waits.
   */
  awaitWriteLock(signal?: AbortSignal): Promise<void> {
    return awaitWriteLock(this.db, this.path, { signal });
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
    const restore = smallPageCache(this.db);
    try {
      return await fn();
    } finally {
      restore();
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
   * than a tenth of the file (the cache uses incremental auto-vacuum). After a
   * sync. In short steps (`stepPages` pages each, its own write transaction)
   * with a pause between them, so another process's triage write waits for one
   * step at most, never for the whole vacuum (seconds on a big file). Resolves
   * with the pages given back; never rejects: a busy file or a cache closed
   * meanwhile ends it early, and the next sync carries on.
   */
  async reclaimSpace(opts: { stepPages?: number; pauseMs?: number } = {}): Promise<number> {
    const stepPages = Math.max(1, Math.trunc(opts.stepPages ?? RECLAIM_STEP_PAGES));
    const pauseMs = opts.pauseMs ?? RECLAIM_PAUSE_MS;
    const freePages = () => this.db.pragma('freelist_count', { simple: true }) as number;
    let given = 0;
    try {
      let free = freePages();
      const pages = this.db.pragma('page_count', { simple: true }) as number;
      if (free === 0 || free * 10 < pages) return 0;
      for (;;) {
        // pragma() runs the statement to its end: incremental_vacuum frees one page per step of it.
        this.db.pragma(`incremental_vacuum(${stepPages})`);
        const left = freePages();
        given += free - left;
        if (left === 0 || left >= free) break;
        free = left;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        if (!this.db.open) break;
      }
    } catch {
      // Busy with another writer past the busy timeout, or closed: the next sync does the rest.
    }
    return given;
  }

  /**
   * True when this connection has written to the cache since it opened: SQLite's total_changes less the
   * derived tables' own fills (a search, the pitched set, the follow-ups due: temporary tables, which
   * total_changes counts too). A close after reads only measures nothing.
   */
  private wroteThisSession(): boolean {
    try {
      const all = (this.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
      return all - this.writable.derived.ownChanges() > 0;
    } catch {
      return false;
    }
  }

  /** True when the cache holds no opportunity of any brand (before a first sync). */
  isEmpty(): boolean {
    return this.db.prepare('SELECT 1 FROM opportunities LIMIT 1').get() === undefined;
  }

  /**
   * The first sync's tidy-up. The full-text index merged into one segment
   * (store/search-index.ts: a search's test of a row seeks each segment; at
   * 10,000 opportunities its 7 segments made a search 1.5x as slow). Then the
   * file rewritten compactly (VACUUM) when enough is loose in it: the
   * indexes grew page by page as the rows arrived and leave part of each page
   * empty (12% of the opportunities' indexes, 7 MB at 100,000 opportunities),
   * which giving back free pages does not reach; measured as close() measures
   * it, with this cache's own thresholds (compactIfLoose, any file size), so a
   * small first sync (0.6 MB loose at 10,000) is not rewritten: the pages the
   * merge freed are given back (and the log the merge grew emptied), no more. Once, not after every sync: the next syncs rewrite a few rows. It holds the file for the
   * time of a copy (about 2 s at 100,000 on a quiet machine). Never throws: a
   * busy file is left as it is.
   */
  tidyAfterFirstSync(): { merged: boolean; compacted: boolean } {
    let restore: (() => void) | null = null;
    let merged = false;
    try {
      restore = smallPageCache(this.db);
      // Measured before the merge: the pages it frees go back at once without a rewrite (incremental_vacuum, milliseconds).
      const pays = loosePays(looseSpace(this.db), this.compactAtClose || {});
      merged = optimizeSearchIndex(this.db);
      // Said as the close's compaction is (the CLI's "Compacting the cache…"): seconds at 100,000.
      if (pays) vacuumNow(this.db, this.compactAtClose || {});
      else {
        this.db.pragma('incremental_vacuum');
        // The merge wrote the whole full-text index in one transaction: its log emptied, not kept that large until the close.
        this.db.pragma('wal_checkpoint(TRUNCATE)');
      }
      return { merged, compacted: pays };
    } catch {
      return { merged, compacted: false };
    } finally {
      try {
        restore?.();
      } catch {
        // The connection closed meanwhile: nothing to put back.
      }
    }
  }

  /**
   * The space a VACUUM would give back (compaction.ts), read through a small page cache: dbstat reads every
   * index page once, which filled the 64 MB cache (a close after an export at 100,000 took the process 53 MB higher).
   */
  looseSpace(): LooseSpace {
    const restore = smallPageCache(this.db);
    try {
      return looseSpace(this.db);
    } finally {
      restore();
    }
  }

  /**
   * Give back the space scattered writes left inside the file, when it passes
   * the thresholds (compaction.ts, or `opts`): one VACUUM,
   * which rewrites every table and index packed (about 1 s at 100,000
   * opportunities), then the write-ahead log emptied. Freed pages alone go back
   * after a sync (reclaimSpace); half-empty index pages only a rewrite packs.
   * close() runs it, so it falls at a calm moment: at the app's quit (the
   * window is gone) or at the end of a command, never under a keystroke. Never
   * throws: a file busy with another program, or one that cannot be
   * rewritten, is left as it is (it works as it is; the next close tries again).
   */
  compactIfLoose(opts: Exclude<CompactAtClose, false> = {}): { compacted: boolean; loose: LooseSpace | null; seconds: number } {
    const t0 = performance.now();
    let loose: LooseSpace | null = null;
    if (opts.maxFileBytes !== undefined && this.sizeOnDisk() > opts.maxFileBytes) return { compacted: false, loose, seconds: 0 };
    try {
      loose = this.looseSpace();
      if (!loosePays(loose, opts)) return { compacted: false, loose, seconds: (performance.now() - t0) / 1000 };
      vacuumNow(this.db, opts);
      return { compacted: true, loose, seconds: (performance.now() - t0) / 1000 };
    } catch {
      return { compacted: false, loose, seconds: (performance.now() - t0) / 1000 };
    }
  }

  /** True once checkIntegrity has found damage in this session. */
  get isDamaged(): boolean {
    return this.damaged;
  }

  /**
   * Close cleanly: the next open skips the integrity check (see the open marker
   * in db.ts). After writes in this session, the file is first compacted when
   * they left enough space scattered (compactIfLoose), unless `compact` is false
   * (a file about to be replaced, or a quit with no time left for it); a damaged file is not touched.
   */
  close(opts: { compact?: boolean } = {}): void {
    if (opts.compact !== false && this.compactAtClose !== false && !this.damaged && this.path !== ':memory:' && this.db.open && this.wroteThisSession()) {
      this.compactIfLoose(this.compactAtClose);
    }
    closeDatabase(this.db, { keepMarker: this.damaged });
  }
}
