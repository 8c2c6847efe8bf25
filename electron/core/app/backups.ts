// Automatic backups of the user's record (only what cannot be fetched again:
// triage, notes, do-not-contact, exports, history), in `backups/` in the
// user-data folder: written after changes at most once an hour and at quit,
// the last seven days kept (and always the newest). Each backup is a gzipped
// record file with a small description beside it (when, why, how many), so
// the list shows date and counts without opening every file. Restoring one
// first backs up what is there now, then replaces the record.
// A backup is written by the app's one writer (files/atomic-write.ts): the
// record first, then its description; if either fails, neither is left, so a
// file under a backup's name is always whole. What a killed or failed backup
// left is dealt with at the next start (sweep): a temporary part goes; a
// record without its description (a kill between the two, or a person who
// copied only the .gz files) gets its description back when it reads whole,
// and goes only when it does not (an older version's cut-short file).
import { WorkbenchError } from '../../../shared/errors';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip, gunzipSync } from 'node:zlib';
import { parseRecordFile, recordCounts, type BackupInfo, type BackupReason, type RecordFile } from '../../../shared/user-record';
export type { BackupInfo, BackupReason } from '../../../shared/user-record';
import type { Cache } from '../store/cache';
import { readRecordFile } from './record-files';
import { asFileError } from '../files/file-error';
import { removeStalePartials, STALE_PARTIAL_MS, writeFileAtomic } from '../files/atomic-write';

/**
 * The record gzipped (level 3) in zlib's thread pool: `write` hands it over
 * part by part on this thread; the first part is compressed while this thread
 * builds the rest, which zlib takes once `write` returns. Output chunks as
 * large as a whole backup, so a part is compressed in one go. Returns the
 * gzipped bytes and what `write` returned.
 */
async function gzipParts<T>(write: (out: (bytes: Buffer) => void) => T): Promise<{ packed: Buffer; result: T }> {
  const gz = createGzip({ level: 3, chunkSize: 4 * 1024 * 1024 });
  const chunks: Buffer[] = [];
  gz.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    gz.on('end', resolve);
    gz.on('error', reject);
  });
  let result: T;
  try {
    result = write((bytes) => gz.write(bytes));
  } catch (e) {
    gz.destroy();
    throw e;
  }
  gz.end();
  await done;
  return { packed: Buffer.concat(chunks), result };
}

interface Meta extends Omit<BackupInfo, 'id'> {
  fingerprint: string;
}

export interface BackupsOptions {
  dir: string;
  cache: () => Cache;
  appVersion: string;
  now?: () => Date;
  /** At most one backup after changes in this long. Default one hour. */
  minIntervalMs?: number;
  /** A quiet moment after a change before the backup is written. Default 30 s. */
  settleMs?: number;
  /** Backups older than this go (the newest always stays). Default 7 days. */
  keepMs?: number;
  /** Told when a backup in the background fails (it never throws into the app). */
  onError?: (e: unknown) => void;
}

const ID = /^record-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?\.json\.gz$/;
const META = /^(record-.+\.json\.gz)\.meta\.json$/;
const HOUR = 3_600_000;

export class Backups {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<BackupInfo | null> | null = null;

  constructor(private readonly o: BackupsOptions) {}

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  /** Every backup, newest first. */
  list(): BackupInfo[] {
    if (!existsSync(this.o.dir)) return [];
    const out: BackupInfo[] = [];
    for (const name of readdirSync(this.o.dir)) {
      if (!ID.test(name)) continue;
      const meta = this.meta(name);
      if (meta) out.push({ id: name, created_at: meta.created_at, reason: meta.reason, counts: meta.counts, bytes: meta.bytes });
    }
    // Newest first; two in the same millisecond by their suffix (-2, -3, … are later).
    const seq = (id: string) => Number(/-(\d+)\.json\.gz$/.exec(id)?.[1] ?? 1);
    return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : seq(b.id) - seq(a.id)));
  }

  private meta(id: string): Meta | null {
    try {
      return JSON.parse(readFileSync(join(this.o.dir, `${id}.meta.json`), 'utf8')) as Meta;
    } catch {
      return null;
    }
  }

  /** A change was made: back up once things are quiet, no sooner than an hour after the last backup. */
  noteChange(): void {
    if (this.timer) return;
    const last = this.list()[0];
    const since = last ? this.now().getTime() - Date.parse(last.created_at) : Infinity;
    const wait = Math.max(this.o.settleMs ?? 30_000, (this.o.minIntervalMs ?? HOUR) - since);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.backupNow('hourly').catch((e: unknown) => this.o.onError?.(e));
    }, wait);
    this.timer.unref?.();
  }

  /**
   * For a process that does not stay (a `workbench` command): a backup now if
   * the record changed and the last backup is older than the interval.
   */
  async backupIfDue(): Promise<BackupInfo | null> {
    const last = this.list()[0];
    if (last && this.now().getTime() - Date.parse(last.created_at) < (this.o.minIntervalMs ?? HOUR)) return null;
    return this.backupNow('hourly');
  }

  /**
   * Write a backup now, unless nothing changed since the last one (then null);
   * `force` writes one even so (before a restore or an import).
   */
  async backupNow(reason: BackupReason, opts: { force?: boolean } = {}): Promise<BackupInfo | null> {
    // One at a time: a quit during an hourly backup waits for it, then decides.
    while (this.writing) await this.writing.catch(() => null);
    this.writing = this.write(reason, opts.force ?? false);
    try {
      return await this.writing;
    } finally {
      this.writing = null;
    }
  }

  private async write(reason: BackupReason, force: boolean): Promise<BackupInfo | null> {
    const cache = this.o.cache();
    const fingerprint = cache.record.fingerprint();
    const last = this.list()[0];
    if (!force && last && this.meta(last.id)?.fingerprint === fingerprint) return null;
    const now = this.now();
    try {
      mkdirSync(this.o.dir, { recursive: true });
    } catch (e) {
      throw asFileError(e, this.o.dir, 'The backup of your record');
    }
    // The record's JSON straight from SQLite, part by part; compressed in zlib's thread pool, off the core's thread.
    const { packed, result: counts } = await gzipParts((out) => cache.record.writeJson(this.o.appVersion, now, out));
    let id = `record-${now.toISOString().replace(/[:.]/g, '-')}.json.gz`;
    for (let k = 2; existsSync(join(this.o.dir, id)); k++) id = id.replace(/(-\d+)?\.json\.gz$/, `-${k}.json.gz`);
    const file = join(this.o.dir, id);
    writeFileAtomic(file, packed, { what: 'The backup of your record' });
    const bytes = packed.length;
    const meta: Meta = { created_at: now.toISOString(), reason, counts, bytes, fingerprint };
    try {
      writeFileAtomic(join(this.o.dir, `${id}.meta.json`), JSON.stringify(meta) + '\n', { what: 'The backup of your record' });
    } catch (e) {
      // Without its description a backup is never listed: it must not stay under a backup's name.
      rmSync(file, { force: true });
      throw e;
    }
    this.prune();
    return { id, created_at: meta.created_at, reason, counts: meta.counts, bytes };
  }

  /**
   * At start: what killed or failed backups left in the folder (only this
   * app's files, by name and age): temporary parts whose writer is gone go, a
   * description without its record goes, and a record without its description
   * gets one rebuilt from it when it reads whole, else goes. Returns the names
   * removed; never throws.
   */
  sweep(): string[] {
    const removed = removeStalePartials(this.o.dir, this.now().getTime());
    let names: string[];
    try {
      names = readdirSync(this.o.dir);
    } catch {
      return removed;
    }
    const have = new Set(names);
    const old = (name: string) => {
      try {
        return this.now().getTime() - statSync(join(this.o.dir, name)).mtimeMs > STALE_PARTIAL_MS;
      } catch {
        return false;
      }
    };
    for (const name of names) {
      const meta = META.exec(name);
      const orphan = ID.test(name) ? !have.has(`${name}.meta.json`) : meta ? !have.has(meta[1]!) : false;
      // A backup in progress has its record for a moment before its description: only old orphans are looked at.
      if (!orphan || !old(name)) continue;
      if (ID.test(name) && this.describeAgain(name)) continue;
      try {
        rmSync(join(this.o.dir, name), { force: true });
        removed.push(name);
      } catch {
        // left for the next start
      }
    }
    return removed;
  }

  /**
   * Write the description of a backup's record that has none, from the record
   * itself; false when the record does not read whole (then it is not a backup).
   * Why it was taken is not known: it is listed as an automatic one.
   */
  private describeAgain(id: string): boolean {
    let packed: Buffer;
    let record: RecordFile;
    try {
      packed = readFileSync(join(this.o.dir, id));
      const read = parseRecordFile(gunzipSync(packed).toString('utf8'));
      if (!read.ok) return false;
      record = read.record;
    } catch {
      return false;
    }
    const meta: Meta = { created_at: record.created_at, reason: 'hourly', counts: recordCounts(record), bytes: packed.length, fingerprint: '' };
    try {
      writeFileAtomic(join(this.o.dir, `${id}.meta.json`), JSON.stringify(meta) + '\n', { what: 'The backup of your record' });
    } catch {
      // A disk that cannot take the description now: the record stays, and the next start tries again.
    }
    return true;
  }

  /** Backups older than the keep period go; the newest always stays. */
  private prune(): void {
    const cutoff = this.now().getTime() - (this.o.keepMs ?? 7 * 24 * HOUR);
    for (const b of this.list().slice(1)) {
      if (Date.parse(b.created_at) >= cutoff) continue;
      rmSync(join(this.o.dir, b.id), { force: true });
      rmSync(join(this.o.dir, `${b.id}.meta.json`), { force: true });
    }
  }

  /** One backup's record, read and checked; refused in plain words when it is not a backup or damaged. */
  async read(id: string): Promise<{ info: BackupInfo; record: RecordFile }> {
    const info = ID.test(id) ? this.list().find((b) => b.id === id) : undefined;
    if (!info) throw new WorkbenchError('not-found', 'That backup is not in the backups folder (it may have been removed).', { field: 'id' });
    const read = await readRecordFile(join(this.o.dir, id));
    if (!read.ok)
      throw new WorkbenchError('invalid-input', `The backup of ${info.created_at.slice(0, 16).replace('T', ' ')} cannot be used: ${read.reason}`, {
        field: 'id',
      });
    return { info, record: read.record };
  }

  /** The newest backup that can be read, for the recovery of a damaged cache. */
  async latest(): Promise<{ file: string; record: RecordFile } | null> {
    for (const b of this.list()) {
      const read = await readRecordFile(join(this.o.dir, b.id));
      if (read.ok) return { file: b.id, record: read.record };
    }
    return null;
  }

  /** Replace the user's record with a backup's, after backing up what is there now. */
  async restore(id: string): Promise<{ restored: BackupInfo; safety: BackupInfo | null }> {
    const { info, record } = await this.read(id);
    const safety = await this.backupNow('before-restore', { force: true });
    this.o.cache().record.replace(record);
    return { restored: info, safety };
  }

  /** Size on disk of every backup, for Settings. */
  totalBytes(): number {
    return this.list().reduce((a, b) => {
      try {
        return a + statSync(join(this.o.dir, b.id)).size;
      } catch {
        return a;
      }
    }, 0);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
