// Never locked out (issue 20.7), in real Chromium against the real core
// (through the test host): offline (the service stopped) the cache opens as it
// is and a sync says plainly why it stopped; removing the key asks first; and
// a locked system keychain (the key cannot be read) opens the cache with the
// calm banner and a way to add a key. axe-core finds nothing serious or
// critical in each state, at every size, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { accessibleAt, closeWalk, launch, listTotal, openPage, openPageAfterLaunchSync, until } from './browser';

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;
let cached: number;

const rows = (p: Page) => p.locator('[role="option"]');

beforeAll(async () => {
  browser = await launch();
  sim = await startSimulator({ seed: 47, brands: 1, opportunities: 60, citationsPerBrand: 0 });
  brandId = sim.brands[0]!.id;
  host = await startHost({ baseUrl: sim.url });
  await host.call('keys:set', { key: DEMO_KEY });
  await host.call('sync:start', {});
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
  cached = (await host.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 })).total;
  page = await openPageAfterLaunchSync(browser, host);
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
});
afterAll(() => closeWalk(page, host, sim, browser));

describe('never locked out', () => {
  it('offline: the cache opens as it is, and a sync says why it stopped', async () => {
    expect(cached).toBeGreaterThan(5);
    await sim.close();
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await expect.poll(() => listTotal(page)).toBe(cached);
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.detail h2').textContent()).not.toBe('');
    // (The launch's sync ended before the walk; a sync stopped offline would leave the button reading 'Retry sync'.)
    await page.getByRole('button', { name: /^(Sync now|Retry sync)$/ }).press('Enter');
    const stopped = page.locator('.toast', { hasText: /^Sync stopped: / });
    await stopped.waitFor({ timeout: 60_000 });
    // Still readable: the list as it was.
    expect(await listTotal(page)).toBe(cached);
    expect(await rows(page).count()).toBeGreaterThan(5);
    await accessibleAt(page, 'offline, a sync stopped');
  });

  it('removing the key asks first (axe in the question); keeping it keeps it', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('S');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Remove the key…' }).press('Enter');
    const ask = page.getByRole('group', { name: /^Remove the API key from this computer\?/ });
    await ask.waitFor();
    expect(await ask.getByRole('button', { name: 'Keep the key' }).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect((await host.call('keys:status')).state).toBe('stored');
    await accessibleAt(page, 'remove the key: asked first');
    await page.keyboard.press('Enter');
    await expect.poll(() => ask.count()).toBe(0);
    expect((await host.call('keys:status')).state).toBe('stored');
  });

  it('a locked keychain: the cache opens with the calm banner and a way to add a key', async () => {
    const dataDir = host.dataDir;
    await page.context().close();
    await host.close();
    host = await startHost({ baseUrl: sim.url, dataDir, keychain: 'locked' });
    page = await openPage(browser, host.url, 'light', { clock: true });
    const banner = page.getByTestId('no-key');
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toMatch(
      /^\s*The system keychain is locked, so the API key cannot be read\. You are reading your cache as it was last synced .*: your notes, drafts and stages are all here\. Syncing needs a key\.\s*$/,
    );
    // Minutes later, the header and the banner say the same time since the last sync (the banner once stayed at 'just now').
    await page.clock.fastForward('03:00');
    const header = page.locator('header.top .muted', { hasText: /^Synced / });
    await expect.poll(() => header.textContent()).toMatch(/^Synced \d+ min ago$/);
    const words = (await header.textContent())!.replace(/^Synced /, '');
    expect(await banner.locator('p').textContent()).toContain(`as it was last synced ${words}:`);
    await expect.poll(() => listTotal(page)).toBe(cached);
    expect(await page.getByLabel('Your Trakkr API key').count()).toBe(0);
    await accessibleAt(page, 'keychain locked');
    await banner.getByRole('button', { name: 'Add a key…' }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await expect.poll(() => page.locator('#new-key').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });
});
