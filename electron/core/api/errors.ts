// One typed error for every way a call to the API can fail, with a message a
// person understands. Messages are redacted: a key never leaves in one.
import { redactKeys } from '../../../shared/rules';

export type ApiErrorKind =
  | 'invalid-input' // refused before any request
  | 'no-key' // no key stored or given
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'bad-request' // 400 and other 4xx the client does not retry
  | 'rate-limited' // 429, still after the retries allowed
  | 'server' // 5xx, still after retries
  | 'network' // could not connect, connection dropped, timed out
  | 'bad-response' // not JSON, truncated, or not the documented shape
  | 'cursor-loop' // the service handed back a cursor already followed
  | 'cancelled';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly requestId: string | undefined;

  constructor(kind: ApiErrorKind, message: string, opts: { status?: number; field?: string; requestId?: string; cause?: unknown } = {}) {
    super(redactKeys(message));
    this.kind = kind;
    this.status = opts.status;
    this.field = opts.field;
    this.requestId = opts.requestId;
    // The cause is kept only as redacted text: an Error from fetch may carry request details.
    if (opts.cause !== undefined) this.cause = redactKeys(opts.cause instanceof Error ? opts.cause.message : String(opts.cause));
  }

  /** True for failures about the key: stop at once, ask the user. */
  get isAuth(): boolean {
    return this.kind === 'unauthorized' || this.kind === 'forbidden' || this.kind === 'no-key';
  }

  /** True when the service could not be reached or kept failing. */
  get isUnavailable(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'rate-limited';
  }
}

export function isCancellation(e: unknown): boolean {
  return (
    (e instanceof ApiError && e.kind === 'cancelled') || (e instanceof Error && (e.name === 'AbortError' || (e as { code?: string }).code === 'ABORT_ERR'))
  );
}

/**
 * A failure as plain data, before it becomes an ApiError: parsing and the retry
 * policy pass these around so they stay pure, and the message is redacted once,
 * when the error is made.
 */
export interface ApiFailure {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  field?: string;
  requestId?: string;
  cause?: unknown;
}

export function toApiError(f: ApiFailure): ApiError {
  const { kind, message, ...opts } = f;
  return new ApiError(kind, message, opts);
}

export const cancelledError = (): ApiError => new ApiError('cancelled', 'Cancelled.');
