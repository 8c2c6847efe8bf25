// HTTP plumbing every simulator shares: a request's context, errors that
// become answers, request bodies, and sending JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request as the routes see it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  requestId: string;
  log: (line: string) => void;
}

export type ParamErrors = { field: string; message: string }[];

/** An error answer with a JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error));
  }
}

/** An answer that is not JSON: an HTML error page, an empty body. */
export class RawResponse extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly text: string,
  ) {
    super(`raw ${status}`);
  }
}

export const now = () => new Date().toISOString();

export function invalidParams(errors: ParamErrors): HttpError {
  return new HttpError(400, {
    error: 'INVALID_PARAMETER',
    message: errors[0]?.message ?? 'Invalid parameter',
    details: errors,
    timestamp: now(),
  });
}

export function notFound(message: string): HttpError {
  return new HttpError(404, { error: 'NOT_FOUND', message, timestamp: now() });
}

export function internalError(status = 500): HttpError {
  return new HttpError(status, { error: 'INTERNAL_ERROR', message: 'An unexpected error occurred', timestamp: now() });
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        reject(new HttpError(413, { error: 'INVALID_PARAMETER', message: 'Body too large', timestamp: now() }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function send(ctx: Ctx, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  ctx.res.end(text);
  ctx.log(`${ctx.req.method} ${ctx.url.pathname}${ctx.url.search ? '?' + ctx.url.searchParams.toString() : ''} ${status}`);
}
