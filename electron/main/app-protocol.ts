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
 * own, web storage), secure (a secure context, like https), allowed to use
 * fetch, with V8's code cache. It does not bypass the CSP, is not readable
 * cross-origin (no corsEnabled), and registers no service workers.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
  bypassCSP: false,
  corsEnabled: false,
  allowServiceWorkers: false,
  stream: false,
} as const;

/** What the build emits. Any other extension is refused (404), not served as octet-stream. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export type AppResolution = { ok: true; file: string; contentType: string } | { ok: false; status: 404; reason: string };

const refuse = (reason: string): AppResolution => ({ ok: false, status: 404, reason });

/** Is `child` the folder `parent` itself or inside it (separator-aware, not a bare prefix test)? */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function parseAppUrl(url: string): URL | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== `${APP_SCHEME}:`) return 'not the app scheme';
  if (u.hostname !== APP_HOST || u.port !== '' || u.username !== '' || u.password !== '') return 'not the app host';
  return u;
}

/**
 * The path's segments, decoded once. Anything that could mean something
 * else after another decoding or on another OS is refused, not normalised:
 * a `%` left over (double encoding), NUL, backslash, `:` (drive letters,
 * Windows streams), dot segments; a trailing slash asks for a folder.
 */
function pathSegments(pathname: string): string[] | string {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return 'malformed escape';
  }
  if (path.includes('%')) return 'encoded twice';
  if (/[\0\\:]/.test(path)) return 'NUL, backslash or colon in the path';
  if (path !== '/' && path.endsWith('/')) return 'a folder, not a file';
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.')) return 'dot segment in the path';
  return parts.length === 0 ? ['index.html'] : parts;
}

function realFileInside(rendererDir: string, rel: string): string | null {
  try {
    const root = realpathSync(rendererDir);
    const file = realpathSync(join(root, rel));
    return isInside(root, file) && statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Map an app:// request URL to a file of the built renderer, or refuse it:
 * only the app's host (no port, no user info), only files (not folders) of
 * a known type under `rendererDir` once symlinks are resolved. `/` is
 * index.html; the query and fragment never change which file is served.
 */
export function resolveAppRequest(url: string, rendererDir: string): AppResolution {
  const u = parseAppUrl(url);
  if (typeof u === 'string') return refuse(u);
  const parts = pathSegments(u.pathname);
  if (typeof parts === 'string') return refuse(parts);
  const rel = parts.join('/');
  const contentType = CONTENT_TYPES[extname(rel).toLowerCase()];
  if (!contentType) return refuse('unknown file type');
  const file = realFileInside(rendererDir, rel);
  if (!file) return refuse('no such file in the renderer folder');
  return { ok: true, file, contentType };
}

/** The protocol.handle('app', …) handler: the resolved file with the CSP (one definition, passed in) as a header. */
export function appProtocolHandler(rendererDir: string, contentSecurityPolicy: string): (request: Request) => Promise<Response> {
  const headers = (contentType: string) => ({
    'Content-Type': contentType,
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
  });
  const notFound = () => new Response('Not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  return async (request) => {
    const r = resolveAppRequest(request.url, rendererDir);
    if (!r.ok) return notFound();
    try {
      return new Response(await readFile(r.file), { status: 200, headers: headers(r.contentType) });
    } catch {
      return notFound();
    }
  };
}
