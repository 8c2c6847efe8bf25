// The window's security as plain data and plain functions, so unit tests can
// check them item by item against Electron's security checklist.
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import type { EventPayloads } from '../../shared/contract';
import { APP_HOST, APP_SCHEME } from './app-protocol';

/** What a menu item asks the window to do (it has the words and the confirmations). */
export type AppCommand = EventPayloads['app:command']['command'];

/**
 * The window's web preferences. `devTools` is off unless asked for (development only: a packaged
 * app's window cannot open them at all, not only from the menu); `spellcheck` follows the user's
 * choice (spellcheck.ts), so no dictionary is fetched for a window that is not to check spelling.
 */
export function secureWebPreferences(
  preloadPath: string,
  opts: { devTools?: boolean; spellcheck?: boolean } = {},
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // Middle-click must not open links in new windows.
    disableBlinkFeatures: 'Auxclick',
    safeDialogs: true,
    devTools: opts.devTools ?? false,
    spellcheck: opts.spellcheck ?? false,
  };
}

/**
 * The app window's options: its size, its title ("(demo)" in demo mode), and the secure web
 * preferences, with developer tools only in an app run from the repository (`isPackaged` false).
 */
export function mainWindowOptions(o: { preload: string; demo: boolean; isPackaged: boolean }): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: o.demo ? 'Outreach Workbench (demo)' : 'Outreach Workbench',
    backgroundColor: '#1b1d21',
    // Spelling is switched on and off for the session (spellcheck.ts).
    webPreferences: secureWebPreferences(o.preload, { devTools: !o.isPackaged, spellcheck: true }),
  };
}

/**
 * The renderer's Content-Security-Policy, defined once and sent as a response
 * header by the app:// handler: no remote or inline scripts, no network from
 * the page. Development adds only what Vite's dev server needs (its scripts,
 * its websocket, injected styles); the browser test host adds connect-src
 * 'self' for its shim. The production policy itself never changes.
 */
export function contentSecurityPolicy(opts: { dev?: { serverOrigin: string }; connectSelf?: boolean } = {}): string {
  const dev = opts.dev ? new URL(opts.dev.serverOrigin) : null;
  const ws = dev ? `${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}` : '';
  const connect = [...(opts.connectSelf ? ["'self'"] : []), ...(dev ? [dev.origin, ws] : [])];
  return [
    "default-src 'none'",
    `script-src 'self'${dev ? ` ${dev.origin}` : ''}`,
    `style-src 'self'${dev ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "worker-src 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The page the window may show and the frame that may call the contract:
 * exactly app://renderer (no port, no user info, no look-alike host), or in
 * development only, exactly the dev server's http(s) origin. Node's URL gives
 * custom schemes an opaque origin, so the parts are compared one by one, as
 * Node parses them: it keeps the case of a custom scheme's host, so
 * app://RENDERER is refused (Chromium lowercases a standard scheme's host, so
 * a real frame reports app://renderer).
 */
export function isAppUrl(url: string, devServerUrl: string | undefined): boolean {
  const u = parseUrl(url);
  if (!u || u.username !== '' || u.password !== '') return false;
  if (u.protocol === `${APP_SCHEME}:` && u.hostname === APP_HOST && u.port === '') return true;
  const dev = devServerUrl ? parseUrl(devServerUrl) : null;
  return !!dev && (dev.protocol === 'http:' || dev.protocol === 'https:') && u.protocol === dev.protocol && u.host === dev.host;
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

interface SenderLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown; routingId?: number } | null;
}

/** Only the app's own window, its main frame, showing the app's page, may call the contract. */
export function isTrustedSender(
  event: SenderLike,
  window: { webContents: { id: number; mainFrame: unknown } } | null,
  devServerUrl: string | undefined,
): boolean {
  if (!window || !event.senderFrame) return false;
  if (event.sender.id !== window.webContents.id) return false;
  if (event.senderFrame.parent !== null) return false;
  return isAppUrl(event.senderFrame.url, devServerUrl);
}

/** The parts of a webContents the hardening touches (Electron's shape, so a fake can test it). */
export interface WebContentsLike {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', listener: (e: { preventDefault(): void }, url: string) => void): unknown;
}

/**
 * The window's behaviour, all in one place: no new windows (links go through
 * links:open), navigation only to the app's own page, no <webview>.
 */
export function hardenWindow(wc: WebContentsLike, devServerUrl: string | undefined): void {
  wc.setWindowOpenHandler(() => ({ action: 'deny' }));
  wc.on('will-navigate', (e, url) => {
    if (!isAppUrl(url, devServerUrl)) e.preventDefault();
  });
  wc.on('will-redirect', (e, url) => {
    if (!isAppUrl(url, devServerUrl)) e.preventDefault();
  });
  wc.on('will-attach-webview', (e) => e.preventDefault());
}

/** One response's headers as Electron's webRequest hands them over (names in the server's case). */
type ResponseHeaders = Record<string, string[]>;

/** The parts of a session the hardening touches (Electron's shape, so a fake can test it). */
export interface SessionLike {
  setPermissionRequestHandler(handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onHeadersReceived(
      filter: { urls: string[] },
      listener: (details: { url: string; responseHeaders?: ResponseHeaders }, callback: (response: { responseHeaders?: ResponseHeaders }) => void) => void,
    ): void;
  };
}

/**
 * The session's behaviour: no permission (camera, notifications,
 * clipboard-read, …) is ever granted to the page; and in development only,
 * the dev server's pages get the development policy as their
 * Content-Security-Policy header (app:// sends the production one itself).
 */
export function hardenSession(session: SessionLike, devServerUrl?: string): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  if (devServerUrl) applyDevServerPolicy(session, devServerUrl);
}

/**
 * Development only: every response from the dev server's origin carries the
 * development policy (its scripts, its websocket, injected styles) as its one
 * Content-Security-Policy header, replacing any the server sent in whatever
 * case. Nothing else is touched, so app:// keeps the production policy.
 */
export function applyDevServerPolicy(session: Pick<SessionLike, 'webRequest'>, devServerUrl: string): void {
  const origin = new URL(devServerUrl).origin;
  const policy = contentSecurityPolicy({ dev: { serverOrigin: origin } });
  session.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) => {
    if (parseUrl(details.url)?.origin !== origin) return callback({}); // not the dev server's: left as it came
    const headers = Object.fromEntries(Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy'));
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } });
  });
}

/**
 * The application menu: standard roles (on macOS the app menu, Cmd+Q, Cmd+H, Cmd+W, Cmd+M and the
 * Window menu's "Bring All to Front"); reload and developer tools only in development; the File
 * menu's items for the user's record, each handed to `send` (main forwards it to the window as the
 * 'app:command' event); Help › "Report a problem…" when `reportProblem` is given.
 */
export function menuTemplate(opts: {
  dev: boolean;
  mac: boolean;
  appName: string;
  send?: (command: AppCommand) => void;
  reportProblem?: () => void;
}): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (opts.dev) view.unshift({ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  const command = (label: string, c: AppCommand): MenuItemConstructorOptions => ({
    id: c,
    label,
    enabled: opts.send !== undefined,
    click: () => opts.send?.(c),
  });
  const recordItems: MenuItemConstructorOptions[] = [
    command('Export your record…', 'export-record'),
    command('Import a record…', 'import-record'),
    { type: 'separator' },
    command('Restore from backup…', 'restore-backup'),
  ];
  return [
    ...(opts.mac
      ? [
          {
            label: opts.appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } as MenuItemConstructorOptions,
        ]
      : []),
    { label: 'File', submenu: [...recordItems, { type: 'separator' }, opts.mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    { label: 'View', submenu: view },
    {
      label: 'Window',
      submenu: [{ role: 'minimize' }, ...(opts.mac ? ([{ role: 'zoom' }, { type: 'separator' }, { role: 'front' }] as MenuItemConstructorOptions[]) : [])],
    },
    {
      label: 'Help',
      role: 'help',
      submenu: [{ id: 'report-problem', label: 'Report a problem…', enabled: opts.reportProblem !== undefined, click: () => opts.reportProblem?.() }],
    },
  ];
}
