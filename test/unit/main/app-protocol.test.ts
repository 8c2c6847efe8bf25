// The app:// scheme serves the built renderer and nothing else: a table of
// hostile URLs against a real folder (with a symlink out of it, a directory,
// a file beside it), the content types, and the handler's response with the CSP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME_PRIVILEGES, appProtocolHandler, isInside, resolveAppRequest } from '../../../electron/main/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/security';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
const root = join(tmp.dir, 'renderer');
beforeAll(() => {
  mkdirSync(join(root, 'assets', 'sub'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(root, 'assets', 'blob.bin'), 'x');
  writeFileSync(join(tmp.dir, 'secret.txt'), 'the key is here');
  writeFileSync(join(tmp.dir, 'renderer-evil.js'), 'evil');
  symlinkSync(join(tmp.dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
  symlinkSync(tmp.dir, join(root, 'assets', 'up'));
});
afterAll(() => tmp.cleanup());

describe('resolveAppRequest', () => {
  it.each([
    [`${APP_ORIGIN}/`, 'index.html', 'text/html; charset=utf-8'],
    [APP_ENTRY_URL, 'index.html', 'text/html; charset=utf-8'],
    [`${APP_ORIGIN}/assets/index-abc.js`, 'assets/index-abc.js', 'text/javascript; charset=utf-8'],
    [`${APP_ORIGIN}/assets/index-abc.css?v=1#x`, 'assets/index-abc.css', 'text/css; charset=utf-8'],
    [`${APP_ORIGIN}/assets//logo.svg`, 'assets/logo.svg', 'image/svg+xml'],
  ])('%s -> %s', (url, file, type) => {
    const r = resolveAppRequest(url, root);
    expect(r).toMatchObject({ ok: true, contentType: type });
    if (r.ok) expect(r.file.endsWith(file)).toBe(true);
  });

  it.each([
    ['app://renderer/../secret.txt'],
    ['app://renderer/%2e%2e/secret.txt'],
    ['app://renderer/%2E%2E%2Fsecret.txt'],
    ['app://renderer/%252e%252e%252fsecret.txt'],
    ['app://renderer/assets/..%2f..%2fsecret.txt'],
    ['app://renderer/assets/%5c..%5c..%5csecret.txt'],
    ['app://renderer/assets\\..\\..\\secret.txt'],
    ['app://renderer/index.html%00.js'],
    ['app://renderer/%00'],
    ['app://renderer//etc/passwd'],
    ['app://renderer/C:/Windows/win.ini'],
    ['app://renderer/assets/link.txt'],
    ['app://renderer/assets/up/secret.txt'],
    ['app://renderer/assets/sub'],
    ['app://renderer/assets/sub/'],
    ['app://renderer/assets/blob.bin'],
    ['app://renderer/missing.js'],
    ['app://renderer/%zz'],
    ['app://evil/index.html'],
    ['app://renderer.evil/index.html'],
    ['app://user@renderer/index.html'],
    ['app://renderer:81/index.html'],
    ['file:///etc/passwd'],
    ['https://renderer/index.html'],
    ['app://renderer-evil.js'],
    ['not a url'],
  ])('refuses %s', (url) => {
    expect(resolveAppRequest(url, root).ok).toBe(false);
  });

  it('containment is separator-aware, not a prefix test', () => {
    expect(isInside('/a/renderer', '/a/renderer/x.js')).toBe(true);
    expect(isInside('/a/renderer', '/a/renderer')).toBe(true);
    expect(isInside('/a/renderer', '/a/renderer-evil/x.js')).toBe(false);
    expect(isInside('/a/renderer', '/a/x.js')).toBe(false);
  });

  it('the scheme is registered standard and secure, without bypassing the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true, bypassCSP: false });
  });
});

describe('appProtocolHandler (what protocol.handle gets)', () => {
  const handle = appProtocolHandler(root, CONTENT_SECURITY_POLICY);
  it('serves a file with its type, nosniff and the CSP as a header', async () => {
    const res = await handle(new Request(APP_ENTRY_URL));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>app</title>');
  });
  it('answers 404 for anything refused, and never leaks the file', async () => {
    const res = await handle(new Request('app://renderer/assets/link.txt'));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('the key');
  });
});
