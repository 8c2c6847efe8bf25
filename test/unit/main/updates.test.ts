// Updates (electron/main/updates.ts): when the app looks for a new version, what it offers, and when it
// may install. The feed is served on loopback and read by electron-updater's own generic provider (the
// code the app's autoUpdater uses to fetch and parse latest*.yml), with electron-builder's Node HTTP
// executor standing in for Electron's net; the decisions run on what it reads. Fake timers, a fresh
// set-up per test.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { CHECK_EVERY_MS, FIRST_CHECK_AFTER_MS, HAND_OVER_MS, judgeFeed, MAC_HAND_OVER_MS, Updates, type UpdaterLike } from '../../../electron/main/updates';

const require = createRequire(import.meta.url);
const { GenericProvider } = require('electron-updater/out/providers/GenericProvider.js') as {
  GenericProvider: new (
    config: { provider: 'generic'; url: string },
    updater: { channel: string | null; isAddNoCacheQuery: boolean },
    runtime: { isUseMultipleRangeRequest: boolean; platform: NodeJS.Platform; executor: unknown },
  ) => { getLatestVersion(): Promise<{ version: string }> };
};
const { NodeHttpExecutor } = require('builder-util/out/nodeHttpExecutor.js') as { NodeHttpExecutor: new () => unknown };

const CURRENT = '1.4.2';

// ---- the feed, on loopback ----------------------------------------------------------------------

let feed = '';
let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/latest-linux.yml')) res.writeHead(200, { 'content-type': 'text/yaml' }).end(feed);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** latest-linux.yml as electron-builder writes it. */
const latestYml = (version: string) =>
  `version: ${version}\nfiles:\n  - url: outreach-workbench-${version}-linux-x86_64.AppImage\n    sha512: AAAA\n    size: 1234\npath: outreach-workbench-${version}-linux-x86_64.AppImage\nsha512: AAAA\nreleaseDate: '2026-11-24T10:00:00.000Z'\n`;

/** An updater whose check reads the loopback feed with electron-updater's own provider; downloads and installs are recorded. */
function feedUpdater() {
  const provider = new GenericProvider(
    { provider: 'generic', url: baseUrl },
    { channel: null, isAddNoCacheQuery: false },
    { isUseMultipleRangeRequest: false, platform: 'linux', executor: new NodeHttpExecutor() },
  );
  const calls: string[] = [];
  const events = new EventEmitter();
  const updater: UpdaterLike & { emit(event: 'error', e: Error): boolean } = {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    autoRunAppAfterInstall: true, // electron-updater's default
    checkForUpdates: async () => {
      calls.push('check');
      return { updateInfo: await provider.getLatestVersion() };
    },
    downloadUpdate: async () => void calls.push('download'),
    quitAndInstall: (silent, relaunch) => {
      // What macOS's updater goes by (it ignores both arguments), as it stands when the install starts.
      calls.push(`autoRunAppAfterInstall=${updater.autoRunAppAfterInstall}`);
      calls.push(`install:silent=${silent}:relaunch=${relaunch}`);
    },
    on: (event, listener) => events.on(event, listener),
    emit: (event, e) => events.emit(event, e),
  };
  return { updater, calls };
}

function setup(opts: { enabled?: boolean; choice?: 'restart' | 'later'; platform?: NodeJS.Platform } = {}) {
  const { updater, calls } = feedUpdater();
  const offers: string[] = [];
  const logged: string[] = [];
  let quits = 0;
  let exits = 0;
  let enabled = opts.enabled ?? true;
  const updates = new Updates({
    updater,
    currentVersion: CURRENT,
    enabled: async () => enabled,
    offer: async (version) => (offers.push(version), opts.choice ?? 'later'),
    quit: () => void quits++,
    exit: () => void exits++,
    platform: opts.platform ?? 'linux',
    log: { info: (m) => void logged.push(m), warn: (m) => void logged.push(`warn: ${m}`), error: (m) => void logged.push(`error: ${m}`) },
  });
  return { updates, updater, calls, offers, logged, quits: () => quits, exits: () => exits, setEnabled: (v: boolean) => (enabled = v) };
}

describe('what the feed offers (latest-linux.yml served on loopback, read by electron-updater)', () => {
  it.each([
    ['a newer version', '1.5.0', { kind: 'newer', version: '1.5.0' }],
    ['a newer patch', '1.4.3', { kind: 'newer', version: '1.4.3' }],
    ['the same version', '1.4.2', { kind: 'same' }],
    ['an older version', '1.3.9', { kind: 'older', version: '1.3.9' }],
    ['a pre-release of this version (older than the release)', '1.4.2-beta.1', { kind: 'older', version: '1.4.2-beta.1' }],
  ])('%s: %s', async (_what, version, verdict) => {
    feed = latestYml(version);
    const t = setup();
    expect(await t.updates.check()).toEqual(verdict);
    expect(t.calls).toEqual(verdict.kind === 'newer' ? ['check', 'download'] : ['check']);
    expect(t.updates.downloaded).toBe(verdict.kind === 'newer' ? version : null);
  });

  it.each([
    ['a version that is not one', latestYml('next-week')],
    ['no version at all', 'files: []\npath: x\n'],
    ['YAML that does not parse', 'version: [1.5.0\n  files: {'],
  ])('%s: nothing offered or downloaded, and the log says why', async (_what, text) => {
    feed = text;
    const t = setup();
    expect(await t.updates.check()).toMatchObject({ kind: 'malformed' });
    expect(t.calls).toEqual(['check']);
    expect(t.offers).toEqual([]);
    expect(t.logged.some((l) => l.startsWith('warn: updates: the feed could not be read, nothing offered'))).toBe(true);
  });
});

describe('the version order', () => {
  it('is semantic versioning’s: numbers by value, a release after its pre-releases', () => {
    expect(judgeFeed('1.9.0', '1.10.0')).toEqual({ kind: 'newer', version: '1.10.0' });
    expect(judgeFeed('2.0.0-rc.2', '2.0.0-rc.10')).toEqual({ kind: 'newer', version: '2.0.0-rc.10' });
    expect(judgeFeed('2.0.0-rc.1', '2.0.0')).toEqual({ kind: 'newer', version: '2.0.0' });
    expect(judgeFeed('2.0.0', 'v2.0.0+build.7')).toEqual({ kind: 'same' });
    expect(judgeFeed('2.0.0', '01.0.0')).toMatchObject({ kind: 'malformed' });
  });
});

describe('when it looks', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a minute after the window is up, then every 4 hours; never while the setting is off', async () => {
    feed = latestYml(CURRENT);
    const t = setup();
    t.updates.start();
    await vi.advanceTimersByTimeAsync(FIRST_CHECK_AFTER_MS - 1);
    expect(t.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(t.calls).toEqual(['check']));
    t.setEnabled(false);
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(t.calls).toEqual(['check']);
    t.setEnabled(true);
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    await vi.waitFor(() => expect(t.calls).toEqual(['check', 'check']));
    t.updates.stop();
  });
});

describe('when it may install', () => {
  it('Later: nothing now; at the next quit whose core closed the cache cleanly, a quiet install without a relaunch', async () => {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'later' });
    await t.updates.check();
    expect(t.offers).toEqual(['1.5.0']);
    expect(t.quits()).toBe(0);
    expect(t.updates.afterQuitClose('closed')).toBe(true);
    expect(t.calls.at(-1)).toBe('install:silent=true:relaunch=false');
  });

  it('a quit whose core had to be stopped (a write may have been cut) installs nothing; the update waits', async () => {
    feed = latestYml('1.5.0');
    const t = setup();
    await t.updates.check();
    for (const how of ['killed', 'failed'] as const) expect(t.updates.afterQuitClose(how)).toBe(false);
    expect(t.calls.some((c) => c.startsWith('install'))).toBe(false);
  });

  it('Restart to update with nothing running: the app quits (the core closes the cache), then installs and starts again', async () => {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'restart' });
    await t.updates.check();
    await vi.waitFor(() => expect(t.quits()).toBe(1));
    expect(t.updates.afterQuitClose('closed')).toBe(true);
    expect(t.calls.at(-1)).toBe('install:silent=true:relaunch=true');
  });

  it('Restart to update during a sync and an export: the quit waits until both are done', async () => {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'restart' });
    t.updates.onAppEvent('sync:event', { jobId: 'sync-1', event: { kind: 'page' } });
    t.updates.onAppEvent('export:progress', { jobId: 'export-1', rows: 10, bytes: 100 });
    await t.updates.check();
    await vi.waitFor(() => expect(t.offers).toEqual(['1.5.0']));
    await Promise.resolve();
    expect(t.quits()).toBe(0);
    t.updates.onAppEvent('sync:done', { jobId: 'sync-1', summary: {} });
    expect(t.quits()).toBe(0);
    t.updates.onAppEvent('export:done', { jobId: 'export-1', result: null, error: null });
    expect(t.quits()).toBe(1);
  });

  it('no update downloaded: a quit is left to exit as usual', () => {
    const t = setup();
    expect(t.updates.afterQuitClose('closed')).toBe(false);
  });

  it('Later, then a quit: no relaunch on any platform, macOS included (its updater reads autoRunAppAfterInstall, not the arguments)', async () => {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'later', platform: 'darwin' });
    await t.updates.check();
    expect(t.updater.autoRunAppAfterInstall).toBe(true); // electron-updater's default, until an install starts
    expect(t.updates.afterQuitClose('closed')).toBe(true);
    expect(t.calls.slice(-2)).toEqual(['autoRunAppAfterInstall=false', 'install:silent=true:relaunch=false']);
  });

  it('Restart to update: the app starts again, whatever the platform reads', async () => {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'restart', platform: 'darwin' });
    await t.updates.check();
    await vi.waitFor(() => expect(t.quits()).toBe(1));
    t.updates.afterQuitClose('closed');
    expect(t.calls.slice(-2)).toEqual(['autoRunAppAfterInstall=true', 'install:silent=true:relaunch=true']);
  });

  it('electron-updater is told not to download or install on its own (this module decides both)', () => {
    const t = setup();
    expect(t.updater.autoDownload).toBe(false);
    expect(t.updater.autoInstallOnAppQuit).toBe(false);
  });
});

describe('when the installer does not take over', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function handedOver(platform: NodeJS.Platform = 'linux') {
    feed = latestYml('1.5.0');
    const t = setup({ platform });
    await t.updates.check();
    expect(t.updates.afterQuitClose('closed')).toBe(true);
    return t;
  }

  it('the installer fails (electron-updater says so with its error event): the app exits at once, and says why in the log', async () => {
    const t = await handedOver();
    expect(t.exits()).toBe(0);
    t.updater.emit('error', new Error("No update filepath provided, can't quit and install"));
    expect(t.exits()).toBe(1);
    expect(t.logged).toContain(
      "error: updates: version 1.5.0 was not installed (the installer failed: No update filepath provided, can't quit and install); the app quits now and offers it again at the next start",
    );
    await vi.advanceTimersByTimeAsync(MAC_HAND_OVER_MS);
    expect(t.exits()).toBe(1); // once
  });

  it('the installer never quits the app (a cancelled password prompt, install() returning false): the app exits after 10 s', async () => {
    const t = await handedOver();
    await vi.advanceTimersByTimeAsync(HAND_OVER_MS - 1);
    expect(t.exits()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.exits()).toBe(1);
    expect(t.logged.at(-1)).toMatch(/was not installed \(the installer did not quit the app within 10 s\)/);
  });

  it('macOS: Squirrel first copies the update, so it has 2 minutes', async () => {
    const t = await handedOver('darwin');
    await vi.advanceTimersByTimeAsync(HAND_OVER_MS);
    expect(t.exits()).toBe(0);
    await vi.advanceTimersByTimeAsync(MAC_HAND_OVER_MS - HAND_OVER_MS);
    expect(t.exits()).toBe(1);
  });

  it('quitAndInstall throws: the app exits at once', async () => {
    feed = latestYml('1.5.0');
    const t = setup();
    await t.updates.check();
    t.updater.quitAndInstall = () => {
      throw new Error('spawn EACCES');
    };
    expect(t.updates.afterQuitClose('closed')).toBe(true);
    expect(t.exits()).toBe(1);
    expect(t.logged.at(-1)).toContain('the installer could not start: spawn EACCES');
  });

  it('an error before any install (a failed check) does not end the app', async () => {
    const t = setup();
    t.updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    expect(t.exits()).toBe(0);
  });
});

describe('jobs that hold a restart back', () => {
  async function restartAsked() {
    feed = latestYml('1.5.0');
    const t = setup({ choice: 'restart' });
    return t;
  }

  it('a job counts from the reply that started it, before its first event (an export writing its first rows)', async () => {
    const t = await restartAsked();
    t.updates.onCallResult('export:start', { ok: true, value: { jobId: 'export-1' } });
    t.updates.onCallResult('export:preview', { ok: true, value: { jobId: 'not-a-job' } });
    t.updates.onCallResult('sync:start', { ok: false, error: { kind: 'invalid-input', message: 'no key' } });
    expect(t.updates.busy).toBe(true);
    await t.updates.check();
    await vi.waitFor(() => expect(t.offers).toEqual(['1.5.0']));
    await Promise.resolve();
    expect(t.quits()).toBe(0);
    t.updates.onAppEvent('export:done', { jobId: 'export-1', result: null, error: null });
    expect(t.quits()).toBe(1);
  });

  it("a reply that comes after its job's last event does not count the job again", async () => {
    const t = await restartAsked();
    t.updates.onAppEvent('sync:event', { jobId: 'sync-9', event: { kind: 'page' } });
    t.updates.onAppEvent('sync:done', { jobId: 'sync-9', summary: {} });
    t.updates.onCallResult('sync:start', { ok: true, value: { jobId: 'sync-9' } });
    expect(t.updates.busy).toBe(false);
  });

  it('the core process crashes mid-sync (no sync:done will come): its jobs end with it, and the restart asked for goes ahead', async () => {
    const t = await restartAsked();
    t.updates.onAppEvent('sync:event', { jobId: 'sync-1', event: { kind: 'page' } });
    await t.updates.check();
    await vi.waitFor(() => expect(t.offers).toEqual(['1.5.0']));
    await Promise.resolve();
    expect(t.quits()).toBe(0);
    t.updates.onAppEvent('core:status', { state: 'restarted', message: 'the core process stopped and was started again' });
    expect(t.updates.busy).toBe(false);
    expect(t.quits()).toBe(1);
  });
});
