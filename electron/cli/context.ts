// What every command runs with: the streams and environment, the API address,
// the cache file, the key, the app's settings (settings.json beside the cache:
// follow-up days and the sender's name, so the CLI's Due view is the app's),
// and how to open the cache or a client from them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkApiKeyShape, redactSecret } from '../../shared/rules';
import { ApiError } from '../core/api/errors';
import { TrakkrClient } from '../core/api/client';
import { Backups } from '../core/app/backups';
import { SettingsFile } from '../core/app/settings';
import { Cache } from '../core/store/cache';
import { awaitWriteLock, DEFAULT_LOCK_WAIT_MS } from '../core/store/lock-wait';
import { removeStalePartials } from '../core/files/atomic-write';
import { localToday, pipelineDays } from '../core/store/opportunity-list';
import { defaultCachePath } from '../core/paths';
import { KeychainSecretStore } from '../core/secrets';
import type { SecretStore } from '../core/seams';
import type { Settings } from '../../shared/contract';
import { announcingFetch, apiBaseUrl } from './api-address';
import { GLOBAL, UsageError } from './options';

/** This app's version, as package.json gives it (records and backups carry it). */
export const APP_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  /** Keychain; tests pass a memory store. */
  secrets?: SecretStore;
  /** Aborts when the user stops the command (Ctrl-C, SIGTERM): a sync finishes or rolls back its page and stops. */
  signal?: AbortSignal;
}

export interface Ctx {
  io: Io;
  baseUrl: string;
  dbPath: string;
  secrets: SecretStore;
  /** Requests per minute (0: no pacing). */
  rate: number;
  /** Every request goes through this: it says once, before the first, when the API is not the default one. */
  fetch: typeof fetch;
  /** How long a write waits for another program's lock on the cache. */
  lockWaitMs: number;
  /** Aborts when the user stops the command. */
  signal: AbortSignal | undefined;
}

/** The context from the global options (flags, else environment, else defaults), and whether --json was given. */
export function createContext(args: string[], io: Io): { ctx: Ctx; asJson: boolean } {
  const g = parseArgs({ args, options: GLOBAL, strict: false, allowPositionals: true }).values;
  const baseUrl = apiBaseUrl(g['base-url'], io.env.TRAKKR_BASE_URL);
  const rateText = (g.rate as string | undefined) ?? io.env.WORKBENCH_RATE ?? '60';
  const rate = Number(rateText);
  if (!Number.isFinite(rate) || rate < 0) throw new UsageError(`--rate must be a number of requests per minute (0 for no pacing); got "${rateText}".`);
  const waitText = (g['lock-wait'] as string | undefined) ?? io.env.WORKBENCH_LOCK_WAIT ?? String(DEFAULT_LOCK_WAIT_MS / 1000);
  const lockWait = Number(waitText);
  if (!Number.isFinite(lockWait) || lockWait < 0)
    throw new UsageError(`--lock-wait must be a number of seconds to wait for another program's lock on the cache; got "${waitText}".`);
  const ctx: Ctx = {
    lockWaitMs: lockWait * 1000,
    signal: io.signal,
    io,
    rate,
    baseUrl: baseUrl.url,
    fetch: announcingFetch(baseUrl, io),
    dbPath: (g.db as string | undefined) ?? defaultCachePath(io.env),
    secrets: io.secrets ?? new KeychainSecretStore(),
  };
  return { ctx, asJson: g.json === true };
}

/** The key: TRAKKR_API_KEY if set (its shape checked), else the keychain's. */
async function keyFor(ctx: Ctx): Promise<string> {
  const fromEnv = ctx.io.env.TRAKKR_API_KEY;
  if (fromEnv) {
    const r = checkApiKeyShape(fromEnv);
    if (!r.ok) throw new UsageError(`TRAKKR_API_KEY: ${r.message}`);
    redactSecret(r.value);
    return r.value;
  }
  const key = await ctx.secrets.get();
  if (!key) throw new ApiError('no-key', 'No API key is stored. Run `workbench key set` (it reads the key from standard input) or set TRAKKR_API_KEY.');
  // Whatever the command prints from here, this key in any form is redacted from it.
  redactSecret(key);
  return key;
}

/** A client with the user's key; onWait hears of rate-limit and retry waits in words. */
export async function clientFor(ctx: Ctx, onWait?: (s: string) => void): Promise<TrakkrClient> {
  return new TrakkrClient({
    baseUrl: ctx.baseUrl,
    fetch: ctx.fetch,
    apiKey: await keyFor(ctx),
    requestsPerMinute: ctx.rate,
    onWait: onWait
      ? (w) =>
          onWait(
            `${w.reason === 'rate-limit' ? 'Rate-limited' : 'Retrying'}: waiting ${Math.ceil(w.seconds)} s${w.capped ? ' (the service asked for longer; capped)' : ''}…`,
          )
      : undefined,
  });
}

/** A client for checking a key that is not (yet) the stored one: two attempts, no pacing. */
export function checkingClient(ctx: Ctx, apiKey: string): TrakkrClient {
  return new TrakkrClient({ baseUrl: ctx.baseUrl, fetch: ctx.fetch, apiKey, maxAttempts: 2 });
}

/** The app's settings: settings.json in the app's user-data folder, the cache's folder (defaults where there is none). */
export function settingsFor(ctx: Ctx): Settings {
  return new SettingsFile(join(dirname(ctx.dbPath), 'settings.json')).get();
}

/** The backups of the user's record: `backups/` beside the cache (the app's user-data folder). */
export function backupsFor(ctx: Ctx, cache: () => Cache): Backups {
  return new Backups({ dir: join(dirname(ctx.dbPath), 'backups'), cache, appVersion: APP_VERSION });
}

/** How many commands are in a section that writes to the cache now (Ctrl-C there stops safely rather than at once). */
export const writeSections = { open: 0 };

/**
 * Open the cache, run fn, close it. With `changesRecord` (triage, the
 * do-not-contact list, an export, an import), a backup of the user's record
 * follows when one is due (at most one an hour), as the app does.
 */
export async function withCache<T>(ctx: Ctx, fn: (c: Cache) => Promise<T> | T, opts: { changesRecord?: boolean; writes?: boolean } = {}): Promise<T> {
  const cache = await Cache.open(ctx.dbPath, {
    lockWaitMs: ctx.lockWaitMs,
    onLockWait: (m) => ctx.io.err(m + '\n'),
    signal: ctx.signal,
    // The close after writes may compact the file (store/cache.ts compactIfLoose): seconds at 100,000, said when it runs.
    // (The first sync's tidy-up says it the same way; a file another program holds is left alone, and nothing said.)
    compactAtClose: {
      onCompact: () => ctx.io.err('Compacting the cache…\n'),
      onSkipped: () => ctx.io.err('Compacting skipped: the cache is in use by another program.\n'),
    },
  });
  // Once the file is known to be this app's cache: what killed commands left beside it and in the backups folder goes
  // (this app's files only, by name and age; a backup's record without its description gets it back when it reads whole).
  removeStalePartials(dirname(ctx.dbPath));
  backupsFor(ctx, () => cache).sweep();
  // Follow-ups are due after the user's days, as in the app (its Due view, its follow-ups export).
  const { followUpAfterDays } = settingsFor(ctx);
  cache.days = () => pipelineDays(localToday(), followUpAfterDays);
  const writes = opts.writes ?? opts.changesRecord ?? false;
  if (writes) writeSections.open++;
  try {
    // A command that writes waits its turn (saying for whom) before it starts, rather than failing halfway.
    if (writes) await awaitWriteLock(cache.db, cache.path, { signal: ctx.signal });
    const result = await fn(cache);
    // A stop asked for meanwhile: the command's work is done; the backup can wait for the next command.
    if (opts.changesRecord && !ctx.signal?.aborted)
      await backupsFor(ctx, () => cache)
        .backupIfDue()
        .catch((e: unknown) => ctx.io.err(`note: the backup of your record could not be written: ${(e as Error).message}\n`));
    return result;
  } finally {
    cache.close();
    if (writes) writeSections.open--;
  }
}

/** A command: its lines in `workbench --help` and its handler; a handler returning nothing exits 0. */
export interface Command {
  help: string;
  run: (ctx: Ctx, args: string[], asJson: boolean) => Promise<number | void>;
}
