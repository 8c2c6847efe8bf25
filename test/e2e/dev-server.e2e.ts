// `npm run dev` under the development Content-Security-Policy: Vite's real dev
// server serves the renderer, and every response gets its policy header from
// main's own applyDevServerPolicy (through a session shaped like Electron's), as
// the app's window would. The page must run with no violation: its scripts,
// the styles Vite injects, its hot-reload websocket. The production policy on
// the same page is refused where it should be, so the check can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createNetServer } from 'node:net';
import { resolve } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Browser } from 'playwright-core';
import { applyDevServerPolicy, CONTENT_SECURITY_POLICY } from '../../electron/main/security';
import { FakeSession } from '../support/fake-electron';
import { context, launch } from './browser';

let server: ViteDevServer;
let browser: Browser;
let origin: string;
/** The policy header a response from this URL gets (set by each test). */
let policyOf: (url: string) => string | undefined = () => undefined;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const s = createNetServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await createServer({
    configFile: false,
    root: resolve('renderer'),
    logLevel: 'silent',
    plugins: [
      svelte(),
      {
        name: 'policy-header-as-the-window-gets-it',
        configureServer(s) {
          s.middlewares.use((req, res, next) => {
            const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
            res.writeHead = ((...args: unknown[]) => {
              const policy = policyOf(`${origin}${req.url ?? '/'}`);
              if (policy) res.setHeader('Content-Security-Policy', policy);
              return writeHead(...args);
            }) as typeof res.writeHead;
            next();
          });
        },
      },
    ],
    server: { host: '127.0.0.1', port, strictPort: true },
  });
  await server.listen();
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Load the dev server's page; what the policy refused, and whether Vite's hot reload connected and its styles applied. */
async function visit(): Promise<{ refused: string[]; connected: boolean; styled: boolean }> {
  const page = await (await context(browser)).newPage();
  const refused: string[] = [];
  let connected = false;
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    if (m.text().includes('[vite] connected')) connected = true;
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript({
    content: [
      "document.addEventListener('securitypolicyviolation', (e) => console.error('Refused to ' + e.violatedDirective + ': ' + e.blockedURI));",
      // The preload's bridge, with no core behind it: every call fails, no event comes.
      "window.workbench = new Proxy({}, { get: (_t, name) => (name === 'on' ? () => () => {} : () => Promise.reject(new Error('no core in this test'))) });",
    ].join('\n'),
  });
  try {
    await page.goto(`${origin}/`);
    // No core behind the bridge: the app mounts and says it could not start, in its own styles.
    await page.getByRole('alert').filter({ hasText: 'The app could not start' }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1500); // the hot-reload socket, and any late refusal
    const styled = await page
      .locator('main.center')
      .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(el).display === 'grid');
    expect(errors).toEqual([]);
    return { refused, connected, styled };
  } finally {
    await page.close();
  }
}

describe('npm run dev under the development policy', () => {
  it("runs with no refusal: the dev server's scripts, the styles Vite injects, the hot-reload websocket", async () => {
    const session = new FakeSession();
    applyDevServerPolicy(session, `${origin}/`);
    policyOf = (url) => session.respond(url, {})['Content-Security-Policy']?.[0];
    expect(policyOf(`${origin}/`)).toMatch(/^default-src 'none'/);
    const r = await visit();
    expect(r.refused).toEqual([]);
    expect(r.connected).toBe(true);
    expect(r.styled).toBe(true);
  });

  it('the production policy on the same page is refused (styles injected, the websocket): the development policy is what lets it run', async () => {
    policyOf = () => CONTENT_SECURITY_POLICY;
    const r = await visit();
    expect(r.refused.some((t) => /style-src/.test(t))).toBe(true);
    expect(r.refused.some((t) => /connect-src/.test(t))).toBe(true);
    expect(r.styled).toBe(false);
  });
});
