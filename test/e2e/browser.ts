// Debian's Chromium driven by playwright-core, with the flags this closed
// network needs (no background networking, no component updates), and what
// every browser test does with it: open a page, take screenshots, wait, and
// ask axe-core what it finds serious or critical.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Host } from '../host/server';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function context(browser: Browser, scheme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' });
}

/** Where every browser test keeps its screenshots. */
/** A walk's teardown: the page's context, then each of the rest (host, simulator, browser) in order; what was never started is skipped. */
export async function closeWalk(page: Page | undefined, ...rest: ({ close(): unknown } | undefined)[]): Promise<void> {
  await page?.context().close();
  for (const part of rest) await part?.close();
}

export const SCREENS = 'test-results/screens';
mkdirSync(SCREENS, { recursive: true });

export interface PageOptions {
  /** The page's own clock, moved on by the test (page.clock.fastForward, pauseAt), for words that change with time. */
  clock?: boolean;
  /** An uncaught error in the page fails the test, from the moment it loads. */
  failOnPageError?: boolean;
}

/** A fresh page on the host's URL; a native dialog opening fails the test (the app never uses them). */
export async function openPage(browser: Browser, url: string, scheme: 'light' | 'dark' = 'light', o: PageOptions = {}): Promise<Page> {
  const ctx = await context(browser, scheme);
  const page = await ctx.newPage();
  page.on('dialog', (d) => {
    throw new Error(`A dialog opened: ${d.message()}`);
  });
  if (o.failOnPageError)
    page.on('pageerror', (e) => {
      throw e;
    });
  if (o.clock) await page.clock.install();
  await page.goto(url);
  return page;
}

/**
 * A fresh page, as openPage, for a walk that has run its own sync: returned once the window's launch sync is over
 * too. Opening the page starts the app's sync at launch (a key is stored), which writes pages, reloads the list and
 * recounts the outlets; a walk begun meanwhile races it. Only for a host that syncs at launch (a key it can read).
 */
export async function openPageAfterLaunchSync(browser: Browser, host: Host, scheme: 'light' | 'dark' = 'light', o: PageOptions = {}): Promise<Page> {
  const before = (await host.call('app:state')).sync;
  if (before.running) throw new Error("A sync is still running: wait for the walk's own sync to finish before opening the page.");
  const page = await openPage(browser, host.url, scheme, o);
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== before.lastFinishedAt, "the window's launch sync to finish");
  return page;
}

/**
 * `name`-light.png and `name`-dark.png in SCREENS. The toasts of the steps
 * before would cover what the picture is of, so they are hidden unless asked
 * for (through CSSOM: Playwright's `style` option injects a <style> element,
 * which the page's Content-Security-Policy refuses).
 */
export async function shoot(page: Page, name: string, { toasts = false } = {}): Promise<void> {
  const box = page.locator('.toasts');
  if (!toasts) await box.evaluate((el) => (el.style.visibility = 'hidden'));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (!toasts) await box.evaluate((el) => (el.style.visibility = ''));
}

/** expect.poll is for tests; hooks wait with this (a condition, never a fixed pause). */
export async function until(ok: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  for (const t0 = Date.now(); !(await ok()); ) {
    if (Date.now() - t0 > ms) throw new Error(`Waited ${ms / 1000} s for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The number in the list's head ("1,234 opportunities", "1 opportunity"). */
export const listTotal = async (page: Page): Promise<number> =>
  Number(((await page.locator('.head').textContent())?.match(/([\d,]+)\+? opportunit(?:y|ies)/)?.[1] ?? 'NaN').replace(/,/g, ''));

/** Today on this computer's calendar, as the core's clock has it by default. */
export const localToday = (d = new Date()): string => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** What axe-core finds serious or critical on the whole page (WCAG 2.x A and AA, and its best practices), as "rule: where". */
export async function axeSerious(page: Page): Promise<string[]> {
  // Evaluated through the browser's tools, as a test does: the page's own policy allows no injected script.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(readFileSync('node_modules/axe-core/axe.min.js', 'utf8'));
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (globalThis as unknown as { axe: { run(el: unknown, o: unknown): Promise<Result> } }).axe;
    const r = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** The window sizes every accessibility check covers. */
export const SIZES: [number, number][] = [
  [1440, 900],
  [1366, 768],
  [1280, 720],
];

/** axe-core in this state at every size, light and dark: nothing serious or critical; one `main` and an `h1`. */
export async function accessibleAt(page: Page, state: string): Promise<void> {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect({ state, width, scheme, found: await axeSerious(page) }).toEqual({ state, width, scheme, found: [] });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  expect({ state, main: await page.locator('main').count(), h1: await page.locator('h1').count() }).toEqual({ state, main: 1, h1: 1 });
}
