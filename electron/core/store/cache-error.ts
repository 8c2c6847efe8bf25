// Why a cache could not open, as one of the kinds the app's start-up dialog
// acts on, read from SQLite's and the file system's error codes.
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CoreFailureKind } from '../../../shared/core-link';
import { WorkbenchError } from '../../../shared/errors';

/**
 * Why a cache could not open, in the app's error vocabulary (shared/errors.ts);
 * the start-up dialog offers choices for each (shared/core-link.ts):
 * - `cache-newer`: written by a newer version (user_version above this app's);
 * - `cache-damaged`: damaged, or not a database at all;
 * - `io-error`: an I/O error reading or writing it;
 * - `cache-locked`: another process holds a lock past the busy timeout;
 * - `disk-full`: no space to write;
 * - `read-only`: the disk or the file is read-only;
 * - `permission`: the folder or file cannot be created or written.
 * - `installation-damaged`: the database module itself cannot load (the app's installation is at fault, not the cache).
 */
export type CacheFailureKind = Exclude<CoreFailureKind, 'internal'>;

export class CacheError extends WorkbenchError {
  override name = 'CacheError';
  declare readonly kind: CacheFailureKind;
  constructor(
    kind: CacheFailureKind,
    message: string,
    readonly path: string,
  ) {
    super(kind, message);
  }
}

/** The runtime asking, for the words: Electron's version when it is Electron, and the ABI it loads. */
function runtimeWords(): string {
  const electron = (process.versions as Record<string, string | undefined>).electron;
  return `${electron ? `Electron ${electron}` : `Node ${process.version}`}, which loads native modules of ABI ${process.versions.modules}`;
}

/**
 * What a .node file says it was built for, read from its bytes (the register symbol Node looks up:
 * node_register_module_v<ABI>, or Node-API's napi_register_module_v1). The build scripts' full probe
 * (build/scripts/native-abi.mjs) reads ELF symbols; this is for the log line only.
 */
export function nativeBuildOf(file: string): string {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    const text = chunk.toString('latin1', 0, readSync(fd, chunk, 0, chunk.length, 0));
    const abi = /node_register_module_v(\d+)/.exec(text)?.[1];
    if (abi) return `built for ABI ${abi}`;
    return text.includes('napi_register_module_v1') ? 'a Node-API module' : 'no register symbol found in it';
  } catch (e) {
    return `unreadable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * better-sqlite3's native module failed to load: built for another runtime ("compiled against a
 * different Node.js version", "did not self-register"), damaged (ERR_DLOPEN_FAILED: "file too
 * short", "invalid ELF header"), or missing ("Could not locate the bindings file").
 */
function isNativeLoadFailure(code: string, msg: string): boolean {
  return (
    code === 'ERR_DLOPEN_FAILED' ||
    /NODE_MODULE_VERSION|did not self-register|Could not locate the bindings file|invalid ELF header|wrong ELF class|not a valid Win32 application|mach-o file|\.node['"]?: (?:cannot open shared object|file too short)/i.test(
      msg,
    ) ||
    (code === 'MODULE_NOT_FOUND' && /\.node\b/.test(msg))
  );
}

/** The first .node file an error message names (Windows or POSIX path). */
function nodeFileIn(msg: string): string | null {
  return /((?:[A-Za-z]:)?[\\/][^'"\n]*?\.node)\b/.exec(msg)?.[1] ?? null;
}

/**
 * The cache could not open because the database module itself cannot load: the installation is
 * damaged, not the cache. The words name the module, its file, what that file was built for, and
 * the ABI this runtime loads, so the log says exactly what to fix.
 */
export function installDamaged(e: unknown, path: string): CacheError | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  if (!isNativeLoadFailure(code, msg)) return null;
  const file = nodeFileIn(msg);
  const what = file ? `${file} (${nativeBuildOf(file)})` : 'its .node file';
  return new CacheError(
    'installation-damaged',
    `Outreach Workbench's installation is damaged: its database module (better-sqlite3, ${what}) could not load in ${runtimeWords()}. ` +
      `${msg
        .split(/\n\s*Require stack/)[0]!
        .replace(/\s+/g, ' ')
        .trim()} Reinstall the app (from the source code: npm run native:node for the CLI and tests, npm run native:electron for the app). ` +
      `The cache file ${path} was not touched.`,
    path,
  );
}

/**
 * Words and a kind for an error met while opening the cache, from its code
 * (better-sqlite3's SqliteError carries SQLite's extended code, Node's fs
 * errors their errno name), or null when it is none of these:
 * - `cache-locked`: SQLITE_BUSY* / SQLITE_LOCKED* (another process holds a lock
 *   longer than the busy timeout, e.g. `locking_mode=EXCLUSIVE` or a write);
 * - `disk-full`: SQLITE_FULL, ENOSPC, EDQUOT, and SQLITE_IOERR_SHMSIZE (the
 *   WAL index could not grow, which SQLite documents as a likely full disk);
 * - `read-only`: SQLITE_READONLY* and EROFS;
 * - `permission`: SQLITE_CANTOPEN*, SQLITE_PERM, and EACCES / EPERM /
 *   ENOTDIR / EEXIST / EISDIR from making the folder;
 * - `cache-damaged`: SQLITE_CORRUPT*, SQLITE_NOTADB;
 * - `io-error`: any other SQLITE_IOERR* (a disk I/O error).
 */
export function classifyOpenError(e: unknown, path: string): CacheError | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  const is = (prefix: string) => code === prefix || code.startsWith(prefix + '_');
  const damaged = installDamaged(e, path);
  if (damaged) return damaged;
  if (is('SQLITE_BUSY') || is('SQLITE_LOCKED') || (!code && /database is locked/i.test(msg)))
    return new CacheError(
      'cache-locked',
      `The cache file ${path} is in use by another program (another Outreach Workbench, or a \`workbench\` command still running). Close it and start again.`,
      path,
    );
  if (is('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_IOERR_SHMSIZE' || (!code && /disk is full|no space left/i.test(msg)))
    return new CacheError('disk-full', `The disk that holds ${path} is full. Free some space and start again; nothing in the cache was changed.`, path);
  if (is('SQLITE_READONLY') || code === 'EROFS')
    return new CacheError(
      'read-only',
      `The cache file ${path} is on a read-only disk or is itself read-only (${code || msg}). Make the file and the folder ${dirname(path)} writable, or move the data folder to a writable disk, and start again.`,
      path,
    );
  if (is('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || ['EACCES', 'EPERM', 'ENOTDIR', 'EEXIST', 'EISDIR'].includes(code))
    return new CacheError(
      'permission',
      `The cache file ${path} cannot be created or written in ${dirname(path)} (${code || msg}). Check that the folder exists, that you may write there, and that the disk is not read-only.`,
      path,
    );
  if (is('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || (!code && /not a database|malformed|corrupt/i.test(msg)))
    return new CacheError(
      'cache-damaged',
      `The cache file ${path} is damaged (${msg}). \`workbench cache recover\` keeps it aside and builds a fresh cache with your triage, notes and do-not-contact list carried over.`,
      path,
    );
  if (is('SQLITE_IOERR'))
    return new CacheError('io-error', `The cache file ${path} could not be read or written (${code}: ${msg}). The disk may be failing or disconnected.`, path);
  return null;
}

/** A cache another program is writing to, past the wait allowed; `who` names it when this computer can tell. */
export function lockedError(path: string, who: string | null, waitedMs: number): CacheError {
  const holder = who ?? 'another program (another Outreach Workbench, a `workbench` command, or a database tool)';
  return new CacheError(
    'cache-locked',
    `The cache file ${path} is being written by ${holder}; this waited ${Math.round(waitedMs / 1000)} s for it and gave up. Nothing was changed. ` +
      'Let it finish (or close it) and try again; `--lock-wait SECONDS` waits longer.',
    path,
  );
}

/**
 * An error met while reading or writing an open cache (a triage write, a sync
 * page), in words that name the file and what to do, or null when it is not
 * a failure of the cache's file (a bug stays a bug). `who` names the holder
 * of a lock.
 */
export function cacheWriteError(e: unknown, path: string, who: () => string | null = () => null, waitedMs = 0): CacheError | null {
  if (e instanceof CacheError) return e;
  const failure = classifyOpenError(e, path);
  if (!failure) return null;
  switch (failure.kind) {
    case 'cache-locked':
      return lockedError(path, who(), waitedMs);
    case 'disk-full':
      return new CacheError(
        'disk-full',
        `The disk that holds the cache (${path}) is full, so the change was not saved (nothing half-done was kept). Free some space and try again.`,
        path,
      );
    case 'read-only':
      return new CacheError(
        'read-only',
        `The cache file ${path} is read-only, or on a read-only disk, so the change was not saved. Make the file and the folder ${dirname(path)} writable and try again.`,
        path,
      );
    default:
      return failure;
  }
}
