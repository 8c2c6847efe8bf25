// The app service behind the contract, with the simulator and a real cache:
// the key's life, demo mode, sync and export jobs as events, mail links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { caller } from '../../support/call';
import { tempDir } from '../../support/tmp';
import { appInfo, appState } from '../../../electron/core/app/app-state';
import { openMail } from '../../../electron/core/app/outside';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 4, opportunities: 400, otherBrandOpportunities: 20, citationsPerBrand: 40 });
});
afterAll(() => sim.close());

async function service(keychain = new FakeKeychain()) {
  const tmp = tempDir();
  const platform = new FakePlatform();
  const s = await AppService.create({ userDataDir: tmp.dir, platform, keychain, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux' });
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  return { s, platform, keychain, tmp };
}

describe('the key', () => {
  it('is checked for shape, then against get-brands, then stored; the renderer sees only its last four characters', async () => {
    const { s, keychain, tmp } = await service();
    await expect(s.parts.connection.setKey('sk_live_tooshort')).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(s.parts.connection.setKey('sk_live_' + 'W'.repeat(32))).rejects.toMatchObject({
      kind: 'key-rejected',
      field: 'key',
      message: 'The API key was rejected (403): No accounts found for this API key. Check the key in your Trakkr account settings and paste it again.',
    });
    expect(keychain.value).toBeNull();
    const st = await s.parts.connection.setKey(`  ${DEMO_KEY} `);
    expect(keychain.value).toBe(DEMO_KEY);
    expect(st).toMatchObject({ state: 'stored', last4: 'demo', keychain: 'available', lastCheck: { ok: true, message: '3 brands reachable' } });
    expect(JSON.stringify(await appState(s.parts))).not.toContain(DEMO_KEY.slice(8));
    for (const f of readdirSync(tmp.dir)) expect(readFileSync(join(tmp.dir, f)).includes(Buffer.from(DEMO_KEY.slice(8))), f).toBe(false);
    expect((await s.parts.connection.clearKey()).state).toBe('none');
    await s.close();
    tmp.cleanup();
  });

  it('with no keychain: says so, and keeps the key for this session only when asked, never on disk', async () => {
    const { s, keychain, tmp } = await service(new FakeKeychain('unavailable'));
    expect((await s.parts.connection.keyStatus()).message).toContain('no system keychain is available');
    await expect(s.parts.connection.setKey(DEMO_KEY)).rejects.toMatchObject({
      kind: 'keychain-unavailable',
      message: expect.stringContaining('this session only'),
    });
    const st = await s.parts.connection.setKey(DEMO_KEY, true);
    expect(st).toMatchObject({ state: 'session', last4: 'demo' });
    expect(keychain.value).toBeNull();
    const { brands } = await (await s.parts.connection.client()).brands();
    expect(brands).toHaveLength(3);
    for (const f of readdirSync(tmp.dir)) expect(readFileSync(join(tmp.dir, f)).includes(Buffer.from(DEMO_KEY.slice(8))), f).toBe(false);
    await s.close();
    tmp.cleanup();
  });

  it('a locked keychain is told apart from an empty one', async () => {
    const { s, tmp } = await service(new FakeKeychain('locked'));
    const st = await s.parts.connection.keyStatus();
    expect(st).toMatchObject({ state: 'none', keychain: 'locked' });
    expect(st.message).toContain('The keychain is locked');
    await expect(s.parts.connection.setKey(DEMO_KEY)).rejects.toMatchObject({ kind: 'keychain-locked' });
    await s.close();
    tmp.cleanup();
  });
});

describe('jobs', () => {
  it('sync runs as a job with progress events and a summary; the cache reads at once, before and during', async () => {
    const { s, platform, tmp } = await service();
    const brand = sim.brands[0]!.id;
    expect(await caller(s)('opportunities:list', { filter: { brandId: brand }, offset: 0, limit: 10 })).toEqual({ items: [], total: 0, next: null });
    await s.parts.connection.setKey(DEMO_KEY);
    const { jobId } = s.parts.sync.start({});
    expect(s.parts.sync.start({}).jobId).toBe(jobId); // one sync at a time
    const done = await platform.waitFor('sync:done');
    expect(done.jobId).toBe(jobId);
    expect(done.summary.error).toBeNull();
    expect(platform.events.some((e) => e.event === 'sync:event' && (e.payload as { event: { type: string } }).event.type === 'progress')).toBe(true);
    expect((await caller(s)('opportunities:list', { filter: { brandId: brand }, offset: 0, limit: 10 })).total).toBeGreaterThan(300);
    expect(s.parts.sync.state()).toMatchObject({ running: false, lastSummary: { error: null } });

    // export job: file written, progress and done events, path for "Show in folder"
    const out = join(tmp.dir, 'out.csv');
    const preview = await s.parts.exports.preview({ brandId: brand, preset: 'contacts', excludeCatchAll: true, unfilled: 'keep' });
    expect(preview.rows).toBeGreaterThan(50);
    // The save dialog's path stays here: the renderer holds a handle and the file's name.
    platform.saveAs = out;
    const chosen = (await s.parts.exports.chooseFile('out.csv')).file!;
    expect(chosen.name).toBe('out.csv');
    expect(JSON.stringify(chosen)).not.toContain(tmp.dir);
    const ex = s.parts.exports.start({ brandId: brand, preset: 'contacts', excludeCatchAll: true, unfilled: 'keep' }, chosen.handle);
    const fin = await platform.waitFor('export:done');
    expect(fin.jobId).toBe(ex.jobId);
    expect(fin.result!.rows).toBe(preview.rows);
    expect(fin.result!.files).toEqual(['out.csv']);
    expect((parse(readFileSync(out, 'utf8'), { columns: true }) as unknown[]).length).toBe(preview.rows);
    // "Show in folder" names the export by its job id; main is asked to show the real path.
    s.parts.exports.showInFolder(ex.jobId);
    expect(platform.shown).toEqual([out]);
    expect(() => s.parts.exports.showInFolder('00000000-0000-4000-8000-000000000000')).toThrow(/not known/);
    // A handle is good for one export, and an unknown one is refused.
    expect(() => s.parts.exports.start({ brandId: brand, preset: 'contacts' }, chosen.handle)).toThrow(/Choose where to save/);
    platform.saveAs = null;
    expect(await s.parts.exports.chooseFile('x.csv')).toEqual({ file: null });
    platform.saveAs = out;
    const again = (await s.parts.exports.chooseFile('out.csv')).file!;
    expect(() => s.parts.exports.start({ brandId: brand, preset: 'contacts', split: true }, again.handle)).toThrow(/row limit/);
    platform.saveAs = join(tmp.dir, 'no', 'such', 'dir.csv');
    const bad = s.parts.exports.start({ brandId: brand, preset: 'contacts' }, (await s.parts.exports.chooseFile('dir.csv')).file!.handle);
    const failed = await platform.waitFor('export:done');
    expect(failed).toMatchObject({ jobId: bad.jobId, result: null, error: { kind: 'permission' } });
    // The words name the file and what to do next.
    expect(failed.error!.message).toContain(join(tmp.dir, 'no', 'such', 'dir.csv'));
    expect(failed.error!.message).toMatch(/does not exist or may not be written/);
    await s.close();
    tmp.cleanup();
  });

  it('a sync against an unreachable service ends with the reason, and the app says it is offline; the cache still reads', async () => {
    const { s, platform, tmp } = await service();
    await s.parts.connection.setKey(DEMO_KEY);
    s.parts.sync.start({});
    await platform.waitFor('sync:done');
    const closed = await startSimulator({ opportunities: 1, brands: 1 });
    await closed.close();
    s.setSettings({ baseUrl: closed.url });
    s.parts.sync.start({});
    const done = await platform.waitFor('sync:done', 60_000);
    expect(done.summary.error).toMatchObject({ kind: 'service-unreachable' });
    expect(platform.events.some((e) => e.event === 'app:online' && (e.payload as { online: boolean }).online === false)).toBe(true);
    expect((await caller(s)('opportunities:list', { filter: { brandId: sim.brands[0]!.id }, offset: 0, limit: 5 })).items).toHaveLength(5);
    await s.close();
    tmp.cleanup();
  }, 60_000);
});

describe('triage', () => {
  it('a bulk change applies only when every opportunity is in the cache; otherwise nothing changes and the missing ones are named', async () => {
    const { s, platform, tmp } = await service();
    await s.parts.connection.setKey(DEMO_KEY);
    s.parts.sync.start({});
    await platform.waitFor('sync:done');
    const brand = sim.brands[0]!.id;
    const call = caller(s);
    const [a, b] = (await call('opportunities:list', { filter: { brandId: brand }, offset: 0, limit: 2 })).items.map((i) => i.id);
    const bulk = (ids: string[], action: object, brandId = brand) => dispatch(createHandlers(s), 'triage:apply', [{ brandId, ids, action }]);

    expect(await bulk([a!, 'gone-1', b!, 'gone-2'], { do: 'star', on: true })).toEqual({
      ok: false,
      error: {
        kind: 'not-found',
        field: 'ids',
        message: 'Nothing was changed: 2 of these 4 opportunities are not in the cache (it may have been reset): gone-1, gone-2.',
      },
    });
    expect((await call('opportunities:get', { brandId: brand, id: a! }))!.triage.starred).toBe(false);
    await expect(call('triage:apply', { brandId: brand, ids: ['g1', 'g2', 'g3', 'g4', 'g5'], action: { do: 'note', text: 'x' } })).rejects.toThrow(
      '5 of these 5 opportunities are not in the cache (it may have been reset): g1, g2, g3 and 2 more.',
    );
    await expect(call('triage:apply', { brandId: sim.brands[1]!.id, ids: [a!, 'g1'], action: { do: 'note', text: 'x' } })).rejects.toThrow(
      'Nothing was changed: 2 of these 2 opportunities are not in the cache (it may have been reset): ',
    );
    const [c] = (await call('opportunities:list', { filter: { brandId: sim.brands[1]!.id }, offset: 0, limit: 1 })).items.map((i) => i.id);
    await expect(call('triage:apply', { brandId: sim.brands[1]!.id, ids: [c!, a!], action: { do: 'note', text: 'x' } })).rejects.toThrow(
      'Nothing was changed: 1 of these opportunities is not in the cache (it may have been reset): ',
    );
    // One opportunity asked for, gone: said as such.
    await expect(call('triage:apply', { brandId: sim.brands[1]!.id, ids: [a!], action: { do: 'note', text: 'x' } })).rejects.toThrow(
      'That opportunity is not in the cache (it may have been reset).',
    );

    expect(await bulk([a!, b!], { do: 'stage', stage: 'Drafted' })).toMatchObject({ ok: true, value: { updated: 2 } });
    expect(await bulk([a!, b!], { do: 'star', on: true })).toMatchObject({ ok: true, value: { updated: 2 } });
    expect((await call('opportunities:get', { brandId: brand, id: b! }))!.triage).toMatchObject({ starred: true, stage: 'Drafted' });
    await s.close();
    tmp.cleanup();
  });
});

describe('mail links', () => {
  it('opens the mail app; a pitch too long for a link is copied and said', async () => {
    const { s, platform, tmp } = await service();
    const short = await openMail(s.parts.domain.platform, ['ana@wired.com'], 'a+b & c', 'Hi\nthere');
    expect(short).toEqual({ opened: true, message: 'Opening your mail app.', copiedBody: false });
    expect(platform.opened.at(-1)).toBe('mailto:ana@wired.com?subject=a%2Bb%20%26%20c&body=Hi%0D%0Athere');
    const long = await openMail(s.parts.domain.platform, ['ana@wired.com'], 'Hello', 'word '.repeat(1000));
    expect(long.copiedBody).toBe(true);
    expect(platform.clipboard).toBe('word '.repeat(1000));
    expect(platform.opened.at(-1)).toBe('mailto:ana@wired.com?subject=Hello');
    await s.close();
    tmp.cleanup();
  });
});

describe('demo mode', () => {
  it('starts the simulator in-process with its own cache, syncs, and resets', async () => {
    const tmp = tempDir();
    const platform = new FakePlatform();
    const s = await AppService.create({
      userDataDir: tmp.dir,
      platform,
      keychain: new FakeKeychain('unavailable'),
      appName: 'Outreach Workbench',
      appVersion: '0.1.0',
      platformName: 'linux',
      demo: true,
      demoOpportunities: 300,
    });
    expect(appInfo(s.parts)).toMatchObject({ demo: true });
    expect(appInfo(s.parts).cachePath.endsWith('demo.db')).toBe(true);
    await s.launch();
    const done = await platform.waitFor('sync:done');
    expect(done.summary.error).toBeNull();
    const call = caller(s);
    const brand = s.cache.brands.list()[0]!.id;
    const page = (limit: number) => call('opportunities:list', { filter: { brandId: brand }, offset: 0, limit });
    expect((await page(5)).total).toBeGreaterThan(100);
    expect(existsSync(join(tmp.dir, 'workbench.db'))).toBe(false);
    await call('triage:apply', { brandId: brand, ids: [(await page(1)).items[0]!.id], action: { do: 'note', text: 'demo note' } });
    await s.parts.life.resetDemo();
    await platform.waitFor('sync:done');
    expect((await page(500)).items.every((i) => i.note === '')).toBe(true);
    await s.close();
    tmp.cleanup();
  });

  it('"Try with demo data" switches a first-run app to the demo', async () => {
    const { s, platform, tmp } = await service(new FakeKeychain());
    expect(s.isDemo).toBe(false);
    await s.parts.life.startDemo();
    expect(s.isDemo).toBe(true);
    await platform.waitFor('sync:done');
    expect(s.cache.brands.list().length).toBe(3);
    await s.close();
    tmp.cleanup();
  });
});
