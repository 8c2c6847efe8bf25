// The window's security, item by item against Electron's security checklist
// (https://www.electronjs.org/docs/latest/tutorial/security).
import { describe, expect, it } from 'vitest';
import {
  applyDevServerPolicy,
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  hardenSession,
  hardenWindow,
  isAppUrl,
  isTrustedSender,
  mainWindowOptions,
  menuTemplate,
  secureWebPreferences,
} from '../../../electron/main/security';
import { checkExternalUrl } from '../../../shared/links';
import { FakeSession } from '../../support/fake-electron';

describe('web preferences', () => {
  const p = secureWebPreferences('/app/out/preload/index.cjs');
  it.each([
    ['2. Node.js integration off', 'nodeIntegration', false],
    ['2. no Node in workers', 'nodeIntegrationInWorker', false],
    ['2. no Node in sub-frames', 'nodeIntegrationInSubFrames', false],
    ['3. context isolation on', 'contextIsolation', true],
    ['4. process sandboxing on', 'sandbox', true],
    ['6. web security on', 'webSecurity', true],
    ['8. no insecure content', 'allowRunningInsecureContent', false],
    ['9. no experimental features', 'experimentalFeatures', false],
    ['12. no <webview>', 'webviewTag', false],
    ['navigation by drag and drop off', 'navigateOnDragDrop', false],
    ['middle-click does not open windows', 'disableBlinkFeatures', 'Auxclick'],
  ] as const)('%s', (_label, key, value) => {
    expect(p[key]).toBe(value);
  });
  it('loads the preload it is given and nothing else', () => {
    expect(p.preload).toBe('/app/out/preload/index.cjs');
    expect(p).not.toHaveProperty('enableBlinkFeatures');
  });
  it('developer tools off unless asked for (main asks only when not packaged), not only hidden from the menu', () => {
    expect(p.devTools).toBe(false);
    expect(secureWebPreferences('/p', { devTools: true }).devTools).toBe(true);
  });
  it('the app window main opens: developer tools off in the packaged app, on only in a run from the repository', () => {
    const packaged = mainWindowOptions({ preload: '/app/out/preload/index.cjs', demo: false, isPackaged: true });
    expect(packaged.webPreferences).toEqual(secureWebPreferences('/app/out/preload/index.cjs', { devTools: false, spellcheck: true }));
    expect(packaged.webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions({ preload: '/p', demo: false, isPackaged: false }).webPreferences?.devTools).toBe(true);
    expect(packaged).toMatchObject({ title: 'Outreach Workbench', show: false });
    expect(mainWindowOptions({ preload: '/p', demo: true, isPackaged: true }).title).toBe('Outreach Workbench (demo)');
  });
  it('spelling is checked only when the plan says so (no dictionary fetched otherwise)', () => {
    expect(p.spellcheck).toBe(false);
    expect(secureWebPreferences('/p', { spellcheck: true }).spellcheck).toBe(true);
  });
});

describe('Content-Security-Policy (checklist 7)', () => {
  const directives = Object.fromEntries(
    CONTENT_SECURITY_POLICY.split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v.join(' ')]),
  );
  it('no remote scripts, no inline scripts, no eval', () => {
    expect(directives['script-src']).toBe("'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });
  it('no network from the renderer: all network goes through main', () => {
    expect(directives['connect-src']).toBe("'none'");
    expect(directives['default-src']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
  });
  it('the page carries no second policy of its own: the app:// handler sends the one definition as a header', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync('renderer/index.html', 'utf8')).not.toContain('Content-Security-Policy');
  });
  it('development adds only the dev server (its scripts, its websocket, injected styles); production is unchanged', () => {
    const dev = contentSecurityPolicy({ dev: { serverOrigin: 'http://localhost:5173' } });
    const d = Object.fromEntries(
      dev
        .split(';')
        .map((x) => x.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v.join(' ')]),
    );
    expect(d['script-src']).toBe("'self' http://localhost:5173");
    expect(d['connect-src']).toBe('http://localhost:5173 ws://localhost:5173');
    expect(d['style-src']).toBe("'self' 'unsafe-inline'");
    expect(dev).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy()).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).not.toContain('localhost');
    expect(contentSecurityPolicy({ connectSelf: true })).toContain("connect-src 'self';");
  });
});

describe('who may talk to main (checklist 17: validate the sender)', () => {
  const mainFrame = { url: 'app://renderer/index.html', parent: null };
  const win = { webContents: { id: 7, mainFrame } };
  it('the app window main frame showing the app page', () => {
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: mainFrame }, win, undefined)).toBe(true);
  });
  it('refuses another webContents, a sub-frame, a foreign page, no frame, no window', () => {
    expect(isTrustedSender({ sender: { id: 8 }, senderFrame: mainFrame }, win, undefined)).toBe(false);
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: { url: 'app://renderer/index.html', parent: mainFrame } }, win, undefined)).toBe(false);
    expect(
      isTrustedSender(
        { sender: { id: 7 }, senderFrame: { url: 'https://evil.example/', parent: null } },
        { webContents: { id: 7, mainFrame: { url: 'https://evil.example/', parent: null } } },
        undefined,
      ),
    ).toBe(false);
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: null }, win, undefined)).toBe(false);
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: mainFrame }, null, undefined)).toBe(false);
  });
  it('the dev server only when one is configured', () => {
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', undefined)).toBe(false);
  });
  it.each([
    ['app://renderer/index.html', undefined, true],
    ['app://renderer/', undefined, true],
    // Chromium lowercases hosts of standard schemes, so a real frame never reports this; compared strictly, it is refused.
    ['app://RENDERER/index.html', undefined, false],
    ['file:///app/out/renderer/index.html', undefined, false],
    ['app://renderer.evil/index.html', undefined, false],
    ['app://renderer@evil/index.html', undefined, false],
    ['app://user@renderer/index.html', undefined, false],
    ['app://user:pw@renderer/index.html', undefined, false],
    ['app://renderer:8080/index.html', undefined, false],
    ['app://evil/index.html', undefined, false],
    ['apps://renderer/index.html', undefined, false],
    ['https://renderer/index.html', undefined, false],
    ['http://localhost:5173/', 'http://localhost:5173', true],
    ['http://localhost:5174/', 'http://localhost:5173', false],
    ['http://localhost:5173.evil.com/', 'http://localhost:5173', false],
    ['http://evil@localhost:5173/', 'http://localhost:5173', false],
    ['https://localhost:5173/', 'http://localhost:5173', false],
    ['http://127.0.0.1:5173/', 'http://localhost:5173', false],
    ['app://renderer./index.html', undefined, false],
    ['app://renderer', undefined, true],
    ['app://renderer/index.html', 'http://localhost:5173', true],
    ['app://renderer/index.html', 'not a url', true],
    ['http://localhost:5173/assets/x.js?y#z', 'http://localhost:5173/', true],
    ['http://localhost:5173/', 'not a url', false],
    ['file:///etc/passwd', 'file:///', false],
    ['app://evil/', 'app://evil', false],
    ['ws://localhost:5173/', 'http://localhost:5173', false],
    ['not a url', undefined, false],
  ])('%s (dev server %s) -> %s', (url, dev, ok) => {
    expect(isAppUrl(url, dev)).toBe(ok);
  });
});

describe('links open only when safe (checklist 14, 15)', () => {
  it.each([
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['file:///etc/passwd', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['smb://evil/share', false],
    ['ms-msdt:/id PCWDiagnostic', false],
    ['vbscript:msgbox', false],
    ['//evil.example/path', false],
    ['\\\\evil\\share', false],
    ['https://user:pass@example.com/', false],
    ['https://' + 'a'.repeat(2100) + '.com', false],
    ['not a url', false],
    ['', false],
    ['https://wired.com/best-espresso?x=1#y', true],
    ['http://example.com', true],
  ])('%s -> %s', (url, ok) => {
    expect(checkExternalUrl(url).ok).toBe(ok);
  });
  it('says why, in plain words', () => {
    expect(checkExternalUrl('javascript:alert(1)')).toEqual({ ok: false, reason: 'Only web links (http, https) open from the app; this one is javascript.' });
  });
});

describe('menu', () => {
  const roles = (t: ReturnType<typeof menuTemplate>) => JSON.stringify(t);
  it('copy and paste always; reload and developer tools only in development', () => {
    const prod = roles(menuTemplate({ dev: false, mac: false, appName: 'Outreach Workbench' }));
    expect(prod).toContain('"copy"');
    expect(prod).toContain('"paste"');
    expect(prod).not.toContain('reload');
    expect(prod).not.toContain('toggleDevTools');
    const dev = roles(menuTemplate({ dev: true, mac: true, appName: 'Outreach Workbench' }));
    expect(dev).toContain('"reload"');
    expect(dev).toContain('"about"');
  });

  type Item = ReturnType<typeof menuTemplate>[number];
  const fileMenu = (t: Item[]) => t.find((m) => m.label === 'File')!.submenu as Item[];
  const click = (item: Item) => (item.click as unknown as () => void)();

  it.each([
    ['Export your record…', 'export-record'],
    ['Import a record…', 'import-record'],
    ['Restore from backup…', 'restore-backup'],
  ] as const)('File > %s asks the window for %s, and only that', (label, command) => {
    for (const mac of [false, true]) {
      const sent: string[] = [];
      const file = fileMenu(menuTemplate({ dev: false, mac, appName: 'Outreach Workbench', send: (c) => sent.push(c) }));
      const item = file.find((i) => i.label === label);
      expect(item, `${label} on ${mac ? 'macOS' : 'Linux/Windows'}`).toBeDefined();
      expect(item!.enabled).toBe(true);
      expect(item!.role).toBeUndefined();
      click(item!);
      expect(sent).toEqual([command]);
    }
  });

  it('the File menu: the record items first, then close (macOS) or quit', () => {
    const labels = (mac: boolean) =>
      fileMenu(menuTemplate({ dev: false, mac, appName: 'Outreach Workbench', send: () => {} })).map((i) => i.label ?? i.role ?? i.type);
    expect(labels(false)).toEqual(['Export your record…', 'Import a record…', 'separator', 'Restore from backup…', 'separator', 'quit']);
    expect(labels(true)).toEqual(['Export your record…', 'Import a record…', 'separator', 'Restore from backup…', 'separator', 'close']);
  });

  it('Help › Report a problem… runs the report; without one to run it is shown disabled', () => {
    const help = (t: Item[]) => t.find((m) => m.label === 'Help')!.submenu as Item[];
    let reports = 0;
    const item = help(menuTemplate({ dev: false, mac: false, appName: 'Outreach Workbench', reportProblem: () => void reports++ }))[0]!;
    expect(item.label).toBe('Report a problem…');
    click(item);
    expect(reports).toBe(1);
    expect(help(menuTemplate({ dev: false, mac: false, appName: 'Outreach Workbench' }))[0]!.enabled).toBe(false);
  });

  it("macOS: the app menu (About, Services, Hide, Quit) first, and the Window menu's Bring All to Front", () => {
    const t = menuTemplate({ dev: false, mac: true, appName: 'Outreach Workbench' });
    expect(t[0]!.label).toBe('Outreach Workbench');
    expect((t[0]!.submenu as Item[]).map((i) => i.role).filter(Boolean)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect((t.find((m) => m.label === 'Window')!.submenu as Item[]).map((i) => i.role ?? i.type)).toEqual(['minimize', 'zoom', 'separator', 'front']);
    expect(menuTemplate({ dev: false, mac: false, appName: 'Outreach Workbench' })[0]!.label).toBe('File');
  });

  it('without a window to send to, the record items are shown but disabled, and clicking them does nothing', () => {
    const file = fileMenu(menuTemplate({ dev: false, mac: false, appName: 'Outreach Workbench' }));
    const items = file.filter((i) => i.id === 'export-record' || i.id === 'import-record' || i.id === 'restore-backup');
    expect(items).toHaveLength(3);
    for (const i of items) {
      expect(i.enabled).toBe(false);
      expect(() => click(i)).not.toThrow();
    }
  });
});

describe('the window and session hardening (one place, Electron-shaped fakes)', () => {
  function fakeWebContents() {
    const listeners = new Map<string, (e: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | null = null;
    return {
      setWindowOpenHandler: (h: (d: { url: string }) => { action: 'deny' }) => void (openHandler = h),
      on: (event: string, l: (e: { preventDefault(): void }, url: string) => void) => void listeners.set(event, l),
      fire(event: string, url: string): boolean {
        let prevented = false;
        listeners.get(event)!({ preventDefault: () => void (prevented = true) }, url);
        return prevented;
      },
      open: (url: string) => openHandler!({ url }),
    };
  }
  it('denies new windows and navigation away from the app; allows the app itself', () => {
    const wc = fakeWebContents();
    hardenWindow(wc, undefined);
    expect(wc.open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(wc.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(wc.fire('will-navigate', 'app://renderer.evil/index.html')).toBe(true);
    expect(wc.fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(wc.fire('will-navigate', 'app://renderer/index.html')).toBe(false);
    expect(wc.fire('will-attach-webview', 'app://renderer/index.html')).toBe(true);
  });
  it('in development, the dev server too, and only it', () => {
    const wc = fakeWebContents();
    hardenWindow(wc, 'http://localhost:5173');
    expect(wc.fire('will-navigate', 'http://localhost:5173/')).toBe(false);
    expect(wc.fire('will-navigate', 'http://localhost:5174/')).toBe(true);
  });
  it('grants no permission, asked or checked', () => {
    const granted: boolean[] = [];
    const session = new FakeSession();
    hardenSession(session);
    session.permissionRequest!(null, 'media', (g) => granted.push(g));
    session.permissionRequest!(null, 'clipboard-read', (g) => granted.push(g));
    expect(granted).toEqual([false, false]);
    expect(session.permissionCheck!()).toBe(false);
  });
});

describe("the dev server's Content-Security-Policy header (development only, set by security.ts)", () => {
  const DEV = 'http://localhost:5173';
  const devPolicy = contentSecurityPolicy({ dev: { serverOrigin: DEV } });

  it('outside development, no response is touched', () => {
    const session = new FakeSession();
    hardenSession(session, undefined);
    expect(session.headersFilter).toBeNull();
    expect(session.respond(`${DEV}/`, { 'Content-Type': ['text/html'] })).toEqual({ 'Content-Type': ['text/html'] });
  });

  it("in development, the dev server's pages carry the development policy as their one CSP header, whatever the server sent", () => {
    const session = new FakeSession();
    hardenSession(session, `${DEV}/some/page?x=1`);
    expect(session.headersFilter).toEqual({ urls: [`${DEV}/*`] });
    const out = session.respond(`${DEV}/index.html`, {
      'Content-Type': ['text/html'],
      'content-security-policy': ['default-src *'],
      'CONTENT-SECURITY-POLICY': ['script-src *'],
    });
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [devPolicy] });
    // A response with no headers at all gets the policy too.
    expect(session.respond(`${DEV}/@vite/client`, {})).toEqual({ 'Content-Security-Policy': [devPolicy] });
    // The policy allows the dev server's scripts and websocket, and nothing from elsewhere.
    expect(devPolicy).toContain(`script-src 'self' ${DEV}`);
    expect(devPolicy).toContain(`connect-src ${DEV} ws://localhost:5173`);
  });

  it('app:// and other origins keep what they sent (the production policy is not changed)', () => {
    const session = new FakeSession();
    applyDevServerPolicy(session, DEV);
    const app = { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
    expect(session.respond('app://renderer/index.html', app)).toEqual(app);
    expect(session.respond('http://localhost:5174/', { 'X-Other': ['1'] })).toEqual({ 'X-Other': ['1'] });
    expect(session.respond('http://localhost:5173.evil.example/', { 'X-Other': ['1'] })).toEqual({ 'X-Other': ['1'] });
  });

  it("the listener itself leaves a URL outside the dev server's origin as it came, should the filter let one through", () => {
    let listener: Parameters<FakeSession['webRequest']['onHeadersReceived']>[1] | undefined;
    applyDevServerPolicy({ webRequest: { onHeadersReceived: (_f, l) => void (listener = l) } }, DEV);
    const answers: unknown[] = [];
    listener!({ url: 'https://evil.example/', responseHeaders: { 'X-Other': ['1'] } }, (r) => answers.push(r));
    listener!({ url: `${DEV}/`, responseHeaders: {} }, (r) => answers.push(r));
    expect(answers).toEqual([{}, { responseHeaders: { 'Content-Security-Policy': [devPolicy] } }]);
  });
});
