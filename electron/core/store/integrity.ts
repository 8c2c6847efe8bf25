// The integrity check off the core's thread. PRAGMA quick_check reads the
// whole file (about a second at 100,000 opportunities); run on the thread that
// answers the window's calls, it would stall every click for that second. So it
// runs in a worker thread with its own read-only connection (WAL lets it read a
// consistent snapshot while sync writes). If no worker can start (a packaged
// app whose worker cannot load the native module, say), it runs on the calling
// thread instead: slower to the touch, never skipped.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { DB } from './db';
import { quickCheck } from './db';

export type IntegrityResult = { ok: true } | { ok: false; message: string };
/** Where the check ran: in a worker thread, or on the calling thread because no worker could start. */
export type CheckedIntegrity = IntegrityResult & { ranIn: 'worker' | 'this-thread' };

// Plain CommonJS, evaluated in the worker: no bundler or TypeScript loader involved.
const WORKER = `(() => {
const { parentPort, workerData } = require('node:worker_threads');
let db;
try {
  const Database = require(workerData.module);
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
} catch (e) {
  parentPort.postMessage({ started: false, message: String(e && e.message || e) });
  return;
}
try {
  const found = db.pragma('quick_check').map((r) => r.quick_check).join('\\n');
  parentPort.postMessage({ started: true, ok: found === 'ok', message: found });
} catch (e) {
  const code = String((e && e.code) || '');
  const corrupt = code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
  parentPort.postMessage({ started: true, ok: false, failed: !corrupt, message: String(e && e.message || e) });
} finally {
  db.close();
}
})();
`;

type WorkerReply = { started: false; message: string } | { started: true; ok: boolean; failed?: boolean; message: string };

/**
 * quick_check of the cache at `path`, in a worker thread; `fallback` is the
 * open connection to check on this thread if the worker cannot start. A file
 * too damaged for the check to run is not ok; an I/O error rejects.
 */
export async function checkIntegrityOffThread(path: string, fallback: DB, opts: { module?: string } = {}): Promise<CheckedIntegrity> {
  let reply: WorkerReply;
  try {
    const module = opts.module ?? createRequire(import.meta.url).resolve('better-sqlite3');
    reply = await new Promise<WorkerReply>((resolve, reject) => {
      const w = new Worker(WORKER, { eval: true, workerData: { module, path } });
      w.once('message', (m: WorkerReply) => resolve(m));
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`the integrity worker stopped (exit code ${code})`)));
    });
  } catch (e) {
    reply = { started: false, message: (e as Error).message };
  }
  if (!reply.started) return { ...quickCheck(fallback), ranIn: 'this-thread' };
  if (reply.ok) return { ok: true, ranIn: 'worker' };
  if (reply.failed) throw new Error(`The integrity check could not read the cache: ${reply.message}`);
  return { ok: false, message: reply.message.length > 400 ? `${reply.message.slice(0, 400)}…` : reply.message, ranIn: 'worker' };
}
