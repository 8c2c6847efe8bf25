// The outreach pipeline in the real UI, in real Chromium, against the real core
// (through the test host) and the simulator: a draft edited and saved as it is
// typed, merge fields filled for a person and flagged for a catch-all, the
// filled pitch exported to CSV and XLSX and read back, opened in Gmail on the
// web, marked contacted with one key, warned about before the same outlet is
// pitched again, snoozed and woken, grouped by publication, and, once the
// clock has moved on (the host restarted with a later `today`), due for its
// follow-up in the Due view with the follow-up draft open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { addDays } from '../../shared/calendar';
import { launch, listTotal, localToday, openPageAfterLaunchSync, shoot, until } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const rows = (page: Page) => page.locator('[role="option"]');
const toast = (page: Page, text: string | RegExp) => page.locator('.toast', { hasText: text });
const draftState = (page: Page) => page.getByTestId('draft-state');
const filledBody = (page: Page) => page.getByTestId('filled-body');
const filledSubject = (page: Page) => page.getByTestId('filled-subject');
const recipient = (page: Page, email: string) => page.getByTestId('recipients').locator('label', { hasText: email }).getByRole('checkbox');

const OUTLET = 'brewdaily.example';
const PITCH_SUBJECT = 'A data point for your espresso guide';
const PITCH_BODY =
  'Hi [Name],\n\nI read "{article_title}" on {publication} and have a groundbreaking data set on espresso extraction you could use.\n\nBest,\n{sender_name}';

function outletOpportunity(id: string, title: string, priority: number, author: string | null, emails: string[]): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://${OUTLET}/${id}`,
    domain: OUTLET,
    status: 'New',
    archived: false,
    priority_score: priority,
    author_name: author,
    pitch_subject: PITCH_SUBJECT,
    pitch_body: PITCH_BODY,
    contact_emails: emails,
  };
}

describe('the outreach pipeline', () => {
  let sim: Simulator;
  let host: Host;
  let page: Page;
  let brandId: string;
  /** The espresso guide as the simulator serves it (changed in place later: the service's new pitch). */
  let espresso: Record<string, unknown>;
  const today = localToday();
  /** What the editor showed as going out, for the exports and the mail link to match. */
  let shown = { subject: '', body: '' };

  /** The walk's page, once the window's launch sync is over (each host here syncs at launch: a key is stored). */
  async function openPage(h: Host) {
    page = await openPageAfterLaunchSync(browser, h);
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.getByLabel('Brand').selectOption(brandId);
    await until(async () => (await rows(page).count()) > 5 || (await page.getByTestId('due-note').count()) > 0, 'the list to fill');
  }

  /** Search for one opportunity by a word of its title and open it in the detail pane; the keyboard is on the list. */
  async function openOpportunity(words: string, title: string) {
    await page.getByLabel(/^Search/).fill(words);
    await expect.poll(() => rows(page).count()).toBe(1);
    await rows(page).first().click();
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(title);
    await page.locator('[role="listbox"]').focus();
    // The editor shows this opportunity's draft.
    await filledBody(page).waitFor();
  }

  async function clearSearch() {
    await page.getByLabel(/^Search/).fill('');
    await page.locator('[role="listbox"]').focus();
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBeGreaterThan(5);
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 21, opportunities: 120, otherBrandOpportunities: 5, citationsPerBrand: 10 });
    brandId = sim.brands[0]!.id;
    espresso = outletOpportunity('zorb-a', 'Aldentia espresso guide', 99, 'Ana Lopez', [`ana.lopez@${OUTLET}`, `editor@${OUTLET} CATCH`]);
    sim.inject(brandId, espresso);
    sim.inject(brandId, outletOpportunity('zorb-b', 'Brimblewood grinder roundup', 98, 'Ben Kim', [`ben@${OUTLET}`]));
    sim.inject(brandId, outletOpportunity('zorb-c', 'Crumbleton frother test', 97, null, [`tips@${OUTLET} CATCH`]));
    host = await startHost({ baseUrl: sim.url });
    await host.call('keys:set', { key: DEMO_KEY });
    await host.call('sync:start', {});
    await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
    await openPage(host);
  });
  afterAll(async () => {
    await page.context().close();
    await host.close();
    await sim.close();
  });

  it('Settings: your name for {sender_name}, and a snippet to insert later', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Pipeline', exact: true }).waitFor();
    expect(await page.getByLabel('Follow up after this many days without a reply').inputValue()).toBe('3');
    await page.getByLabel('Your name, for {sender_name}').fill('Sam Reed');
    await page.getByRole('region', { name: 'Pipeline' }).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Settings saved.').waitFor();
    expect((await host.call('settings:get')).senderName).toBe('Sam Reed');

    const snippets = page.getByRole('region', { name: 'Snippets' });
    await snippets.getByText('No snippets yet.').waitFor();
    await page.getByLabel('Kind').selectOption('signoff');
    await page.getByLabel('Snippet name').fill('Talk soon');
    await page.getByLabel('Snippet text').fill('Talk soon, {first_name}.');
    await snippets.getByRole('button', { name: 'Add the snippet' }).click();
    await toast(page, 'Snippet “Talk soon” added.').waitFor();
    await snippets.getByRole('button', { name: 'Edit the snippet Talk soon' }).waitFor();
    expect((await host.call('snippets:list')).map((x) => [x.kind, x.name, x.text])).toEqual([['signoff', 'Talk soon', 'Talk soon, {first_name}.']]);
    await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
    await until(async () => (await rows(page).count()) > 5, 'the list again');
  });

  it('edits a draft: saved as it is typed, a snippet inserted at the caret, still there after a reload, and the opportunity is Drafted', async () => {
    await openOpportunity('Aldentia', 'Aldentia espresso guide');
    const body = page.locator('#draft-body');
    await expect.poll(() => body.inputValue()).toBe(PITCH_BODY);
    expect(await page.locator('#draft-subject').inputValue()).toBe(PITCH_SUBJECT);
    expect(await draftState(page).textContent()).toBe("The service's text");
    // The hints: words against the 200-word mark, and a spam-filter word.
    expect(await page.getByTestId('word-count').textContent()).toMatch(/\d+ words of 200/);
    expect(await page.getByTestId('spam-hints').textContent()).toContain('“groundbreaking”');
    await page.keyboard.press('i');
    expect(await body.evaluate((el) => el.matches(':focus'))).toBe(true);
    await body.press('Control+End');
    await page.keyboard.type('\nP.S. Happy to send the raw numbers.');
    await expect.poll(() => draftState(page).textContent()).toBe('Saved');
    const saved = await host.call('drafts:get', { brandId, id: 'zorb-a', kind: 'pitch' });
    expect(saved.draft?.body).toBe(`${PITCH_BODY}\nP.S. Happy to send the raw numbers.`);
    // Saving the first draft of a New opportunity makes it Drafted.
    await expect.poll(() => page.getByTestId('pipeline').locator('.badge.stage').textContent()).toBe('Drafted');

    // Typed and left at once (no pause): the move away saves it.
    await body.press('Control+End');
    await page.keyboard.type(' Thanks!');
    await page.keyboard.press('Escape');
    await expect.poll(() => draftState(page).textContent()).toBe('Saved');

    // A snippet at the caret: Ctrl+J, Enter.
    await body.press('Control+End');
    await page.keyboard.type('\n');
    await page.keyboard.press('Control+j');
    const picker = page.getByRole('dialog', { name: 'Insert a snippet' });
    await picker.getByRole('option', { name: /Talk soon/ }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.count()).toBe(0);
    await expect.poll(() => body.inputValue()).toBe(`${PITCH_BODY}\nP.S. Happy to send the raw numbers. Thanks!\nTalk soon, {first_name}.`);
    expect(
      await body.evaluate((el) => [
        el.matches(':focus'),
        (el as unknown as { selectionStart: number }).selectionStart === (el as unknown as { value: string }).value.length,
      ]),
    ).toEqual([true, true]);
    await expect.poll(() => draftState(page).textContent()).toBe('Saved');

    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.getByLabel('Brand').selectOption(brandId);
    await openOpportunity('Aldentia', 'Aldentia espresso guide');
    await expect
      .poll(() => page.locator('#draft-body').inputValue())
      .toBe(`${PITCH_BODY}\nP.S. Happy to send the raw numbers. Thanks!\nTalk soon, {first_name}.`);
    expect(await draftState(page).textContent()).toBe('Saved');
    expect(await rows(page).first().locator('.badge.stage').textContent()).toBe('Drafted');
  });

  it('fills a merge field for a person, and flags it unfilled for a catch-all', async () => {
    // The personal address is chosen, the catch-all is not.
    expect(await recipient(page, `ana.lopez@${OUTLET}`).isChecked()).toBe(true);
    expect(await recipient(page, `editor@${OUTLET}`).isChecked()).toBe(false);
    await expect.poll(() => filledBody(page).textContent()).toMatch(/^Hi Ana,\n\nI read "Aldentia espresso guide" on brewdaily\.example and /);
    expect(await filledBody(page).textContent()).toMatch(/\nBest,\nSam Reed\n/);
    expect(await page.getByTestId('unfilled').count()).toBe(0);
    // The token is marked filled behind the text.
    await expect.poll(() => page.locator('.mirror mark.filled', { hasText: '[Name]' }).count()).toBe(1);
    await page.locator('#pitch-h').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, 'pipeline-editor');

    // The catch-all alone: a first name is never guessed for it.
    await recipient(page, `editor@${OUTLET}`).check();
    await recipient(page, `ana.lopez@${OUTLET}`).uncheck();
    await expect
      .poll(() => page.getByTestId('unfilled').locator('li').allTextContents())
      .toEqual(["[Name] can't be filled: the chosen address is a catch-all", "{first_name} can't be filled: the chosen address is a catch-all"]);
    await expect.poll(() => filledBody(page).textContent()).toMatch(/^Hi \[Name\],/);
    await expect.poll(() => page.locator('.mirror mark.unfilled', { hasText: '[Name]' }).count()).toBe(1);
    await page.locator('#pitch-h').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, 'pipeline-unfilled');

    // Sending now asks first, naming what is not filled.
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('m');
    const ask = page.getByTestId('before-send');
    await ask.getByText("[Name] can't be filled: the chosen address is a catch-all").waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => ask.count()).toBe(0);
    expect(host.opened()).toEqual([]);

    await recipient(page, `ana.lopez@${OUTLET}`).check();
    await recipient(page, `editor@${OUTLET}`).uncheck();
    await expect.poll(() => page.getByTestId('unfilled').count()).toBe(0);
    await expect.poll(() => filledBody(page).textContent()).toMatch(/^Hi Ana,/);
    shown = { subject: (await filledSubject(page).textContent())!, body: (await filledBody(page).textContent())! };
    expect(shown.body).toBe(
      'Hi Ana,\n\nI read "Aldentia espresso guide" on brewdaily.example and have a groundbreaking data set on espresso extraction you could use.\n\nBest,\nSam Reed\nP.S. Happy to send the raw numbers. Thanks!\nTalk soon, Ana.',
    );
  });

  it('exports the filled pitch to CSV and to XLSX; both read back as the editor showed it', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('x');
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await dialog.getByText('1 row will be exported').waitFor();
    await dialog.getByLabel("Mark exported opportunities with today's date").uncheck();

    const csv = join(host.dataDir, 'pitch.csv');
    host.setSaveAs(csv);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 1 row to pitch.csv.').waitFor();
    const fromCsv = parse(readFileSync(csv, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(fromCsv).toHaveLength(1);
    expect(fromCsv[0]).toMatchObject({ email: `ana.lopez@${OUTLET}`, stage: 'Drafted', subject: shown.subject, body: shown.body, unfilled: '' });

    await dialog.getByLabel('Excel workbook (.xlsx)').check();
    await dialog.getByText('1 row will be exported').waitFor();
    const xlsx = join(host.dataDir, 'pitch.xlsx');
    host.setSaveAs(xlsx);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 1 row to pitch.xlsx.').waitFor();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name)).text;
    expect(sheet.rowCount).toBe(2);
    expect(cell('email')).toBe(`ana.lopez@${OUTLET}`);
    expect(cell('subject')).toBe(shown.subject);
    expect(cell('body')).toBe(shown.body);

    await dialog.getByRole('button', { name: 'Close' }).click();
    // Gone from the page (its close event handled), not only closed: the keys are the list's again.
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    await page.keyboard.press('Escape'); // the selection
    await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).count()).toBe(0);
  });

  it('opens the pitch in Gmail on the web with to, subject and body; y marks it contacted with that address', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Shift+G');
    await expect.poll(() => host.opened().length).toBe(1);
    const link = host.opened()[0]!;
    expect(link.startsWith('https://mail.google.com/mail/?view=cm')).toBe(true);
    const q = new URL(link).searchParams;
    expect(q.get('to')).toBe(`ana.lopez@${OUTLET}`);
    expect(q.get('su')).toBe(shown.subject);
    expect(q.get('body')).toBe(shown.body);
    const sent = page.getByTestId('sent');
    await sent.getByText('Opening Gmail in your browser.').waitFor();
    await sent.getByText(`Mark contacted today (1 address: ana.lopez@${OUTLET})?`).waitFor();

    await page.keyboard.press('y');
    await toast(page, `Marked contacted today: ana.lopez@${OUTLET}.`).waitFor();
    await expect.poll(() => page.getByTestId('pipeline').locator('.badge.stage').textContent()).toBe('Contacted');
    expect(await sent.count()).toBe(0);
    const d = await host.call('opportunities:get', { brandId, id: 'zorb-a' });
    expect(d?.item.contacted_at).toBe(today);
    expect(d?.item.stage).toBe('Contacted');
  });

  it('warns before the same outlet is pitched again, naming when and for which opportunity', async () => {
    await openOpportunity('Brimblewood', 'Brimblewood grinder roundup');
    const warning = `brewdaily.example was contacted on ${today} for «Aldentia espresso guide» (the same outlet).`;
    await expect.poll(() => page.getByTestId('contact-warnings').locator('li').allTextContents()).toEqual([warning]);
    await page.keyboard.press('Shift+O');
    const ask = page.getByTestId('before-send');
    await ask.waitFor();
    expect(await ask.locator('li').allTextContents()).toEqual([warning]);
    expect(await ask.getByRole('button', { name: 'Open in Outlook anyway' }).evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => ask.count()).toBe(0);
    expect(host.opened()).toHaveLength(1);
  });

  it('snoozes to tomorrow (out of the list, in the Snoozed view) and wakes it again', async () => {
    // Still on the grinder roundup.
    await page.keyboard.press('s');
    const picker = page.getByRole('dialog', { name: 'Snooze this opportunity' });
    await picker.waitFor();
    await page.keyboard.press('t');
    await toast(page, /^Snoozed until .*: it leaves the list until then\.$/).waitFor();
    await expect.poll(() => rows(page).count()).toBe(0);

    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Shift+Z');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('until');
    await rows(page).first().click();
    await page
      .getByTestId('pipeline')
      .getByText(/^Snoozed until /)
      .waitFor();
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('u');
    await toast(page, 'It is back in the list.').waitFor();
    await expect.poll(() => rows(page).count()).toBe(0);
    await page.keyboard.press('Shift+Z'); // the whole list again
    await expect.poll(() => rows(page).count()).toBe(1);
    expect((await host.call('opportunities:get', { brandId, id: 'zorb-b' }))?.item.snoozed_until).toBeNull();

    // The frother test snoozed until tomorrow stays snoozed for the clock to move on.
    await openOpportunity('Crumbleton', 'Crumbleton frother test');
    await page.keyboard.press('s');
    await page.getByRole('dialog', { name: 'Snooze this opportunity' }).waitFor();
    await page.keyboard.press('t');
    await expect.poll(() => rows(page).count()).toBe(0);
    expect((await host.call('opportunities:get', { brandId, id: 'zorb-c' }))?.item.snoozed_until).toBe(addDays(today, 1));
  });

  it('groups by publication: sorted by outlet, a head before the rows of each with its count', async () => {
    await clearSearch();
    await page.keyboard.press('g');
    await expect.poll(() => page.locator('.head select').inputValue()).toBe('domain');
    const counts = await host.call('opportunities:domains', { brandId, sort: 'domain' });
    await expect.poll(() => page.getByTestId('outlet').count()).toBeGreaterThan(1);
    // The counts follow the rows (… until they are in).
    await expect.poll(async () => (await page.getByTestId('outlet').allTextContents()).some((t) => t.endsWith('…'))).toBe(false);
    // Every outlet marker on screen names its outlet and the count the core has for it; between two markers, one outlet.
    const listed = await rows(page).evaluateAll((els) =>
      els
        .map((el) => ({
          top: Number(/translateY\((\d+)px\)/.exec(el.getAttribute('style') ?? '')?.[1] ?? -1),
          outlet: el.querySelector('[data-testid="outlet"]')?.textContent ?? null,
          domain: el.querySelector('.meta > span')?.textContent ?? '',
        }))
        .sort((a, b) => a.top - b.top),
    );
    let current = '';
    for (const r of listed) {
      if (r.outlet !== null) {
        const [domain, n] = r.outlet.split(' · ');
        expect(domain!.toLowerCase() > current || current === '').toBe(true);
        current = domain!.toLowerCase();
        expect(Number(n)).toBe(counts[current]);
      } else expect(r.domain.toLowerCase()).toBe(current);
    }
    await shoot(page, 'pipeline-grouped');

    // One outlet: its opportunities read as one pitch plan (the snoozed one is out of the list).
    await page.getByLabel('Domain contains').fill('brewdaily');
    // Its head, then its two rows.
    await expect.poll(() => rows(page).count()).toBe(3);
    await expect.poll(() => rows(page).locator('.meta .domain').count()).toBe(2);
    await expect.poll(() => page.getByTestId('outlet').allTextContents()).toEqual(['brewdaily.example · 2']);
    await page.getByLabel('Domain contains').fill('');
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('g');
    await expect.poll(() => page.getByTestId('outlet').count()).toBe(0);
    expect(await page.locator('.head select').inputValue()).toBe('priority');
  });

  it("a sync that changes the service's pitch under a draft: the pane says so and shows the difference; the draft stays", async () => {
    espresso.pitch_body = PITCH_BODY.replace('a groundbreaking data set', 'a fresh data set');
    await page.getByRole('button', { name: /Sync now|Retry sync/ }).click();
    await toast(page, /^Synced: 0 new, 1 changed\.$/).waitFor({ timeout: 60_000 });
    await openOpportunity('Aldentia', 'Aldentia espresso guide');
    const box = page.getByTestId('service-changed');
    await box.getByText('The service changed its pitch since you started this draft.').waitFor();
    expect(await box.locator('.diff .del').allTextContents()).toEqual([
      '- I read "{article_title}" on {publication} and have a groundbreaking data set on espresso extraction you could use.\n',
    ]);
    expect(await box.locator('.diff .add').allTextContents()).toEqual([
      '+ I read "{article_title}" on {publication} and have a fresh data set on espresso extraction you could use.\n',
    ]);
    expect(await page.locator('#draft-body').inputValue()).toContain('a groundbreaking data set');
    await page.locator('#pitch-h').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, 'pipeline-service-changed');
    // Reset asks first; Esc keeps the draft.
    await page.keyboard.press('Shift+R');
    const ask = page.getByRole('group', { name: 'Reset the draft' });
    await ask.waitFor();
    expect(await ask.getByRole('button', { name: "Reset to the service's text" }).evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => ask.count()).toBe(0);
    expect((await host.call('drafts:get', { brandId, id: 'zorb-a', kind: 'pitch' })).draft?.body).toContain('a groundbreaking data set');
    await clearSearch();
  });

  it('three days on: the follow-up is due at launch, the Due view opens its follow-up, and the snoozed one is back with a marker', async () => {
    await page.context().close();
    await host.close();
    const later = addDays(today, 3);
    host = await startHost({ baseUrl: sim.url, dataDir: host.dataDir, today: later });
    await host.call('keys:set', { key: DEMO_KEY });
    expect((await host.call('pipeline:due')).byBrand[brandId]).toBe(1);
    await openPage(host);
    const note = page.getByTestId('due-note');
    await expect.poll(() => note.textContent()).toContain('1 follow-up due');

    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('Shift+D');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().locator('.title').textContent()).toBe('Aldentia espresso guide');
    await rows(page).first().click();
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe('Aldentia espresso guide');
    // The editor is on the follow-up: its own short text, filled for the address the pitch went to.
    await expect
      .poll(() => page.getByRole('group', { name: 'Which draft' }).getByRole('button', { name: 'Follow-up' }).getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => filledSubject(page).textContent()).toBe(`Re: ${PITCH_SUBJECT}`);
    expect(await filledBody(page).textContent()).toMatch(/^Hi Ana,\n\nA quick follow-up on my note about Aldentia espresso guide/);
    expect(await note.count()).toBe(0);
    await page.locator('#pitch-h').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, 'pipeline-due');

    // The follow-ups export lists what the Due view shows, with the follow-up filled as the editor shows it.
    const followUp = { subject: (await filledSubject(page).textContent())!, body: (await filledBody(page).textContent())! };
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    expect(await dialog.getByRole('radio', { name: /Follow-ups due/ }).isChecked()).toBe(true);
    await dialog.getByText('1 row will be exported').waitFor();
    const csv = join(host.dataDir, 'follow-ups.csv');
    host.setSaveAs(csv);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 1 row to follow-ups.csv.').waitFor();
    const due = parse(readFileSync(csv, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({
      email: `ana.lopez@${OUTLET}`,
      title: 'Aldentia espresso guide',
      contacted_at: today,
      subject: followUp.subject,
      body: followUp.body,
    });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('dialog').count()).toBe(0);

    // Mark followed up: it leaves the Due view, and the count goes.
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('f');
    await toast(page, 'Marked followed up today.').waitFor();
    await expect.poll(() => rows(page).count()).toBe(0);
    expect((await host.call('opportunities:get', { brandId, id: 'zorb-a' }))?.item.stage).toBe('Followed up');
    expect((await host.call('pipeline:due')).total).toBe(0);

    // The frother test's day has come: back in the list, with a marker.
    await page.keyboard.press('Shift+D');
    await page.getByLabel(/^Search/).fill('Crumbleton');
    await expect.poll(() => rows(page).count()).toBe(1);
    await rows(page).first().locator('.badge.back', { hasText: 'back from snooze' }).waitFor();
    await rows(page).first().click();
    await page.getByTestId('back-from-snooze').waitFor();
  });
});
