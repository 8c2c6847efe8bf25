// Debian's Chromium driven by playwright-core, with the flags this closed
// network needs (no background networking, no component updates), and what
// every browser test does with it: open a page, take screenshots, wait.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
export const SCREENS = 'test-results/screens';
mkdirSync(SCREENS, { recursive: true });

/** A fresh page on the host's URL; a native dialog opening fails the test (the app never uses them). */
export async function openPage(browser: Browser, url: string, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const ctx = await context(browser, scheme);
  const page = await ctx.newPage();
  page.on('dialog', (d) => {
    throw new Error(`A dialog opened: ${d.message()}`);
  });
  await page.goto(url);
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
