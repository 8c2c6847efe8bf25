// Every way a call to the API can fail, as an error of the app's one
// vocabulary (shared/errors.ts) that also carries the HTTP status and the
// service's request id. Messages are redacted: a key never leaves in one.
import { type ErrorKind, WorkbenchError } from '../../../shared/errors';
import { redactKeys } from '../../../shared/rules';

/** The kinds a call to the API can end with. */
export type ApiErrorKind = Extract<
  ErrorKind,
  | 'invalid-input' // refused before any request
  | 'no-key' // no key stored or given
  | 'key-rejected' // 401, 403
  | 'service-refused' // 400 and other 4xx the client does not retry
  | 'rate-limited' // 429, still after the retries allowed
  | 'service-error' // 5xx, still after retries
  | 'service-unreachable' // could not connect, connection dropped, timed out
  | 'bad-response' // not JSON, truncated, not the documented shape, or a cursor handed back twice
  | 'cancelled'
>;

export class ApiError extends WorkbenchError {
  override name = 'ApiError';
  declare readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(kind: ApiErrorKind, message: string, opts: { status?: number; field?: string; requestId?: string; cause?: unknown } = {}) {
    // The cause is kept only as redacted text: an Error from fetch may carry request details.
    const cause = opts.cause === undefined ? undefined : redactKeys(opts.cause instanceof Error ? opts.cause.message : String(opts.cause));
    super(kind, redactKeys(message), { ...(opts.field ? { field: opts.field } : {}), ...(cause === undefined ? {} : { cause }) });
    this.status = opts.status;
    this.requestId = opts.requestId;
  }

  /** True for failures about the key: stop at once, ask the user. */
  get isAuth(): boolean {
    return this.kind === 'key-rejected' || this.kind === 'no-key';
  }

  /** True when the service could not be reached or kept failing. */
  get isUnavailable(): boolean {
    return this.kind === 'service-unreachable' || this.kind === 'service-error' || this.kind === 'rate-limited';
  }
}

export function isCancellation(e: unknown): boolean {
  return (
    (e instanceof WorkbenchError && e.kind === 'cancelled') ||
    (e instanceof Error && (e.name === 'AbortError' || (e as { code?: string }).code === 'ABORT_ERR'))
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
  /** Never tried again, whatever its kind (an answer from another origin). */
  final?: boolean;
}

export function toApiError(f: ApiFailure): ApiError {
  const { kind, message, final: _final, ...opts } = f;
  return new ApiError(kind, message, opts);
}

export const cancelledError = (): ApiError => new ApiError('cancelled', 'Cancelled.');
