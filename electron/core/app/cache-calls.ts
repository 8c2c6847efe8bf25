// The window's calls and the cache's file: what the core process does around
// every handler (core-server.ts). A call that writes to the cache first waits
// for another program's write lock without blocking the core (the window is
// told whom it waits for, and other calls are answered meanwhile; the wait is
// the app's lock wait, cache-keeper.ts), so its own write then finds the cache
// free. And SQLite's failures of the cache's file, wherever in a call they
// come from (a full disk, a read-only or locked cache, damage found), reach
// the window as what they are, naming the file and the next step
// (cache-error.ts), never as "Something went wrong: database or disk is full".
import type { MethodName } from '../../../shared/contract';
import type { Cache } from '../store/cache';
import { namedCacheFailure } from '../store/lock-wait';
import type { Handlers } from './handlers';

/**
 * Which calls write to the cache. Declared for every method, so a new one
 * fails to compile until it is said here; a call that only sometimes writes
 * counts as writing (its wait costs nothing when no other program writes).
 */
export const WRITES_CACHE: Record<MethodName, boolean> = {
  'app:info': false,
  'app:state': false,
  'brands:list': false,
  'opportunities:list': false,
  'opportunities:view': false,
  'opportunities:counts': false,
  'opportunities:get': false,
  'opportunities:domains': false,
  'opportunities:outlets': false,
  'triage:apply': true,
  'triage:undo': true,
  'outlets:ids': false,
  'outlets:plan': false,
  'outlets:contacted': true,
  'dnc:list': false,
  'dnc:add': true,
  'dnc:remove': true,
  'history:get': false,
  'files:choose': false,
  'record:export': false,
  'record:import-preview': false,
  'record:import': true,
  'record:dismiss-recovery': false,
  'backups:list': false,
  'backups:restore': true,
  'dnc:import-preview': false,
  'dnc:import': true,
  'dnc:export': false,
  'drafts:get': false,
  'drafts:save': true,
  'drafts:reset': true,
  'snippets:list': false,
  'snippets:save': true,
  'snippets:remove': true,
  // The no-reply rule runs before the count.
  'pipeline:due': true,
  'pipeline:warnings': false,
  'mail:compose': true,
  'mail:open': false,
  // Jobs: each sync page and each export's marks wait on their own (sync.ts, export-jobs.ts).
  'sync:start': false,
  'sync:cancel': false,
  'export:preview': false,
  'export:choose-file': false,
  'export:start': false,
  'export:show-in-folder': false,
  'export:cancel': false,
  'export:confirm-sent': true,
  'clipboard:write': false,
  'links:open': false,
  'scores:get': false,
  'citations:get': false,
  'settings:get': false,
  'settings:set': false,
  'keys:status': false,
  'keys:set': false,
  'keys:clear': false,
  'demo:start': false,
  'demo:reset': false,
  // The Results read the cache only (the match runs on the read-only face); the report and tables are files.
  'results:get': false,
  'results:evidence': false,
  'results:cited': false,
  'results:save-report': false,
  'results:export': false,
};

/** The handlers, each waiting for the cache when it writes and naming the cache's failures (see the top of this file). */
export function withCacheCare(handlers: Handlers, cache: () => Cache): Handlers {
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(handlers) as [MethodName, (...args: unknown[]) => unknown][]) {
    wrapped[name] = async (...args) => {
      try {
        if (WRITES_CACHE[name]) await cache().awaitWriteLock();
        return await fn(...args);
      } catch (e) {
        throw namedCacheFailure(e, cache().db, cache().path);
      }
    };
  }
  return wrapped as unknown as Handlers;
}
