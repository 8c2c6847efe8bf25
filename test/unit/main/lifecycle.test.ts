// Main's run from 'ready' to quit (electron/main/lifecycle.ts) against
// Electron-shaped fakes and the real CoreSupervisor over a scripted core
// process: any start-up failure ends in a logged error, a plain-words dialog
// and exit(1) (never a process without a window holding the lock); the core
// has 30 s to open its cache; the cache-failure choices; quitting closes the
// core within a bounded wait and exits exactly once.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostHandlers } from '../../../shared/core-link';
import { CoreSupervisor, type CoreFailure, type CoreProcessHandle, type FromCore, type ToCore } from '../../../shared/core-link';
import {
  CORE_READY_TIMEOUT_MS,
  CORE_STEP_TIMEOUT_MS,
  devServerUrl,
  FAILED_START_SHUTDOWN_MS,
  QUIT_SHUTDOWN_MS,
  runLifecycle,
  type LifecycleDeps,
} from '../../../electron/main/lifecycle';
import { createLog } from '../../../electron/main/log';
import { FakeBrowserWindow, FakeDialog, FakeProtocol, FakeRunningApp } from '../../support/fake-electron';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** How a scripted core process answers: its cache opened, could not open, or no word at all. */
type Opening = 'ready' | CoreFailure | 'silent';

/** A core process behind the message protocol: answers start-up as told, and 'shutdown' with 'closed' after `closeAfterMs` (null: never). */
class ScriptedCoreProcess implements CoreProcessHandle {
  readonly posted: ToCore[] = [];
  exited = false;
  killed = false;
  private readonly listeners: ((m: FromCore) => void)[] = [];
  private readonly exitListeners: ((code: number | null) => void)[] = [];

  constructor(
    opening: Opening,
    private readonly closeAfterMs: number | null,
  ) {
    if (opening === 'ready') queueMicrotask(() => this.send({ type: 'ready' }));
    else if (opening !== 'silent') queueMicrotask(() => this.send({ type: 'failed', failure: opening }));
  }
  post(message: ToCore): void {
    if (this.exited) throw new Error('the process has exited');
    this.posted.push(structuredClone(message));
    if (message.type === 'shutdown' && this.closeAfterMs !== null) {
      setTimeout(() => {
        this.send({ type: 'closed' });
        this.exit(0);
      }, this.closeAfterMs);
    }
  }
  onMessage(listener: (m: FromCore) => void): void {
    this.listeners.push(listener);
  }
  onExit(listener: (code: number | null) => void): void {
    this.exitListeners.push(listener);
  }
  kill(): void {
    this.killed = true;
    this.exit(null);
  }
  send(message: FromCore): void {
    if (!this.exited) for (const l of this.listeners) l(structuredClone(message));
  }
  private exit(code: number | null): void {
    if (this.exited) return;
    this.exited = true;
    for (const l of this.exitListeners) l(code);
  }
}

interface Setup {
  /** How each core started answers, in order (the last repeats). */
  openings?: Opening[];
  closeAfterMs?: number | null;
  /** The supervisor's shutdown itself never settles (a bug on the core's side). */
  shutdownHangs?: boolean;
  isPackaged?: boolean;
  deps?: Partial<LifecycleDeps<CoreSupervisor, FakeBrowserWindow>>;
}

function setup(opts: Setup = {}) {
  const appData = join(tmp.dir, `appdata-${n++}`);
  const app = new FakeRunningApp({ appData, isPackaged: opts.isPackaged ?? true });
  const dialog = new FakeDialog();
  const protocol = new FakeProtocol();
  const logged: { level: 'info' | 'warn' | 'error'; message: string; err?: unknown }[] = [];
  const log = {
    info: (message: string) => void logged.push({ level: 'info', message }),
    warn: (message: string, err?: unknown) => void logged.push({ level: 'warn', message, err }),
    error: (message: string, err?: unknown) => void logged.push({ level: 'error', message, err }),
  };
  const cores: { startOver: boolean; proc: ScriptedCoreProcess; supervisor: CoreSupervisor; shutdown: ReturnType<typeof vi.spyOn> }[] = [];
  const windows: FakeBrowserWindow[] = [];
  const opened: string[] = [];
  const used: CoreSupervisor[] = [];
  const openings = opts.openings ?? ['ready'];
  const deps: LifecycleDeps<CoreSupervisor, FakeBrowserWindow> = {
    app,
    dialog,
    protocol,
    log,
    rendererDir: join(appData, 'renderer'),
    contentSecurityPolicy: "default-src 'self'",
    prepare: () => void app.calls.push('prepare'),
    startCore: (startOver) => {
      app.calls.push(`startCore:${startOver}`);
      const proc = new ScriptedCoreProcess(openings[Math.min(cores.length, openings.length - 1)]!, opts.closeAfterMs === undefined ? 100 : opts.closeAfterMs);
      const supervisor = new CoreSupervisor({ spawn: () => proc, host: {} as HostHandlers, onEvent: () => {}, onCrash: () => {} });
      const shutdown = vi.spyOn(supervisor, 'shutdown');
      if (opts.shutdownHangs) shutdown.mockImplementation(() => new Promise(() => {}));
      cores.push({ startOver, proc, supervisor, shutdown });
      return supervisor;
    },
    useCore: (core) => void used.push(core),
    createWindow: () => {
      app.calls.push('createWindow');
      const w = new FakeBrowserWindow();
      windows.push(w);
      return w;
    },
    windowLoaded: () => void app.calls.push('windowLoaded'),
    openPath: async (path) => void opened.push(path),
    ...opts.deps,
  };
  return { app, dialog, protocol, logged, cores, windows, opened, used, deps, appData };
}

/** Let the fake timers run `ms` and every promise settle. */
const pass = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a start-up that works', () => {
  it('on ready: prepare, the app:// handler, the core; once its cache is open, the calls, then the window; the launch sync after the page loads', async () => {
    const t = setup();
    mkdirSync(t.deps.rendererDir, { recursive: true });
    writeFileSync(join(t.deps.rendererDir, 'index.html'), '<!doctype html><title>w</title>');
    const life = runLifecycle(t.deps);
    await expect(life.started).resolves.toBe(true);
    expect(t.app.calls.filter((c) => !c.startsWith('get'))).toEqual(['whenReady', 'prepare', 'startCore:false', 'createWindow']);
    expect(t.used).toEqual([t.cores[0]!.supervisor]);
    expect(life.window()).toBe(t.windows[0]);
    expect(t.app.exits).toEqual([]);
    expect(t.dialog.errorBoxes).toEqual([]);

    // app:// serves the built renderer with the policy as a header.
    const res = await t.protocol.handlers.get('app')!(new Request('app://renderer/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");

    expect(t.cores[0]!.proc.posted).toEqual([]);
    t.windows[0]!.finishLoad();
    expect(t.app.calls.at(-1)).toBe('windowLoaded');
    expect(t.cores[0]!.proc.posted).toEqual([{ type: 'launch' }]);
  });

  it('a second instance brings the window forward (restored if minimised)', async () => {
    const t = setup();
    const life = runLifecycle(t.deps);
    t.app.secondInstance(); // before there is a window: nothing to do, no throw
    await life.started;
    const w = t.windows[0]!;
    w.minimized = true;
    t.app.secondInstance();
    expect(w.minimized).toBe(false);
    expect(w.focused).toBe(1);
  });
});

describe('a start-up that fails: logged, a plain-words dialog, exit(1), nothing left running', () => {
  const KEY = 'sk_live_' + 'Q7'.repeat(16);

  it('the window cannot be created: the error dialog, the core closed, exit(1) once, and no window', async () => {
    const t = setup({
      deps: {
        createWindow: () => {
          throw new Error(`the GPU process could not start (${KEY})`);
        },
      },
    });
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.dialog.errorBoxes).toHaveLength(1);
    const box = t.dialog.errorBoxes[0]!;
    expect(box.title).toBe('Outreach Workbench could not start');
    expect(box.content).toMatch(/^Something went wrong while the app was starting, so it has to close\./);
    expect(box.content).toContain('the GPU process could not start');
    expect(box.content).not.toContain(KEY);
    expect(t.logged.some((l) => l.level === 'error' && l.message === 'the app could not start')).toBe(true);
    // No lingering: the core was asked to close and has exited.
    const core = t.cores[0]!;
    expect(core.shutdown).toHaveBeenCalledTimes(1);
    expect(core.shutdown).toHaveBeenCalledWith(FAILED_START_SHUTDOWN_MS);
    expect(core.proc.exited).toBe(true);
    expect(life.window()).toBeNull();
    // Nothing more happens afterwards: a quit or a second instance does not exit again.
    t.app.quit();
    t.app.secondInstance();
    await pass(10_000);
    expect(t.app.exits).toEqual([1]);
  });

  it('the failure is written to the real log without the key', async () => {
    const t = setup({
      deps: {
        createWindow: () => {
          throw new Error(`bad ${KEY}`);
        },
      },
    });
    const log = createLog({ dir: join(t.appData, 'logs') });
    const life = runLifecycle({ ...t.deps, log });
    await pass(FAILED_START_SHUTDOWN_MS);
    await life.started;
    const text = readFileSync(log.file, 'utf8');
    expect(text).toContain('the app could not start');
    expect(text).toContain('bad sk_live_[redacted]');
    expect(text).not.toContain(KEY.slice(8));
    expect(t.dialog.errorBoxes[0]!.content).toContain(`The log has the details: ${log.file}`);
  });

  it.each([
    [
      'protocol.handle throws',
      {
        protocol: {
          handle: () => {
            throw new Error('scheme already handled');
          },
        },
      },
      0,
    ],
    [
      'the core cannot be forked',
      {
        startCore: () => {
          throw new Error('no such module: core.js');
        },
      },
      0,
    ],
    [
      'prepare (session, menu) throws',
      {
        prepare: () => {
          throw new Error('menu');
        },
      },
      0,
    ],
    [
      'connecting the calls throws',
      {
        useCore: () => {
          throw new Error('ipcMain.handle: second handler');
        },
      },
      1,
    ],
  ] as const)('%s: the error dialog and exit(1), no window', async (_name, deps, coresStarted) => {
    const t = setup({ deps: deps as Partial<LifecycleDeps<CoreSupervisor, FakeBrowserWindow>> });
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.dialog.errorBoxes.map((b) => b.title)).toEqual(['Outreach Workbench could not start']);
    expect(t.windows).toEqual([]);
    expect(t.cores).toHaveLength(coresStarted);
    for (const c of t.cores) expect(c.proc.exited).toBe(true);
  });

  it('the error dialog itself throws: exit(1) all the same', async () => {
    const t = setup({
      deps: {
        createWindow: () => {
          throw new Error('no window');
        },
      },
    });
    t.dialog.showErrorBox = () => {
      throw new Error('no display');
    };
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.logged.map((l) => l.message)).toContain('telling the user that the app could not start failed');
  });

  it('the core never says it is ready: after 30 s a failure, the core stopped, exit(1), no window', async () => {
    const t = setup({ openings: ['silent'], closeAfterMs: null });
    const life = runLifecycle(t.deps);
    await pass(CORE_READY_TIMEOUT_MS - 1);
    expect(t.app.exits).toEqual([]);
    expect(t.dialog.errorBoxes).toEqual([]);
    await pass(1);
    // The core does not answer its shutdown either: it is killed after the bounded wait.
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.dialog.errorBoxes[0]!.content).toContain("The workbench's engine did not finish starting within 30 seconds.");
    expect(t.cores[0]!.proc.killed).toBe(true);
    expect(t.windows).toEqual([]);
  });

  it('a shutdown that never settles does not hold the exit: exit(1) comes after the bounded wait plus a 2 s backstop', async () => {
    const t = setup({
      shutdownHangs: true,
      deps: {
        createWindow: () => {
          throw new Error('no window');
        },
      },
    });
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS + 2_000 - 1);
    expect(t.app.exits).toEqual([]);
    await pass(1);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.dialog.errorBoxes).toHaveLength(1);
  });
});

describe('the cache cannot open', () => {
  const locked: CoreFailure = { kind: 'cache-locked', message: 'database is locked', path: '/data/workbench.db' };
  const corrupt: CoreFailure = { kind: 'cache-damaged', message: 'file is not a database', path: '/data/workbench.db' };

  it('Quit: the dialog in plain words, the core closed, exit(1), no window', async () => {
    const t = setup({ openings: [locked] });
    t.dialog.pressButton(/^Quit$/);
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.dialog.messageBoxes).toHaveLength(1);
    expect(t.dialog.messageBoxes[0]).toMatchObject({
      type: 'error',
      title: 'Outreach Workbench cannot open its cache',
      message: 'The cache is in use by another program.',
      noLink: true,
    });
    expect(t.dialog.messageBoxes[0]!.buttons).not.toContain('Start over (keep the old file)');
    expect(t.app.exits).toEqual([1]);
    expect(t.windows).toEqual([]);
    expect(t.used).toEqual([]);
    expect(t.cores[0]!.proc.exited).toBe(true);
  });

  it('Esc (the cancel button) quits the same way', async () => {
    const t = setup({ openings: [corrupt] });
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await life.started;
    expect(t.app.exits).toEqual([1]);
    expect(t.windows).toEqual([]);
  });

  it('Open the data folder: the folder opened, then exit(1), no window', async () => {
    const t = setup({ openings: [locked] });
    t.dialog.pressButton(/^Open the data folder$/);
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await life.started;
    expect(t.opened).toEqual([t.app.getPath('userData')]);
    expect(t.app.exits).toEqual([1]);
    expect(t.windows).toEqual([]);
  });

  it('Start over: a fresh core with startOver, and the window once it is ready', async () => {
    const t = setup({ openings: [corrupt, 'ready'] });
    t.dialog.pressButton(/^Start over/);
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(true);
    expect(t.cores.map((c) => c.startOver)).toEqual([false, true]);
    expect(t.cores[0]!.proc.exited).toBe(true);
    expect(t.used).toEqual([t.cores[1]!.supervisor]);
    expect(t.windows).toHaveLength(1);
    expect(t.app.exits).toEqual([]);
  });

  it('the installation is damaged (the database module cannot load): no start over, the cache left alone, the reason logged, exit(1)', async () => {
    const damaged: CoreFailure = {
      kind: 'installation-damaged',
      message:
        "Outreach Workbench's installation is damaged: its database module (better-sqlite3, /opt/wb/resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node (built for ABI 115)) could not load in Electron 45.4.1, which loads native modules of ABI 150.",
      path: '/data/workbench.db',
    };
    const t = setup({ openings: [damaged] });
    t.dialog.press = (o) => o.defaultId; // Enter
    const life = runLifecycle(t.deps);
    await pass(FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    const box = t.dialog.messageBoxes[0]!;
    expect(box.message).toBe('Outreach Workbench’s installation is damaged.');
    expect(box.buttons).toEqual(['Open the data folder', 'Quit']);
    expect(t.cores.map((c) => c.startOver)).toEqual([false]); // never a second core moving the cache aside
    expect(t.app.exits).toEqual([1]);
    expect(t.logged).toContainEqual({ level: 'error', message: `the cache could not open (installation-damaged): ${damaged.message}`, err: undefined });
  });

  it('Start over fails again: said so, exit(1), no window', async () => {
    const t = setup({ openings: [corrupt, corrupt] });
    t.dialog.pressButton(/^Start over/);
    const life = runLifecycle(t.deps);
    await pass(2 * FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.dialog.errorBoxes).toEqual([{ title: 'The cache still could not be opened', content: 'file is not a database' }]);
    expect(t.app.exits).toEqual([1]);
    expect(t.windows).toEqual([]);
    expect(t.cores.every((c) => c.proc.exited)).toBe(true);
  });
});

describe('quitting', () => {
  it('during work: the quit waits for the core to close (3 s at most), then exit(0) once; a second quit does not close it again', async () => {
    const t = setup({ closeAfterMs: 1_500 });
    const life = runLifecycle(t.deps);
    await life.started;
    const core = t.cores[0]!;
    const work = core.supervisor.call('sync:start', {}); // a call the core is still working on

    t.app.quit();
    expect(t.app.calls).not.toContain('quit:proceeds'); // prevented: the core closes first
    expect(core.shutdown).toHaveBeenCalledTimes(1);
    expect(core.shutdown).toHaveBeenCalledWith(QUIT_SHUTDOWN_MS);
    expect(core.proc.posted.at(-1)).toEqual({ type: 'shutdown' });

    await pass(1_000);
    t.app.quit(); // impatient: quit again
    expect(t.app.calls.filter((c) => c === 'quit:proceeds')).toEqual([]);
    expect(core.shutdown).toHaveBeenCalledTimes(1);
    expect(t.app.exits).toEqual([]);

    await pass(500);
    expect(t.app.exits).toEqual([0]);
    // The pending call did not hang: it answers with a plain-words error.
    await expect(work).resolves.toMatchObject({ ok: false, error: { kind: 'core-stopped' } });
    t.app.quit();
    await pass(10_000);
    expect(t.app.exits).toEqual([0]);
    expect(t.dialog.errorBoxes).toEqual([]);
  });

  it('a core that does not close is stopped at 3 s, logged, and the app exits(0) then, not before', async () => {
    const t = setup({ closeAfterMs: null });
    const life = runLifecycle(t.deps);
    await life.started;
    t.app.allWindowsClosed(); // the last window closed: quit
    expect(t.app.calls).toContain('quit');
    await pass(QUIT_SHUTDOWN_MS - 1);
    expect(t.app.exits).toEqual([]);
    await pass(1);
    expect(t.app.exits).toEqual([0]);
    expect(t.cores[0]!.proc.killed).toBe(true);
    expect(t.logged).toContainEqual({ level: 'warn', message: 'the core process did not close within 3000 ms and was stopped', err: undefined });
  });

  it('a shutdown that never settles: exit(0) anyway, 2 s past the 3 s wait', async () => {
    const t = setup({ shutdownHangs: true });
    const life = runLifecycle(t.deps);
    await life.started;
    t.app.quit();
    await pass(QUIT_SHUTDOWN_MS + 2_000 - 1);
    expect(t.app.exits).toEqual([]);
    await pass(1);
    expect(t.app.exits).toEqual([0]);
  });

  it('while the core is still opening its cache: the core is closed, exit(0), and no window or error dialog follows', async () => {
    const t = setup({ openings: ['silent'] });
    const life = runLifecycle(t.deps);
    await pass(0);
    expect(t.cores).toHaveLength(1);
    t.app.quit();
    await pass(CORE_READY_TIMEOUT_MS + 5_000);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([0]);
    expect(t.windows).toEqual([]);
    expect(t.dialog.errorBoxes).toEqual([]);
    expect(t.cores[0]!.proc.exited).toBe(true);
  });

  it('while the cache-failure dialog is open: the core closed, exit(0) once, nothing started after the dialog', async () => {
    const t = setup({ openings: [{ kind: 'cache-damaged', message: 'file is not a database' }] });
    let answer!: (r: { response: number; checkboxChecked: boolean }) => void;
    t.dialog.showMessageBox = async (o) => (t.dialog.messageBoxes.push(o), new Promise((r) => (answer = r)));
    const life = runLifecycle(t.deps);
    await pass(0);
    expect(t.dialog.messageBoxes).toHaveLength(1);
    t.app.quit();
    await pass(200);
    expect(t.app.exits).toEqual([0]);
    answer({ response: 0, checkboxChecked: false }); // then "Start over" is pressed
    await pass(CORE_READY_TIMEOUT_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([0]);
    expect(t.cores).toHaveLength(1);
    expect(t.cores[0]!.shutdown).toHaveBeenCalledTimes(1);
    expect(t.windows).toEqual([]);
  });

  it('before ready (no core yet): the quit goes on, and nothing starts afterwards', async () => {
    const t = setup();
    const app = new FakeRunningApp({ appData: join(tmp.dir, `appdata-${n++}`), ready: false });
    const life = runLifecycle({ ...t.deps, app });
    app.quit();
    expect(app.calls).toContain('quit:proceeds');
    app.becomeReady();
    await expect(life.started).resolves.toBe(false);
    expect(t.cores).toEqual([]);
    expect(t.windows).toEqual([]);
  });
});

describe('a long upgrade of the cache at start-up', () => {
  const migrating = (version: number): FromCore => ({
    type: 'progress',
    progress: { step: 'migrating', message: `Upgrading the cache to version ${version}…` },
  });

  it('the core says it is migrating: main waits past 30 s, as long as each step ends within its own limit, then opens the window', async () => {
    const t = setup({ openings: ['silent'] });
    const life = runLifecycle(t.deps);
    await pass(CORE_READY_TIMEOUT_MS - 1_000);
    const proc = t.cores[0]!.proc;
    proc.send(migrating(4)); // a step begins: the limit is now the step's
    await pass(CORE_STEP_TIMEOUT_MS - 1_000);
    proc.send(migrating(5));
    await pass(CORE_STEP_TIMEOUT_MS - 1_000);
    expect(t.app.exits).toEqual([]);
    expect(t.dialog.errorBoxes).toEqual([]);
    proc.send({ type: 'ready' });
    await expect(life.started).resolves.toBe(true);
    expect(t.windows).toHaveLength(1);
    expect(t.logged.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      'opening the cache: Upgrading the cache to version 4…',
      'opening the cache: Upgrading the cache to version 5…',
    ]);
  });

  it('a step that never ends fails start-up after its own limit, naming the step', async () => {
    const t = setup({ openings: ['silent'], closeAfterMs: null });
    const life = runLifecycle(t.deps);
    await pass(1_000);
    t.cores[0]!.proc.send(migrating(4));
    await pass(CORE_STEP_TIMEOUT_MS - 1);
    expect(t.app.exits).toEqual([]);
    await pass(1 + FAILED_START_SHUTDOWN_MS);
    await expect(life.started).resolves.toBe(false);
    expect(t.app.exits).toEqual([1]);
    expect(t.dialog.errorBoxes[0]!.content).toContain('did not finish a step of opening the cache within 15 minutes (Upgrading the cache to version 4…)');
  });
});

describe('quitting into an update', () => {
  it('after the core closed cleanly, whoever takes over the quit (the update installing) gets it; its own quit then goes through', async () => {
    const outcomes: string[] = [];
    const t = setup({ deps: { afterQuitClose: (how) => (outcomes.push(how), true) } });
    const life = runLifecycle(t.deps);
    await life.started;
    t.app.quit();
    await pass(200);
    expect(outcomes).toEqual(['closed']);
    expect(t.app.exits).toEqual([]); // not exit(0): the installer quits the app itself
    t.app.quit(); // electron-updater's quitAndInstall calls app.quit()
    expect(t.app.calls.filter((c) => c === 'quit:proceeds')).toHaveLength(1);
  });

  it('a core that had to be stopped is reported as killed; declining the hand-over exits(0) as usual', async () => {
    const outcomes: string[] = [];
    const t = setup({ closeAfterMs: null, deps: { afterQuitClose: (how) => (outcomes.push(how), false) } });
    const life = runLifecycle(t.deps);
    await life.started;
    t.app.quit();
    await pass(QUIT_SHUTDOWN_MS);
    expect(outcomes).toEqual(['killed']);
    expect(t.app.exits).toEqual([0]);
  });
});

describe('macOS: the app stays in the Dock with no window', () => {
  it('closing the last window does not quit; activate opens the window again, on the same core, without a second launch sync', async () => {
    const t = setup({ deps: { stayWithoutWindows: true } });
    const life = runLifecycle(t.deps);
    await life.started;
    t.windows[0]!.finishLoad();
    t.app.activate(true); // a window is there: nothing to do
    expect(t.windows).toHaveLength(1);
    t.windows[0]!.destroyed = true;
    t.app.allWindowsClosed();
    expect(t.app.calls).not.toContain('quit');
    t.app.activate();
    expect(t.windows).toHaveLength(2);
    expect(life.window()).toBe(t.windows[1]);
    t.windows[1]!.finishLoad();
    expect(t.cores).toHaveLength(1);
    expect(t.cores[0]!.proc.posted.filter((m) => m.type === 'launch')).toHaveLength(1);
  });

  it('a reminder clicked with the window closed opens it again, and shows the Due view once its page is ready', async () => {
    const t = setup({ deps: { stayWithoutWindows: true } });
    const life = runLifecycle(t.deps);
    await life.started;
    t.windows[0]!.finishLoad();
    t.windows[0]!.destroyed = true;
    t.app.allWindowsClosed();
    const shown: FakeBrowserWindow[] = [];
    expect(life.showWindow((w) => void shown.push(w))).toBe(true);
    expect(t.windows).toHaveLength(2);
    expect(shown).toEqual([]); // not before its page can receive the event
    t.windows[1]!.finishLoad();
    expect(shown).toEqual([t.windows[1]]);
    expect(t.cores[0]!.proc.posted.filter((m) => m.type === 'launch')).toHaveLength(1);
  });

  it('with the window open, it is brought forward (restored if minimised) and shown at once', async () => {
    const t = setup();
    const life = runLifecycle(t.deps);
    expect(life.showWindow()).toBe(false); // before the cache is open: nothing to show
    await life.started;
    const w = t.windows[0]!;
    w.minimized = true;
    const shown: FakeBrowserWindow[] = [];
    expect(life.showWindow((x) => void shown.push(x))).toBe(true);
    expect(w).toMatchObject({ minimized: false, focused: 1 });
    expect(shown).toEqual([w]);
    expect(t.windows).toHaveLength(1);
    t.app.quit();
    w.destroyed = true;
    expect(life.showWindow()).toBe(false); // quitting: no window opened again
    expect(t.windows).toHaveLength(1);
  });

  it('elsewhere, closing the last window quits', async () => {
    const t = setup();
    await runLifecycle(t.deps).started;
    t.app.allWindowsClosed();
    expect(t.app.calls).toContain('quit');
  });
});

describe('the dev server URL', () => {
  const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
  it('a packaged app ignores ELECTRON_RENDERER_URL and loads app://', () => {
    expect(devServerUrl({ isPackaged: true }, env)).toBeUndefined();
  });
  it('in development it is the dev server; unset or empty, none', () => {
    expect(devServerUrl({ isPackaged: false }, env)).toBe('http://localhost:5173');
    expect(devServerUrl({ isPackaged: false }, {})).toBeUndefined();
    expect(devServerUrl({ isPackaged: false }, { ELECTRON_RENDERER_URL: '' })).toBeUndefined();
  });
});
