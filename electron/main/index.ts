// Electron main, wiring only: the window and its security, the app:// scheme,
// menus, dialogs, clipboard and shell, handed to startup.ts (before ready) and
// lifecycle.ts (from ready to quit), both tested with Electron-shaped fakes;
// and the desktop's conventions, each a tested module: the window kept alive
// (window-care.ts), its context menu and spelling (context-menu.ts,
// spellcheck.ts), updates (updates.ts), crash reports and Help › Report a
// problem (problem-report.ts), a proxy's login (proxy-login.ts), follow-up
// reminders (follow-up-reminders.ts), the session's end (session-end.ts).
// The engine runs in the core process (electron/core-process); main checks
// each call's sender and forwards it.
import {
  app,
  BrowserWindow,
  clipboard,
  crashReporter,
  dialog,
  ipcMain,
  Menu,
  MessageChannelMain,
  net,
  Notification,
  powerMonitor,
  protocol,
  session,
  shell,
  utilityProcess,
} from 'electron';
import electronUpdater from 'electron-updater';
import { mkdirSync } from 'node:fs';
import { arch, release } from 'node:os';
import { join } from 'node:path';
import type { Settings } from '../../shared/contract';
import { eventChannelOf, type EventName } from '../../shared/contract-names';
import { CoreSupervisor, type CoreInit } from '../../shared/core-link';
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-protocol';
import { watchContextMenu } from './context-menu';
import { forkCore } from './core-process';
import { FollowUpReminders, keptNotifications } from './follow-up-reminders';
import { hostHandlers, saveDialogFor } from './host-ops';
import { registerIpc } from './ipc';
import { devServerUrl, runLifecycle, type Lifecycle } from './lifecycle';
import { createLog, installCrashLogging, type Log } from './log';
import { countCrashDumps, CRASH_REPORTER_OPTIONS, gatherReport, reportFileName, saveReport, zipEntries } from './problem-report';
import { liveWindow, windowDialogs } from './parent-window';
import { askInWindow, proxyLoginHandler, type QuestionWindow } from './proxy-login';
import { contentSecurityPolicy, hardenSession, hardenWindow, isTrustedSender, mainWindowOptions, menuTemplate } from './security';
import { quitWhenSessionEnds, type SessionEndPowerMonitor } from './session-end';
import { applySpellcheck, spellcheckPlan } from './spellcheck';
import { startUp, type Started } from './startup';
import { refusalWords, unsandboxedAppImage } from './startup-checks';
import { Updates } from './updates';
import { followPageTitle, keepWindowAlive } from './window-care';

/** electron-builder.yml's appId: Windows files notifications and the taskbar under it (verify:package checks they agree). */
export const APP_ID = 'ai.trakkr.outreach-workbench';

// Demo mode's (and a run from the repository's) own user-data folder before anything reads it, then the log,
// the refused switches and the single-instance lock, in that order (startup.ts, tested with a fake app that records the order).
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
  refuse: (refused) => {
    const words = refusalWords(refused, process.env);
    // An AppImage without its sandbox (Linux, where a dialog before 'ready' only reaches stderr): say it once the app is ready.
    if (unsandboxedAppImage(process.argv, process.env) === refused) {
      return app
        .whenReady()
        .then(() => dialog.showMessageBox({ type: 'error', title: words.title, message: words.title, detail: words.message, buttons: ['Quit'], noLink: true }));
    }
    // Anything else exits at once: a debugging switch must not stay open while a dialog waits.
    dialog.showErrorBox(words.title, words.message);
  },
});
const devUrl = devServerUrl(app, process.env);
const here = import.meta.dirname;

if (started) {
  // Crash dumps stay on this computer (app.getPath('crashDumps'), in the user-data folder now in force); Help › Report a problem… gathers them.
  crashReporter.start(CRASH_REPORTER_OPTIONS);
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  run(started);
}

/** Today on this computer's calendar, YYYY-MM-DD. */
const localDay = (d = new Date()) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Everything after a start-up that may go on: the scheme, then lifecycle.ts runs the core, the window and quitting. */
function run({ demo, log, keychainService }: Started<Log>): void {
  // Must happen before 'ready'.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

  let win: BrowserWindow | null = null;
  let core: CoreSupervisor | null = null;
  let lifecycle: Lifecycle<BrowserWindow> | null = null;
  // Attached to the window while it is open; on their own once it is closed (macOS keeps running).
  const dialogs = windowDialogs(dialog, () => win);
  const updates = app.isPackaged
    ? new Updates({
        updater: electronUpdater.autoUpdater,
        currentVersion: app.getVersion(),
        enabled: async () => (await settings())?.checkForUpdates ?? false,
        offer: async (version) => {
          const o = {
            type: 'info' as const,
            title: 'Update ready',
            message: `Outreach Workbench ${version} is ready.`,
            detail: 'It is installed when you quit the app. Restart now to use it at once (a running sync or export finishes first).',
            buttons: ['Restart to update', 'Later'],
            defaultId: 1,
            cancelId: 1,
            noLink: true,
          };
          const r = await dialogs.showMessageBox(o);
          return r.response === 0 ? 'restart' : 'later';
        },
        quit: () => app.quit(),
        exit: () => app.exit(0),
        platform: process.platform,
        log,
      })
    : null;
  const reminders = new FollowUpReminders({
    dueCount: async () => {
      const r = await core?.call('pipeline:due', []);
      return r?.ok ? (r.value as { total: number }).total : null;
    },
    enabled: async () => (await settings())?.followUpReminders ?? false,
    today: () => localDay(),
    notify: keptNotifications((body) => (Notification.isSupported() ? new Notification({ title: app.getName(), body }) : null)).notify,
    // The window forward on the Due view; opened again first if it was closed (macOS).
    showDue: () => void lifecycle?.showWindow(() => send('app:show', { view: 'due' })),
    log,
  });

  /** The settings now (the core keeps them), or null when the core cannot say. */
  async function settings(): Promise<Settings | null> {
    const r = await core?.call('settings:get', []);
    return r?.ok ? (r.value as Settings) : null;
  }

  /** What main does with the settings: spelling now; updates and reminders read theirs at each look. */
  function applySettings(s: Settings): void {
    const ses = session.defaultSession;
    applySpellcheck(
      ses,
      spellcheckPlan(process.platform, s.spellcheck, app.getPreferredSystemLanguages(), ses.availableSpellCheckerLanguages),
      process.platform,
    );
  }

  function createWindow(): BrowserWindow {
    // Developer tools only in a run from the repository (security.ts).
    const w = new BrowserWindow(mainWindowOptions({ preload: join(here, '../preload/index.cjs'), demo, isPackaged: app.isPackaged }));
    w.once('ready-to-show', () => w.show());
    hardenWindow(w.webContents, devUrl);
    followPageTitle(w, demo);
    keepWindowAlive(w, {
      log,
      ask: async ({ title, message, detail }) => {
        const o = { type: 'error' as const, title, message, detail, buttons: ['Try again', 'Quit'], defaultId: 0, cancelId: 1, noLink: true };
        const r = w.isDestroyed() ? await dialog.showMessageBox(o) : await dialog.showMessageBox(w, o);
        return r.response === 0 ? 'retry' : 'quit';
      },
      quit: () => app.quit(),
    });
    watchContextMenu(w.webContents, (template) => Menu.buildFromTemplate(template).popup({ window: w }));
    quitWhenSessionEnds({ window: w, quit: () => app.quit(), log });
    void w.loadURL(devUrl ?? APP_ENTRY_URL);
    return w;
  }

  function send(event: EventName, payload: unknown): void {
    updates?.onAppEvent(event, payload);
    liveWindow(win)?.webContents.send(eventChannelOf(event), payload);
  }

  /** Help › Report a problem…: versions, the last logs and the crash dumps (the key redacted), saved where the person chooses. */
  async function reportProblem(): Promise<void> {
    const now = new Date();
    const opts = {
      title: 'Save a problem report',
      defaultPath: join(app.getPath('documents'), reportFileName(now)),
      filters: [{ name: 'Zip archive', extensions: ['zip'] }],
    };
    const r = await dialogs.showSaveDialog(opts);
    if (r.canceled || !r.filePath) return;
    const crashDumpsDir = app.getPath('crashDumps');
    const entries = gatherReport({
      appName: app.getName(),
      appVersion: app.getVersion(),
      versions: process.versions,
      os: { platform: process.platform, release: release(), arch: arch() },
      logsDir: join(app.getPath('userData'), 'logs'),
      crashDumpsDir,
      now,
    });
    try {
      saveReport(r.filePath, zipEntries(entries, now));
    } catch (e) {
      dialog.showErrorBox('The report could not be saved', `${r.filePath}: ${e instanceof Error ? e.message : String(e)}. Choose another folder.`);
      return;
    }
    shell.showItemInFolder(r.filePath);
    const dumps = countCrashDumps(crashDumpsDir);
    void dialog.showMessageBox({
      type: 'info',
      title: 'Problem report saved',
      message: 'The report is saved. Nothing was sent.',
      detail: `${r.filePath}\n\nIt holds the app's versions, its logs (your API key taken out) and ${dumps} crash report${dumps === 1 ? '' : 's'}. Attach it to an e-mail to whoever helps you with the app.`,
      buttons: ['OK'],
      noLink: true,
    });
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
          WORKBENCH_KEYCHAIN_SERVICE: keychainService,
        }),
      host: hostHandlers({
        writeClipboard: (text) => clipboard.writeText(text),
        openExternal: (url) => shell.openExternal(url),
        showItemInFolder: (path) => shell.showItemInFolder(path),
        showSaveDialog: async (suggestedName) => {
          const opts = { ...saveDialogFor(suggestedName), defaultPath: join(app.getPath('documents'), suggestedName) };
          const r = await dialogs.showSaveDialog(opts);
          return r.canceled || !r.filePath ? null : r.filePath;
        },
        showOpenDialog: async ({ title, filters }) => {
          const opts = { title, filters, properties: ['openFile' as const] };
          const r = await dialogs.showOpenDialog(opts);
          return r.canceled || !r.filePaths[0] ? null : r.filePaths[0];
        },
        // The Results' report: the window as it prints (its print styles show the one-page report only).
        printToPdf: async () => {
          const w = liveWindow(win);
          if (!w) throw new Error('The window is closed.');
          return w.webContents.printToPDF({ printBackground: true, preferCSSPageSize: true });
        },
      }),
      onEvent: send,
      onCrash: (state, message) => {
        log.error(`core process: ${state}: ${message}`);
        send('core:status', { state, message });
      },
    });
  }

  // A proxy's 407 for the core's net.fetch reaches here (forkCore: respondToAuthRequestsFromMainProcess).
  app.on(
    'login',
    proxyLoginHandler({
      ask: (q) => askInWindow((options) => new BrowserWindow(options) as unknown as QuestionWindow, liveWindow(win), q),
      log,
    }),
  );

  // After 'ready': the app:// handler, the core (its cache within a time limit, or the cache-failure dialog), the
  // window, and quitting (the core closed within 3 s, one exit). Any failure on the way: logged, a dialog, exit(1).
  lifecycle = runLifecycle({
    app,
    dialog,
    protocol,
    log,
    rendererDir: join(here, '../renderer'),
    contentSecurityPolicy: contentSecurityPolicy(),
    prepare: () => {
      // No permissions; in development, the dev server's pages get the development policy (security.ts).
      hardenSession(session.defaultSession, devUrl);
      // No dictionary download before the person's choice is known (spellcheck.ts: the default checks only with the OS's own).
      applySpellcheck(session.defaultSession, spellcheckPlan(process.platform, 'system', [], []), process.platform);
      // The File menu's record items: the window carries them out (it has the words and the confirmations).
      const menu = menuTemplate({
        dev: !app.isPackaged,
        mac: process.platform === 'darwin',
        appName: app.getName(),
        send: (command) => send('app:command', { command }),
        reportProblem: () => void reportProblem().catch((e: unknown) => log.error('the problem report failed', e)),
      });
      Menu.setApplicationMenu(Menu.buildFromTemplate(menu));
      // macOS and Linux shutting down: the quit closes the cache and takes its backup (Windows: each window's events).
      quitWhenSessionEnds({ powerMonitor: powerMonitor as unknown as SessionEndPowerMonitor, quit: () => app.quit(), log });
    },
    startCore,
    useCore: (c) => {
      core = c;
      registerIpc(
        ipcMain,
        async (method, args) => {
          const r = await c.call(method, args);
          // A setting changed in the window takes effect in main at once (spelling; the rest is read at each look).
          if (method === 'settings:set' && r.ok) applySettings(r.value as Settings);
          // A sync or an export this call started holds an update's restart back until it ends.
          updates?.onCallResult(method, r);
          return r;
        },
        (event: Electron.IpcMainInvokeEvent) => isTrustedSender(event, win, devUrl),
      );
      void settings().then((s) => s && applySettings(s));
    },
    createWindow: () => (win = createWindow()),
    windowLoaded: () => {
      send('app:online', { online: net.isOnline() });
      updates?.start();
      reminders.start();
    },
    afterQuitClose: (how) => updates?.afterQuitClose(how) ?? false,
    stayWithoutWindows: process.platform === 'darwin',
    openPath: (path) => shell.openPath(path),
  });
}
