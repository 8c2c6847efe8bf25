// Main's start-up order (electron/main/startup.ts), against a fake `app` that
// records its calls and, like Electron, keeps one single-instance lock per
// user-data folder: demo mode moves the folder before the log and the lock,
// so it runs beside the real app; a refused switch or a second instance ends
// the process before any window, and a refused switch takes no lock.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startUp, type StartupOptions } from '../../../electron/main/startup';
import { FakeApp } from '../../support/fake-electron';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
const appData = () => join(tmp.dir, `appdata-${n++}`);

interface FakeLog {
  dir: string;
  errors: string[];
  error(message: string): void;
}

/** Start-up options that record, into the app's own call list, when the log opens and what is refused. */
function options(app: FakeApp, argv: string[], env: Record<string, string> = {}) {
  const refused: string[] = [];
  const made: string[] = [];
  const opts: StartupOptions<FakeLog> = {
    argv: ['/opt/workbench/workbench', ...argv],
    env,
    platform: 'linux',
    makeDir: (dir) => {
      app.calls.push('makeDir');
      made.push(dir);
      mkdirSync(dir, { recursive: true });
    },
    openLog: (dir) => {
      app.calls.push('openLog');
      const log: FakeLog = { dir, errors: [], error: (m) => void log.errors.push(m) };
      return log;
    },
    refuse: (name) => {
      app.calls.push('refuse');
      refused.push(name);
    },
  };
  return { opts, refused, made };
}

const before = (calls: string[], a: string, b: string) => {
  expect(calls, `${a} in ${calls.join(', ')}`).toContain(a);
  expect(calls, `${b} in ${calls.join(', ')}`).toContain(b);
  expect(calls.indexOf(a), `${a} before ${b}: ${calls.join(', ')}`).toBeLessThan(calls.indexOf(b));
};

describe('start-up order', () => {
  it('demo mode: its folder is created and set as userData before the log opens and before the single-instance lock', () => {
    const app = new FakeApp({ appData: appData() });
    const { opts, made } = options(app, ['--demo']);
    const started = startUp(app, opts);
    const demoDir = join(app.getPath('appData'), 'Outreach Workbench Demo');
    expect(started).toMatchObject({ demo: true, userDataDir: demoDir, log: { dir: demoDir } });
    expect(made).toEqual([demoDir]);
    before(app.calls, 'makeDir', 'setPath:userData');
    before(app.calls, 'setPath:userData', 'openLog');
    before(app.calls, 'setPath:userData', 'requestSingleInstanceLock');
    expect(app.calls).not.toContain('quit');
    expect(app.calls.some((c) => c.startsWith('exit'))).toBe(false);
  });

  it('WORKBENCH_DEMO=1 is demo mode too; without either, userData is left alone', () => {
    const demo = new FakeApp({ appData: appData() });
    expect(startUp(demo, options(demo, [], { WORKBENCH_DEMO: '1' }).opts)?.demo).toBe(true);
    const real = new FakeApp({ appData: appData() });
    const started = startUp(real, options(real, []).opts);
    expect(started).toMatchObject({ demo: false, userDataDir: join(real.getPath('appData'), 'Outreach Workbench') });
    expect(real.calls).not.toContain('setPath:userData');
  });

  it('the demo runs beside the real app (its own lock), and a second demo quits with no window', () => {
    const dir = appData();
    const locks = new Set<string>();
    const real = new FakeApp({ appData: dir, locks });
    expect(startUp(real, options(real, []).opts)).not.toBeNull();
    const demo = new FakeApp({ appData: dir, locks });
    expect(startUp(demo, options(demo, ['--demo']).opts)).not.toBeNull();
    expect(existsSync(join(dir, 'Outreach Workbench Demo'))).toBe(true);

    const second = new FakeApp({ appData: dir, locks });
    expect(startUp(second, options(second, ['--demo']).opts)).toBeNull();
    expect(second.calls.at(-1)).toBe('quit');
    before(second.calls, 'setPath:userData', 'requestSingleInstanceLock');
  });

  it('the lock not obtained: the app quits, and start-up returns nothing to open a window with', () => {
    const dir = appData();
    const locks = new Set([join(dir, 'Outreach Workbench')]);
    const app = new FakeApp({ appData: dir, locks });
    expect(startUp(app, options(app, []).opts)).toBeNull();
    expect(app.calls.slice(-2)).toEqual(['requestSingleInstanceLock', 'quit']);
  });
});

describe('a run from the repository (npm run dev, npm start: not packaged)', () => {
  it('has its own user-data folder (so its own cache, log and lock) and keychain entry, set before the log and the lock', () => {
    const app = new FakeApp({ appData: appData(), isPackaged: false });
    const started = startUp(app, options(app, []).opts);
    const devDir = join(app.getPath('appData'), 'Outreach Workbench Dev');
    expect(started).toMatchObject({ dev: true, demo: false, userDataDir: devDir, keychainService: 'Outreach Workbench Dev', log: { dir: devDir } });
    before(app.calls, 'setPath:userData', 'openLog');
    before(app.calls, 'setPath:userData', 'requestSingleInstanceLock');
  });

  it('runs while the installed app holds its lock, and never waits on it; its demo has a folder of its own too', () => {
    const dir = appData();
    const locks = new Set<string>();
    const installed = new FakeApp({ appData: dir, locks, isPackaged: true });
    expect(startUp(installed, options(installed, []).opts)).toMatchObject({ dev: false, keychainService: 'Outreach Workbench' });
    const dev = new FakeApp({ appData: dir, locks, isPackaged: false });
    expect(startUp(dev, options(dev, []).opts)).not.toBeNull();
    const devDemo = new FakeApp({ appData: dir, locks, isPackaged: false });
    expect(startUp(devDemo, options(devDemo, ['--demo']).opts)?.userDataDir).toBe(join(dir, 'Outreach Workbench Dev Demo'));
    expect([...locks].sort()).toEqual([join(dir, 'Outreach Workbench'), join(dir, 'Outreach Workbench Dev'), join(dir, 'Outreach Workbench Dev Demo')]);
  });
});

describe('switches the packaged app refuses, at start-up', () => {
  it("the AppImage's launcher added --no-sandbox (AppArmor forbids its sandbox): refused, the exit waiting for the dialog after 'ready'", async () => {
    const app = new FakeApp({ appData: appData(), isPackaged: true });
    const { opts, refused } = options(app, ['--no-sandbox'], { APPIMAGE: '/home/u/Outreach.AppImage' });
    let shown!: () => void;
    opts.refuse = (name) => {
      app.calls.push('refuse');
      refused.push(name);
      return new Promise<void>((r) => (shown = r));
    };
    expect(startUp(app, opts)).toBeNull();
    expect(refused).toEqual(['--no-sandbox']);
    expect(app.calls).not.toContain('exit:1'); // the dialog is still open
    expect(app.calls).not.toContain('requestSingleInstanceLock');
    shown();
    await Promise.resolve();
    await Promise.resolve();
    expect(app.calls.at(-1)).toBe('exit:1');
  });

  it.each([['--remote-debugging-port=9222'], ['--inspect'], ['--js-flags=--allow-natives-syntax']])(
    'packaged, %s: logged, refused in a dialog, exit(1), no lock taken',
    (arg) => {
      const app = new FakeApp({ appData: appData(), isPackaged: true });
      const { opts, refused } = options(app, [arg]);
      let log: FakeLog | undefined;
      const openLog = opts.openLog;
      opts.openLog = (d) => (log = openLog(d));
      expect(startUp(app, opts)).toBeNull();
      const name = arg.replace(/=.*$/, '');
      expect(refused).toEqual([name]);
      expect(log?.errors).toEqual([`refused to start with ${name}`]);
      expect(app.calls).not.toContain('requestSingleInstanceLock');
      expect(app.calls.slice(-2)).toEqual(['refuse', 'exit:1']);
      before(app.calls, 'openLog', 'refuse');
    },
  );

  it('in demo mode the refusal is logged in the demo folder', () => {
    const app = new FakeApp({ appData: appData(), isPackaged: true });
    const { opts } = options(app, ['--demo', '--inspect']);
    let dir = '';
    const openLog = opts.openLog;
    opts.openLog = (d) => ((dir = d), openLog(d));
    expect(startUp(app, opts)).toBeNull();
    expect(dir).toBe(join(app.getPath('appData'), 'Outreach Workbench Demo'));
  });

  it('not packaged (development), the same switches are allowed', () => {
    const app = new FakeApp({ appData: appData(), isPackaged: false });
    const { opts, refused } = options(app, ['--inspect', '--remote-debugging-port=9222']);
    expect(startUp(app, opts)).not.toBeNull();
    expect(refused).toEqual([]);
    expect(app.calls).toContain('requestSingleInstanceLock');
  });
});
