// Electron main, wiring only: the window and its security, the app:// scheme,
// menus, dialogs, clipboard and shell, handed to startup.ts (before ready) and
// lifecycle.ts (from ready to quit), both tested with Electron-shaped fakes.
// The engine runs in the core process (electron/core-process); main checks
// each call's sender and forwards it.
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, MessageChannelMain, net, protocol, session, shell, utilityProcess } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventChannelOf, type EventName } from '../../shared/contract-names';
import { CoreSupervisor, type CoreInit } from '../../shared/core-link';
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-protocol';
import { forkCore } from './core-process';
import { hostHandlers } from './host-ops';
import { registerIpc } from './ipc';
import { devServerUrl, runLifecycle } from './lifecycle';
import { createLog, installCrashLogging, type Log } from './log';
import { contentSecurityPolicy, hardenSession, hardenWindow, isTrustedSender, menuTemplate, secureWebPreferences } from './security';
import { startUp, type Started } from './startup';

// Demo mode's own user-data folder before anything reads it, then the log, the refused switches and
// the single-instance lock, in that order (startup.ts, tested with a fake app that records the order).
const started = startUp(app, {
  argv: process.argv,
  env: process.env,
  makeDir: (dir) => mkdirSync(dir, { recursive: true }),
  openLog: (userDataDir) => {
    const log = createLog({ dir: join(userDataDir, 'logs') });
    installCrashLogging(log, process, (e) => {
      dialog.showErrorBox(
        'Outreach Workbench stopped',
        `Something went wrong and the app has to close. Details are in ${log.file}.\n\n${e instanceof Error ? e.message : String(e)}`,
      );
      app.exit(1);
    });
    return log;
  },
  refuse: (refused) =>
    dialog.showErrorBox(
      'Outreach Workbench will not start',
      `The app was started with ${refused}, which would let other programs inspect or control it. Start it without that option.`,
    ),
});
const devUrl = devServerUrl(app, process.env);
const here = import.meta.dirname;

if (started) run(started);

/** Everything after a start-up that may go on: the scheme, then lifecycle.ts runs the core, the window and quitting. */
function run({ demo, log }: Started<Log>): void {
  // Must happen before 'ready'.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

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
      webPreferences: secureWebPreferences(join(here, '../preload/index.cjs')),
    });
    w.once('ready-to-show', () => w.show());
    hardenWindow(w.webContents, devUrl);
    void w.loadURL(devUrl ?? APP_ENTRY_URL);
    return w;
  }

  function send(event: EventName, payload: unknown): void {
    if (win && !win.isDestroyed()) win.webContents.send(eventChannelOf(event), payload);
  }

  function startCore(startOver = false): CoreSupervisor {
    const init: CoreInit = {
      userDataDir: app.getPath('userData'),
      appName: app.getName(),
      appVersion: app.getVersion(),
      platformName: process.platform,
      demo,
      startOver,
    };
    return new CoreSupervisor({
      spawn: () =>
        forkCore({ utilityProcess, MessageChannelMain }, join(here, 'core.js'), init, {
          ...process.env,
          WORKBENCH_LOG_DIR: join(app.getPath('userData'), 'logs'),
        }),
      host: hostHandlers({
        writeClipboard: (text) => clipboard.writeText(text),
        openExternal: (url) => shell.openExternal(url),
        showItemInFolder: (path) => shell.showItemInFolder(path),
        showSaveDialog: async (suggestedName) => {
          const opts = { title: 'Export CSV', defaultPath: join(app.getPath('documents'), suggestedName), filters: [{ name: 'CSV', extensions: ['csv'] }] };
          const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
          return r.canceled || !r.filePath ? null : r.filePath;
        },
        showOpenDialog: async ({ title, filters }) => {
          const opts = { title, filters, properties: ['openFile' as const] };
          const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
          return r.canceled || !r.filePaths[0] ? null : r.filePaths[0];
        },
      }),
      onEvent: send,
      onCrash: (state, message) => {
        log.error(`core process: ${state}: ${message}`);
        send('core:status', { state, message });
      },
    });
  }

  // After 'ready': the app:// handler, the core (its cache within a time limit, or the cache-failure dialog), the
  // window, and quitting (the core closed within 3 s, one exit). Any failure on the way: logged, a dialog, exit(1).
  runLifecycle({
    app,
    dialog,
    protocol,
    log,
    rendererDir: join(here, '../renderer'),
    contentSecurityPolicy: contentSecurityPolicy(),
    prepare: () => {
      // No permissions; in development, the dev server's pages get the development policy (security.ts).
      hardenSession(session.defaultSession, devUrl);
      // The File menu's record items: the window carries them out (it has the words and the confirmations).
      const menu = menuTemplate({
        dev: !app.isPackaged,
        mac: process.platform === 'darwin',
        appName: app.getName(),
        send: (command) => send('app:command', { command }),
      });
      Menu.setApplicationMenu(Menu.buildFromTemplate(menu));
    },
    startCore,
    useCore: (core) =>
      registerIpc(
        ipcMain,
        (method, args) => core.call(method, args),
        (event: Electron.IpcMainInvokeEvent) => isTrustedSender(event, win, devUrl),
      ),
    createWindow: () => (win = createWindow()),
    windowLoaded: () => send('app:online', { online: net.isOnline() }),
    openPath: (path) => shell.openPath(path),
  });
}
