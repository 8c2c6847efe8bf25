// Insights in real Chromium: the score charts with and without the model
// breakdown (gaps, not zeros), the prompt table, the citation table with its
// filters, and the links between citations and opportunities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { context, launch, listTotal } from './browser';

let browser: Browser;
let host: Host;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  host = await startHost({ demo: true, demoOpportunities: 600 });
  page = await (await context(browser)).newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.goto(host.url);
  await page.locator('[role="option"] .title').first().waitFor({ timeout: 60_000 });
  await page.locator('.toast', { hasText: /Synced/ }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Insights', exact: true }).click();
});
afterAll(async () => {
  await browser.close();
  await host.close();
});

async function shoot(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join('test-results/screens', `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('Insights', () => {
  it('charts visibility and presence, one line or one per model, with days missing shown as gaps', async () => {
    const vis = page.getByRole('img', { name: /^Visibility, / });
    await vis.waitFor();
    expect(await vis.locator('path[data-series]').count()).toBe(1);
    const d = (await vis.locator('path[data-series]').first().getAttribute('d'))!;
    // A gap: the line is lifted (a new M) where a day has no report.
    expect(d.match(/M/g)!.length).toBeGreaterThan(1);
    expect(await vis.locator('circle title').first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2}: visibility \d+(\.\d)?$/);
    expect(await page.getByTestId('vis-latest').textContent()).toMatch(/^\d+(\.\d)?$/);
    await shoot('13-insights-scores');
    await page.getByLabel('One line per model').check();
    await expect.poll(() => vis.locator('path[data-series]').count()).toBe(4);
    expect(await vis.locator('circle title').first().textContent()).toMatch(/^(gpt-4o|claude-sonnet-4|gemini-2.5-pro|perplexity-sonar): /);
    await shoot('14-insights-by-model');
    await page.getByLabel('Range').selectOption('28');
    // The chart redraws for the shorter range: wait for it, not for a moment.
    await expect.poll(() => vis.locator('circle').count()).toBeLessThanOrEqual(29 * 4);
    await page.getByLabel('One line per model').uncheck();
  });

  it('the prompt table sorts', async () => {
    const table = page.locator('table.prompts');
    await table.getByRole('button', { name: 'Prompt' }).click();
    await table.locator('th[aria-sort="ascending"]', { hasText: 'Prompt' }).waitFor();
    const names = await table.locator('tbody tr td:first-child').allTextContents();
    expect(names.length).toBe(6);
    expect([...names].sort((a, b) => a.localeCompare(b))).toEqual(names);
    await table.getByRole('button', { name: 'Presence' }).click();
    await table.locator('th[aria-sort="descending"]', { hasText: 'Presence' }).waitFor();
    const pres = (await table.locator('tbody tr td:nth-child(3)').allTextContents()).map(Number);
    expect([...pres].sort((a, b) => b - a)).toEqual(pres);
  });

  it('the citation table filters by domain and date range', async () => {
    const count = async () => Number((await page.getByTestId('cite-count').textContent())!.replace(/\D+/g, ''));
    const all = await count();
    expect(all).toBe(300);
    await page.getByRole('textbox', { name: 'Domain', exact: true }).fill('.com');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(count).toBeLessThan(all);
    const byDomain = await count();
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Last seen from').fill(from);
    await page.getByLabel('to', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(count).toBeLessThan(byDomain);
    const seen = await page.locator('.cite .cells span:nth-child(6)').allTextContents();
    for (const s of seen) expect(s >= from && s <= today).toBe(true);
    await page.locator('.cite').first().getByRole('button', { name: 'Details' }).click();
    await page.locator('.cite .more').first().getByText('Competitors:').waitFor();
    await shoot('15-insights-citations');
    await page.getByLabel('Mode', { exact: true }).selectOption('search-queries');
    await page.getByRole('textbox', { name: 'Domain', exact: true }).fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('.generic th', { hasText: 'query' }).waitFor();
    await page.getByLabel('Mode', { exact: true }).selectOption('citations');
  });

  it('from a domain that cites competitors to its opportunities, and from an opportunity to what the cache knows about its domain', async () => {
    const gap = page.locator('ol.gaps li', { has: page.getByRole('button', { name: /opportunit/ }) }).first();
    const domain = (await gap.locator('strong').textContent())!;
    const n = Number((await gap.getByRole('button').textContent())!.replace(/\D+/g, ''));
    await shoot('16-insights-gaps');
    await gap.getByRole('button').click();
    await page.locator('[role="listbox"]').waitFor();
    // The whole number ("16 opportunities" holds "6 opportunit"), and then the rows of that list.
    await expect.poll(() => listTotal(page)).toBe(n);
    await expect
      .poll(async () => (await page.locator('[role="option"] .meta > span:first-child').allTextContents()).every((d) => d.includes(domain)))
      .toBe(true);
    await page.locator('[role="option"]').first().click();
    await expect
      .poll(() => page.getByTestId('domain-cited').textContent())
      .toMatch(new RegExp(`^${domain.replace(/\./g, '\\.')} is cited [\\d,]+ times? in AI answers .*competitors referenced there: `));
    await shoot('17-detail-domain-citations');
  });
});
