// The key goes only where it should: the API base URL set through the
// contract (settings:set) or found in settings.json is https://, or http:// to
// this computer; a new API origin is refused until the user has seen it, and
// the key is not sent to an origin the user never confirmed through the app,
// whatever wrote settings.json.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../../electron/core/app/service';
import { WorkbenchError } from '../../../shared/errors';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { SettingsFile } from '../../../electron/core/app/settings';
import type { Transport } from '../../../electron/core/seams';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

/**
 * The pipeline's settings as they start (shared/pipeline.ts's defaults, a 90-day contact window, no sender name yet),
 * and the desktop's: updates and follow-up reminders on, spelling by the system's own dictionaries (no download);
 * and nothing marked Won without the user.
 */
const PIPELINE_SETTINGS = {
  followUpAfterDays: 3,
  noReplyAfterDays: 7,
  contactWindowDays: 90,
  senderName: '',
  checkForUpdates: true,
  followUpReminders: true,
  spellcheck: 'system',
  autoMarkWon: false,
};

const DEFAULT = 'https://api.trakkr.ai';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function app(settingsJson?: unknown, opts: { fetch?: Transport; keychain?: FakeKeychain } = {}) {
  const tmp = tempDir();
  if (settingsJson !== undefined) writeFileSync(join(tmp.dir, 'settings.json'), JSON.stringify(settingsJson));
  const platform = new FakePlatform();
  const keychain = opts.keychain ?? new FakeKeychain();
  const s = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  cleanups.push(tmp.cleanup, () => s.close());
  const handlers = createHandlers(s, platform);
  const call = (method: string, ...args: unknown[]) => dispatch(handlers, method, args);
  const set = (patch: unknown) => call('settings:set', patch);
  const onDisk = () => JSON.parse(readFileSync(join(tmp.dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
  return { s, set, call, platform, onDisk, dir: tmp.dir };
}

/** A transport that records every request (URL and Authorization header) and answers get-brands. */
function recordingFetch() {
  const sent: { url: string; authorization: string | null }[] = [];
  const fetch: Transport = async (input, init) => {
    sent.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
    return new Response(JSON.stringify({ brands: [{ id: 'b1', name: 'Brand One', domain: 'one.example' }] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, sent };
}

describe('settings:set refuses an API address the key must not go to', () => {
  it('http:// to another computer, in plain words; nothing changes', async () => {
    const { s, set } = await app();
    const r = await set({ baseUrl: 'http://example.com' });
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: '0.baseUrl',
        message:
          'Refused settings:set: 0.baseUrl: http:// sends the key unencrypted, so it is allowed only for this computer (localhost, 127.x.x.x or [::1]), for the simulator. Use https://example.com instead.',
      },
    });
    expect(s.parts.settings.get().baseUrl).toBe(DEFAULT);
    expect((await s.parts.connection.client()).baseUrl).toBe(DEFAULT);
  });

  it.each([
    ['ftp://api.trakkr.ai', 'must start with https://'],
    ['https://user:pw@api.trakkr.ai', 'user name or password'],
    ['http://127.0.0.1.evil.com', 'allowed only for this computer'],
    ['http://localhost.evil.com', 'allowed only for this computer'],
    ['http://0x7f000001', 'plainly'],
    ['https://api.trakkr.ai/?key=x', 'query'],
    ['https://api.trakkr.ai.', 'dot at the end'],
  ])('%s', async (baseUrl, words) => {
    const { s, set } = await app();
    const r = await set({ baseUrl });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('invalid-input');
      expect(r.error.message).toContain(words);
      expect(r.error.message).not.toContain(':pw');
    }
    expect(s.parts.settings.get().baseUrl).toBe(DEFAULT);
  });
});

describe('a new API origin is shown to the user before the key is sent there', () => {
  it('refused without confirmation, with the origin named; accepted with it', async () => {
    const { s, set, onDisk } = await app();
    await set({ syncOnLaunch: false });
    const refused = await set({ baseUrl: 'https://other.example/api/' });
    expect(refused).toEqual({
      ok: false,
      error: {
        kind: 'confirm-origin',
        field: 'baseUrl',
        message: 'Your API key will be sent to https://other.example instead of https://api.trakkr.ai. Confirm to use it.',
      },
    });
    expect(s.parts.settings.get().baseUrl).toBe(DEFAULT);
    expect((await s.parts.connection.client()).baseUrl).toBe(DEFAULT);
    expect(onDisk().baseUrl).toBe(DEFAULT);

    // A confirmation for some other origin is no confirmation.
    expect(await set({ baseUrl: 'https://other.example/api/', confirmOrigin: 'https://evil.example' })).toMatchObject({
      ok: false,
      error: { kind: 'confirm-origin' },
    });
    expect(await set({ baseUrl: 'https://other.example/api/', confirmOrigin: 'https://other.example/api' })).toMatchObject({
      ok: false,
      error: { kind: 'confirm-origin' },
    });

    const ok = await set({ baseUrl: 'https://other.example/api/', confirmOrigin: 'https://other.example' });
    expect(ok).toEqual({ ok: true, value: { ...PIPELINE_SETTINGS, baseUrl: 'https://other.example/api', syncOnLaunch: false, requestsPerMinute: 60 } });
    expect((await s.parts.connection.client()).baseUrl).toBe('https://other.example/api');
    // The confirmed origin is recorded beside the settings; settings:get never shows it.
    expect(onDisk()).toEqual({
      ...PIPELINE_SETTINGS,
      baseUrl: 'https://other.example/api',
      syncOnLaunch: false,
      requestsPerMinute: 60,
      confirmedOrigin: 'https://other.example',
    });
    expect(s.parts.settings.get()).not.toHaveProperty('confirmedOrigin');

    // The same origin again (another path) needs no confirmation; a third origin does, naming the current one.
    expect(await set({ baseUrl: 'https://other.example/v2' })).toMatchObject({ ok: true });
    expect(await set({ baseUrl: 'https://third.example' })).toEqual({
      ok: false,
      error: {
        kind: 'confirm-origin',
        field: 'baseUrl',
        message: 'Your API key will be sent to https://third.example instead of https://other.example. Confirm to use it.',
      },
    });
    // Back to the default API, or to this computer (the simulator: the key stays on the machine), needs none.
    expect(await set({ baseUrl: DEFAULT })).toMatchObject({ ok: true, value: { baseUrl: DEFAULT } });
    expect(onDisk()).not.toHaveProperty('confirmedOrigin');
    expect(await set({ baseUrl: 'http://127.0.0.1:8787' })).toMatchObject({ ok: true, value: { baseUrl: 'http://127.0.0.1:8787' } });
    // Leaving an origin forgets its confirmation: going back needs a new one.
    expect(await set({ baseUrl: 'https://other.example/api' })).toMatchObject({ ok: false, error: { kind: 'confirm-origin' } });
  });

  it('confirmOrigin is never saved, and is text only', async () => {
    const { set, onDisk } = await app();
    await set({ baseUrl: 'https://other.example', confirmOrigin: 'https://other.example' });
    expect(onDisk()).not.toHaveProperty('confirmOrigin');
    expect(await set({ confirmOrigin: 42 })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it('SettingsFile.set throws a WorkbenchError of kind confirm-origin', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const f = new SettingsFile(join(tmp.dir, 'settings.json'));
    let thrown: unknown;
    try {
      f.set({ baseUrl: 'https://x.example' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(WorkbenchError);
    expect(thrown).toMatchObject({
      kind: 'confirm-origin',
      message: 'Your API key will be sent to https://x.example instead of https://api.trakkr.ai. Confirm to use it.',
    });
    expect(() => f.set({ baseUrl: 'http://example.com', confirmOrigin: 'http://example.com' })).toThrow(/allowed only for this computer/);
    expect(f.get().baseUrl).toBe(DEFAULT);
  });
});

describe('settings.json edited by hand', () => {
  it('a refused API address is not used: the default is, with a warning; the other fields stay', async () => {
    const { s, dir } = await app({ baseUrl: 'http://evil.example', syncOnLaunch: false, requestsPerMinute: 20 });
    expect(s.parts.settings.get()).toEqual({ ...PIPELINE_SETTINGS, baseUrl: DEFAULT, syncOnLaunch: false, requestsPerMinute: 20 });
    expect((await s.parts.connection.client()).baseUrl).toBe(DEFAULT);
    const f = new SettingsFile(join(dir, 'settings.json'));
    expect(f.warning).toBe(
      'settings.json names an API address the app refuses, so https://api.trakkr.ai is used instead. http:// sends the key unencrypted, so it is allowed only for this computer (localhost, 127.x.x.x or [::1]), for the simulator. Use https://evil.example instead.',
    );
  });

  it('a password in the address is never repeated in the warning', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const path = join(tmp.dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ baseUrl: 'https://me:hunter2@api.example' }));
    const f = new SettingsFile(path);
    expect(f.get().baseUrl).toBe(DEFAULT);
    expect(f.warning).toContain('user name or password');
    expect(f.warning).not.toContain('hunter2');
    f.set({ baseUrl: DEFAULT });
    expect(f.warning).toBeNull();
  });

  it('a good address, a damaged file and no file at all give no warning', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const path = join(tmp.dir, 'settings.json');
    expect(new SettingsFile(path).warning).toBeNull();
    writeFileSync(path, JSON.stringify({ baseUrl: 'http://localhost:8787' }));
    expect(new SettingsFile(path)).toMatchObject({ warning: null });
    expect(new SettingsFile(path).get().baseUrl).toBe('http://localhost:8787');
    writeFileSync(path, '{ not json');
    expect(new SettingsFile(path).get()).toEqual({ ...PIPELINE_SETTINGS, baseUrl: DEFAULT, syncOnLaunch: true, requestsPerMinute: 60 });
  });
});

describe("the desktop's settings: updates, follow-up reminders, spelling", () => {
  it('a settings.json from before them gets the defaults; a bad value falls back alone; a change is kept on disk', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const path = join(tmp.dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ baseUrl: DEFAULT, syncOnLaunch: false, requestsPerMinute: 60, spellcheck: 'hunspell-from-anywhere' }));
    const f = new SettingsFile(path);
    expect(f.get()).toMatchObject({ checkForUpdates: true, followUpReminders: true, spellcheck: 'system', syncOnLaunch: false });
    f.set({ checkForUpdates: false, followUpReminders: false, spellcheck: 'download' });
    expect(new SettingsFile(path).get()).toMatchObject({ checkForUpdates: false, followUpReminders: false, spellcheck: 'download' });
    expect(() => f.set({ spellcheck: 'always' as never })).toThrow();
  });
});

describe('the key goes only to an API origin the user confirmed through the app, whatever wrote settings.json', () => {
  const KEY = 'sk_live_' + 'a'.repeat(32);
  const refusedWords = 'Your API key was not sent to https://evil.example: that API address was not confirmed in the app';

  it('a hand-edited https:// origin is read, but no request carries the key there until the user confirms it in Settings', async () => {
    const keychain = new FakeKeychain();
    keychain.value = KEY;
    const net = recordingFetch();
    const { s, set, call, platform, onDisk } = await app(
      { baseUrl: 'https://evil.example/v1', syncOnLaunch: false, requestsPerMinute: 60 },
      { fetch: net.fetch, keychain },
    );
    expect(s.parts.settings.get().baseUrl).toBe('https://evil.example/v1');

    // A sync: refused before any request, in words that say what to do.
    expect(await call('sync:start', {})).toMatchObject({ ok: true });
    const done = await platform.waitFor('sync:done');
    expect(done.summary.error).toEqual({
      kind: 'invalid-input',
      message: `Nothing was sent. ${refusedWords} (it was written into settings.json some other way). Open Settings and save the address to confirm it, or choose another.`,
    });
    // Checking a new key: refused the same way, and the new key is not kept.
    const other = 'sk_live_' + 'b'.repeat(32);
    const r = await call('keys:set', { key: other });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'baseUrl' } });
    if (!r.ok) expect(r.error.message).toContain('Open Settings');
    expect(keychain.value).toBe(KEY);
    expect(net.sent).toEqual([]);

    // Other settings can still change; that confirms nothing.
    expect(await set({ requestsPerMinute: 30 })).toMatchObject({ ok: true });
    expect(await call('keys:set', { key: other })).toMatchObject({ ok: false, error: { field: 'baseUrl' } });
    expect(net.sent).toEqual([]);

    // Saving the same address in Settings asks for confirmation, naming it; confirming it lets the key go there.
    expect(await set({ baseUrl: 'https://evil.example/v1' })).toEqual({
      ok: false,
      error: {
        kind: 'confirm-origin',
        field: 'baseUrl',
        message: 'Your API key will be sent to https://evil.example, an address not confirmed yet. Confirm to use it.',
      },
    });
    expect(await set({ baseUrl: 'https://evil.example/v1', confirmOrigin: 'https://evil.example' })).toMatchObject({ ok: true });
    expect(onDisk().confirmedOrigin).toBe('https://evil.example');
    expect(await call('keys:set', { key: other })).toMatchObject({ ok: true, value: { state: 'stored', last4: 'bbbb' } });
    expect(net.sent).toEqual([{ url: 'https://evil.example/v1/get-brands', authorization: `Bearer ${other}` }]);
  });

  it('a confirmation recorded for one origin does not cover another written beside it', async () => {
    const keychain = new FakeKeychain();
    keychain.value = KEY;
    const net = recordingFetch();
    const { platform, call } = await app(
      { baseUrl: 'https://evil.example', confirmedOrigin: 'https://other.example', syncOnLaunch: false, requestsPerMinute: 60 },
      { fetch: net.fetch, keychain },
    );
    await call('sync:start', {});
    expect((await platform.waitFor('sync:done')).summary.error?.message).toContain(refusedWords);
    expect(net.sent).toEqual([]);
  });

  it.each([
    ['the default API', DEFAULT, 'https://api.trakkr.ai/get-brands'],
    ['the simulator on this computer', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787/get-brands'],
  ])('%s needs no confirmation', async (_name, baseUrl, url) => {
    const net = recordingFetch();
    const { call } = await app({ baseUrl }, { fetch: net.fetch });
    expect(await call('keys:set', { key: KEY })).toMatchObject({ ok: true });
    expect(net.sent).toEqual([{ url, authorization: `Bearer ${KEY}` }]);
  });

  it('SettingsFile says why, and warns on read; a damaged confirmedOrigin confirms nothing', () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const path = join(tmp.dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ baseUrl: 'https://evil.example', confirmedOrigin: 'https://evil.example/' }));
    const f = new SettingsFile(path);
    expect(f.originRefusal()).toContain(refusedWords);
    expect(f.warning).toContain(refusedWords);
    f.set({ baseUrl: 'https://evil.example', confirmOrigin: 'https://evil.example' });
    expect(f.originRefusal()).toBeNull();
    expect(f.warning).toBeNull();
    expect(new SettingsFile(path).originRefusal()).toBeNull();
  });
});
