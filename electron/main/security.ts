// The window's security as plain data and plain functions, so unit tests can
// check them item by item against Electron's security checklist.
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';

export function secureWebPreferences(preloadPath: string): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
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
    spellcheck: true,
  };
}

/** Content-Security-Policy of the renderer: no remote or inline scripts, no network from the page. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "worker-src 'none'",
].join('; ');

/** The page the window may show: the built renderer file, or the dev server in development. */
export function isAppUrl(url: string, devServerUrl: string | undefined): boolean {
  try {
    const u = new URL(url);
    if (devServerUrl) {
      const d = new URL(devServerUrl);
      if (u.origin === d.origin) return true;
    }
    return u.protocol === 'file:' && u.pathname.endsWith('/renderer/index.html');
  } catch {
    return false;
  }
}

interface SenderLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown; routingId?: number } | null;
}

/** Only the app's own window, its main frame, showing the app's page, may call the contract. */
export function isTrustedSender(event: SenderLike, window: { webContents: { id: number; mainFrame: unknown } } | null, devServerUrl: string | undefined): boolean {
  if (!window || !event.senderFrame) return false;
  if (event.sender.id !== window.webContents.id) return false;
  if (event.senderFrame !== window.webContents.mainFrame && event.senderFrame.parent !== null) return false;
  if (event.senderFrame.parent !== null) return false;
  return isAppUrl(event.senderFrame.url, devServerUrl);
}

/** The application menu: standard roles; reload and developer tools only in development. */
export function menuTemplate(opts: { dev: boolean; mac: boolean; appName: string }): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (opts.dev) view.unshift({ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  return [
    ...(opts.mac ? [{ label: opts.appName, submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } as MenuItemConstructorOptions] : []),
    { label: 'File', submenu: [opts.mac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    { label: 'View', submenu: view },
    { label: 'Window', submenu: [{ role: 'minimize' }, ...(opts.mac ? [{ role: 'zoom' } as MenuItemConstructorOptions] : [])] },
  ];
}
