// Debian's Chromium driven by playwright-core, with the flags this closed
// network needs (no background networking, no component updates).
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function context(browser: Browser, scheme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' });
}
