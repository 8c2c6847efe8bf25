// Electron main: lifecycle, the one window and its security, IPC wiring to
// core's app service. Everything that is not Electron-specific lives in core.
import { app, BrowserWindow, ipcMain, Menu, net, session } from 'electron';
import { join } from 'node:path';
import { AppService } from '../core/app/service';
import { createHandlers } from '../core/app/handlers';
import { KeychainSecretStore } from '../core/secrets';
import { registerIpc } from './ipc';
import { electronPlatform } from './platform';
import { CONTENT_SECURITY_POLICY, isAppUrl, isTrustedSender, menuTemplate, secureWebPreferences } from './security';

// Demo mode: `npm run demo` (WORKBENCH_DEMO=1), or the app started with --demo.
const demo = process.argv.includes('--demo') || process.env.WORKBENCH_DEMO === '1';
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
let win: BrowserWindow | null = null;

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: demo ? 'Outreach Workbench (demo)' : 'Outreach Workbench',
    backgroundColor: '#1b1d21',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  w.once('ready-to-show', () => w.show());
  const wc = w.webContents;
  // Links go through the contract (links:open), never by navigating the window.
  wc.setWindowOpenHandler(() => ({ action: 'deny' }));
  wc.on('will-navigate', (e, url) => {
    if (!isAppUrl(url, devUrl)) e.preventDefault();
  });
  wc.on('will-redirect', (e, url) => {
    if (!isAppUrl(url, devUrl)) e.preventDefault();
  });
  wc.on('will-attach-webview', (e) => e.preventDefault());
  if (devUrl) void w.loadURL(devUrl);
  else void w.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return w;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
      cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ dev: !app.isPackaged, mac: process.platform === 'darwin', appName: app.getName() })));

    const platform = electronPlatform(() => win, app.getPath('documents'));
    // The cache opens at once (offline-first); a sync, if any, runs after the window is up.
    const service = await AppService.create({
      userDataDir: app.getPath('userData'),
      platform,
      keychain: new KeychainSecretStore(),
      appName: app.getName(),
      appVersion: app.getVersion(),
      platformName: process.platform,
      demo,
    });
    registerIpc(ipcMain, createHandlers(service, platform), (event: Electron.IpcMainInvokeEvent) => isTrustedSender(event, win, devUrl));
    win = createWindow();
    win.webContents.once('did-finish-load', () => {
      platform.emit('app:online', { online: net.isOnline() });
      void service.launch();
    });
    app.on('before-quit', () => {
      void service.close();
    });
  });

  app.on('window-all-closed', () => app.quit());
}
