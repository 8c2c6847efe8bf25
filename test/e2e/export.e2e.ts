// The export dialog in real Chromium against the real core (through the test
// host) and the simulator: a file for Instantly (its headers, the pitch filled
// per person, a row whose merge field cannot be filled left out by default,
// the sender's name asked for once, mail text that starts like a formula
// written as written by default, since Instantly never runs formulas; a CSV
// for a program that may run formulas waits for the person's choice); "I
// sent these" makes its addresses contacted; then a Word mail-merge workbook,
// the text as written and nothing that can run. Files read back with Python.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { openpyxlRead, pythonCsv, xlsxPart } from '../support/readers';
import { launch, localToday, openPageAfterLaunchSync, shoot, until } from './browser';

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;

const WORD = 'Quokkabrew';
const story = (id: string, priority: number, author: string | null, emails: string[], subject: string, body: string) => ({
  _id: id,
  opportunity_type: 'publication-gap',
  title: `${WORD} ${id}`,
  url: `https://barista.example/${id}`,
  domain: 'barista.example',
  status: 'New',
  archived: false,
  priority_score: priority,
  author_name: author,
  pitch_subject: subject,
  pitch_body: body,
  contact_emails: emails,
});

beforeAll(async () => {
  browser = await launch();
  sim = await startSimulator({ seed: 7, opportunities: 30, otherBrandOpportunities: 0, citationsPerBrand: 0 });
  brandId = sim.brands[0]!.id;
  sim.inject(
    brandId,
    story('q1', 99, 'Sam García', ['SAM.garcia@BARISTA.example'], '-20% on espresso, for your readers', 'Hi {first_name},\nA data set.\n{sender_name}'),
  );
  sim.inject(brandId, story('q2', 98, null, ['desk@barista.example CATCH'], 'For the desk', 'Hi [Name], a note.'));
  host = await startHost({ baseUrl: sim.url });
  await host.call('keys:set', { key: DEMO_KEY });
  await host.call('sync:start', {});
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
  page = await openPageAfterLaunchSync(browser, host);
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
  await page.getByLabel('Brand').selectOption(brandId);
  await page.getByLabel(/^Search/).fill(WORD);
  await until(async () => (await page.locator('[role="option"]').count()) === 2, 'the two stories to be listed');
});
afterAll(async () => {
  await page.context().close();
  await host.close();
  await sim.close();
  await browser.close();
});

/** The export dialog, opened from the list with `e` (once the last one has closed). */
async function openExport() {
  await expect.poll(() => page.locator('dialog').count()).toBe(0);
  await page.locator('[role="listbox"]').focus();
  await page.keyboard.press('e');
  return page.getByRole('dialog', { name: 'Export for your mail tool' });
}

describe('exporting for a mail tool', () => {
  it("Instantly: its headers, rows with unfilled fields left out, your name asked once, mail text as written by default; then 'I sent these'", async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await dialog.getByRole('radio', { name: 'Instantly' }).check();
    await dialog.getByText(/the pitch body as \{\{personalization\}\}/).waitFor();
    // Only CSV: Instantly takes nothing else.
    expect(await dialog.getByLabel('Excel workbook (.xlsx)').count()).toBe(0);
    await dialog.getByRole('group', { name: /with merge fields not filled/ }).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Leave those rows out' }).isChecked()).toBe(true);
    // Your name for {sender_name}: asked once, kept in Settings.
    await dialog.getByLabel(/Your name, for \{sender_name\}/).fill('Sam Reed');
    await dialog.getByRole('button', { name: 'Use this name' }).click();
    await expect.poll(async () => (await host.call('settings:get')).senderName).toBe('Sam Reed');
    // The subject starts like a formula: named, and for a tool that never runs formulas it goes as written unless the person chooses otherwise.
    const mailText = dialog.getByRole('group', { name: 'Mail text that starts like a formula' });
    await mailText.waitFor();
    expect(await mailText.getByRole('radio', { name: /Write it as written/ }).isChecked()).toBe(true);
    await dialog.getByText('1 row will be exported').waitFor();
    await shoot(page, 'export-instantly');
    const out = join(host.dataDir, 'leads.csv');
    host.setSaveAs(out);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 1 row to leads.csv.').waitFor();
    const rows = pythonCsv(out);
    expect(rows).toEqual([
      ['email', 'first_name', 'last_name', 'company_name', 'subject', 'personalization', 'article_title', 'article_url', 'opportunity_id', 'catch_all'],
      [
        'SAM.garcia@barista.example',
        'Sam',
        'García',
        'barista.example',
        '-20% on espresso, for your readers',
        'Hi Sam,\nA data set.\nSam Reed',
        `${WORD} q1`,
        'https://barista.example/q1',
        'q1',
        'false',
      ],
    ]);
    // Exported is not contacted, until the person says it was sent.
    expect((await host.call('opportunities:get', { brandId, id: 'q1' }))!.triage.contacted_at).toBeNull();
    await dialog.getByRole('button', { name: 'I sent these: mark 1 address contacted' }).click();
    await page.locator('.toast', { hasText: 'Marked 1 address of 1 opportunity as contacted today.' }).waitFor();
    const d = (await host.call('opportunities:get', { brandId, id: 'q1' }))!;
    expect(d.triage.contacted_at).toBe(localToday());
    expect(d.item.stage).toBe('Contacted');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
  });

  it('Contacts as CSV: mail text that starts like a formula is given no apostrophe unasked; Save waits for a choice, and .xlsx keeps it as written', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await dialog.getByRole('radio', { name: 'Contacts (any mail tool)' }).check();
    await dialog.getByLabel('Skip addresses already contacted').uncheck();
    const mailText = dialog.getByRole('group', { name: 'Mail text that starts like a formula' });
    await mailText.waitFor();
    for (const name of [/Leave those rows out/, /Add an apostrophe/]) expect(await mailText.getByRole('radio', { name }).isChecked()).toBe(false);
    await dialog.getByTestId('choice-needed').waitFor();
    expect(await dialog.getByRole('button', { name: 'Save as…' }).isDisabled()).toBe(true);
    await mailText.getByRole('button', { name: /Save as \.xlsx instead/ }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Save as…' }).isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
  });

  it('Word/Outlook mail merge: a workbook by default, the text exactly as written, no formula anywhere', async () => {
    await page.locator('[role="listbox"]').focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await dialog.getByRole('radio', { name: 'Word/Outlook mail merge' }).check();
    expect(await dialog.getByLabel('Excel workbook (.xlsx)').isChecked()).toBe(true);
    await dialog.getByLabel('Skip addresses already contacted').uncheck();
    await dialog.getByLabel('Catch-all addresses').selectOption('include');
    await dialog.getByRole('radio', { name: 'Keep the merge fields on purpose' }).check();
    await dialog.getByText('2 rows will be exported').waitFor();
    const out = join(host.dataDir, 'merge.xlsx');
    host.setSaveAs(out);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 2 rows to merge.xlsx.').waitFor();
    const book = openpyxlRead(out);
    expect(book.formulas).toBe(0);
    expect(xlsxPart(out, 'xl/worksheets/sheet1.xml')).not.toContain('t="str"');
    const head = book.rows[0]!.map((c) => c.v);
    expect(head).toEqual([
      'Email',
      'FirstName',
      'LastName',
      'FullName',
      'Publication',
      'Subject',
      'Body',
      'ArticleTitle',
      'ArticleURL',
      'OpportunityID',
      'CatchAll',
    ]);
    const subject = head.indexOf('Subject');
    expect(book.rows.slice(1).map((r) => [r[0]!.v, r[subject]!.v, r[subject + 1]!.v])).toEqual([
      ['SAM.garcia@barista.example', '-20% on espresso, for your readers', 'Hi Sam,\nA data set.\nSam Reed'],
      ['desk@barista.example', 'For the desk', 'Hi [Name], a note.'],
    ]);
    // The catch-all inbox is said as such in its own column (the names stay empty for it).
    const catchAll = head.indexOf('CatchAll');
    expect(book.rows.slice(1).map((r) => [r[0]!.v, r[catchAll]!.v])).toEqual([
      ['SAM.garcia@barista.example', 'false'],
      ['desk@barista.example', 'true'],
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('Opportunities (review in a spreadsheet): every opportunity listed is written, merge fields and all, as the CLI writes them; no mail choice asked', async () => {
    const dialog = await openExport();
    await dialog.getByRole('radio', { name: 'Opportunities (review in a spreadsheet)' }).check();
    await dialog.getByLabel('Skip addresses already contacted').uncheck();
    await dialog.getByLabel("Mark exported opportunities with today's date").uncheck();
    const listed = await page.locator('[role="option"]').count();
    expect(listed).toBe(2);
    // As the CLI asks it (no choice about merge fields): q2's pitch holds [Name], and it is written all the same.
    const cli = await host.call('export:preview', { brandId, preset: 'opportunities', skipContacted: false, filter: { search: WORD } });
    expect(cli.rows).toBe(listed);
    await dialog.getByText(`${listed} rows will be exported`).waitFor();
    expect(await dialog.getByRole('group', { name: /with merge fields not filled/ }).count()).toBe(0);
    const out = join(host.dataDir, 'review.csv');
    host.setSaveAs(out);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText(`Saved ${listed} rows to review.csv.`).waitFor();
    const [head, ...rows] = pythonCsv(out);
    const id = head!.indexOf('_id');
    const body = head!.indexOf('pitch_body');
    expect(rows.map((r) => [r[id], r[body]]).sort()).toEqual([
      ['q1', 'Hi {first_name},\nA data set.\n{sender_name}'],
      ['q2', 'Hi [Name], a note.'],
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('"I sent these" names what a click records: the export that was made, not a preset picked after it', async () => {
    const dialog = await openExport();
    await dialog.getByRole('radio', { name: 'Contacts (any mail tool)' }).check();
    await dialog.getByLabel('Skip addresses already contacted').uncheck();
    await dialog.getByLabel('Excel workbook (.xlsx)').check();
    await dialog.getByText('1 row will be exported').waitFor();
    const out = join(host.dataDir, 'sent.xlsx');
    host.setSaveAs(out);
    await dialog.getByRole('button', { name: 'Save as…' }).click();
    await dialog.getByText('Saved 1 row to sent.xlsx.').waitFor();
    const sent = dialog.getByRole('button', { name: /^I sent these/ });
    expect(await sent.textContent()).toBe('I sent these: mark 1 address contacted');
    await dialog.getByRole('radio', { name: 'Follow-ups due' }).check();
    await dialog
      .getByTestId('preset-purpose')
      .getByText(/What the Due view shows/)
      .waitFor();
    expect(await sent.textContent()).toBe('I sent these: mark 1 address contacted');
    expect(await dialog.getByTestId('made-for').textContent()).toBe('That file was made for Contacts (any mail tool).');
    // A toast with the same words as one still shown takes its place: the ones there now are marked, and a new one must come.
    const said = /^Marked 1 address of \d+ opportunit(y|ies) as contacted today\.$/;
    await page.locator('.toast', { hasText: said }).evaluateAll((els) => els.forEach((el) => el.setAttribute('data-seen', '')));
    await sent.click();
    await expect.poll(() => page.locator('.toast:not([data-seen])', { hasText: said }).count()).toBe(1);
    const history = await host.call('history:get', { brandId, id: 'q1' });
    expect(history.entries.map((e) => e.kind)).not.toContain('followed_up');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
});
