// A PR person's morning, keyboard only, in the real UI in real Chromium against
// the real core (through the test host) and the simulator: the first sync
// filling the list as its pages arrive, the skip link, filtering and searching
// (Best match, the words marked), reading (Enter opens the detail, the Page
// keys scroll it, the next one opens at its top), the one model in the detail
// (one row of stages, Trakkr's status read-only), a stage key answered at once
// and undone (Ctrl+Z, and the toast's Undo), a draft, sending, the follow-up,
// the Due view, a bulk snooze undone, the export and the shortcut sheet (the
// focus comes back), the outlets grouped (a head per outlet with its count and
// stages, collapsed and opened by keys, Snooze all at an outlet undone), Insights and Settings by key, the
// window as it was after a reload, and removing the key (asked first): the
// cache stays open with a calm banner. axe-core finds nothing serious or
// critical in any state, at 1440x900, 1366x768 and 1280x720, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { STAGES } from '../../shared/pipeline';
import { accessibleAt, closeWalk, launch, listTotal, openPage, shoot, SIZES } from './browser';

const OUTLET = 'morningbrew.example';
const WORD = 'Zyxquorra';

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;

const rows = (p: Page) => p.locator('[role="option"]');
const toast = (p: Page, text: string | RegExp) => p.locator('.toast', { hasText: text });
const stageOfRow = (p: Page) => p.locator('[role="option"][aria-selected="true"] .badge.stage');
const stageButtons = (p: Page) => p.getByRole('group', { name: 'Outreach stage' }).getByRole('button');
/** The focused element matches `selector` (and holds `text`, when given; a toast's button: its toast holds it). */
const focused = (p: Page, selector: string, text = '') =>
  p.evaluate(
    ([s, t]) => {
      type El = { matches(s: string): boolean; closest(s: string): El | null; textContent: string | null };
      const el = (globalThis as unknown as { document: { activeElement: El | null } }).document.activeElement;
      return !!el && el.matches(s!) && ((el.closest('.note') ?? el).textContent ?? '').includes(t!);
    },
    [selector, text],
  );
/** The outlets the window remembers collapsed (its own storage). */
const collapsedKept = (): Promise<string[] | undefined> =>
  page.evaluate(() => {
    const store = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
    return (JSON.parse(store.getItem('workbench.window') ?? '{}') as { collapsed?: string[] }).collapsed;
  });
/** The stage the core holds (none stored is New). */
const stageInCore = async (id: string) => (await host.call('opportunities:get', { brandId, id }))!.item.stage ?? 'New';
const activeId = async () => {
  const title = ((await page.locator('.detail h2').textContent()) ?? '').trim();
  const found = await host.call('opportunities:list', { filter: { brandId, search: title.split(' ').slice(0, 3).join(' ') }, offset: 0, limit: 5 });
  return found.items.find((it) => it.title === title)!.id;
};

/**
 * Where a scrolling element has come to rest after a keyboard scroll (which glides, slower under load):
 * its scrollTop once three reads in a row agree, polled with a timeout.
 */
async function scrollAtRest(el: Locator): Promise<number> {
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        seen.push(await el.evaluate((e) => e.scrollTop));
        return seen.length >= 3 && seen.slice(-3).every((v) => v === seen.at(-1));
      },
      { timeout: 10_000, interval: 60 },
    )
    .toBe(true);
  return seen.at(-1)!;
}

/** Press Tab until the focused element matches `selector` (the keyboard's way to a control). */
async function tabTo(selector: string, text = '', max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await focused(page, selector, text)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} ${text}`);
}

/** axe-core in this state at every size, light and dark: nothing serious or critical; one `main` and an `h1` (test/e2e/browser.ts). */
const accessibleEverywhere = (state: string): Promise<void> => accessibleAt(page, state);

function opportunity(id: string, title: string, priority: number, emails: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://${OUTLET}/${id}`,
    domain: OUTLET,
    status: 'New',
    archived: false,
    priority_score: priority,
    difficulty: 'Easy',
    author_name: 'Mia Park',
    pitch_subject: 'A data point for {publication}',
    pitch_body: `Hi [Name],\n\n${'A long paragraph about espresso extraction and the data behind it. '.repeat(30)}\n\nBest,\nSam`,
    why_relevant: `Readers of ${OUTLET} ask about cold brew. `.repeat(20),
    gap_analysis: 'Competitors are cited; you are not. '.repeat(20),
    contact_emails: emails,
    ...extra,
  };
}

beforeAll(async () => {
  browser = await launch();
  // Three pages of 500; the second page takes a while to come, so the list is seen filling.
  sim = await startSimulator({
    seed: 41,
    brands: 1,
    opportunities: 1200,
    citationsPerBrand: 30,
    faults: [{ kind: 'latency', ms: 6000, path: '/get-outreach', after: 1 }],
  });
  brandId = sim.brands[0]!.id;
  sim.inject(brandId, opportunity('mo-a', `${WORD} espresso guide`, 100, [`mia.park@${OUTLET}`, `desk@${OUTLET} CATCH`]));
  sim.inject(brandId, opportunity('mo-b', 'Morning grinder roundup', 100, [`leo@${OUTLET}`]));
  sim.inject(brandId, opportunity('mo-c', 'Morning frother test', 100, [`tips@${OUTLET} CATCH`]));
  sim.inject(brandId, opportunity('mo-d', 'Morning kettle review', 100, [`zoe@${OUTLET}`]));
  sim.inject(brandId, opportunity('mo-e', 'Morning scale test', 100, [`ivy@${OUTLET}`]));
  host = await startHost({ baseUrl: sim.url });
  page = await openPage(browser, host.url);
  page.on('pageerror', (e) => {
    throw e;
  });
});
afterAll(() => closeWalk(page, host, sim, browser));

describe("a PR person's morning, keyboard only", () => {
  it('first run: the key typed and Enter; the list fills as the pages arrive, with pages, rows and rate shown', async () => {
    await page.getByLabel('Your Trakkr API key').waitFor();
    await accessibleEverywhere('first run');
    await tabTo('#key');
    await page.keyboard.type(DEMO_KEY);
    await page.keyboard.press('Enter');
    // The first page's rows are on screen while the second is still on its way.
    await expect.poll(() => listTotal(page), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('sync-progress').textContent()).toMatch(/^Syncing opportunities: 1 page, 500 rows, [\d.]+ rows\/s$/);
    expect(await listTotal(page)).toBeLessThanOrEqual(500);
    expect(await rows(page).count()).toBeGreaterThan(5);
    await toast(page, /^Synced/).waitFor({ timeout: 60_000 });
    await expect.poll(() => listTotal(page), { timeout: 10_000 }).toBeGreaterThan(1000);
    await host.call('dnc:add', { value: `desk@${OUTLET}` });
  });

  it('counts agree and say what they count', async () => {
    const total = await listTotal(page);
    const chip = page.getByRole('button', { name: /^All \d/ });
    await expect.poll(async () => Number(((await chip.textContent()) ?? '').replace(/\D+/g, ''))).toBe(total);
    // The brand menu is read again when the sync ends (its own call, which may land after the list's): wait for it.
    await expect
      .poll(async () => (await page.locator('#brand option:checked').textContent()) ?? '')
      .toMatch(new RegExp(`\\(${total.toLocaleString('en-US')}\\)$`));
    expect(await page.getByTestId('counted').textContent()).toBe('(not counting archived or Not a fit, snoozed, removed on Trakkr)');
    await accessibleEverywhere('list');

    await page.locator('[role="listbox"]').focus();
  });

  it('filter and search: Enter and Space press a chip (the list keys stay out of it); a search is in Best match order with its words marked', async () => {
    await tabTo('button.chip', 'Easy');
    const easy = page.getByRole('button', { name: /^Easy \d/ });
    await page.keyboard.press('Enter');
    await expect.poll(() => easy.getAttribute('aria-pressed')).toBe('true');
    expect(await focused(page, 'button.chip')).toBe(true);
    await page.keyboard.press(' ');
    await expect.poll(() => easy.getAttribute('aria-pressed')).toBe('false');
    expect(await focused(page, 'button.chip')).toBe(true);

    await page.keyboard.press('/');
    expect(await focused(page, '#search')).toBe(true);
    await page.keyboard.type(WORD.toLowerCase().slice(0, 6));
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByLabel('Sort').inputValue()).toBe('relevance');
    expect(await rows(page).first().locator('.title mark').allTextContents()).toEqual([WORD.slice(0, 6)]);
    await expect.poll(() => page.locator('.detail h2 mark').allTextContents()).toEqual([WORD.slice(0, 6)]);
    expect(await page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
    expect(await rows(page).first().getByTestId('sort-value').getAttribute('title')).toMatch(/^Best match: score [\d.]+/);
    await accessibleEverywhere('search');
    await page.keyboard.press('Escape'); // out of the field
    await page.keyboard.press('Escape'); // the search cleared
    await expect.poll(() => listTotal(page)).toBeGreaterThan(1000);
    expect(await page.getByLabel('Sort').inputValue()).toBe('priority');
    expect(await focused(page, '[role="listbox"]')).toBe(true);

    // The morning's outlet: its five opportunities.
    await tabTo('#domain');
    await page.keyboard.type(OUTLET);
    await expect.poll(() => listTotal(page)).toBe(5);
    await page.keyboard.press('Escape');
    expect(await focused(page, '[role="listbox"]')).toBe(true);
  });

  it('reading: Enter opens the detail, the Page keys scroll it, and the next opportunity opens at its top', async () => {
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
    await page.keyboard.press('Enter');
    expect(await page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
    expect(await focused(page, '.detail')).toBe(true);
    const detail = page.locator('.detail');
    await page.keyboard.press('PageDown');
    await expect.poll(() => detail.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
    // The keyboard's scroll glides: the arrow is pressed, and its start measured, once the page's glide has come to rest.
    const scrolled = await scrollAtRest(detail);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => detail.evaluate((el) => el.scrollTop)).toBeGreaterThan(scrolled);
    await scrollAtRest(detail);
    // The list stayed where it was: the arrows scrolled the pane.
    expect(await page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('.detail h2').textContent()).not.toBe(`${WORD} espresso guide`);
    await expect.poll(() => detail.evaluate((el) => el.scrollTop)).toBe(0);
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
  });

  it('one model: one row of stages, the one it is at pressed; Trakkr status read-only beside it', async () => {
    // Each button's words, and its key beside them (the key is hidden from the button's name: the title says it).
    const names = await stageButtons(page).evaluateAll((bs) =>
      bs.map((b) => [
        [...b.childNodes]
          .filter((n) => n.nodeName !== 'KBD')
          .map((n) => n.textContent)
          .join('')
          .trim(),
        b.querySelector('kbd')?.textContent ?? null,
      ]),
    );
    expect(names).toEqual([
      ['New', '0'],
      ['Drafted', null],
      ['Contacted', 'C'],
      ['Followed up', 'f'],
      ['Replied', 'r'],
      ['Won', 'w'],
      ['Not a fit…', '.'],
    ]);
    expect(names.map(([n]) => n!.replace('…', ''))).toEqual([...STAGES]);
    expect(
      await stageButtons(page).evaluateAll((bs) => bs.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.firstChild?.textContent?.trim())),
    ).toEqual(['New']);
    expect(await page.getByTestId('trakkr').textContent()).toMatch(/On Trakkr:\s*New/);
    expect(
      await page
        .locator('.detail')
        .getByText(/Back to New|In Progress|Status set/)
        .count(),
    ).toBe(0);
    await shoot(page, 'morning-one-model-detail');
    await accessibleEverywhere('detail');
  });

  it('a stage key is answered at once; Ctrl+Z takes it back, and so does the Undo in its toast', async () => {
    const id = await activeId();
    await page.keyboard.press('r');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Replied');
    await toast(page, 'Stage: Replied.').waitFor();
    expect(await stageInCore(id)).toBe('Replied');
    await page.keyboard.press('Control+z');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('New');
    expect(await stageInCore(id)).toBe('New');

    await page.keyboard.press('w');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Won');
    // The toasts have their own strip: it covers nothing of the list or the detail.
    const strip = (await page.locator('.toasts').boundingBox())!;
    for (const pane of ['.detail', '.list-pane', '.filters'])
      expect(strip.y).toBeGreaterThanOrEqual((await page.locator(pane).boundingBox())!.y + (await page.locator(pane).boundingBox())!.height - 1);
    await tabTo('.note button', 'Stage: Won.');
    await page.keyboard.press('Enter');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('New');
    expect(await stageInCore(id)).toBe('New');
    await page.keyboard.press('Escape');
    expect(await focused(page, '[role="listbox"]')).toBe(true);
  });

  it('draft, send, mark contacted, follow up: each key once', async () => {
    const id = await activeId();
    await page.keyboard.press('i');
    expect(await focused(page, '#draft-body')).toBe(true);
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' P.S. Numbers attached.');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('draft-state').textContent()).toBe('Saved');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Drafted');
    await accessibleEverywhere('draft');
    await page.keyboard.press('m');
    await expect.poll(() => host.opened().length).toBe(1);
    // The catch-all is on the do-not-contact list (added after the first sync): opening the message says it was left out.
    await toast(page, /1 address on your do-not-contact list left out\.$/).waitFor();
    expect(host.opened()[0]).toMatch(/^mailto:mia\.park@morningbrew\.example\?/);
    await page.keyboard.press('y');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Contacted');
    await toast(page, `Marked contacted today: mia.park@${OUTLET}.`).waitFor();
    expect(await page.locator('.note', { hasText: 'Marked contacted today' }).getByRole('button', { name: 'Undo' }).count()).toBe(1);
    await page.keyboard.press('f');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Followed up');
    expect(await stageInCore(id)).toBe('Followed up');

    // The others at the outlet were written to before (set up through the core): the last one's detail says what was
    // done at the outlet, the latest few, and the rest behind "more".
    await host.call('triage:apply', { brandId, ids: ['mo-b', 'mo-c', 'mo-d'], action: { do: 'contacted' } });
    const done = (await host.call('history:get', { brandId, id: 'mo-e' })).sameOutlet.length;
    expect(done).toBeGreaterThan(3);
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe('Morning scale test');
    const atOutlet = page.getByTestId('same-outlet');
    await expect.poll(() => atOutlet.locator('li').count()).toBe(3);
    expect(await atOutlet.getByRole('button').textContent()).toBe(`${done - 3} more at this outlet`);
    await tabTo('[data-testid="same-outlet"] button');
    await page.keyboard.press('Enter');
    await expect.poll(() => atOutlet.locator('li').count()).toBe(done);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('.detail h2').textContent()).toBe(`${WORD} espresso guide`);
  });

  it('the Due view, a bulk selection snoozed and its toast undoing all of it', async () => {
    await page.keyboard.press('D');
    await expect.poll(() => page.getByRole('button', { name: /^Due today/ }).getAttribute('aria-pressed')).toBe('true');
    await accessibleEverywhere('due');
    await page.keyboard.press('D');
    await expect.poll(() => listTotal(page)).toBe(5);
    const before = 5;
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('x');
      await page.keyboard.press('j');
    }
    await page.getByRole('toolbar', { name: 'Selection' }).getByText('3 selected').waitFor();
    await accessibleEverywhere('bulk selection');
    await page.keyboard.press('s');
    await page.getByRole('dialog', { name: /^Snooze 3 opportunities/ }).waitFor();
    await accessibleEverywhere('snooze dialog');
    await page.keyboard.press('t');
    await expect.poll(() => listTotal(page)).toBe(before - 3);
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    await tabTo('.note button', 'Snoozed until');
    await page.keyboard.press('Enter');
    await expect.poll(() => listTotal(page)).toBe(before);
    // The whole list again.
    await tabTo('#domain');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await expect.poll(() => listTotal(page)).toBeGreaterThan(1000);
    await page.keyboard.press('Escape');
  });

  it('the export and the shortcut sheet: each is axe-clean and gives the focus back to the list when it closes', async () => {
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    await page.keyboard.press('e');
    await page
      .getByRole('dialog', { name: 'Export for your mail tool' })
      .getByText(/\d+ rows? will be exported/)
      .waitFor();
    await accessibleEverywhere('export dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await accessibleEverywhere('shortcut sheet');
    // It opens at its top, the keyboard on its title (not on Close at the bottom): the keys scroll it, and Tab reaches Close.
    expect(await focused(page, '#keys-h', 'Keyboard shortcuts')).toBe(true);
    expect(await sheet.evaluate((d) => d.scrollTop)).toBe(0);
    expect(await sheet.evaluate((d) => d.scrollHeight > d.clientHeight)).toBe(true);
    await page.keyboard.press('PageDown');
    await expect.poll(() => sheet.evaluate((d) => d.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('Tab');
    expect(await focused(page, 'button', 'Close')).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await focused(page, '[role="listbox"]')).toBe(true);
  });

  it('grouped by publication; badges are never cut at any size', async () => {
    await page.keyboard.press('g');
    await expect.poll(() => page.getByRole('button', { name: /^Group by publication/ }).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('outlet').first().waitFor();
    await shoot(page, 'morning-grouped-list');
    // Keys between outlets: ] to the next one's first row, [ back to the start of the one before, o selects all of one.
    const domainOfRow = () => page.locator('[role="option"][aria-selected="true"] .meta > span').first().textContent();
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('#row-0[aria-selected="true"]').count()).toBe(1);
    const first = ((await domainOfRow()) ?? '').replace(/ · .*$/, '');
    const size = (await host.call('opportunities:domains', { brandId, sort: 'domain' }))[first.toLowerCase()]!;
    await page.keyboard.press(']');
    await expect.poll(() => page.locator(`#row-${size}[aria-selected="true"]`).count()).toBe(1);
    expect(((await domainOfRow()) ?? '').replace(/ · .*$/, '')).not.toBe(first);
    await page.keyboard.press('[');
    await expect.poll(() => page.locator('#row-0[aria-selected="true"]').count()).toBe(1);
    await page.keyboard.press('o');
    await page.getByRole('toolbar', { name: 'Selection' }).getByText(`${size} selected`).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).count()).toBe(0);
    await accessibleEverywhere('grouped');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const cut = await page.locator('[role="option"]').evaluateAll((rs) =>
        rs.flatMap((r) => {
          const right = r.getBoundingClientRect().right;
          return [...r.querySelectorAll('.meta .badge')].filter((b) => b.getBoundingClientRect().right > right + 0.5).map((b) => b.textContent);
        }),
      );
      expect({ width, cut }).toEqual({ width, cut: [] });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('g');
    await expect.poll(() => page.getByLabel('Sort').inputValue()).toBe('priority');
  });

  it('outlets as groups: a head per outlet with its count and stages, collapsed and opened by keys (remembered), Snooze all from the head and its undo', async () => {
    await page.keyboard.press('g');
    await page.locator('.outlet-head').first().waitFor();
    // Every head on screen says what the core counts for its outlet under the list's filter, and its stage mix.
    const outlets = await host.call('opportunities:outlets', { brandId, sort: 'domain' });
    expect(outlets.reduce((n, o) => n + o.total, 0)).toBe(await listTotal(page));
    const mixOf = (st: Partial<Record<string, number>>) =>
      STAGES.filter((x) => (st[x] ?? 0) > 0)
        .map((x) => `${st[x]} ${x}`)
        .join(', ');
    const heads = await page
      .locator('.outlet-head')
      .evaluateAll((hs) => hs.map((h) => [h.querySelector('[data-testid="outlet"]')?.textContent, h.querySelector('[data-testid="outlet-mix"]')?.textContent]));
    expect(heads.length).toBeGreaterThan(0);
    for (const [name] of heads) {
      const o = outlets.find((x) => `${x.domain} · ${x.total}` === name)!;
      expect(heads).toContainEqual([name, mixOf(o.stages)]);
    }
    // The morning's outlet: ] to its first row, r marks it Replied there, and its head's mix follows, as its own rows in the core say.
    await page.keyboard.press('Home');
    for (let i = 0; i < 200 && (await page.locator('[role="option"][aria-selected="true"] .meta .domain').textContent()) !== OUTLET; i++)
      await page.keyboard.press(']');
    await page.keyboard.press('r');
    await expect.poll(() => stageOfRow(page).textContent()).toBe('Replied');
    const mine = (await host.call('opportunities:list', { filter: { brandId, domain: OUTLET }, offset: 0, limit: 100 })).items;
    const tally: Record<string, number> = {};
    for (const it of mine) tally[it.stage ?? 'New'] = (tally[it.stage ?? 'New'] ?? 0) + 1;
    expect(Object.keys(tally).length).toBeGreaterThan(1);
    const head = page.locator('.outlet-head').filter({ hasText: `${OUTLET} · ${mine.length}` });
    await expect.poll(() => head.getByTestId('outlet-mix').textContent()).toBe(mixOf(tally));
    // Keys: Left to its head, Left collapses, Right opens, Right again to its first row.
    const firstRow = await page.locator('[role="option"][aria-selected="true"]').getAttribute('id');
    const shownRows = () => page.locator('[role="option"] .meta .domain', { hasText: OUTLET }).count();
    expect(await shownRows()).toBe(mine.length);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => head.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('listbox').getAttribute('aria-activedescendant')).toBe(await head.getAttribute('id'));
    expect(await head.getByTestId('outlet-state').textContent()).toBe(', expanded');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => head.getByTestId('outlet-state').textContent()).toBe(', collapsed');
    expect(await shownRows()).toBe(0);
    expect(await collapsedKept()).toContain(OUTLET);
    await accessibleEverywhere('grouped, an outlet collapsed');
    // Remembered: after a reload the list is grouped again, the outlet still collapsed; ] reaches its head.
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.locator('.outlet-head').first().waitFor();
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Home');
    const onHead = async () => {
      // The element the list points at is on screen before it is read.
      const at = await page.getByRole('listbox').getAttribute('aria-activedescendant');
      await page.locator(`#${at}`).waitFor();
      return (
        at ===
        (await head
          .first()
          .getAttribute('id', { timeout: 100 })
          .catch(() => null))
      );
    };
    for (let i = 0; i < 200 && !(await onHead()); i++) await page.keyboard.press(']');
    expect(await head.getAttribute('aria-selected')).toBe('true');
    expect(await head.getByTestId('outlet-state').textContent()).toBe(', collapsed');
    expect(await shownRows()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => shownRows()).toBe(mine.length);
    expect(await collapsedKept()).not.toContain(OUTLET);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('[role="option"][aria-selected="true"]').getAttribute('id')).toBe(firstRow);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => head.getAttribute('aria-selected')).toBe('true');
    // Snooze all from the head: the picker for the outlet's count, one action, and one undo brings them all back.
    const before = await listTotal(page);
    await page.keyboard.press('s');
    await page.getByRole('dialog', { name: new RegExp(`^Snooze ${mine.length} opportunities`) }).waitFor();
    await page.keyboard.press('t');
    await expect.poll(() => listTotal(page)).toBe(before - mine.length);
    await expect.poll(() => head.count()).toBe(0);
    const snoozed = await host.call('opportunities:list', { filter: { brandId, domain: OUTLET, view: 'snoozed' }, offset: 0, limit: 100 });
    expect(snoozed.items.map((it) => it.id).sort()).toEqual(mine.map((it) => it.id).sort());
    await page.keyboard.press('Control+z');
    await expect.poll(() => listTotal(page)).toBe(before);
    await expect.poll(() => head.count()).toBe(1);
    expect((await host.call('opportunities:list', { filter: { brandId, domain: OUTLET, view: 'snoozed' }, offset: 0, limit: 100 })).total).toBe(0);
    await page.keyboard.press('g');
    await expect.poll(() => page.getByLabel('Sort').inputValue()).toBe('priority');
  });

  it('Insights and Settings by key, ? in each, and back to the list', async () => {
    await page.keyboard.press('I');
    await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
    await accessibleEverywhere('insights');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('S');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await accessibleEverywhere('settings');
    await page.keyboard.press('L');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    await page.keyboard.press('B');
    expect(await focused(page, '#brand')).toBe(true);
  });

  it('the window comes back as it was (the view, the filters, the sort), and the skip link is the first Tab', async () => {
    await page.getByLabel('Sort').selectOption('fit');
    const all = await listTotal(page);
    await tabTo('button.chip', 'Hard');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: /^Hard \d/ }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => listTotal(page)).toBeLessThan(all);
    const total = await listTotal(page);
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: /^Hard \d/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Sort').inputValue()).toBe('fit');
    await expect.poll(() => listTotal(page)).toBe(total);
    expect(await rows(page).first().getByTestId('sort-value').getAttribute('title')).toMatch(/^Fit \d+/);
    // A fresh page: the first Tab reaches the skip link, and it takes the keyboard to the list.
    await page.keyboard.press('Tab');
    expect(await focused(page, 'a.skip')).toBe(true);
    await page.keyboard.press('Enter');
    expect(await focused(page, '[role="listbox"]')).toBe(true);
    await page.getByRole('button', { name: /^Hard \d/ }).press('Enter');
    await page.getByLabel('Sort').selectOption('priority');
  });

  it('never locked out: removing the key asks first; without it the cache opens as it is, with a calm banner and a way to add one', async () => {
    await page.keyboard.press('S');
    await tabTo('button', 'Remove the key');
    await page.keyboard.press('Enter');
    // Asked first, the safe answer focused: nothing is removed yet.
    expect(await focused(page, 'button', 'Keep the key')).toBe(true);
    expect((await host.call('keys:status')).state).toBe('stored');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await host.call('keys:status')).state).toBe('none');
    await page.keyboard.press('L');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    const banner = page.getByTestId('no-key');
    expect(await banner.textContent()).toMatch(
      /No API key is stored on this computer\. You are reading your cache as it was last synced .*: your notes, drafts and stages are all here\. Syncing needs a key\./,
    );
    await page.keyboard.press('j');
    await page.locator('.detail h2').waitFor();
    await shoot(page, 'morning-no-key-banner');
    await accessibleEverywhere('no key');
    await tabTo('[data-testid="no-key"] button');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await focused(page, '#new-key')).toBe(true);
    // No key stored: nothing to remove is offered.
    await page.getByText('Add a key', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^Remove the key/ }).count()).toBe(0);
  });
});
