// The few file system calls the app's one writer of a user's file makes
// (atomic-write.ts), behind a seam: the real ones in the app and the CLI, and
// in the fault suite a file system that returns short writes or fails with
// ENOSPC or EROFS at a chosen byte (test/support/faulty-files.ts), so every
// writer is proven against a disk that fills up halfway.
import { closeSync, fdatasync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, write, writeSync } from 'node:fs';

export interface FileOps {
  openSync(path: string, flags: string, mode?: number): number;
  /** Like fs.writeSync: may write fewer bytes than asked (the caller loops). */
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  /**
   * Like fs.write: the bytes go to the file from libuv's thread pool while this thread carries on, and `done` is
   * called with the bytes written (may be fewer than asked: the caller goes on) or the error. A streamed file
   * (an export) is written this way, so the rows are made while the disk takes the bytes before them.
   */
  write(fd: number, buffer: Uint8Array, offset: number, length: number, done: (e: NodeJS.ErrnoException | null, written: number) => void): void;
  fsyncSync(fd: number): void;
  /**
   * Like fs.fdatasync: the file's bytes so far to the disk, from the thread pool while this thread carries on. A long
   * streamed file is flushed this way as it is written, so the last flush (fsyncSync) waits only for its tail.
   */
  flush(fd: number, done: (e: NodeJS.ErrnoException | null) => void): void;
  /** Bytes between two flushes behind a streamed file's writes; unset: FileStream's own (32 MiB). A test sets it small. */
  readonly flushEvery?: number;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string): void;
  readdirSync(dir: string): string[];
  /** Last modification time in ms since the epoch. */
  mtimeMs(path: string): number;
}

export const realFileOps: FileOps = {
  openSync: (path, flags, mode) => openSync(path, flags, mode),
  writeSync: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  write: (fd, buffer, offset, length, done) => write(fd, buffer, offset, length, null, done),
  fsyncSync: (fd) => fsyncSync(fd),
  flush: (fd, done) => fdatasync(fd, done),
  closeSync: (fd) => closeSync(fd),
  renameSync: (from, to) => renameSync(from, to),
  rmSync: (path) => rmSync(path, { force: true }),
  readdirSync: (dir) => readdirSync(dir),
  mtimeMs: (path) => statSync(path).mtimeMs,
};

let current: FileOps = realFileOps;

/** The file system calls in use. */
export function fileOps(): FileOps {
  return current;
}

/** Swap the file system calls (the fault suite); null puts the real ones back. */
export function useFileOps(ops: FileOps | null): void {
  current = ops ?? realFileOps;
}
