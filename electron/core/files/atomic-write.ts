// The one way a user's file is written (an export, the record, the
// do-not-contact list, a backup, the settings): into a temporary file in the
// same folder (`<name>.partial-<pid>-<random>`, one of its own for every
// write, so two writes of one file in one process never share it), every byte of it (a write that stops
// short is carried on until all is written), flushed to the disk, then
// renamed over the real name and the folder flushed too, so the new name
// survives a power cut. On any error the temporary file is removed and the
// failure is reported in the app's words (file-error.ts): a file is never
// reported written unless it is whole under its name.
//
// Temporary files of a process that was killed are left behind; they are
// recognised by name (that suffix with the pid of a process no longer
// running) and age, and removed the next time the app or a `workbench`
// command writes into that folder.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { basename, dirname, join } from 'node:path';
import { asFileError } from './file-error';
import { fileOps } from './file-ops';

/** A temporary name a file is written under before it takes its real name: a new one at every call. */
export function partialName(path: string, pid = process.pid): string {
  return `${path}.partial-${pid}-${randomBytes(4).toString('hex')}`;
}

/** The real name behind a temporary one (the name itself when it is not one). */
export function finalName(path: string): string {
  return path.replace(/\.partial-\d+(?:-[0-9a-f]{8})?$/, '');
}

/** No error and no progress: the disk is not taking the bytes (a full disk some systems report this way). */
const noProgress = () => Object.assign(new Error('the disk accepted no more bytes'), { code: 'ENOSPC' });

/** Write every byte of `bytes` to `fd`, carrying on after short writes. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  const ops = fileOps();
  for (let at = 0; at < bytes.length; ) {
    const n = ops.writeSync(fd, bytes, at, bytes.length - at);
    if (!(n > 0)) throw noProgress();
    at += n;
  }
}

/** Flush a folder's entries (the rename) to the disk; a system that cannot open a folder (Windows) skips it. */
export function syncFolder(dir: string): void {
  const ops = fileOps();
  let fd: number;
  try {
    fd = ops.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    ops.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Some file systems do not flush folders; that is not a failure of this write.
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'EBADF' && code !== 'ENOTSUP') throw e;
  } finally {
    ops.closeSync(fd);
  }
}

export interface WriteOptions {
  /** What the file is, for the error's words ("The export", "Your record"). Default "The file". */
  what?: string;
  /** Permissions of a new file (0o600 for the settings). */
  mode?: number;
}

/**
 * Write `bytes` to `path` atomically (see the top of this file). Throws an
 * error of the app's vocabulary (disk-full, read-only, permission, …) naming
 * `path`, with nothing left behind, when any step fails.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array | string, opts: WriteOptions = {}): void {
  const ops = fileOps();
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const tmp = partialName(path);
  removeStalePartials(dirname(path));
  let fd: number | null = null;
  try {
    fd = ops.openSync(tmp, 'w', opts.mode);
    writeAll(fd, data);
    ops.fsyncSync(fd);
    const closing = fd;
    fd = null;
    ops.closeSync(closing);
    ops.renameSync(tmp, path);
    syncFolder(dirname(path));
  } catch (e) {
    if (fd !== null) closeQuietly(fd);
    removeQuietly(tmp);
    throw asFileError(e, path, opts.what ?? 'The file');
  }
}

/**
 * Give a finished temporary file its real name: rename, then flush the
 * folder. For writers that stream (exports), after every part is complete.
 */
export function commitPartial(tmp: string, path: string, what = 'The file'): void {
  try {
    fileOps().renameSync(tmp, path);
    syncFolder(dirname(path));
  } catch (e) {
    removeQuietly(tmp);
    throw asFileError(e, path, what);
  }
}

function closeQuietly(fd: number): void {
  try {
    fileOps().closeSync(fd);
  } catch {
    // already failing: the first error is the one reported
  }
}

function removeQuietly(path: string): void {
  try {
    fileOps().rmSync(path);
  } catch {
    // nothing more can be done; the next start's clean-up tries again
  }
}

/** Bytes written between two flushes behind a streamed file's writes (about seven for an export of 230 MB). */
const FLUSH_BEHIND = 32 * 1024 * 1024;

/**
 * A file written as a stream (an export's CSV or workbook), through the same
 * calls: every byte of each chunk written, flushed to the disk at the end
 * (before 'finish'), failures in the app's words naming the real file. Write
 * it under partialName() and commitPartial() it once complete. A chunk is
 * written from libuv's thread pool (fileOps().write): the caller makes the
 * next chunk meanwhile, and learns a chunk is written from write()'s callback.
 * Every FLUSH_BEHIND bytes the file is flushed from the thread pool too, so
 * the flush at the end does not wait for the whole file to reach the disk.
 */
export class FileStream extends Writable {
  private fd: number | null = null;
  /** Bytes that reached the file so far. */
  bytesWritten = 0;
  /** A write is with the thread pool: the file is closed only once it is back (a closed fd may be another file's by then). */
  private writing = false;
  /** A flush behind the writes (flushBehind) is with the thread pool, started at `flushedAt` bytes; a failed one fails the stream. */
  private flushing = false;
  private flushedAt = 0;
  private flushFailure: Error | null = null;
  /** Closing (a destroy) or finishing, once no write and no flush is out. */
  private whenIdle: (() => void) | null = null;

  constructor(
    readonly path: string,
    private readonly what = 'The file',
    /** Bytes between two flushes behind the writes (smaller in the tests: the constructor's or the file seam's). */
    private readonly flushEvery = fileOps().flushEvery ?? FLUSH_BEHIND,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  /** Opened as the stream starts, as fs.createWriteStream does: a file that cannot be created fails the stream with an 'error'. */
  override _construct(done: (e?: Error | null) => void): void {
    try {
      this.fd = fileOps().openSync(this.path, 'w');
      done();
    } catch (e) {
      done(this.fail(e));
    }
  }

  private fail(e: unknown): Error {
    return asFileError(e, finalName(this.path), this.what) as Error;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    if (this.flushFailure) return done(this.fail(this.flushFailure));
    // Nothing to write is written as nothing (a write of 0 bytes would come back with 0, which reads as a full disk).
    if (chunk.length === 0) return done();
    this.writeFrom(chunk, 0, done);
  }

  /** The chunk from byte `at` on, carried on after short writes until all of it is written. */
  private writeFrom(chunk: Buffer, at: number, done: (e?: Error | null) => void): void {
    this.writing = true;
    fileOps().write(this.fd!, chunk, at, chunk.length - at, (e, n) => {
      this.writing = false;
      if (this.whenIdle) {
        // Destroyed meanwhile (a cancel): the write is over either way, and the file may be closed now.
        done(e ? this.fail(e) : null);
        return this.idle();
      }
      if (e) return done(this.fail(e));
      if (!(n > 0)) return done(this.fail(noProgress()));
      this.bytesWritten += n;
      if (this.bytesWritten - this.flushedAt >= this.flushEvery && !this.flushing) this.flushBehind();
      if (at + n < chunk.length) this.writeFrom(chunk, at + n, done);
      else done();
    });
  }

  /** The bytes so far to the disk from the thread pool, while the writes go on: the flush at the end then waits only for the tail. */
  private flushBehind(): void {
    this.flushing = true;
    this.flushedAt = this.bytesWritten;
    fileOps().flush(this.fd!, (e) => {
      this.flushing = false;
      if (e) this.flushFailure ??= e;
      this.idle();
    });
  }

  /** Nothing is out with the thread pool: what waited for that (a close, the finish) goes on. */
  private idle(): void {
    if (this.writing || this.flushing || !this.whenIdle) return;
    const next = this.whenIdle;
    this.whenIdle = null;
    next();
  }

  override _final(done: (e?: Error | null) => void): void {
    const finish = () => {
      try {
        if (this.flushFailure) throw this.flushFailure;
        fileOps().fsyncSync(this.fd!);
        const fd = this.fd!;
        this.fd = null;
        fileOps().closeSync(fd);
        done();
      } catch (e) {
        done(this.fail(e));
      }
    };
    if (this.flushing) this.whenIdle = finish;
    else finish();
  }

  override _destroy(e: Error | null, done: (e?: Error | null) => void): void {
    const close = () => {
      if (this.fd !== null) closeQuietly(this.fd);
      this.fd = null;
      done(e);
    };
    // A finish waiting for a flush (whenIdle) is dropped: the file is closed instead, and endFile() hears the close.
    if (this.writing || this.flushing) this.whenIdle = close;
    else close();
  }
}

/**
 * End a FileStream and wait until it is finished: every byte written and flushed to the disk, the file closed.
 * Rejects with the stream's failure (in the app's words) when a write, a flush behind the writes or the last flush
 * failed, also one that comes after end(), and when the stream is closed without finishing (destroyed meanwhile).
 */
export async function endFile(file: FileStream): Promise<void> {
  const done = finished(file);
  file.end();
  await done;
  // finished() takes "ended, nothing buffered" for finished when the stream closes: a destroy while the end waited
  // for a flush would pass for a file flushed to the disk. Only a 'finish' (the last flush and the close done) is one.
  if (!file.writableFinished) throw file.errored ?? closedUnfinished();
}

const closedUnfinished = () => Object.assign(new Error('the file was closed before it was finished'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/**
 * A temporary file of this app, with the pid of its writer: `<name>.partial-<pid>-<8 hex>`, or
 * `<name>.partial-<pid>` (the shape before) for a kind of file this app writes (an export, the
 * record, a backup, the backup before an upgrade). The backup before an upgrade is written by
 * SQLite, whose rollback journal beside it (`…-journal`) a kill leaves too. Nothing else in a
 * folder is touched: another program's `notes.json.tmp-123` stays.
 */
const PARTIAL = /^(.+)\.partial-(\d+)-[0-9a-f]{8}(?:-journal)?$/;
const OLDER_PARTIAL = /^(.+\.(?:csv|tsv|xlsx|json|gz|bak))\.partial-(\d+)$/i;
/** The settings' temporary file of an older version, removed only where the settings sweep their own folder. */
const OLD_SETTINGS_TMP = /^(settings\.json)\.tmp-(\d+)$/;
/** A killed writer's file stops changing at once; this long without a change, and its process gone, it is left over. */
export const STALE_PARTIAL_MS = 60_000;
/** Older than this it is left over whatever its pid says (the pid may since belong to another process). */
const ABANDONED_MS = 24 * 3_600_000;

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temporary files in `dir` that killed writers of this app left
 * behind (see PARTIAL and the ages above); returns their names. With `of`,
 * only those of that file (the settings sweep their own: `settings.json`'s,
 * and its older `.tmp-<pid>` ones). Never throws: a folder that cannot be
 * read or a file that cannot be removed is left for the next time.
 */
export function removeStalePartials(dir: string, now = Date.now(), opts: { of?: string } = {}): string[] {
  const ops = fileOps();
  let names: string[];
  try {
    names = ops.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = PARTIAL.exec(name) ?? OLDER_PARTIAL.exec(name) ?? (opts.of === 'settings.json' ? OLD_SETTINGS_TMP.exec(name) : null);
    if (!m || (opts.of !== undefined && m[1] !== opts.of)) continue;
    const path = join(dir, name);
    try {
      const age = now - ops.mtimeMs(path);
      const stale = age > ABANDONED_MS || (age > STALE_PARTIAL_MS && !processAlive(Number(m[2])));
      if (!stale) continue;
      ops.rmSync(path);
      removed.push(basename(path));
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}
