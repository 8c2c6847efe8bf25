// The user's record in the real UI, in real Chromium, against the real core
// (through the test host) and the simulator: the history in the detail pane
// ("pitched at this outlet already?"), the record to and from a file, the
// do-not-contact list from CSV, backups and restoring one, the File menu's
// commands, and the notice after a damaged cache was rebuilt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { launch, localToday, openPage, openPageAfterLaunchSync, shoot, until } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});
const open = (host: Host, scheme: 'light' | 'dark' = 'light'): Promise<Page> => openPage(browser, host.url, scheme);

const rows = (page: Page) => page.locator('[role="option"]');
const toast = (page: Page, text: string | RegExp) => page.locator('.toast', { hasText: text });
const history = (page: Page) => page.getByTestId('history');
const sameOutlet = (page: Page) => page.getByTestId('same-outlet');
/** A stage button of the detail pane (its name is the stage and its key). */
const stageButton = (page: Page, stage: string) =>
  page.getByRole('group', { name: 'Outreach stage' }).getByRole('button', { name: new RegExp(`^${stage}\\b`) });

function outlet(id: string, title: string): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://samebeat.example/${id}`,
    domain: 'samebeat.example',
    status: 'New',
    archived: false,
    priority_score: 99,
    pitch_subject: `About ${title}`,
    pitch_body: 'A short pitch.',
    contact_emails: [`desk-${id}@samebeat.example`],
  };
}

describe("the user's record", () => {
  let sim: Simulator;
  let host: Host;
  let page: Page;
  let brandId: string;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 12, opportunities: 150, otherBrandOpportunities: 5, citationsPerBrand: 10 });
    brandId = sim.brands[0]!.id;
    sim.inject(brandId, outlet('beat-a', 'Quillfeather review'));
    sim.inject(brandId, outlet('beat-b', 'Marrowbrook feature'));
    host = await startHost({ baseUrl: sim.url });
    await host.call('keys:set', { key: DEMO_KEY });
    await host.call('sync:start', {});
    await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
    page = await openPageAfterLaunchSync(browser, host);
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.getByLabel('Brand').selectOption(brandId);
    await until(async () => (await rows(page).count()) > 5, 'the list to fill');
  });
  afterAll(async () => {
    await page.context().close();
    await host.close();
    await sim.close();
  });

  /** Search for one opportunity by its title and open it in the detail pane. */
  async function openOpportunity(title: string) {
    await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
    await page.getByLabel(/^Search/).fill(title.split(' ')[0]!);
    await expect.poll(() => rows(page).count()).toBe(1);
    await rows(page).first().click();
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(title);
  }

  async function settings() {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Your record', exact: true }).waitFor();
  }

  it('the detail pane shows what was done, newest first, and what was done at the same outlet already', async () => {
    await openOpportunity('Quillfeather review');
    await history(page)
      .getByText(/Nothing done here yet/)
      .waitFor();
    expect(await sameOutlet(page).count()).toBe(0);
    await stageButton(page, 'Replied').click();
    // Read again after the triage change, without moving away.
    await history(page).locator('li', { hasText: 'Stage: Replied' }).waitFor();

    await openOpportunity('Marrowbrook feature');
    await history(page)
      .getByText(/Nothing done here yet/)
      .waitFor();
    await page.getByRole('button', { name: 'Mark contacted today' }).click();
    await history(page)
      .locator('li', { hasText: `Marked contacted: ${localToday()}` })
      .waitFor();
    await page.getByRole('button', { name: 'Star', exact: true }).click();
    // Marked contacted moves the stage on, each in the history (Trakkr's own status is never written).
    await expect
      .poll(async () =>
        (await history(page).locator('li').allTextContents()).map((t) => /Star: on|Marked contacted|Stage: Contacted|Status set/.exec(t)?.[0] ?? t).sort(),
      )
      .toEqual(['Marked contacted', 'Stage: Contacted', 'Star: on']);

    // Back at A: the one-look answer to "did we pitch this outlet already".
    await openOpportunity('Quillfeather review');
    const line = sameOutlet(page).locator('li');
    await expect.poll(() => line.count()).toBe(1);
    expect(await sameOutlet(page).getByRole('heading').textContent()).toBe('At this outlet already');
    expect(await line.textContent()).toMatch(new RegExp(`Marked contacted: ${localToday()}\\s+on\\s+Marrowbrook feature`));
    expect(await history(page).locator('li').allTextContents()).toEqual([expect.stringContaining('Stage: Replied')]);
    await page.locator('.detail').evaluate((el) => (el.scrollTop = 0));
    await shoot(page, 'record-01-detail-history');
  });

  it('exports the record to a file: versioned JSON with the triage', async () => {
    const out = join(host.dataDir, 'my-record.json');
    host.setSaveAs(out);
    await settings();
    await page.getByRole('button', { name: 'Export your record…' }).click();
    await toast(page, /^Your record is saved in my-record\.json: 2 triaged, 0 notes, 0 do-not-contact entries, 0 exports, 4 history entries\.$/).waitFor();
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file).toMatchObject({ format: 'outreach-workbench-record', version: 3 });
    expect(file.triage).toContainEqual(expect.objectContaining({ brand_id: brandId, opportunity_id: 'beat-a', stage: 'Replied' }));
    expect(file.triage).toContainEqual(expect.objectContaining({ brand_id: brandId, opportunity_id: 'beat-b', starred: true, contacted_at: localToday() }));
  });

  it('imports a do-not-contact CSV: the column is chosen, the preview counts and says why lines were skipped, then the list has them', async () => {
    const csv = join(host.dataDir, 'press-list.csv');
    writeFileSync(csv, 'Name,Work mail,Site\nAna,ana@paper.example,paper.example\nBo,not an address,\nCy,Cy@Mag.Example,mag.example\nDee,ana@paper.example,\n');
    host.setOpenFile(csv);
    await settings();
    await page.getByRole('button', { name: 'Import from CSV…' }).click();
    const preview = page.getByTestId('dnc-preview');
    await preview.getByRole('alert').filter({ hasText: 'Pick the column to read' }).waitFor();
    const column = preview.getByLabel('Column to read');
    expect(await column.locator('option:not([disabled])').allTextContents()).toEqual(['Name', 'Work mail', 'Site']);
    expect(await preview.getByRole('button', { name: /^Import/ }).isDisabled()).toBe(true);
    await column.selectOption('Work mail');
    const counts = preview.getByTestId('dnc-counts');
    await counts.waitFor();
    expect((await counts.locator(':scope > li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      '4 lines with a value in the column “Work mail”',
      '2 to add',
      '0 already on the list',
      expect.stringMatching(/^2 skipped:/),
    ]);
    expect(await counts.getByTestId('dnc-skipped').locator('li').allTextContents()).toEqual(['1 not an e-mail address or domain', '1 repeated in the file']);
    await preview.getByText('To add, for example: ana@paper.example, cy@mag.example').waitFor();
    await preview.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await shoot(page, 'record-02-dnc-preview');
    await preview.getByRole('button', { name: 'Import 2 entries' }).click();
    await toast(page, 'Added 2 entries to the do-not-contact list from press-list.csv; 2 lines skipped.').waitFor();
    await page.getByRole('button', { name: 'Remove ana@paper.example' }).waitFor();
    await page.getByRole('button', { name: 'Remove cy@mag.example' }).waitFor();
    expect(await preview.count()).toBe(0);

    const out = join(host.dataDir, 'dnc-out.csv');
    host.setSaveAs(out);
    await page.getByRole('button', { name: 'Export as CSV…' }).click();
    await toast(page, 'The do-not-contact list is saved in dnc-out.csv: 2 entries.').waitFor();
    expect(readFileSync(out, 'utf8').split('\r\n').slice(0, 3)).toEqual([
      'kind,value,note,added_at',
      expect.stringMatching(/^address,ana@paper\.example,/),
      expect.stringMatching(/^address,cy@mag\.example,/),
    ]);
  });

  it('a file that is not a record is refused in plain words, and nothing changes', async () => {
    const bad = join(host.dataDir, 'cut.json');
    writeFileSync(bad, '{"format":"outreach-workbench-record","version":1,"triage":[');
    host.setOpenFile(bad);
    await settings();
    await page.getByRole('button', { name: 'Import a record…' }).click();
    await page.getByRole('alert').filter({ hasText: 'cut.json: Nothing was imported. The file is not a complete JSON document' }).waitFor();
    expect(await page.getByTestId('import-preview').count()).toBe(0);
    expect((await host.call('backups:list')).backups.filter((b) => b.reason === 'before-import')).toEqual([]);
  });

  it('imports a record with a conflicting change: the preview counts it and says which side is kept; confirmed, the data shows it', async () => {
    const file = JSON.parse(readFileSync(join(host.dataDir, 'my-record.json'), 'utf8'));
    const a = file.triage.find((t: { opportunity_id: string }) => t.opportunity_id === 'beat-a');
    a.stage = 'Won';
    a.stage_changed_at = new Date(Date.now() + 60_000).toISOString();
    a.note = 'Called the desk; they want data.';
    a.note_changed_at = a.stage_changed_at;
    const incoming = join(host.dataDir, 'from-colleague.json');
    writeFileSync(incoming, JSON.stringify(file));
    host.setOpenFile(incoming);
    await settings();
    await page.getByRole('button', { name: 'Import a record…' }).click();
    const preview = page.getByTestId('import-preview');
    await preview.getByRole('heading', { name: 'Import from-colleague.json?' }).waitFor();
    expect(await preview.evaluate((el) => el.matches(':focus'))).toBe(true);
    expect(await preview.getByText(/^The file holds 2 triaged, 1 note, 0 do-not-contact entries, 0 exports and 4 history entries; written /).count()).toBe(1);
    expect((await preview.getByTestId('import-changes').locator('li').allTextContents())[0]).toBe('triage: 0 added, 1 updated, 1 already the same');
    expect(await preview.getByTestId('import-conflicts').textContent()).toBe(
      '1 conflict: both here and in the file the same thing was changed. The later change is kept.',
    );
    expect(await preview.locator('.conflicts li').first().textContent()).toMatch(
      /^Stage of beat-a: yours “Replied” \(.+\), the file's “Won” \(.+\); the file's is kept \(the later change\)\.$/,
    );
    await shoot(page, 'record-03-import-preview');
    await preview.getByRole('button', { name: 'Import', exact: true }).click();
    await toast(
      page,
      /^Imported from-colleague\.json: 0 triaged added, 1 updated, 1 conflict settled by the later change\. Your record as it was is kept as a backup\.$/,
    ).waitFor();
    expect(await preview.count()).toBe(0);
    // The import backed up the record first: the list shows it.
    await page.getByTestId('backups').locator('tr', { hasText: 'Before an import' }).waitFor();

    await openOpportunity('Quillfeather review');
    await expect.poll(() => stageButton(page, 'Won').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel(/^Note/).inputValue()).toBe('Called the desk; they want data.');
  });

  it('lists backups with date, reason and counts; a restore asks first, names what it restores, and the data follows it', async () => {
    await settings();
    const table = page.getByTestId('backups');
    const row = table.locator('tbody tr', { hasText: 'Before an import' });
    await row.waitFor();
    // (An automatic backup may be there too: one is written half a minute after the first change.)
    const created = (await host.call('backups:list')).backups.find((b) => b.reason === 'before-import')!;
    const date = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), created.created_at);
    expect((await row.locator('td').allTextContents()).slice(0, 3)).toEqual([
      date,
      'Before an import',
      '2 triaged, 0 notes, 2 do-not-contact entries, 0 exports',
    ]);
    const listed = (await host.call('backups:list')).backups.length;
    await page.getByText(new RegExp(`^${listed} backups?, \\d+ (bytes|KB) in all\\.$`)).waitFor();
    await page.getByRole('heading', { name: 'Your record', exact: true }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await shoot(page, 'record-04-settings-record');

    // Escape cancels, and the focus goes back to the button that asked.
    const restore = row.getByRole('button', { name: `Restore the backup of ${date}…` });
    await restore.click();
    const dialog = page.getByRole('dialog', { name: `Restore the backup of ${date}?` });
    await dialog.waitFor();
    await expect.poll(() => page.locator(':focus').textContent()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => restore.evaluate((el) => el.matches(':focus'))).toBe(true);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('It holds 2 triaged, 0 notes, 2 do-not-contact entries, 0 exports, and 4 history entries.');
    expect(await dialog.textContent()).toContain('Your current record is backed up first');
    await shoot(page, 'record-05-restore-confirm');
    await dialog.getByRole('button', { name: 'Restore this backup' }).click();
    await toast(
      page,
      `Restored the backup of ${date}: 2 triaged, 0 notes, 2 do-not-contact entries, 0 exports. Your record as it was is kept as a backup too.`,
    ).waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    await table.locator('tbody tr', { hasText: 'Before a restore' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(listed + 1);

    // The record is the one from before the import again.
    await openOpportunity('Quillfeather review');
    await expect.poll(() => stageButton(page, 'Replied').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel(/^Note/).inputValue()).toBe('');
  });

  it("the File menu's commands open Settings at their part and start the flow", async () => {
    await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
    const out = join(host.dataDir, 'from-menu.json');
    host.setSaveAs(out);
    host.emit('app:command', { command: 'export-record' });
    await toast(page, /^Your record is saved in from-menu\.json: /).waitFor();
    await expect.poll(() => page.locator(':focus').getAttribute('id')).toBe('move-h');
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('outreach-workbench-record');

    await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
    host.emit('app:command', { command: 'restore-backup' });
    await page.getByRole('heading', { name: 'Backups' }).waitFor();
    await expect.poll(() => page.locator(':focus').getAttribute('id')).toBe('backups-h');
    // The keyboard goes on from there to the first backup's "Restore…".
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').getAttribute('aria-label')).toMatch(/^Restore the backup of .+…$/);

    host.setOpenFile(null); // the user cancels the open dialog: nothing happens, nothing is said
    host.emit('app:command', { command: 'import-record' });
    await expect.poll(() => page.locator(':focus').getAttribute('id')).toBe('move-h');
    expect(await page.getByTestId('import-preview').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

describe('a new computer, before any key', () => {
  it('File > Import a record… opens Settings over the first-run screen, previews and imports; the record is there', async () => {
    const host = await startHost({});
    const page = await open(host);
    try {
      await page.getByLabel('Your Trakkr API key').waitFor();
      const file = join(host.dataDir, 'from-old-laptop.json');
      const at = '2026-11-01T09:00:00.000Z';
      writeFileSync(
        file,
        JSON.stringify({
          format: 'outreach-workbench-record',
          version: 1,
          app_version: '0.1.0',
          created_at: at,
          triage: [
            {
              brand_id: 'brand-1',
              opportunity_id: 'opp-1',
              status: 'Done',
              status_changed_at: at,
              note: 'Pitched in October.',
              note_changed_at: at,
              starred: false,
              starred_changed_at: null,
              contacted_at: '2026-10-30',
              contacted_changed_at: at,
              exported_at: null,
              exported_changed_at: null,
              updated_at: at,
            },
          ],
          do_not_contact: [{ kind: 'domain', value: 'rival.example', note: '', added_at: at }],
          exports: [],
          history: [{ brand_id: 'brand-1', opportunity_id: 'opp-1', at, kind: 'contacted', detail: '2026-10-30' }],
        }),
      );
      host.setOpenFile(file);
      host.emit('app:command', { command: 'import-record' });
      const preview = page.getByTestId('import-preview');
      await preview.getByRole('heading', { name: 'Import from-old-laptop.json?' }).waitFor();
      expect(await preview.getByTestId('import-changes').locator('li').allTextContents()).toEqual([
        'triage: 1 added, 0 updated, 0 already the same',
        'do-not-contact: 1 added, 0 already there',
        'exports: 0 added; history: 1 entry added',
      ]);
      expect(await preview.getByTestId('import-conflicts').count()).toBe(0);
      await preview.getByRole('button', { name: 'Import', exact: true }).click();
      await toast(page, /^Imported from-old-laptop\.json: 1 triaged added, 0 updated, 1 do-not-contact entry added\./).waitFor();
      await page.getByRole('button', { name: 'Remove rival.example' }).waitFor();
      expect((await host.call('backups:list')).backups.map((b) => b.reason)).toEqual(['before-import']);
      // Importing the same file again changes nothing, and says so.
      host.setOpenFile(file);
      await page.getByRole('button', { name: 'Import a record…' }).click();
      await preview.getByText('Everything in this file is already here:').waitFor();
      await preview.getByRole('button', { name: 'Close' }).click();
      expect(await preview.count()).toBe(0);
      // Back to the opportunities: without a key, that is the first-run screen.
      await page.getByRole('button', { name: 'Opportunities', exact: true }).click();
      await page.getByLabel('Your Trakkr API key').waitFor();
    } finally {
      await page.context().close();
      await host.close();
    }
  });
});

describe('a damaged cache, rebuilt at launch', () => {
  it('says so once, calmly, in plain words; dismissed, it stays dismissed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workbench-damaged-'));
    writeFileSync(join(dataDir, 'workbench.db'), Buffer.alloc(8192, 0x07));
    const host = await startHost({ dataDir });
    const page = await open(host);
    try {
      const notice = page.getByTestId('recovery-notice');
      await notice.waitFor();
      expect(await notice.getAttribute('role')).toBe('status');
      expect(await notice.locator('.head').textContent()).toBe('Your cache was damaged and has been rebuilt');
      const message = (await host.call('app:state')).recovery!.message;
      expect(message).toMatch(/^The cache file was damaged\. It was kept aside as .+ and a fresh cache was built\./);
      expect(await notice.locator('.message').textContent()).toBe(message);
      await shoot(page, 'record-06-recovery-notice');
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      expect((await host.call('app:state')).recovery).toBeNull();
      await page.reload();
      await page.getByLabel('Your Trakkr API key').waitFor();
      expect(await notice.count()).toBe(0);
    } finally {
      await page.context().close();
      await host.close();
    }
  });

  it('damage found while the app is open: the same notice, and the data reads again', async () => {
    const host = await startHost({ demo: true, demoOpportunities: 60 });
    const page = await open(host);
    try {
      await expect.poll(() => rows(page).count(), { timeout: 60_000 }).toBeGreaterThan(5);
      host.emit('cache:recovered', { message: 'The cache file was damaged. It was kept aside and a fresh cache was built.' });
      const notice = page.getByTestId('recovery-notice');
      await notice.locator('.message', { hasText: 'The cache file was damaged. It was kept aside and a fresh cache was built.' }).waitFor();
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    } finally {
      await page.context().close();
      await host.close();
    }
  });
});
