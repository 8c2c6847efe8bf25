// A file system that misbehaves the way a laptop's does, for the app's one
// writer of a user's file (electron/core/files/file-ops.ts): writes that stop
// short (fewer bytes than asked, as a full or network disk may), a disk that
// fills up at a chosen byte (the bytes before it written, then ENOSPC), a
// read-only disk (EROFS when a file is created), or a failure at the rename
// or the flush. Everything else is the real file system.
import { realFileOps, useFileOps, type FileOps } from '../../electron/core/files/file-ops';

export interface Faults {
  /** Only files whose path matches (default: every file). */
  path?: RegExp;
  /** Each write writes at most this many bytes (a short write). */
  shortWrites?: number;
  /** The disk is full after this many bytes (over every matching file). */
  fullAtByte?: number;
  /** The error when the disk is full. Default ENOSPC. */
  code?: 'ENOSPC' | 'EDQUOT' | 'EIO';
  /** Creating a matching file fails with this code (EROFS: a read-only disk; EACCES: a folder not writable). */
  failOpen?: 'EROFS' | 'EACCES';
  /** The rename into place fails with this code. */
  failRename?: 'EROFS' | 'EIO' | 'EXDEV';
  /** Flushing a matching file fails with this code. */
  failFsync?: 'EIO' | 'ENOSPC';
  /** Bytes between two flushes behind a streamed file's writes (FileStream's), small so a small export passes it. */
  flushEvery?: number;
}

export interface FaultyFileOps extends FileOps {
  /** Bytes written to matching files. */
  readonly written: number;
  /** How many write calls wrote fewer bytes than asked. */
  readonly shortCount: number;
}

export function errno(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const words: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EIO: 'i/o error',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EXDEV: 'cross-device link not permitted',
  };
  return Object.assign(new Error(`${code}: ${words[code] ?? 'error'}, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, ...(path ? { path } : {}) });
}

export function faultyFileOps(f: Faults): FaultyFileOps {
  const matches = (p: string) => !f.path || f.path.test(p);
  const watched = new Set<number>();
  let written = 0;
  let shortCount = 0;
  /** How many of `length` bytes a write may write now: a short write's most, what is left before the disk is full (none: the error). */
  const allowed = (length: number): number => {
    let n = length;
    if (f.shortWrites !== undefined) n = Math.min(n, f.shortWrites);
    if (f.fullAtByte !== undefined) {
      const room = f.fullAtByte - written;
      if (room <= 0) throw errno(f.code ?? 'ENOSPC', 'write');
      n = Math.min(n, room);
    }
    return n;
  };
  const count = (done: number, asked: number) => {
    if (done < asked) shortCount++;
    written += done;
  };
  return {
    ...realFileOps,
    ...(f.flushEvery !== undefined ? { flushEvery: f.flushEvery } : {}),
    get written() {
      return written;
    },
    get shortCount() {
      return shortCount;
    },
    openSync(path, flags, mode) {
      const writing = flags !== 'r' && matches(path);
      if (writing && f.failOpen) throw errno(f.failOpen, 'open', path);
      const fd = realFileOps.openSync(path, flags, mode);
      if (writing) watched.add(fd);
      return fd;
    },
    writeSync(fd, buffer, offset, length) {
      if (!watched.has(fd)) return realFileOps.writeSync(fd, buffer, offset, length);
      const done = realFileOps.writeSync(fd, buffer, offset, allowed(length));
      count(done, length);
      return done;
    },
    // The same faults on the asynchronous path (a streamed export's): the same short writes, the same full disk at the same byte.
    write(fd, buffer, offset, length, done) {
      if (!watched.has(fd)) return realFileOps.write(fd, buffer, offset, length, done);
      let n: number;
      try {
        n = allowed(length);
      } catch (e) {
        // Answered as a real fs callback is: in a later turn of the event loop, after the promises' microtasks.
        setImmediate(done, e as NodeJS.ErrnoException, 0);
        return;
      }
      realFileOps.write(fd, buffer, offset, n, (e, wrote) => {
        if (!e) count(wrote, length);
        done(e, wrote);
      });
    },
    fsyncSync(fd) {
      if (watched.has(fd) && f.failFsync) throw errno(f.failFsync, 'fsync');
      realFileOps.fsyncSync(fd);
    },
    flush(fd, done) {
      if (watched.has(fd) && f.failFsync) return void setImmediate(done, errno(f.failFsync, 'fdatasync'));
      realFileOps.flush(fd, done);
    },
    closeSync(fd) {
      watched.delete(fd);
      realFileOps.closeSync(fd);
    },
    renameSync(from, to) {
      if (f.failRename && matches(to)) throw errno(f.failRename, 'rename', from);
      realFileOps.renameSync(from, to);
    },
  };
}

/** Run `fn` with the faulty file system in place of the real one, then put the real one back. */
export async function withFaults<T>(f: Faults | FaultyFileOps, fn: (ops: FaultyFileOps) => Promise<T> | T): Promise<T> {
  const ops = 'writeSync' in f ? f : faultyFileOps(f);
  useFileOps(ops);
  try {
    return await fn(ops);
  } finally {
    useFileOps(null);
  }
}
