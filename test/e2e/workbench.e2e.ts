// The real UI in real Chromium against the real core (through the test host)
// and the simulator: what a person does in a day, and what must never happen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { launch, listTotal, openPage, shoot as shootPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});
const open = (host: Host, scheme: 'light' | 'dark' = 'light'): Promise<Page> => openPage(browser, host.url, scheme);
const shoot = (page: Page, name: string): Promise<void> => shootPage(page, name, { toasts: true });

const rows = (page: Page) => page.locator('[role="option"]');
const toast = (page: Page, text: string | RegExp) => page.locator('.toast', { hasText: text });
const chipCount = async (page: Page, name: RegExp) => Number(((await page.getByRole('button', { name }).textContent()) ?? '').replace(/\D+/g, ''));

/**
 * The chip counts follow the list a moment later (they wait until typing
 * pauses): wait until they describe the list on screen, i.e. the "All" chip
 * (every status under the other filters) equals the list's total. Only when no
 * status, type or difficulty chip is pressed.
 */
async function countsFollowList(page: Page): Promise<void> {
  await expect.poll(async () => (await chipCount(page, /^All \d/)) === (await listTotal(page)), { timeout: 10_000 }).toBe(true);
}

/** Wait until the detail pane shows the row under the cursor; returns its title. */
async function detailOfActive(page: Page): Promise<string> {
  let title = '';
  await expect
    .poll(async () => {
      const row = ((await page.locator('[role="option"][aria-selected="true"] .title').textContent()) ?? '').replace(/^★\s*/, '');
      title = (await page.locator('.detail h2').textContent()) ?? '';
      if (process.env.E2E_DEBUG) console.log(JSON.stringify({ row, title }));
      return row !== '' && row === title;
    })
    .toBe(true);
  return title;
}

describe('first run, sync, triage, export', () => {
  let sim: Simulator;
  let host: Host;
  let page: Page;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, opportunities: 600, otherBrandOpportunities: 40, citationsPerBrand: 60, latencyMs: 40 });
    sim.inject(sim.brands[0]!.id, {
      _id: 'hostile-1',
      opportunity_type: 'low-hanging-fruit',
      title: '<script>alert("pwned")</script><img src=x onerror=alert(1)> Hostile record',
      url: 'javascript:alert(document.cookie)',
      domain: 'evil.example',
      status: 'New',
      archived: false,
      priority_score: 100,
      pitch_subject: '<b>bold?</b>',
      pitch_body: '<iframe src="https://evil.example"></iframe>',
      contact_emails: ['victim@evil.example'],
      // The same text twice: a list keyed by its text would fail to render.
      search_queries: ['<b>same query</b>', '<b>same query</b>'],
      original_prompts: ['same prompt', 'same prompt'],
      instructions: ['Same step', 'Same step'],
      topics_covered: ['same topic', 'same topic'],
    });
    host = await startHost({ baseUrl: sim.url });
    page = await open(host);
  });
  afterAll(async () => {
    await page.context().close();
    await host.close();
    await sim.close();
  });

  it('first run: a malformed key is refused as you type, a rejected key is refused with the reason, a good key is stored', async () => {
    await page.getByLabel('Your Trakkr API key').waitFor();
    await shoot(page, '01-first-run');
    // No list yet (nothing synced, no demo): no "Skip to the list" link to a list that is not there.
    expect(await page.locator('a.skip').count()).toBe(0);
    const input = page.getByLabel('Your Trakkr API key');
    const connect = page.getByRole('button', { name: 'Connect' });
    await input.fill('sk_live_abc');
    await expect.poll(() => page.locator('#key-help').textContent()).toContain('32 characters after "sk_live_"');
    expect(await connect.isDisabled()).toBe(true);
    await input.fill('sk_live_' + 'Z'.repeat(32));
    await connect.click();
    await page
      .getByRole('alert')
      .filter({
        hasText: 'The API key was rejected (403): No accounts found for this API key. Check the key in your Trakkr account settings and paste it again.',
      })
      .waitFor();
    expect((await host.call('keys:status')).state).toBe('none');
    await input.fill(DEMO_KEY);
    await connect.click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    expect((await host.call('keys:status')).state).toBe('stored');
  });

  it('a sync shows its progress, then the list fills', async () => {
    await page.locator('.sync', { hasText: /Syncing/ }).waitFor();
    await shoot(page, '02-syncing');
    await toast(page, /Synced/).waitFor({ timeout: 60_000 });
    await page.getByLabel('Brand').selectOption(sim.brands[0]!.id);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    expect(await page.locator('.head').textContent()).toMatch(/\d+ opportunities/);
    // Now there is a list to skip to.
    expect(await page.locator('a.skip').textContent()).toBe('Skip to the list');
  });

  it('hostile text renders as text, and a javascript: link never becomes a link', async () => {
    await page.getByLabel(/^Search/).fill('Hostile');
    await expect.poll(() => rows(page).count()).toBe(1);
    await rows(page).first().click();
    const title = page.locator('.detail h2');
    await expect.poll(() => title.textContent()).toBe('<script>alert("pwned")</script><img src=x onerror=alert(1)> Hostile record');
    expect(await page.locator('.detail script, .detail img, .detail iframe, .detail b').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.locator('.detail .body').textContent()).toBe('<iframe src="https://evil.example"></iframe>');
    await shoot(page, '03-hostile-record');
    await page.getByLabel(/^Search/).fill('');
    await page.keyboard.press('Escape');
  });

  it('the same text twice from the API shows twice, and nothing breaks', async () => {
    const errors: string[] = [];
    const onError = (e: Error) => errors.push(e.message);
    page.on('pageerror', onError);
    try {
      await page.getByLabel(/^Search/).fill('Hostile');
      await expect.poll(() => rows(page).count()).toBe(1);
      await rows(page).first().click();
      await page.locator('.detail h2', { hasText: 'Hostile record' }).waitFor();
      const evidence = page.getByRole('region', { name: 'Evidence' });
      await expect.poll(() => evidence.locator('li', { hasText: 'same query' }).allTextContents()).toEqual(['<b>same query</b>', '<b>same query</b>']);
      expect(await evidence.locator('li', { hasText: 'same prompt' }).allTextContents()).toEqual(['same prompt', 'same prompt']);
      expect(await evidence.locator('dd', { hasText: 'same topic' }).textContent()).toBe('same topic, same topic');
      expect(await page.getByRole('region', { name: 'Instructions' }).locator('li').allTextContents()).toEqual(['Same step', 'Same step']);
      // The pane still follows the cursor afterwards.
      await page.getByLabel(/^Search/).fill('');
      await page.keyboard.press('Escape');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
      await page.locator('[role="listbox"]').focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('j');
      await detailOfActive(page);
      expect(errors).toEqual([]);
    } finally {
      page.off('pageerror', onError);
    }
  });

  it('filters with live counts and full-text search narrow the list', async () => {
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    await countsFollowList(page);
    const done = page.getByRole('button', { name: /^Done \d+/ });
    const expected = Number((await done.textContent())!.replace(/\D+/g, ''));
    await done.click();
    await expect.poll(() => page.locator('.head').textContent()).toContain(`${expected} opportunities`);
    const statuses = await page.locator('[role="option"] .meta .badge.ok').count();
    expect(statuses).toBe(Math.min(await rows(page).count(), statuses));
    await done.click(); // off again
    await countsFollowList(page);
    const unfiltered = await listTotal(page);
    await page.getByLabel(/^Search/).fill('cold brew');
    await expect.poll(async () => (await page.locator('.head').textContent())!.match(/(\d[\d,]*) opportunit(?:y|ies)/)?.[1]).not.toBe(undefined);
    // The search has reached the list (not the total from before it).
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).not.toBe(unfiltered);
    const n = Number((await page.locator('.head').textContent())!.match(/([\d,]+) opportunit(?:y|ies)/)![1]!.replace(/,/g, ''));
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(600);
    await shoot(page, '04-filtered');
    await page.getByLabel(/^Search/).fill('');
    await page.keyboard.press('Escape');
  });

  it('a pasted search too long for the core is cut to it, and a search with no word in it is not made', async () => {
    await countsFollowList(page);
    const unfiltered = await listTotal(page);
    const search = page.getByLabel(/^Search/);
    await search.fill('cold brew');
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).not.toBe(unfiltered);
    const coldBrew = await listTotal(page);
    // 10,000 characters pasted: the box keeps the 500 the core takes, the list is that search's (none), never the one before.
    await search.fill('x'.repeat(10_000));
    expect((await search.inputValue()).length).toBe(500);
    await page.getByTestId('empty').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await listTotal(page)).toBe(0);
    expect(await listTotal(page)).not.toBe(coldBrew);
    expect(await page.locator('#search-help').textContent()).toContain('first 500 characters');
    // No letter or digit: nothing searched, and the window says so instead of "matching the search".
    await search.fill('📞');
    await expect.poll(() => page.locator('#search-help').textContent()).toContain('Nothing to search for');
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBe(unfiltered);
    expect(await page.getByTestId('counted').textContent()).not.toContain('matching the search');
    await search.fill('');
    await page.keyboard.press('Escape');
  });

  it('the detail pane, and copying contacts leaves catch-alls out and says so', async () => {
    await page.getByLabel('Catch-all addresses').selectOption('only');
    await rows(page).first().locator('.badge.catch').waitFor();
    // Every row on screen is one with a catch-all: the filter has reached the list.
    await expect
      .poll(async () => (await rows(page).count()) > 0 && (await rows(page).count()) === (await page.locator('[role="option"]:has(.badge.catch)').count()))
      .toBe(true);
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await detailOfActive(page);
    await page.locator('.detail .contacts .badge.catch').first().waitFor();
    const catchAlls = await page
      .locator('.contacts li', { has: page.locator('.badge.catch') })
      .locator('.addr')
      .allTextContents();
    expect(catchAlls.length).toBeGreaterThan(0);
    await page.keyboard.press('c');
    await toast(page, /catch-all address(es)? left out/).waitFor();
    for (const a of catchAlls) expect(host.clipboard()).not.toContain(a);
    await shoot(page, '05-detail');
    const onlyCatchAll = await listTotal(page);
    await page.getByLabel('Catch-all addresses').selectOption('');
    // The next test starts on the whole list, not on this one still being replaced.
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBeGreaterThan(onlyCatchAll);
  });

  it('stage, star and note survive a re-sync', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('j');
    const title = await detailOfActive(page);
    await page.keyboard.press('w'); // the stage Won
    await expect.poll(() => page.locator('.detail [aria-pressed="true"]', { hasText: 'Won' }).count()).toBe(1);
    await page.keyboard.press('*'); // star (s snoozes)
    await page.keyboard.press('n');
    await page.keyboard.type('Called Ana, send data on Monday.');
    await page.locator('.save', { hasText: 'Saved' }).waitFor();
    await page.keyboard.press('Escape');
    sim.mutate({ brand: sim.brands[0]!.id, changed: 50, added: 3, removed: 2 });
    // No "Synced" toast of an earlier sync is left to be mistaken for this one's (a toast stays 4.5 s).
    await expect.poll(() => toast(page, /Synced/).count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole('button', { name: /Sync now|Retry sync/ }).click();
    await toast(page, /Synced/).waitFor({ timeout: 60_000 });
    await page.getByLabel('Starred only').check();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Home');
    await detailOfActive(page);
    await expect.poll(() => page.locator('#note').inputValue()).toBe('Called Ana, send data on Monday.');
    expect((await page.locator('.detail h2').textContent())!.startsWith(title.replace(/ \(updated\)$/, ''))).toBe(true);
    expect(await page.locator('.detail [aria-pressed="true"]', { hasText: 'Won' }).count()).toBe(1);
    await page.getByLabel('Starred only').uncheck();
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBeGreaterThan(1);
  });

  it('a bulk stage for a selection', async () => {
    await countsFollowList(page);
    const fresh = await chipCount(page, /^New \d+/);
    await page.getByRole('button', { name: /^New \d+/ }).click();
    // The list under the New filter (not the one before it) is on screen before keys select in it.
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBe(fresh);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('x');
      await page.keyboard.press('j');
    }
    await page.getByRole('toolbar', { name: 'Selection' }).getByText('3 selected').waitFor();
    await shoot(page, '06-selection');
    await page.getByRole('toolbar', { name: 'Selection' }).getByLabel('Move the selection to a stage').selectOption('Won');
    await toast(page, '3 opportunities moved to Won.').waitFor();
    await page.getByRole('button', { name: /^New \d+/ }).click();
  });

  it('an export writes a file that reads back row for row', async () => {
    const out = join(host.dataDir, 'batch.csv');
    host.setSaveAs(out);
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await dialog.getByText(/\d+ rows? will be exported/).waitFor();
    const n = Number((await dialog.getByText(/rows? will be exported/).textContent())!.replace(/[^\d]/g, ''));
    await shoot(page, '07-export');
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText(/Saved [\d,]+ rows? to batch\.csv\./).waitFor();
    // The page learns the file's name, never its folder: paths stay on the main side.
    expect(await page.content()).not.toContain(host.dataDir);
    const rowsBack = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rowsBack).toHaveLength(n);
    expect(rowsBack.every((r) => r.catch_all === 'false')).toBe(true);
    await dialog.getByRole('button', { name: 'Show in folder' }).click();
    await expect.poll(() => host.opened()).toContain(`folder:${out}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('keyboard help and settings screens', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await shoot(page, '08-shortcuts');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByText(/Stored in the system keychain, ends in …demo/).waitFor();
    expect(await page.content()).not.toContain(DEMO_KEY.slice(8));
    await page.getByLabel('Address or domain').fill('not an address at all');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'neither an e-mail address nor a domain' }).waitFor();
    await page.getByLabel('Address or domain').fill('Press@Evil.Example');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove press@evil.example' }).waitFor();
    expect((await host.call('dnc:list')).map((d) => d.value)).toEqual(['press@evil.example']);
    // A new API address is shown before the key may go there: Cancel keeps the old one, Use saves the new one.
    const before = (await host.call('settings:get')).baseUrl;
    const base = page.getByLabel('API base URL');
    await base.fill('https://api.example.test');
    await base.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'https://api.example.test' }).waitFor();
    await page.getByRole('button', { name: /^Cancel, keep / }).click();
    await expect.poll(() => base.inputValue()).toBe(before);
    expect((await host.call('settings:get')).baseUrl).toBe(before);
    await base.fill('https://api.example.test');
    await base.press('Enter');
    await page.getByRole('button', { name: 'Use https://api.example.test' }).click();
    await expect.poll(async () => (await host.call('settings:get')).baseUrl).toBe('https://api.example.test');
    // The window has taken the answer in: the confirmation is gone and the field shows the saved address.
    await page.getByRole('button', { name: 'Use https://api.example.test' }).waitFor({ state: 'detached' });
    await expect.poll(() => base.inputValue()).toBe('https://api.example.test');
    // Back to the simulator on this computer: loopback needs no confirmation.
    await base.fill(before);
    await base.press('Enter');
    await expect.poll(async () => (await host.call('settings:get')).baseUrl).toBe(before);
    expect(await page.getByRole('alert').filter({ hasText: 'will be sent to' }).count()).toBe(0);
    await page.getByLabel('Sync when the app starts').uncheck();
    await expect.poll(async () => (await host.call('settings:get')).syncOnLaunch).toBe(false);
    await toast(page, 'Settings saved.').last().waitFor();
    await shoot(page, '09-settings');
    await page.getByRole('button', { name: 'Remove press@evil.example' }).click();
    await page.getByText('The list is empty.').waitFor();
    await page.getByRole('button', { name: 'Insights', exact: true }).click();
    await shoot(page, '10-insights');
    await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
  });

  it('browsing offline with the simulator stopped: the cache reads, sync says why', async () => {
    await sim.close();
    await page.reload();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    await page.getByRole('button', { name: /Sync now|Retry sync/ }).click();
    await toast(page, /Sync stopped: Could not reach the service/).waitFor({ timeout: 60_000 });
    await page.getByText('Offline').waitFor();
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('j');
    await page.locator('.detail h2').waitFor();
    await shoot(page, '11-offline');
  });
});

describe('demo mode', () => {
  it('starts with the simulator in-process, clearly labelled, and fills the list', async () => {
    const host = await startHost({ demo: true, demoOpportunities: 500 });
    const page = await open(host);
    try {
      await page.getByText('Demo data').waitFor();
      await expect.poll(() => rows(page).count(), { timeout: 60_000 }).toBeGreaterThan(5);
      await shoot(page, '12-demo');
      // The engine's process dies: the window says so in plain words, and the app goes on with a fresh one.
      host.killCore();
      await toast(page, /engine stopped unexpectedly and was restarted/).waitFor({ timeout: 30_000 });
      await page.locator('[role="listbox"]').focus();
      await page.keyboard.press('j');
      await page.locator('.detail h2').waitFor();
    } finally {
      await page.context().close();
      await host.close();
    }
  });
});
