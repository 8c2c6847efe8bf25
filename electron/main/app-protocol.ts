// The app:// scheme that serves the built renderer (never file://): which
// request URL maps to which file, as a plain function the UI test host uses
// too, and the handler main gives to protocol.handle. No electron import.
import { readFile } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registered before 'ready': a standard scheme (relative URLs, an origin of its
 * own), secure (like https), allowed to use fetch; it does not bypass the CSP.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, stream: false } as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export type AppResolution = { ok: true; file: string; contentType: string } | { ok: false; status: 404; reason: string };

const refuse = (reason: string): AppResolution => ({ ok: false, status: 404, reason });

/** Is `child` the folder `parent` itself or inside it (separator-aware, not a bare prefix test)? */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Map an app:// request URL to a file of the built renderer, or refuse it.
 * Only the app's host, only files (not folders) under `rendererDir` after
 * symlinks are resolved, only known types; `..`, backslashes, NUL and
 * encoded forms of them are refused outright rather than normalised.
 */
export function resolveAppRequest(url: string, rendererDir: string): AppResolution {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return refuse('not a URL');
  }
  if (u.protocol !== `${APP_SCHEME}:`) return refuse('not the app scheme');
  if (u.hostname !== APP_HOST || u.port !== '' || u.username !== '' || u.password !== '') return refuse('not the app host');
  let path: string;
  try {
    // Decode twice: a doubly encoded %252e%252e must not become .. later on.
    path = decodeURIComponent(u.pathname);
    if (/%[0-9a-f]{2}/i.test(path)) path = decodeURIComponent(path);
  } catch {
    return refuse('malformed escape');
  }
  if (path.includes('\0') || path.includes('\\')) return refuse('NUL or backslash in the path');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.')) return refuse('dot segment in the path');
  if (parts.some((p) => /^[a-z]:$/i.test(p))) return refuse('drive letter in the path');
  const rel = parts.length === 0 ? 'index.html' : parts.join('/');
  const contentType = CONTENT_TYPES[extname(rel).toLowerCase()];
  if (!contentType) return refuse('unknown file type');
  let root: string;
  let file: string;
  try {
    root = realpathSync(rendererDir);
    file = realpathSync(join(root, rel));
  } catch {
    return refuse('no such file');
  }
  if (!isInside(root, file)) return refuse('outside the renderer folder');
  try {
    if (!statSync(file).isFile()) return refuse('not a file');
  } catch {
    return refuse('no such file');
  }
  return { ok: true, file, contentType };
}

/** The protocol.handle('app', …) handler: the resolved file with the CSP (one definition, passed in) as a header. */
export function appProtocolHandler(rendererDir: string, contentSecurityPolicy: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const r = resolveAppRequest(request.url, rendererDir);
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': contentSecurityPolicy };
    if (!r.ok) return new Response('Not found', { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
    try {
      return new Response(await readFile(r.file), { status: 200, headers: { ...headers, 'Content-Type': r.contentType } });
    } catch {
      return new Response('Not found', { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
    }
  };
}
