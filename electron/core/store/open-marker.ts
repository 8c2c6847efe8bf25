// The open marker: whether the last session closed the cache cleanly, told
// without reading all of it, so an open after a clean close skips the full
// integrity check (about a second at 100,000 opportunities).
//
// Each process that opens the cache for writing puts a small file beside it,
// `<cache>.open-<pid>` (JSON: pid, when, and when this machine booted), written
// atomically (a temporary file, flushed, renamed), and removes it when it
// closes the cache cleanly (closeDatabase in db.ts, i.e. Cache.close). The rule
// at open:
// - No marker: every session closed cleanly. No integrity check now.
// - A marker whose process is alive (process.kill(pid, 0) succeeds, or fails
//   with EPERM: it exists but is another user's) and that was written since
//   this machine last booted: another process (the app, a `workbench` command)
//   has the cache open. Not a crash; no check.
// - Any other marker: its process is gone (crash, kill) or the machine
//   restarted since (power loss; the pid may since belong to someone else).
//   That session did not close cleanly, so quick_check runs before the open
//   returns; if the file passes, those markers are removed.
// One file per process, so a process only ever writes and removes its own:
// the app closing never clears a marker a still-running command relies on,
// and the reverse. Several opens in one process share its marker; a marker of
// this process that none of its open databases holds is from a connection
// closed without closeDatabase (or from an earlier process with this pid):
// not a clean close.
// Read-only opens neither write nor remove markers; they do check after a
// crash. A pid reused by an unrelated process in the same boot makes a crash
// look like a live process: the check is then skipped at open, and the
// background check (integrity.ts) is what finds damage.
import type Database from 'better-sqlite3';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { uptime } from 'node:os';
import { basename, dirname, join } from 'node:path';

type DB = Database.Database;

const MARKER = '.open-';
/** The marker each open database holds, released by closeDatabase. */
const markers = new WeakMap<DB, string>();
/** This process's databases holding each marker file. */
const holders = new Map<string, Set<DB>>();
const bootedAt = () => Date.now() - uptime() * 1000;

/** This process's marker for the cache at `path`. */
export function openMarkerPath(path: string): string {
  return openMarkerFile(path, process.pid);
}

/** The marker a process `pid` keeps beside the cache at `path` while it has it open. */
export function openMarkerFile(path: string, pid: number): string {
  return `${path}${MARKER}${pid}`;
}

/** How many of this process's databases that hold `file` are still open. */
function openHolders(file: string): number {
  const set = holders.get(file);
  for (const db of set ?? []) if (!db.open) set!.delete(db);
  return set?.size ?? 0;
}

/** Write this process's marker for `path`, unless one of its open databases already holds it. */
export function acquireMarker(path: string): string {
  const file = openMarkerPath(path);
  if (openHolders(file) > 0) return file;
  const body = JSON.stringify({ pid: process.pid, at: new Date().toISOString(), bootedAt: new Date(bootedAt()).toISOString() }) + '\n';
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return file;
}

/** `db` holds the marker `file` until it is released. */
export function holdMarker(file: string, db: DB): void {
  markers.set(db, file);
  holders.set(file, (holders.get(file) ?? new Set()).add(db));
}

/** `db` (null: none yet) lets go of `file`; the file goes when no open database of this process holds it. */
export function releaseMarker(file: string, db: DB | null): void {
  if (db) holders.get(file)?.delete(db);
  if (openHolders(file) > 0) return;
  holders.delete(file);
  rmSync(file, { force: true });
}

/** After `db` has closed: release its marker, or with `keep` (damage found) leave it for the next open to see. */
export function releaseMarkerOf(db: DB, keep: boolean): void {
  const marker = markers.get(db);
  markers.delete(db);
  if (!marker) return;
  if (keep) holders.get(marker)?.delete(db);
  else releaseMarker(marker, db);
}

/** The markers beside `path` left by sessions that did not close cleanly (see the rule above). */
export function uncleanMarkers(path: string): string[] {
  return markersBeside(path)
    .filter((m) => !markerAlive(m.file, m.pid))
    .map((m) => m.file);
}

/** Every marker file beside `path`: `<pid>`, or `<pid>.tmp` from a process stopped while writing its marker. */
function markersBeside(path: string): { file: string; pid: number; tmp: boolean }[] {
  const prefix = basename(path) + MARKER;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const out: { file: string; pid: number; tmp: boolean }[] = [];
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)(\.tmp)?$/.exec(name.slice(prefix.length)) : null;
    if (m) out.push({ file: join(dirname(path), name), pid: Number(m[1]), tmp: m[2] !== undefined });
  }
  return out;
}

/**
 * The other processes that have the cache at `path` open now (their markers
 * are alive), by pid. A file another process still writes must never be moved
 * aside: on Linux and macOS it would go on writing into the moved file, and
 * what it saved there would never reach the new cache.
 */
export function otherOpeners(path: string): number[] {
  return markersBeside(path)
    .filter((m) => !m.tmp && m.pid !== process.pid && markerAlive(m.file, m.pid))
    .map((m) => m.pid)
    .sort((a, b) => a - b);
}

function markerAlive(file: string, pid: number): boolean {
  let booted = NaN;
  try {
    const body = JSON.parse(readFileSync(file, 'utf8')) as { bootedAt?: string };
    booted = Date.parse(body.bootedAt ?? '');
  } catch {
    // Unreadable or half-written: judged by its pid alone.
  }
  // Written before this machine last booted (30 s of slack for clock adjustments).
  if (Math.abs(booted - bootedAt()) > 30_000) return false;
  // This process: alive while one of its open databases holds the marker.
  if (pid === process.pid) return openHolders(file) > 0;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
