// The app:// scheme serves the built renderer and nothing else: a table of
// hostile URLs against a real folder (with symlinks out of it, a directory,
// files beside it), the content types, and the handler's response with the CSP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME_PRIVILEGES, appProtocolHandler, isInside, resolveAppRequest } from '../../../electron/main/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/security';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
const root = join(tmp.dir, 'renderer');
beforeAll(() => {
  mkdirSync(join(root, 'assets', 'sub'), { recursive: true });
  mkdirSync(join(tmp.dir, 'renderer-evil'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'assets', 'x.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(root, 'assets', 'icon.png'), 'png');
  writeFileSync(join(root, 'assets', 'inter.woff2'), 'woff2');
  writeFileSync(join(root, 'assets', 'data.json'), '{}');
  writeFileSync(join(root, 'favicon.ico'), 'ico');
  writeFileSync(join(root, 'assets', 'blob.bin'), 'x');
  writeFileSync(join(root, 'assets', 'noext'), 'x');
  writeFileSync(join(root, 'assets', 'sub', 'inner.js'), 'inner');
  writeFileSync(join(tmp.dir, 'secret.txt'), 'the key is here');
  writeFileSync(join(tmp.dir, 'renderer-evil', 'x.js'), 'evil');
  symlinkSync(join(tmp.dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
  symlinkSync(join(tmp.dir, 'renderer-evil', 'x.js'), join(root, 'assets', 'prefix.js'));
  symlinkSync(tmp.dir, join(root, 'assets', 'up'));
  symlinkSync(join(root, 'assets', 'x.js'), join(root, 'assets', 'alias.js'));
});
afterAll(() => tmp.cleanup());

describe('resolveAppRequest: what is served', () => {
  it.each([
    [`${APP_ORIGIN}/`, 'index.html', 'text/html; charset=utf-8'],
    [APP_ORIGIN, 'index.html', 'text/html; charset=utf-8'],
    [APP_ENTRY_URL, 'index.html', 'text/html; charset=utf-8'],
    [`${APP_ORIGIN}/assets/x.js`, 'assets/x.js', 'text/javascript; charset=utf-8'],
    [`${APP_ORIGIN}/assets/sub/inner.js`, 'assets/sub/inner.js', 'text/javascript; charset=utf-8'],
    [`${APP_ORIGIN}/assets/index-abc.css?v=1#x`, 'assets/index-abc.css', 'text/css; charset=utf-8'],
    [`${APP_ORIGIN}/assets//logo.svg`, 'assets/logo.svg', 'image/svg+xml'],
    [`${APP_ORIGIN}/assets/icon.png`, 'assets/icon.png', 'image/png'],
    [`${APP_ORIGIN}/assets/inter.woff2`, 'assets/inter.woff2', 'font/woff2'],
    [`${APP_ORIGIN}/assets/data.json`, 'assets/data.json', 'application/json'],
    [`${APP_ORIGIN}/favicon.ico`, 'favicon.ico', 'image/x-icon'],
    // A symlink that stays inside the folder is followed.
    [`${APP_ORIGIN}/assets/alias.js`, 'assets/x.js', 'text/javascript; charset=utf-8'],
    // The query and fragment never choose the file.
    [`${APP_ORIGIN}/index.html?/../../secret.txt`, 'index.html', 'text/html; charset=utf-8'],
    [`${APP_ORIGIN}/index.html?file=../secret.txt#/../secret.txt`, 'index.html', 'text/html; charset=utf-8'],
  ])('%s -> %s (%s)', (url, file, type) => {
    const r = resolveAppRequest(url, root);
    expect(r).toMatchObject({ ok: true, contentType: type });
    if (r.ok) expect(readFileSync(r.file)).toEqual(readFileSync(join(root, file)));
  });
});

/** URL, what it tries, and the rule that refuses it (asserted, so each guard is shown to be the one that holds). */
const hostile: Array<[string, string, string]> = [
  ['app://renderer/../secret.txt', 'dot-dot (the URL parser drops it, then the file is missing)', 'no such file in the renderer folder'],
  ['app://renderer/%2e%2e/secret.txt', 'encoded dot-dot', 'no such file in the renderer folder'],
  ['app://renderer/%2E%2E%2Fsecret.txt', 'encoded dot-dot and slash', 'dot segment in the path'],
  ['app://renderer/assets/..%2f..%2fsecret.txt', 'dot-dot with encoded slashes', 'dot segment in the path'],
  ['app://renderer/assets%2f..%2f..%2fsecret.txt', 'one segment hiding a climb', 'dot segment in the path'],
  ['app://renderer/%252e%252e%252fsecret.txt', 'double encoding', 'encoded twice'],
  ['app://renderer/assets/%252e%252e/%252e%252e/secret.txt', 'double-encoded dot segments', 'encoded twice'],
  ['app://renderer/%25252e%25252e/secret.txt', 'triple encoding', 'encoded twice'],
  ['app://renderer/assets/%5c..%5c..%5csecret.txt', 'encoded backslashes', 'NUL, backslash or colon in the path'],
  ['app://renderer/assets/%5C..%5C..%5Csecret.txt', 'encoded backslashes, upper case', 'NUL, backslash or colon in the path'],
  ['app://renderer/assets\\..\\..\\secret.txt', 'raw backslashes', 'NUL, backslash or colon in the path'],
  ['app://renderer/index.html%00.js', 'NUL', 'NUL, backslash or colon in the path'],
  ['app://renderer/%00', 'NUL alone', 'NUL, backslash or colon in the path'],
  ['app://renderer/%c0%ae%c0%ae/secret.txt', 'overlong UTF-8 dots', 'malformed escape'],
  ['app://renderer/%zz', 'malformed escape', 'malformed escape'],
  ['app://renderer//etc/passwd', 'absolute path', 'unknown file type'],
  [`app://renderer/${encodeURIComponent(join(tmp.dir, 'secret.txt'))}`, 'encoded absolute path', 'no such file in the renderer folder'],
  ['app://renderer/C:/Windows/win.ini', 'drive letter', 'NUL, backslash or colon in the path'],
  ['app://renderer/C%3a%5cWindows%5cwin.ini', 'encoded drive letter', 'NUL, backslash or colon in the path'],
  ['app://renderer/index.html::$DATA', 'Windows stream', 'NUL, backslash or colon in the path'],
  ['app://renderer/assets/link.txt', 'symlink to a file outside', 'no such file in the renderer folder'],
  ['app://renderer/assets/prefix.js', 'symlink to a folder whose name starts with the renderer folder', 'no such file in the renderer folder'],
  ['app://renderer/assets/up/secret.txt', 'symlink to a folder outside', 'no such file in the renderer folder'],
  ['app://renderer/assets/up/renderer-evil/x.js', 'through a symlinked folder', 'no such file in the renderer folder'],
  ['app://renderer/assets', 'a directory', 'unknown file type'],
  ['app://renderer/assets/sub', 'a directory', 'unknown file type'],
  ['app://renderer/assets/sub/', 'a directory with a slash', 'a folder, not a file'],
  ['app://renderer/index.html/', 'a file asked for as a folder', 'a folder, not a file'],
  ['app://renderer/assets/blob.bin', 'unknown extension', 'unknown file type'],
  ['app://renderer/assets/noext', 'no extension', 'unknown file type'],
  ['app://renderer/missing.js', 'missing file', 'no such file in the renderer folder'],
  ['app://evil/index.html', 'other host', 'not the app host'],
  ['app://renderer.evil/index.html', 'look-alike host', 'not the app host'],
  ['app://renderer./index.html', 'trailing-dot host', 'not the app host'],
  ['app://RENDERER/index.html', 'host in another case (Chromium would lowercase it first)', 'not the app host'],
  ['app://renderer@evil/index.html', 'renderer as user info', 'not the app host'],
  ['app://user@renderer/index.html', 'user info', 'not the app host'],
  ['app://user:pw@renderer/index.html', 'user and password', 'not the app host'],
  ['app://renderer:81/index.html', 'port', 'not the app host'],
  ['app:///index.html', 'no host', 'not the app host'],
  ['file:///etc/passwd', 'file scheme', 'not the app scheme'],
  ['https://renderer/index.html', 'other scheme', 'not the app scheme'],
  ['app://renderer-evil.js', 'host that is a file name', 'not the app host'],
  ['not a url', 'not a URL', 'not a URL'],
  ['', 'empty', 'not a URL'],
];

describe('resolveAppRequest: what is refused', () => {
  it.each(hostile)('refuses %s (%s): %s', (url, _what, reason) => {
    expect(resolveAppRequest(url, root)).toEqual({ ok: false, status: 404, reason });
  });

  it('containment is separator-aware, not a prefix test', () => {
    expect(isInside('/a/renderer', '/a/renderer/x.js')).toBe(true);
    expect(isInside('/a/renderer', '/a/renderer')).toBe(true);
    expect(isInside('/a/renderer', '/a/renderer/..x.js')).toBe(true);
    expect(isInside('/a/renderer', '/a/renderer-evil/x.js')).toBe(false);
    expect(isInside('/a/renderer', '/a/x.js')).toBe(false);
    expect(isInside('/a/renderer', '/')).toBe(false);
  });

  it('a missing renderer folder refuses everything', () => {
    expect(resolveAppRequest(APP_ENTRY_URL, join(tmp.dir, 'nope')).ok).toBe(false);
  });
});

describe('the scheme and the module', () => {
  it('is registered standard and secure, with fetch, without bypassing the CSP or opening to other origins', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      bypassCSP: false,
      corsEnabled: false,
      allowServiceWorkers: false,
    });
  });
  it('does not import electron (the plain-Node test host imports it too)', () => {
    expect(readFileSync('electron/main/app-protocol.ts', 'utf8')).not.toMatch(/from ['"]electron['"]|require\(['"]electron['"]\)/);
  });
});

// A Request refuses URLs with credentials or no parse; the resolver alone covers those.
function requestable(url: string): boolean {
  try {
    return new Request(url).url !== '';
  } catch {
    return false;
  }
}

describe('appProtocolHandler (what protocol.handle gets)', () => {
  const handle = appProtocolHandler(root, CONTENT_SECURITY_POLICY);
  it('serves the page with its type, nosniff and the CSP as a header', async () => {
    const res = await handle(new Request(APP_ENTRY_URL));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('<!doctype html><title>app</title>');
  });
  it('serves a module script as JavaScript, byte for byte', async () => {
    const res = await handle(new Request(`${APP_ORIGIN}/assets/x.js`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe('console.log(1)');
  });
  it('sends the policy it is given, not one of its own', async () => {
    const res = await appProtocolHandler(root, "default-src 'none'")(new Request(APP_ENTRY_URL));
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
  });
  it.each(hostile.filter(([url]) => requestable(url)))('answers 404 for %s, and never leaks the file', async (url) => {
    const res = await handle(new Request(url));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await res.text();
    expect(body).not.toContain('the key');
    expect(body).not.toContain('evil');
  });
});
