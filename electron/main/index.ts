// Electron main: lifecycle, the window and its security, the app:// scheme,
// menus, dialogs, clipboard and shell. The engine runs in the core process
// (electron/core-process); main checks each call's sender and forwards it.
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, MessageChannelMain, net, protocol, session, shell, utilityProcess } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventChannelOf, type EventName } from '../../shared/contract-names';
import { CoreSupervisor, type CoreFailure, type CoreInit } from '../../shared/core-link';
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolHandler } from './app-protocol';
import { cacheFailureDialog } from './cache-failure';
import { forkCore } from './core-process';
import { hostHandlers } from './host-ops';
import { registerIpc } from './ipc';
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
      dialog.showErrorBox('Outreach Workbench stopped', `Something went wrong and the app has to close. Details are in ${log.file}.\n\n${e instanceof Error ? e.message : String(e)}`);
      app.exit(1);
    });
    return log;
  },
  refuse: (refused) => dialog.showErrorBox('Outreach Workbench will not start', `The app was started with ${refused}, which would let other programs inspect or control it. Start it without that option.`),
});
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const here = import.meta.dirname;

if (started) run(started);

/** Everything after a start-up that may go on: the scheme, the window, the core process, quitting. */
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
      spawn: () => forkCore({ utilityProcess, MessageChannelMain }, join(here, 'core.js'), init, { ...process.env, WORKBENCH_LOG_DIR: join(app.getPath('userData'), 'logs') }),
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

  /** The cache could not open: say so in plain words, offer what fits, and quit (never a process without a window). */
  async function handleFailure(failure: CoreFailure, core: CoreSupervisor): Promise<CoreSupervisor | null> {
    log.error(`the cache could not open (${failure.kind}): ${failure.message}`);
    const d = cacheFailureDialog({ kind: failure.kind, message: failure.message, path: failure.path ?? app.getPath('userData') });
    const { response } = await dialog.showMessageBox({ type: 'error', title: d.title, message: d.message, detail: d.detail, buttons: d.buttons.map((b) => b.label), defaultId: d.defaultId, cancelId: d.cancelId, noLink: true });
    const action = d.buttons[response]?.action ?? 'quit';
    await core.shutdown(1_000);
    if (action === 'start-over') {
      const fresh = startCore(true);
      const again = await fresh.ready();
      if (!again) return fresh;
      await fresh.shutdown(1_000);
      dialog.showErrorBox('The cache still could not be opened', again.message);
    } else if (action === 'open-folder') {
      await shell.openPath(app.getPath('userData'));
    }
    return null;
  }

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(async () => {
    // No permissions; in development, the dev server's pages get the development policy (security.ts).
    hardenSession(session.defaultSession, devUrl);
    protocol.handle(APP_SCHEME, appProtocolHandler(join(here, '../renderer'), contentSecurityPolicy()));
    // The File menu's record items: the window carries them out (it has the words and the confirmations).
    const menu = menuTemplate({ dev: !app.isPackaged, mac: process.platform === 'darwin', appName: app.getName(), send: (command) => send('app:command', { command }) });
    Menu.setApplicationMenu(Menu.buildFromTemplate(menu));

    let core: CoreSupervisor | null = startCore();
    const failure = await core.ready();
    if (failure) core = await handleFailure(failure, core);
    if (!core) {
      app.exit(1);
      return;
    }
    const live = core;
    registerIpc(ipcMain, (method, args) => live.call(method, args), (event: Electron.IpcMainInvokeEvent) => isTrustedSender(event, win, devUrl));
    win = createWindow();
    win.webContents.once('did-finish-load', () => {
      send('app:online', { online: net.isOnline() });
      live.launch();
    });

    // Quitting: the core finishes or rolls back its current write and closes the cache (at most 3 s), then the app ends.
    let quitting = false;
    app.on('before-quit', (e) => {
      if (quitting) return;
      quitting = true;
      e.preventDefault();
      void live.shutdown(3_000).then((how) => {
        if (how === 'killed') log.warn('the core process did not close within 3 s and was stopped');
        app.exit(0);
      });
    });
  });

  app.on('window-all-closed', () => app.quit());
}
