// Electron main: lifecycle and the one window. Everything that is not
// Electron-specific lives in electron/core.
import { app, BrowserWindow, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { channelOf, contract, METHOD_NAMES, type ContractResults, type MethodName } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from './security';

const demo = process.argv.includes('--demo');

type Handlers = { [M in MethodName]: (...args: never[]) => Promise<ContractResults[M]> | ContractResults[M] };

const handlers: Handlers = {
  'app:info': () => ({ name: app.getName(), version: app.getVersion(), demo }),
};

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    show: false,
    title: 'Outreach Workbench',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (!app.isPackaged && devUrl) void win.loadURL(devUrl);
  else void win.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return win;
}

if (!app.requestSingleInstanceLock()) app.quit();

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  const win = createWindow();
  for (const name of METHOD_NAMES) {
    ipcMain.handle(channelOf(name), async (event, ...raw: unknown[]) => {
      if (event.sender !== win.webContents || event.senderFrame !== win.webContents.mainFrame) throw new Error('Refused: not the app window');
      const args = contract[name].args.parse(raw);
      return (handlers[name] as (...a: unknown[]) => unknown)(...args);
    });
  }
});

app.on('window-all-closed', () => app.quit());
