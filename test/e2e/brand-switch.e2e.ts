// A note typed and the brand switched at once, in the real UI in real Chromium
// against the real core (through the test host) and the simulator: a person
// types a note on an opportunity and, the focus still in the note, picks
// another brand in the brand switcher before typing has paused long enough for
// the note to save itself. The note is saved to the opportunity it was typed
// for (the core has it), is not shown on the other brand's opportunity, and
// reads back when the person comes back to the first brand. The page's clock
// is held from the first keystroke until the core has the note, so the save
// can only be the switch's, never the pause's own (500 ms), however slow the
// machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { closeWalk, launch, openPageAfterLaunchSync, until } from './browser';

const NOTE = 'Call Mia on Tuesday: she wants the extraction data first.';

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let first: string;
let other: string;

/** The top opportunity of a brand (priority 100, above every generated one), so it is the list's first row. */
function top(id: string, title: string): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://notes.example/${id}`,
    domain: 'notes.example',
    status: 'New',
    archived: false,
    priority_score: 100,
    pitch_subject: 'A data point',
    pitch_body: 'Hi [Name],\n\nData you could use.\n\nBest,\nSam',
    contact_emails: ['mia@notes.example'],
  };
}

const noteInCore = async (brandId: string, id: string) => (await host.call('opportunities:get', { brandId, id }))!.triage.note;
const detailTitle = () => page.locator('.detail h2').textContent();
const focusedId = () => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id);

/** Show a brand's list, wait for its first row's detail, with the keyboard on the list. */
async function showBrand(brandId: string, title: string): Promise<void> {
  await page.getByLabel('Brand').selectOption(brandId);
  await until(async () => (await detailTitle()) === title, `${title} to be open`, 10_000);
}

beforeAll(async () => {
  browser = await launch();
  sim = await startSimulator({ seed: 61, brands: 2, opportunities: 30, otherBrandOpportunities: 30, citationsPerBrand: 0 });
  [first, other] = [sim.brands[0]!.id, sim.brands[1]!.id];
  sim.inject(first, top('note-a', 'Notes A: the espresso guide'));
  sim.inject(other, top('note-b', 'Notes B: the grinder roundup'));
  host = await startHost({ baseUrl: sim.url });
  await host.call('keys:set', { key: DEMO_KEY });
  await host.call('sync:start', {});
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
  // The window's launch sync of its own, done before the walk (it reloads the list when it ends).
  page = await openPageAfterLaunchSync(browser, host, 'light', { clock: true, failOnPageError: true });
  await showBrand(first, 'Notes A: the espresso guide');
});
afterAll(() => closeWalk(page, host, sim, browser));

describe('a note and the brand switcher', () => {
  it('a note typed with the focus still in it when the brand is switched is saved to its own opportunity, and reads back on coming back', async () => {
    await page.getByRole('listbox').focus();
    await page.keyboard.press('n');
    expect(await focusedId()).toBe('note');
    // Time stands still from here until the core has the note: the note's own save after a pause cannot run.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.keyboard.type(NOTE);
    await expect.poll(() => page.locator('label[for="note"] .save').textContent()).toBe('Unsaved');
    expect(await noteInCore(first, 'note-a')).toBe('');
    await page.getByLabel('Brand').selectOption(other);
    expect(await focusedId()).toBe('note');
    // The core has it, for the opportunity it was typed for, with the page's clock still held: the switch saved it
    // (no timer of the page runs before resume(), so the pause's own save cannot have done so).
    await expect.poll(() => noteInCore(first, 'note-a'), { timeout: 10_000 }).toBe(NOTE);
    await page.clock.resume();
    // The other brand's first opportunity is on screen, its own (empty) note in the box; the note went nowhere else.
    await expect.poll(detailTitle, { timeout: 10_000 }).toBe('Notes B: the grinder roundup');
    expect(await page.locator('#note').inputValue()).toBe('');
    expect(await noteInCore(other, 'note-b')).toBe('');
    // Back to the first brand: the note reads back.
    await showBrand(first, 'Notes A: the espresso guide');
    await expect.poll(() => page.locator('#note').inputValue(), { timeout: 10_000 }).toBe(NOTE);
    expect(await page.locator('label[for="note"] .save').textContent()).toBe('Saved');
  });
});
