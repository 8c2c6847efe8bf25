// Windows shutting down or logging off closes the cache cleanly and takes the quit-time backup: the
// window's 'query-session-end' (session-end.ts) starts main's quit (lifecycle.ts), which closes the real
// core process (in its own Node process, behind the real protocol), which writes the backup of the
// person's record and closes the cache; then the app exits once.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreSupervisor, type CoreInit, type HostHandlers } from '../../../shared/core-link';
import { runLifecycle } from '../../../electron/main/lifecycle';
import { quitWhenSessionEnds } from '../../../electron/main/session-end';
import { forkNodeCore } from '../../host/core-process';
import { FakeBrowserWindow, FakeDialog, FakeProtocol, FakeRunningApp } from '../../support/fake-electron';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const host = {} as HostHandlers;

describe('the session ends while the app runs', () => {
  it('Windows logs off: the core closes the cache cleanly, the quit backup of the record is written, and the app exits(0) once', async () => {
    const app = new FakeRunningApp({ appData: join(tmp.dir, 'appdata') });
    const userData = app.getPath('userData');
    const init: CoreInit = { userDataDir: userData, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'win32', demo: false };
    let core!: CoreSupervisor;
    let window!: FakeBrowserWindow;
    const life = runLifecycle({
      app,
      dialog: new FakeDialog(),
      protocol: new FakeProtocol(),
      log: { warn: () => {}, error: () => {} },
      rendererDir: join(tmp.dir, 'renderer'),
      contentSecurityPolicy: "default-src 'none'",
      prepare: () => {},
      startCore: () => (core = new CoreSupervisor({ spawn: () => forkNodeCore(init), host, onEvent: () => {}, onCrash: () => {} })),
      useCore: () => {},
      createWindow: () => {
        window = new FakeBrowserWindow();
        quitWhenSessionEnds({ window, quit: () => app.quit(), log: { warn: () => {} } });
        return window;
      },
      openPath: async () => {},
    });
    await expect(life.started).resolves.toBe(true);
    // Something of the person's own since the last backup: a do-not-contact entry.
    expect(await core.call('dnc:add', [{ value: 'press@example.org' }])).toMatchObject({ ok: true });

    let held = false;
    window.emit('query-session-end', { preventDefault: () => void (held = true), reasons: ['logoff'] });
    expect(held).toBe(true);
    await expect.poll(() => app.exits, { timeout: 10_000 }).toEqual([0]);

    const backups = readdirSync(join(userData, 'backups')).filter((f) => f.endsWith('.meta.json'));
    expect(backups).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(userData, 'backups', backups[0]!), 'utf8'))).toMatchObject({ reason: 'quit', counts: expect.anything() });
    // A clean close: no open marker left beside the cache, so the next launch skips the integrity check.
    expect(readdirSync(userData).filter((f) => f.includes('.open-'))).toEqual([]);
    expect(existsSync(join(userData, 'workbench.db'))).toBe(true);
  }, 30_000);
});
