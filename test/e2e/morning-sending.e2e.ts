// The rest of a PR person's morning, keyboard only, in real Chromium against
// the real core (through the test host) and the simulator: the points of
// issue 20 the first walk (morning.e2e.ts) leaves to the core's tests.
// A sync whose size is known says "x of y rows" and the time left while the
// list stays readable (20.10); an export with the dialog's defaults pitches
// nobody until "I sent these", and then only the addresses it carried, never
// an outlet through a catch-all it left out, and XLSX counts the same rows
// (20.6); a person and a role address in one To: are asked about first ("one
// message each" or Bcc), the hints count the filled text, and the follow-up
// answers the subject that was sent (20.8). axe-core finds nothing serious or
// critical in each of these states, at every size, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { accessibleAt, closeWalk, launch, listTotal, openPage } from './browser';

const PRESS = 'pressbox.example';
const INK = 'inkwell.example';
// Seventeen words, 99 characters: filled into a subject of one merge field, it is far over 60.
const LONG_TITLE = 'Nine new ways that cold brew coffee changes the morning routine of every busy newsroom editor today';
const SENT_SUBJECT = 'Cold brew numbers for your desk';

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;

const rows = (p: Page) => p.locator('[role="option"]');
const toast = (p: Page, text: string | RegExp) => p.locator('.toast', { hasText: text });
const pitchedBadges = (p: Page) => p.locator('[role="option"] .badge.warn', { hasText: /^pitched / });
const focused = (p: Page, selector: string, text = '') =>
  p.evaluate(
    ([s, t]) => {
      type El = { matches(s: string): boolean; closest(s: string): El | null; textContent: string | null };
      const el = (globalThis as unknown as { document: { activeElement: El | null } }).document.activeElement;
      return !!el && el.matches(s!) && ((el.closest('.note') ?? el.closest('label') ?? el).textContent ?? '').includes(t!);
    },
    [selector, text],
  );
async function tabTo(selector: string, text = '', max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await focused(page, selector, text)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} ${text}`);
}
/** The list narrowed to one outlet by its field (keyboard), the focus back on the list. */
async function outlet(domain: string, expected: number): Promise<void> {
  await tabTo('#domain');
  await page.keyboard.press('Control+a');
  await page.keyboard.type(domain);
  await expect.poll(() => listTotal(page)).toBe(expected);
  await page.keyboard.press('Escape');
  expect(await focused(page, '[role="listbox"]')).toBe(true);
}
/** "Hide already pitched" ticked by the keyboard while `look` runs, then unticked; the focus back on the list. */
async function hidingPitched(look: () => Promise<unknown>): Promise<void> {
  await tabTo('input[type="checkbox"]', 'Hide already pitched');
  await page.keyboard.press(' ');
  await expect.poll(() => page.getByLabel('Hide already pitched').isChecked()).toBe(true);
  await look();
  await page.keyboard.press(' ');
  await expect.poll(() => page.getByLabel('Hide already pitched').isChecked()).toBe(false);
  await page.locator('[role="listbox"]').focus();
}
/** The export dialog's count of rows. */
const checked = (dialog: ReturnType<Page['getByRole']>) => dialog.locator('.check p').first().textContent();
/** The titles of the rows on screen that carry a "pitched" badge. */
const pitchedTitles = () =>
  rows(page).evaluateAll((rs) =>
    rs.filter((r) => /(^|\s)pitched \d/.test(r.querySelector('.meta')?.textContent ?? '')).map((r) => r.querySelector('.title')?.textContent?.trim()),
  );
/** What the core lists at an outlet with "Hide already pitched" on. */
const unpitchedInCore = async (domain: string) =>
  (await host.call('opportunities:list', { filter: { brandId, domain, alreadyPitched: false }, offset: 0, limit: 50 })).items.map((it) => it.id).sort();

function opportunity(id: string, domain: string, title: string, emails: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://${domain}/${id}`,
    domain,
    status: 'New',
    archived: false,
    priority_score: 90,
    difficulty: 'Easy',
    author_name: null,
    pitch_subject: 'A data point for {publication}',
    // Nothing a row could lack: the export's default (leave out rows with merge fields not filled) keeps every address.
    pitch_body: 'Hello,\n\nA short note with numbers.\n\nBest,\nSam',
    contact_emails: emails,
    ...extra,
  };
}

beforeAll(async () => {
  browser = await launch();
  // Three pages of 500; the second page of the first sync takes a while to come.
  sim = await startSimulator({
    seed: 43,
    brands: 1,
    opportunities: 1200,
    citationsPerBrand: 0,
    faults: [{ kind: 'latency', ms: 3000, path: '/get-outreach', after: 1 }],
  });
  brandId = sim.brands[0]!.id;
  // An outlet with a person, a catch-all shared by two opportunities, and a second person.
  sim.inject(brandId, opportunity('px-a', PRESS, 'Pressbox grinder roundup', [`ana@${PRESS}`, `desk@${PRESS} CATCH`]));
  sim.inject(brandId, opportunity('px-b', PRESS, 'Pressbox frother test', [`desk@${PRESS} CATCH`]));
  sim.inject(brandId, opportunity('px-c', PRESS, 'Pressbox kettle review', [`ben@${PRESS}`]));
  // A person and a role address in one opportunity; a subject and body that are mostly a long merge field.
  sim.inject(
    brandId,
    opportunity('ik-a', INK, LONG_TITLE, [`nora.lane@${INK}`, `tips@${INK}`], {
      author_name: 'Nora Lane',
      pitch_subject: '{article_title}',
      pitch_body: 'About {article_title}: data.',
    }),
  );
  host = await startHost({ baseUrl: sim.url });
  page = await openPage(browser, host.url);
  page.on('pageerror', (e) => {
    throw e;
  });
});
afterAll(() => closeWalk(page, host, sim, browser));

describe("the rest of a PR person's morning, keyboard only", () => {
  it('a sync whose size is known: "x of y rows" and the time left, the list readable while it runs', async () => {
    await page.getByLabel('Your Trakkr API key').waitFor();
    await tabTo('#key');
    await page.keyboard.type(DEMO_KEY);
    await page.keyboard.press('Enter');
    // The first sync: its size is not known yet, so no total and no time left.
    await expect.poll(() => listTotal(page), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('sync-progress').textContent()).toMatch(/^Syncing opportunities: 1 page, 500 rows, [\d.]+ rows\/s$/);
    await toast(page, /^Synced/).waitFor({ timeout: 60_000 });
    const all = (await host.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 })).total;
    expect(all).toBeGreaterThan(1000);

    // The next sync knows the size from this one: its progress says how far along it is and the time left.
    sim.addFaults({ kind: 'latency', ms: 8000, path: '/get-outreach', after: 1 });
    await tabTo('button', 'Sync now');
    await page.keyboard.press('Enter');
    const progress = page.getByTestId('sync-progress');
    await expect
      .poll(() => progress.textContent(), { timeout: 20_000 })
      .toMatch(/^Syncing opportunities: 1 page, 500 of [\d,]+ rows, [\d.]+ rows\/s, about \d+ (s|min) left$/);
    const [, total] = /500 of ([\d,]+) rows/.exec((await progress.textContent())!)!;
    expect(Number(total!.replace(/,/g, ''))).toBeGreaterThanOrEqual(1200);
    // The list stays as it is and readable meanwhile.
    expect(await rows(page).count()).toBeGreaterThan(5);
    expect(await progress.count()).toBe(1);
    await accessibleAt(page, 'a sync with its size known');
    await expect.poll(() => progress.count(), { timeout: 60_000 }).toBe(0);
    await toast(page, /^Synced/)
      .last()
      .waitFor();
    await page.locator('[role="listbox"]').focus();
  });

  it('an export with the defaults pitches nobody; "I sent these" pitches only the addresses it carried; XLSX counts the same rows', async () => {
    await outlet(PRESS, 3);
    expect(await pitchedTitles()).toEqual([]);
    // "Hide already pitched" keeps all three before anything is sent.
    await hidingPitched(async () => expect.poll(() => listTotal(page)).toBe(3));

    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    // The defaults: Contacts as CSV, catch-alls left out, today's date marked on what is exported.
    await expect.poll(() => checked(dialog)).toBe('2 rows will be exported.');
    expect(await dialog.getByLabel('Catch-all addresses').inputValue()).toBe('exclude');
    expect(await dialog.getByLabel("Mark exported opportunities with today's date").isChecked()).toBe(true);
    // The same export as a workbook: the same rows, not "0 rows".
    await tabTo('input[type="radio"][value="xlsx"]');
    await page.keyboard.press(' ');
    await expect.poll(() => dialog.getByRole('radio', { name: 'Excel workbook (.xlsx)' }).isChecked()).toBe(true);
    await expect.poll(() => checked(dialog)).toBe('2 rows will be exported.');
    expect(await dialog.getByText(/^0 rows/).count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => dialog.getByRole('radio', { name: 'CSV' }).isChecked()).toBe(true);
    await expect.poll(() => checked(dialog)).toBe('2 rows will be exported.');
    host.setSaveAs(join(host.dataDir, 'pressbox.csv'));
    await tabTo('button', 'Save as…');
    await page.keyboard.press('Enter');
    await dialog.getByText('Saved 2 rows to pressbox.csv.').waitFor();
    // Exported is not pitched: no row says so, and "Hide already pitched" still keeps all three.
    expect(await pitchedTitles()).toEqual([]);
    expect(await unpitchedInCore(PRESS)).toEqual(['px-a', 'px-b', 'px-c']);
    await accessibleAt(page, 'export saved, not yet sent');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    expect(await pitchedTitles()).toEqual([]);
    await hidingPitched(async () => expect.poll(() => listTotal(page)).toBe(3));

    // The same export again, and this time the person says it was sent.
    await page.keyboard.press('e');
    await expect.poll(() => checked(dialog)).toBe('2 rows will be exported.');
    host.setSaveAs(join(host.dataDir, 'pressbox-sent.csv'));
    await tabTo('button', 'Save as…');
    await page.keyboard.press('Enter');
    await dialog.getByText('Saved 2 rows to pressbox-sent.csv.').waitFor();
    await tabTo('button', 'I sent these');
    expect(await focused(page, 'button', 'I sent these: mark 2 addresses contacted')).toBe(true);
    await page.keyboard.press('Enter');
    await toast(page, /^Marked 2 addresses of 2 opportunities as contacted today\./).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Pitched: the two whose people were carried; the one whose only address is the left-out catch-all is not.
    await expect.poll(() => pitchedTitles()).toEqual(['Pressbox grinder roundup', 'Pressbox kettle review']);
    expect(await pitchedBadges(page).count()).toBe(2);
    // A pitched row's outlet gives way to its badges: its whole name is in the title a pointer reads.
    const pitchedRows = rows(page).filter({ has: page.locator('.badge.warn', { hasText: /^pitched / }) });
    expect(await pitchedRows.locator('.meta .domain').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).toEqual([PRESS, PRESS]);
    expect(await unpitchedInCore(PRESS)).toEqual(['px-b']);
    await hidingPitched(async () => {
      await expect.poll(() => listTotal(page)).toBe(1);
      expect(await rows(page).first().locator('.title').textContent()).toBe('Pressbox frother test');
    });
    await expect.poll(() => listTotal(page)).toBe(3);
  });

  it('a single pitch: the hints count the filled text; a person with a role address is asked about first; the follow-up answers the subject sent', async () => {
    await outlet(INK, 1);
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(LONG_TITLE);
    // The hints count what goes out (the long title filled in), not the template ("{article_title}" is one word, 15 characters).
    const filled = page.getByTestId('filled-subject');
    await expect.poll(() => filled.textContent()).toBe(LONG_TITLE);
    expect(await page.locator('#subject-hint').textContent()).toMatch(/^\s*99 characters: inboxes cut a subject after about 60/);
    expect(await page.getByTestId('filled-body').textContent()).toBe(`About ${LONG_TITLE}: data.`);
    expect(await page.getByTestId('word-count').textContent()).toMatch(/^\s*19 words of 200\./);

    // Both addresses to one To:; the role address is named as one.
    await page.keyboard.press('a');
    const to = page.getByTestId('recipients');
    expect(
      await to
        .locator('label', { hasText: `tips@${INK}` })
        .getByText('role address')
        .count(),
    ).toBe(1);
    // The keyboard's way: a to the first address, Tab to the next, Space ticks what is not yet chosen.
    for (const [i, address] of [`nora.lane@${INK}`, `tips@${INK}`].entries()) {
      if (i > 0) await page.keyboard.press('Tab');
      const box = to.locator('label', { hasText: address }).getByRole('checkbox');
      expect(await box.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      if (!(await box.isChecked())) await page.keyboard.press(' ');
      await expect.poll(() => box.isChecked()).toBe(true);
    }

    // The subject edited before sending, so what is sent differs from the service's.
    await page.keyboard.press('Escape');
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    await page.keyboard.press('i');
    expect(await focused(page, '#draft-body')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page, '#draft-subject')).toBe(true);
    await page.keyboard.press('Control+a');
    await page.keyboard.type(SENT_SUBJECT);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('draft-state').textContent()).toBe('Saved');
    await expect.poll(() => filled.textContent()).toBe(SENT_SUBJECT);
    expect(await page.locator('#subject-hint').textContent()).toMatch(/^\s*31 characters\.\s*$/);

    // Open in mail: nothing opens until the person chooses how to write to a person and a shared inbox.
    const opened = host.opened().length;
    await page.keyboard.press('m');
    const mix = page.getByTestId('mix');
    await mix.waitFor();
    expect(await mix.locator('p').first().textContent()).toMatch(new RegExp(`tips@${INK.replace('.', '\\.')}`));
    expect(await mix.getByRole('button').allTextContents()).toEqual(['One message each', 'Shared inbox in Bcc', 'Send together', 'Go back Esc']);
    expect(host.opened().length).toBe(opened);
    await accessibleAt(page, 'a person and a shared inbox in one To:');
    await tabTo('[data-testid="mix"] button', 'One message each');
    await page.keyboard.press('Enter');
    await expect.poll(() => host.opened().length).toBe(opened + 2);
    const mails = host.opened().slice(opened);
    expect(mails.map((m) => m.replace(/\?.*$/, '')).sort()).toEqual([`mailto:nora.lane@${INK}`, `mailto:tips@${INK}`]);
    for (const m of mails) expect(new URL(m).searchParams.get('subject')).toBe(SENT_SUBJECT);
    await page.getByTestId('sent').waitFor();
    await page.keyboard.press('y');
    await toast(page, /^Marked contacted today/).waitFor();

    // The follow-up answers the subject that went out, not the service's.
    await page.keyboard.press('t');
    await expect
      .poll(() => page.getByRole('group', { name: 'Which draft' }).getByRole('button', { name: 'Follow-up' }).getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => filled.textContent()).toBe(`Re: ${SENT_SUBJECT}`);
  });
});
