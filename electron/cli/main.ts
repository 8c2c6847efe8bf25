// `workbench`: the command line over the same core as the desktop app. This is
// the index: the command table (name -> module in commands/), the help, and the run loop.
// Exit codes follow the failure's kind (shared/errors.ts): 0 done; 2 bad input
// or usage (nothing sent); 3 no usable key or the key was rejected; 4 the
// service could not be reached or kept failing; 5 a file or the cache (disk
// full, read-only, locked, damaged); 130 stopped by the user; 1 a bug.
import { DEFAULT_BASE_URL } from '../../shared/domain';
import { redactKeys } from '../../shared/rules';
import { WorkbenchError } from '../../shared/errors';
import { EXIT_CODES, exitCodeOf } from './exit-codes';
import { asFileError } from '../core/files/file-error';
import { cacheWriteError } from '../core/store/cache-error';
import { describeLockHolders } from '../core/store/lock-wait';
import { createContext, type Command, type Io } from './context';
import { plainLines } from './output';
import { splitCommand, UsageError } from './options';
import * as brands from './commands/brands';
import * as sync from './commands/sync';
import * as list from './commands/list';
import * as triage from './commands/triage';
import * as scores from './commands/scores';
import * as citations from './commands/citations';
import * as exportCmd from './commands/export';
import * as dnc from './commands/dnc';
import * as key from './commands/key';
import * as cache from './commands/cache';
import * as record from './commands/record';
import * as backup from './commands/backup';
import * as history from './commands/history';
import * as stage from './commands/stage';
import * as snooze from './commands/snooze';
import * as contacted from './commands/contacted';
import * as replied from './commands/replied';
import * as undo from './commands/undo';
import * as results from './commands/results';

export type { Io } from './context';
export { UsageError } from './options';
export { EXIT_CODES, EXIT_INTERRUPTED, exitCodeOf } from './exit-codes';

/** Every command, in the order `--help` lists them. */
const COMMANDS: Record<string, Command> = {
  brands,
  sync,
  list,
  stage,
  contacted,
  replied,
  snooze,
  undo,
  triage,
  history,
  results,
  scores,
  citations,
  export: exportCmd,
  dnc,
  record,
  backup,
  key,
  cache,
};

const HELP = `workbench: Outreach Workbench on the command line

Usage: workbench <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => c.help)
  .join('')}
BRAND is a brand's whole name as \`workbench brands\` lists it (any case, spaces around it ignored) or
its id; the start of a name is refused, with the names it starts. Names are looked up in the cache on this
computer: run \`workbench sync\` first for a brand new here, or give its id.

Global options (before or after the command):
  --base-url URL   API base URL (env TRAKKR_BASE_URL; default ${DEFAULT_BASE_URL}); https:// only,
                   or http:// to this computer (localhost, 127.x.x.x, [::1]) for the simulator
  --db PATH        cache file (env WORKBENCH_DB; default: the desktop app's cache)
  --rate N         requests per minute to stay under (env WORKBENCH_RATE; default 60, the Scale plan;
                   Enterprise 300, test keys 20; 0 turns pacing off)
  --lock-wait S    seconds a write waits for another program's lock on the cache (env
                   WORKBENCH_LOCK_WAIT; default 30)
  --debug          show stack traces
  --help           this text

The key: env TRAKKR_API_KEY, else the desktop app's keychain entry.
Exit codes: 0 done; 2 bad input (nothing sent or changed); 3 no usable key, or the key was rejected;
4 the service could not be reached, kept failing or answered wrongly; 5 a file or the cache on this
computer (disk full, read-only, locked by another program, damaged, not allowed); 130 stopped (Ctrl-C);
1 a bug in the app (--debug shows its stack).
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const debug = argv.includes('--debug');
  let cacheAt: CacheAt | null = null;
  try {
    const { command, rest } = splitCommand(argv);
    if (command === undefined || argv.includes('--help') || argv.includes('-h') || command === 'help') {
      io.out(HELP);
      return command === undefined && !argv.includes('--help') && !argv.includes('-h') ? 2 : 0;
    }
    const { ctx, asJson } = createContext(rest, io);
    cacheAt = { path: ctx.dbPath, lockWaitMs: ctx.lockWaitMs };
    const cmd = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!cmd) throw new UsageError(`Unknown command "${command}". Run \`workbench --help\` for the list.`);
    return (await cmd.run(ctx, rest, asJson)) ?? 0;
  } catch (e) {
    return report(e, io, debug, cacheAt);
  }
}

/** The cache a command used, to name it in a failure. */
interface CacheAt {
  path: string;
  lockWaitMs: number;
}

/**
 * A failure in the app's words: a raw error of the cache (SQLite's "database
 * or disk is full") or of the file system (ENOSPC, EROFS) becomes the kind it
 * stands for, naming the file and the next step; anything else is left as it is.
 */
export function named(e: unknown, cache: CacheAt | null): unknown {
  if (e instanceof WorkbenchError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (cache && code.startsWith('SQLITE_')) return cacheWriteError(e, cache.path, () => describeLockHolders(cache.path), cache.lockWaitMs) ?? e;
  const path = (e as { path?: unknown } | null)?.path;
  if (typeof path === 'string') return asFileError(e, path, 'A file');
  return e;
}

/** Say what went wrong in one or two plain lines (the key redacted) and pick the exit code from its kind. */
function report(raw: unknown, io: Io, debug: boolean, cache: CacheAt | null): number {
  // The service's words may be quoted in a failure: no escape sequence or bidirectional control reaches the terminal raw.
  const say = (msg: string) => io.err(plainLines(redactKeys(msg)).trimEnd() + '\n');
  if (debug && raw instanceof Error && raw.stack) say(raw.stack);
  const e = named(raw, cache);
  if (e instanceof WorkbenchError && e.kind !== 'internal') {
    say(`workbench: ${e.message}`);
    if (e.kind === 'key-rejected') say('To enter it again, run `workbench key set` (a key newly generated in Trakkr replaces the old one).');
    return exitCodeOf(e.kind);
  }
  say(`workbench: ${e instanceof Error ? e.message : String(e)}${debug ? '' : ' (run with --debug for details)'}`);
  return EXIT_CODES.app;
}
