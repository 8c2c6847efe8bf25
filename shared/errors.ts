// The app's one vocabulary of failures, declared once and used from the store
// to the screen: every error the core, the CLI or the window reports has one of
// these kinds, and the compiler checks each place that names one. A kind says
// whose failure it is (the user's input, the key, the service, the files on
// this computer, or the app itself), so each layer can act on it without
// reading messages: the CLI picks its exit code, the window its words and
// choices. Only `internal` (a bug) carries a stack, and only to the log.

/** Who a failure belongs to, which decides what the user can do about it. */
export type ErrorGroup = 'input' | 'key' | 'service' | 'files' | 'app';

interface KindInfo {
  group: ErrorGroup;
  /** What it means, for readers of this table. */
  means: string;
}

export const ERROR_KINDS = {
  // The user's input or choice.
  'invalid-input': { group: 'input', means: 'a value the user gave is not acceptable; nothing was sent or changed' },
  'not-found': { group: 'input', means: 'what was asked for is not in the cache (or no longer)' },
  'confirm-origin': { group: 'input', means: 'a question, not a failure: the key would go to a new address, confirm first' },
  'not-demo': { group: 'input', means: 'a demo-only action asked of real data' },
  cancelled: { group: 'input', means: 'the user stopped it; nothing half-done was kept' },
  'not-app-cache': { group: 'input', means: "the file given as the cache is another program's database (or holds another schema); nothing in it was changed" },
  // The API key.
  'no-key': { group: 'key', means: 'no API key is stored or given' },
  'key-rejected': { group: 'key', means: 'the service refused the key (401, 403, or a brand the key does not reach)' },
  'keychain-locked': { group: 'key', means: "the OS keychain is locked: the key can't be read or kept until it is unlocked" },
  'keychain-unavailable': { group: 'key', means: 'no OS keychain on this computer' },
  // The service.
  'service-unreachable': { group: 'service', means: 'could not connect, the connection dropped, or it timed out' },
  'service-error': { group: 'service', means: 'the service kept failing (5xx) after the retries allowed' },
  'rate-limited': { group: 'service', means: 'the service kept rate-limiting (429) after the waits allowed' },
  'service-refused': { group: 'service', means: 'the service refused the request (a 4xx other than the key or the rate)' },
  'bad-response': { group: 'service', means: "the service's answer was not JSON, not the documented shape, or pagination that never ends" },
  // The files on this computer: the cache, exports, the record, backups.
  'cache-damaged': { group: 'files', means: 'the cache file is damaged, or not a database' },
  'cache-newer': { group: 'files', means: 'the cache was written by a newer version of the app' },
  'cache-locked': { group: 'files', means: 'another program holds the cache (or a file) past the wait allowed' },
  'disk-full': { group: 'files', means: 'no space left to write' },
  'read-only': { group: 'files', means: 'the disk or file is read-only' },
  permission: { group: 'files', means: 'the folder or file cannot be created or written (permissions, a missing folder)' },
  'io-error': { group: 'files', means: 'reading or writing the disk failed (a failing or disconnected disk)' },
  // The app itself.
  'installation-damaged': { group: 'app', means: "a part of the app's installation cannot load: reinstall (the user's data is fine)" },
  'core-stopped': { group: 'app', means: "the app's engine process stopped or is closing" },
  'unknown-method': { group: 'app', means: 'a call the contract does not declare' },
  'untrusted-sender': { group: 'app', means: 'a call that did not come from the app window (refused before it reaches the engine)' },
  internal: { group: 'app', means: 'a bug: logged with its stack, shown in plain words' },
} as const satisfies Record<string, KindInfo>;

export type ErrorKind = keyof typeof ERROR_KINDS;

export function isErrorKind(v: unknown): v is ErrorKind {
  return typeof v === 'string' && Object.hasOwn(ERROR_KINDS, v);
}

export function errorGroup(kind: ErrorKind): ErrorGroup {
  return ERROR_KINDS[kind].group;
}

/** A failure as plain data: what crosses from the core to the window (and through the test host). */
export interface PlainError {
  kind: ErrorKind;
  message: string;
  /** The input field it concerns, when it is one. */
  field?: string;
}

/**
 * The app's error: a kind from the table above, plain words for the user, and
 * the field it concerns. Parts that know more (the API client's status, the
 * cache's path) subclass it; nothing else is thrown on purpose.
 */
export class WorkbenchError extends Error {
  override name = 'WorkbenchError';
  readonly kind: ErrorKind;
  readonly field: string | undefined;

  constructor(kind: ErrorKind, message: string, opts: { field?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.field = opts.field;
  }

  /** Plain data, for the bridge. */
  toPlain(): PlainError {
    return { kind: this.kind, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }

  /** The error a plain failure stands for (the window's side of the bridge). */
  static from(e: PlainError): WorkbenchError {
    return new WorkbenchError(isErrorKind(e.kind) ? e.kind : 'internal', e.message, e.field ? { field: e.field } : {});
  }
}

/** Bad input from the user, with the field it concerns. */
export const invalidInput = (message: string, field?: string): WorkbenchError => new WorkbenchError('invalid-input', message, field ? { field } : {});

/** Not in the cache (any more). */
export const notFound = (message: string, field?: string): WorkbenchError => new WorkbenchError('not-found', message, field ? { field } : {});

export function isCancelled(e: unknown): boolean {
  return e instanceof WorkbenchError && e.kind === 'cancelled';
}
