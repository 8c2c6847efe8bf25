// Every error-body form the service is known to use, turned into one shape:
//  - code form:          {"error": "FORBIDDEN", "message": "Invalid API key", "errors": [...], "timestamp", "request_id"}
//  - message-text form:  {"error": "Invalid API key", "errors": ["No accounts found for this API key"], ...}
//  - error object:       {"error": {"code": "rate_limit_exceeded", "message": "..."}}
//  - detail string:      {"detail": "brand_id is required"}
//  - detail object:      {"detail": {"code": ..., "message": ...}}
//  - plain text:         {"error": "Rate limit exceeded: 60 per 1 minute"}
//  - no JSON at all (a proxy's HTML page, an empty body).
import { ERROR_CODES, type ErrorCode, isOneOf } from '../domain';

export interface ErrorFacts {
  /** One of the documented codes when the body names one (any case), else undefined. */
  code?: ErrorCode;
  /** The code as the server wrote it, when there was one. */
  rawCode?: string;
  /** The most specific human text found: errors[] and details joined, else message, else error text. */
  message?: string;
  /** The short headline (message or error text). */
  headline?: string;
  details: { field?: string; message?: string }[];
  requestId?: string;
  /** True when the body was JSON. */
  json: boolean;
}

const asString = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function codeOf(s: string | undefined): ErrorCode | undefined {
  if (!s) return undefined;
  const up = s.toUpperCase().replace(/[\s-]+/g, '_');
  return isOneOf(ERROR_CODES, up) ? up : undefined;
}

function fromObject(o: Record<string, unknown>): { code?: string; message?: string } {
  return { code: asString(o.code) ?? asString(o.error), message: asString(o.message) ?? asString(o.detail) };
}

export function parseErrorBody(text: string): ErrorFacts {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { details: [], json: false };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { details: [], json: true };
  const b = body as Record<string, unknown>;

  let rawCode: string | undefined;
  let headline: string | undefined;

  if (typeof b.error === 'string') {
    const e = b.error.trim();
    if (codeOf(e)) rawCode = e;
    else headline = e; // message-text form
  } else if (typeof b.error === 'object' && b.error !== null) {
    const f = fromObject(b.error as Record<string, unknown>);
    rawCode = f.code;
    headline = f.message;
  }
  if (typeof b.detail === 'string') headline ??= asString(b.detail);
  else if (typeof b.detail === 'object' && b.detail !== null && !Array.isArray(b.detail)) {
    const f = fromObject(b.detail as Record<string, unknown>);
    rawCode ??= f.code;
    headline ??= f.message;
  } else if (Array.isArray(b.detail)) {
    // FastAPI-style validation list: [{loc, msg}]
    const msgs = b.detail
      .map((d) => (typeof d === 'object' && d !== null ? asString((d as Record<string, unknown>).msg) : asString(d)))
      .filter((m): m is string => !!m);
    if (msgs.length) headline ??= msgs.join('; ');
  }
  const message = asString(b.message);
  if (message) headline = message;

  const errors = Array.isArray(b.errors) ? b.errors.map(asString).filter((s): s is string => !!s) : [];
  const details = Array.isArray(b.details)
    ? b.details
        .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
        .map((d) => ({ field: asString(d.field), message: asString(d.message) }))
    : [];
  const detailText = details.map((d) => (d.field && d.message ? `${d.field}: ${d.message}` : (d.message ?? d.field))).filter((s): s is string => !!s);
  const specific = [...errors, ...detailText];
  const code = codeOf(rawCode) ?? codeOf(headline);

  return {
    code,
    rawCode,
    headline,
    message: specific.length ? specific.join('; ') : headline,
    details,
    requestId: asString(b.request_id),
    json: true,
  };
}
