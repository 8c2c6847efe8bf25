// From pitch to citation in the real UI, in real Chromium, against the real
// core (through the test host) and the simulator: an opportunity pitched, a
// later sync bringing a citation at its outlet, the "Cited" mark with its
// evidence, one key marking it Won and the undo taking it back; the Results
// view's funnel and its score chart with the events marked on it (hover and
// keys say what happened that day), axe-clean; the one-page report printed to
// PDF by Chromium (the test host's stand-in for main's printToPDF) and read
// back by pdftotext, saved as HTML, and the tables as XLSX read back by
// openpyxl, all with the same numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { weekOf } from '../../shared/results';
import { closeWalk, launch, localToday, openPageAfterLaunchSync, SCREENS, until } from './browser';

const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const today = localToday();
const OUTLET = 'pressly.example';
const PAGE = `https://www.${OUTLET}/best-espresso-machines/`;

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;
let brandName: string;

const rows = (p: Page) => p.locator('[role="option"]');
const toast = (p: Page, text: string | RegExp) => p.locator('.toast', { hasText: text });
const stageBadge = (p: Page) => p.getByTestId('pipeline').locator('.badge.stage');

function opportunity(id: string, title: string, domain: string, url: string, siteType: string): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'low-hanging-fruit',
    title,
    url,
    domain,
    site_type: siteType,
    status: 'New',
    archived: false,
    priority_score: 99,
    fit_score: 90,
    contact_emails: [`editor@${domain}`],
    pitch_subject: 'A note',
    pitch_body: 'Hi there',
  };
}

/** Search one opportunity by a word of its title and put the cursor on it, the keyboard on the list. */
async function openOpportunity(word: string, title: string): Promise<void> {
  await page.getByLabel(/^Search/).fill(word);
  await expect.poll(() => rows(page).count()).toBe(1);
  await rows(page).first().click();
  await expect.poll(() => page.locator('.detail h2').textContent()).toBe(title);
  await page.locator('[role="listbox"]').focus();
}

/** What axe-core finds to fix in the part of the page `selector` names (WCAG 2 A and AA), as "rule (nodes)". */
async function axeViolations(selector: string): Promise<string[]> {
  // Evaluated through the browser's tools, as a test does: the page's own policy allows no injected script.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(readFileSync('node_modules/axe-core/axe.min.js', 'utf8'));
  return page.locator(selector).evaluate(async (el) => {
    const axe = (globalThis as unknown as { axe: { run(el: unknown, o: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run(el, { runOnly: ['wcag2a', 'wcag2aa'] });
    return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** A screenshot without the toasts of the steps before (hidden through CSSOM: the page's CSP refuses injected styles). */
async function screenshot(name: string, locator?: ReturnType<Page['locator']>): Promise<void> {
  const box = page.locator('.toasts');
  await box.evaluate((el) => (el.style.visibility = 'hidden'));
  await (locator ?? page).screenshot({ path: join(SCREENS, name) });
  await box.evaluate((el) => (el.style.visibility = ''));
}

beforeAll(async () => {
  browser = await launch();
  sim = await startSimulator({ seed: 33, opportunities: 120, otherBrandOpportunities: 5, brands: 1, citationsPerBrand: 20 });
  brandId = sim.brands[0]!.id;
  brandName = sim.brands[0]!.name;
  sim.inject(brandId, opportunity('res-a', 'Pressly espresso shortlist', OUTLET, PAGE, 'review site'));
  sim.inject(brandId, opportunity('res-b', 'Quietly grinder guide', 'quietly.example', 'https://quietly.example/grinders', 'niche blog'));
  host = await startHost({ baseUrl: sim.url });
  await host.call('keys:set', { key: DEMO_KEY });
  await host.call('sync:start', {});
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
  page = await openPageAfterLaunchSync(browser, host, 'light', { failOnPageError: true });
  // Main prints the window with webContents.printToPDF; here Chromium's own print-to-PDF of this page stands in for it.
  host.setPrinter(() => page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }));
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
  await page.getByLabel('Brand').selectOption(brandId);
  await until(async () => (await rows(page).count()) > 5, 'the list to fill');
});
afterAll(() => closeWalk(page, host, sim, browser));

describe('from pitch to citation', () => {
  it('pitched; a later sync brings a citation at that outlet; the Cited mark shows its evidence; w marks it Won and z undoes it', async () => {
    await openOpportunity('Quietly', 'Quietly grinder guide');
    await page.keyboard.press('C');
    await toast(page, 'Marked contacted today').waitFor();
    await openOpportunity('Pressly', 'Pressly espresso shortlist');
    await page.keyboard.press('C');
    await expect.poll(() => stageBadge(page).textContent()).toBe('Contacted');
    expect(await page.getByTestId('cited-mark').count()).toBe(0);

    // Between two syncs the service starts citing the pitched page, mentioning the brand.
    sim.mutate({
      brand: brandId,
      cite: [
        {
          url: PAGE,
          domain: OUTLET,
          first_seen: `${today}T12:00:00Z`,
          last_seen: `${today}T12:00:00Z`,
          mentions_brand: true,
          times_cited: 23,
          prompts: ['best espresso machine', `is ${brandName} worth it`],
        },
      ],
    });
    await page.getByRole('button', { name: 'Sync now' }).click();
    await toast(page, /1 pitched opportunity is newly cited: see Results\./).waitFor({ timeout: 60_000 });

    const mark = page.getByTestId('cited-mark');
    await mark.waitFor();
    // The list marks it too (and only it: the other one pitched has no citation).
    await rows(page).first().locator('.badge.cited', { hasText: 'Cited' }).waitFor();
    expect(await mark.getByRole('link', { name: PAGE }).count()).toBe(1);
    expect(await mark.textContent()).toContain('the page you pitched, cited after the pitch, mentions');
    expect(await page.getByTestId('cited-first-seen').textContent()).toBe(today);
    expect(await page.getByTestId('cited-times').textContent()).toBe('23');
    expect(await page.getByTestId('cited-prompts').locator('li').allTextContents()).toEqual(['best espresso machine', `is ${brandName} worth it`]);
    await screenshot('results-cited-mark.png', page.locator('.detail'));
    expect(await axeViolations('[data-testid="cited-mark"]')).toEqual([]);

    // One key: Won. Another: back to what it was.
    await page.keyboard.press('w');
    await expect.poll(() => stageBadge(page).textContent()).toBe('Won');
    await toast(page, 'Stage: Won. Press z to undo (back to Contacted).').waitFor();
    expect((await host.call('opportunities:get', { brandId, id: 'res-a' }))!.item.stage).toBe('Won');
    await page.keyboard.press('z');
    await expect.poll(() => stageBadge(page).textContent()).toBe('Contacted');
    expect((await host.call('opportunities:get', { brandId, id: 'res-a' }))!.item.stage).toBe('Contacted');
    // Won again, for the Results below (from the mark's own button this time).
    await mark.getByRole('button', { name: /Mark Won/ }).click();
    await expect.poll(() => stageBadge(page).textContent()).toBe('Won');
  });

  it('the Results view, reached from the keyboard: the funnel by week and the score chart with the events marked, hover and keys telling the day', async () => {
    await page.getByLabel(/^Search/).fill('');
    const nav = page.getByRole('button', { name: 'Results', exact: true });
    await nav.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Results', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('total-pitched').textContent(), { timeout: 20_000 }).toBe('2');
    // A Won is replied or beyond: the funnel never narrows the wrong way.
    expect(await page.getByTestId('total-replied').textContent()).toBe('1');
    expect(await page.getByTestId('total-won').textContent()).toBe('1');
    expect(await page.getByTestId('total-cited').textContent()).toBe('1');

    // The funnel: four bars a week, this week's with the counts, heights in proportion.
    const funnel = page.getByTestId('funnel-chart');
    const week = weekOf(today);
    const weeks = await funnel.locator('rect.bar[data-stage="pitched"]').count();
    expect(await funnel.locator('rect.bar').count()).toBe(weeks * 4);
    const bar = (stage: string) => funnel.locator(`rect.bar[data-week="${week}"][data-stage="${stage}"]`);
    expect(await bar('pitched').getAttribute('data-value')).toBe('2');
    expect(await bar('won').getAttribute('data-value')).toBe('1');
    expect(await bar('cited').getAttribute('data-value')).toBe('1');
    expect(await bar('replied').getAttribute('data-value')).toBe('1');
    const h = async (stage: string) => Number(await bar(stage).getAttribute('height'));
    expect(Math.abs((await h('cited')) * 2 - (await h('pitched')))).toBeLessThan(1.5);
    // The same numbers week by week as a table, opened from the keyboard and read by its role.
    await page.getByText('The numbers, week by week').focus();
    await page.keyboard.press('Enter');
    const weekRow = page.getByRole('table', { name: /Opportunities pitched each week/ }).getByRole('row', { name: new RegExp(`^${week}`) });
    await weekRow.waitFor();
    expect((await weekRow.getByRole('cell').allTextContents()).map((c) => c.trim())).toEqual(['2', '1', '1', '1']);

    // The score chart: today's pitches, citation and Won marked at today's place on the time axis.
    const chart = page.getByTestId('score-chart');
    const mark = (kind: string) => chart.locator(`g.mark[data-kind="${kind}"][data-date="${today}"]`);
    expect(await mark('pitched').getAttribute('data-count')).toBe('2');
    expect(await mark('cited').getAttribute('data-count')).toBe('1');
    expect(await mark('won').getAttribute('data-count')).toBe('1');
    expect(await chart.locator('g.mark').count()).toBe(3);
    expect(await chart.locator('path[data-series]').count()).toBe(2);
    const period = (await page.getByTestId('results-period').textContent())!;
    const [from, to] = period.match(/\d{4}-\d{2}-\d{2}/g)!;
    const dayNo = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    const svg = chart.locator('svg').first();
    const plotWidth = Number(await svg.getAttribute('width')) - 52 - 8;
    const x = Number(/translate\(([\d.]+)/.exec((await mark('cited').getAttribute('transform'))!)![1]);
    expect(Math.abs(x - (plotWidth * (dayNo(today) - dayNo(from!))) / Math.max(1, dayNo(to!) - dayNo(from!)))).toBeLessThan(1);

    // Hover over the day: what happened then.
    const box = (await mark('cited').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = page.getByTestId('day-tooltip');
    await tip.waitFor();
    const said = (await tip.locator('div').allTextContents()).join('\n');
    expect(said).toContain('Pitched: Quietly grinder guide (quietly.example)');
    expect(said).toContain('Pitched: Pressly espresso shortlist (pressly.example)');
    expect(said).toContain(`Cited: Pressly espresso shortlist, ${PAGE}`);
    expect(said).toContain('Won: Pressly espresso shortlist');
    await screenshot('results-view.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot('results-view-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.mouse.move(5, 5);

    // The keys: the chart is a slider over the days; Page Up and Page Down jump to days with events.
    const slider = page.getByRole('slider', { name: /Visibility and presence/ });
    await slider.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('PageDown');
    expect(await slider.getAttribute('aria-valuetext')).toContain('Cited: Pressly espresso shortlist');

    // The wins with their evidence.
    const win = page.getByTestId('wins').locator('tr[data-id="res-a"]');
    expect(await win.textContent()).toContain(PAGE);
    expect(await win.textContent()).toContain('cited 23 times');

    // axe-core finds nothing to fix in the view (WCAG 2 A and AA), in both themes.
    expect(await axeViolations('main.results')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations('main.results')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the report to send: one page, printed to PDF and saved as HTML; the tables as XLSX; the same numbers in each', async () => {
    await page.getByRole('button', { name: 'Report to send…' }).click();
    const report = page.locator('.report-page');
    await report.waitFor();
    const focused = (name: string) => page.getByRole('button', { name }).evaluate((el) => el.matches(':focus'));
    // Focus goes to the report's first button (the one pressed is gone), and back to it when the report closes.
    await expect.poll(() => focused('Back to the Results')).toBe(true);
    // A page in the report opens in the browser, through main.
    await report.getByRole('link', { name: /pressly\.example\/best-espresso-machines/ }).click();
    await expect.poll(() => host.opened()).toContain(PAGE);
    expect(await page.getByTestId('report-pitched').textContent()).toBe('2');
    await screenshot('results-report.png');

    host.setSaveAs(join(host.dataDir, 'report.pdf'));
    await page.getByRole('button', { name: 'Save as PDF' }).click();
    await toast(page, 'The report is saved as report.pdf.').waitFor({ timeout: 30_000 });
    const pdf = join(host.dataDir, 'report.pdf');
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain(brandName);
    // In reading order (pdftotext -raw): each total, then what it counts.
    const raw = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' });
    const tile = (what: string) => Number(new RegExp(`(\\d+)\\s+${what}`).exec(raw.replace(/\s+/g, ' '))?.[1]);
    const pdfTotals = [tile('pitched'), tile('replied'), tile('won'), tile('cited in AI answers')];
    expect(pdfTotals).toEqual([2, 1, 1, 1]);
    expect(raw.replace(/\s+/g, ' ')).toContain('Pressly espresso shortlist');
    // The report alone: none of the window around it (the top bar, the buttons, the toasts).
    for (const chrome of ['Sync now', 'Save as PDF', 'Back to the Results', 'Opportunities', 'saved as']) expect(raw).not.toContain(chrome);

    host.setSaveAs(join(host.dataDir, 'report.html'));
    await page.getByRole('button', { name: 'Save as a web page (HTML)' }).click();
    await toast(page, 'The report is saved as report.html.').waitFor({ timeout: 30_000 });
    const html = readFileSync(join(host.dataDir, 'report.html'), 'utf8');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toMatch(/<strong[^>]*data-testid="report-won"[^>]*>1<\/strong>/);
    // The same layout: the saved page opened in the browser (its own policy: styles only) shows the same numbers.
    const view = await browser.newPage();
    await view.goto(`file://${join(host.dataDir, 'report.html')}`);
    expect(await view.getByTestId('report-cited').textContent()).toBe('1');
    expect(await view.locator('rect.bar').count()).toBe(await report.locator('rect.bar').count());
    await view.close();

    await page.getByRole('button', { name: 'Back to the Results' }).click();
    await expect.poll(() => focused('Report to send…')).toBe(true);
    host.setSaveAs(join(host.dataDir, 'results.xlsx'));
    await page.getByRole('button', { name: 'Tables as XLSX' }).click();
    // One workbook under the name confirmed, a sheet per table.
    await toast(page, /Saved results\.xlsx/).waitFor({ timeout: 30_000 });
    const book = JSON.parse(
      execFileSync(
        PY,
        [
          '-c',
          'import json,sys,openpyxl\nbook={}\nfor f in sys.argv[1:]:\n  wb=openpyxl.load_workbook(f)\n  book.update({ws.title:[[c.value for c in r] for r in ws.iter_rows()] for ws in wb.worksheets})\nprint(json.dumps(book, default=str))',
          join(host.dataDir, 'results.xlsx'),
        ],
        { encoding: 'utf8' },
      ),
    ) as Record<string, unknown[][]>;
    expect(Object.keys(book)).toEqual(['Funnel by week', 'Wins', 'Outlets by type', 'Time to citation']);
    const total = book['Funnel by week']!.at(-1)!;
    expect(total).toEqual(['Total', ...pdfTotals]);
    const wins = book.Wins!;
    const pressly = wins.find((r) => r[0] === 'Pressly espresso shortlist')!;
    expect(pressly[wins[0]!.indexOf('Cited page')]).toBe(PAGE);
    expect(pressly[wins[0]!.indexOf('Times cited')]).toBe(23);
  });

  it('eight wins with long titles and addresses still make one page', async () => {
    const long = (n: number) => `${'A very long headline about espresso machines and cold brew makers, '.repeat(3)}${n}`.slice(0, 200);
    const ids = Array.from({ length: 8 }, (_, i) => `long-${i}`);
    for (const [i, id] of ids.entries()) {
      const domain = `long-outlet-${i}.example`;
      sim.inject(brandId, opportunity(id, long(i), domain, `https://${domain}/${'section/'.repeat(12)}page-${i}`, 'news publication'));
    }
    const synced = async () => {
      const before = (await host.call('app:state')).sync.lastFinishedAt;
      await host.call('sync:start', {});
      await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== before, 'the sync to finish');
    };
    await synced();
    await host.call('triage:apply', { brandId, ids, action: { do: 'contacted', addresses: [] } });
    sim.mutate({
      brand: brandId,
      cite: ids.map((id, i) => ({
        url: `https://long-outlet-${i}.example/${'a-long-path-segment-'.repeat(10)}?id=${'x'.repeat(80)}`,
        domain: `long-outlet-${i}.example`,
        first_seen: `${today}T12:00:00Z`,
        last_seen: `${today}T12:00:00Z`,
        mentions_brand: true,
        times_cited: 7,
        prompts: ['a prompt that is long enough to matter in the report'],
      })),
    });
    await synced();
    await page.getByRole('button', { name: 'Report to send…' }).click();
    await expect.poll(() => page.getByTestId('report-cited').textContent(), { timeout: 20_000 }).toBe('9');
    expect(await page.locator('.report-page table.wins tbody tr').count()).toBe(8);
    host.setSaveAs(join(host.dataDir, 'report-long.pdf'));
    await page.getByRole('button', { name: 'Save as PDF' }).click();
    await toast(page, 'The report is saved as report-long.pdf.').waitFor({ timeout: 30_000 });
    expect(execFileSync('pdfinfo', [join(host.dataDir, 'report-long.pdf')], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
    await screenshot('results-report-long.png');
    await page.getByRole('button', { name: 'Back to the Results' }).click();
  });
});
