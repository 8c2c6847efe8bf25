// The UI test host guards what it serves as an app would: nothing (the shim
// included) without the token, no other Host or Origin (DNS rebinding), calls
// only as application/json, files only from the built renderer, each with the
// app's Content-Security-Policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ORIGIN, resolveAppRequest } from '../../electron/main/app-protocol';
import { startHost, type Host } from '../host/server';

let host: Host;
let port: number;
beforeAll(async () => {
  host = await startHost({});
  port = Number(new URL(host.url).port);
});
afterAll(async () => {
  await host.close();
});

function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the test host', () => {
  it('serves nothing without the token: not the page, not the shim, not a call, not an asset', async () => {
    for (const path of ['/', '/index.html', '/__host/shim.js', '/__host/events', '/assets/']) expect((await get(path)).status, path).toBe(403);
    expect((await get('/__host/call', { 'Content-Type': 'application/json' }, 'POST', '{"method":"app:info","args":[]}')).status).toBe(403);
    expect((await get(`/?token=${'0'.repeat(host.token.length)}`)).status).toBe(403);
  });

  it('with the token: the page, with the CSP as a header, and a same-site cookie for what the page loads', async () => {
    const r = await get(`/?token=${host.token}`);
    expect(r.status).toBe(200);
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(r.headers['content-security-policy'])).toContain("connect-src 'self'");
    expect(String(r.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(r.body).toContain('<script src="/__host/shim.js"></script>');
    expect(r.body).not.toContain(host.token);
  });

  it('refuses another Host or Origin, even with the token (no DNS rebinding)', async () => {
    expect((await get(`/?token=${host.token}`, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(`/?token=${host.token}`, { Host: '127.0.0.1:1' })).status).toBe(403);
    expect(
      (
        await get(
          `/__host/call?token=${host.token}`,
          { Origin: 'http://evil.example', 'Content-Type': 'application/json' },
          'POST',
          '{"method":"app:info","args":[]}',
        )
      ).status,
    ).toBe(403);
  });

  it('takes calls only as application/json', async () => {
    const form = await get(`/__host/call?token=${host.token}`, { 'Content-Type': 'text/plain' }, 'POST', '{"method":"app:info","args":[]}');
    expect(form.status).toBe(415);
    // Exactly the media type application/json (parameters such as a charset allowed), not a look-alike.
    expect((await get(`/__host/call?token=${host.token}`, { 'Content-Type': 'application/jsonx' }, 'POST', '{"method":"app:info","args":[]}')).status).toBe(
      415,
    );
    expect(
      (await get(`/__host/call?token=${host.token}`, { 'Content-Type': 'application/json; charset=utf-8' }, 'POST', '{"method":"app:info","args":[]}')).status,
    ).toBe(200);
    const ok = await get(`/__host/call?token=${host.token}`, { 'Content-Type': 'application/json' }, 'POST', '{"method":"app:info","args":[]}');
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { name: 'Outreach Workbench' } });
  });

  it('serves files only from the built renderer', async () => {
    const cookie = { Cookie: `workbench_host=${host.token}` };
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/assets/..%5c..%5cpackage.json',
      '/%00index.html',
    ])
      expect((await get(path, cookie)).status, path).toBe(404);
    expect((await get('/index.html', cookie)).status).toBe(200);
  });

  it("answers exactly as the app's app:// resolution does, refusals only it makes included", async () => {
    const cookie = { Cookie: `workbench_host=${host.token}` };
    const dir = 'out/renderer';
    // Files a plain static server would hand out, and the app:// resolution does not: a type it does not serve.
    const planted = `planted-${process.pid}`;
    writeFileSync(join(dir, 'assets', `${planted}.bin`), 'x');
    writeFileSync(join(dir, 'assets', planted), 'x');
    try {
      const assets = readdirSync(join(dir, 'assets')).filter((f) => !f.startsWith('planted-'));
      const paths = [
        '/',
        '/index.html',
        ...assets.map((f) => `/assets/${f}`),
        `/assets/${planted}.bin`,
        `/assets/${planted}`,
        '/assets',
        '/assets/',
        '/index.html/',
        '/assets//' + assets[0],
        '/nope.js',
      ];
      let refused = 0;
      for (const path of paths) {
        const want = resolveAppRequest(`${APP_ORIGIN}${path}`, dir);
        const got = await get(path, cookie);
        expect(got.status, path).toBe(want.ok ? 200 : 404);
        if (want.ok) expect(got.headers['content-type'], path).toBe(want.contentType);
        else refused++;
      }
      expect(refused).toBe(6);
    } finally {
      rmSync(join(dir, 'assets', `${planted}.bin`));
      rmSync(join(dir, 'assets', planted));
    }
  });
});
