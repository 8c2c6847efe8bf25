// A file system failure in the app's error vocabulary (shared/errors.ts), in
// words that name the file and what to do next. Used by every writer of a
// user's file (exports, the record, the do-not-contact list, backups).
import { dirname } from 'node:path';
import { type ErrorKind, WorkbenchError } from '../../../shared/errors';

/** The kind an errno code stands for, or null when it is not a file system failure this table knows. */
export function fileErrorKind(e: unknown): Extract<ErrorKind, 'disk-full' | 'read-only' | 'permission' | 'io-error' | 'cache-locked'> | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return 'disk-full';
  if (code === 'EROFS') return 'read-only';
  if (['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENAMETOOLONG'].includes(code)) return 'permission';
  if (code === 'EBUSY' || code === 'ETXTBSY') return 'cache-locked';
  if (code === 'EIO' || code === 'ENXIO' || code === 'ESTALE') return 'io-error';
  return null;
}

const NEXT: Record<NonNullable<ReturnType<typeof fileErrorKind>>, (path: string) => string> = {
  'disk-full': () => 'The disk is full: free some space and try again.',
  'read-only': (path) => `The disk or folder (${dirname(path)}) is read-only: choose a writable folder.`,
  permission: (path) => `The folder ${dirname(path)} does not exist or may not be written: choose another folder, or check its permissions.`,
  'cache-locked': () => 'Another program has the file open: close it and try again.',
  'io-error': () => 'The disk may be failing or disconnected: check it and try again.',
};

/**
 * `e` as an error of the app's vocabulary: a known file system failure gets its
 * kind and words naming `path` (`what` says what the file is: "The export",
 * "Your record"); anything else passes through unchanged (a bug stays a bug).
 */
export function asFileError(e: unknown, path: string, what: string): unknown {
  if (e instanceof WorkbenchError) return e;
  const kind = fileErrorKind(e);
  if (!kind) return e;
  const code = String((e as { code?: unknown }).code);
  return new WorkbenchError(kind, `${what} could not be written to ${path} (${code}). ${NEXT[kind](path)}`, { cause: e });
}
