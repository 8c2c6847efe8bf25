// Outlets as groups, their outlet-level actions, in the real UI in real
// Chromium against the real core (through the test host) and the simulator,
// keyboard only: one pitch planned to an outlet for several of its
// opportunities (one draft listing each piece, the outlet's addresses with
// catch-all, role and do-not-contact said, a person with a shared inbox
// warned about, every covered opportunity marked contacted as one action and
// undone), Snooze all at an outlet of more than 1,000 opportunities reaching
// every one of them, and the export dialog saying how many addresses the
// do-not-contact list left out; and the shortcut sheet saying where each key
// that works in two places (a row, an outlet's head) does what. axe-core finds
// nothing serious or critical in the new states, at three sizes, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startHost, type Host } from '../host/server';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { accessibleAt, closeWalk, launch, listTotal, openPageAfterLaunchSync, shoot, until } from './browser';

/** First and second outlets when grouped (the list sorts by outlet). */
const PLAN = 'aaa-plan.example';
const BIG = 'aab-big.example';
const BIG_SIZE = 1_005;

let browser: Browser;
let sim: Simulator;
let host: Host;
let page: Page;
let brandId: string;

/** A wait on the core's answer (a plan drafted again, an action or its undo, the outlets counted again): Vitest's 1 s default is tight on a loaded machine. */
const CORE = { timeout: 10_000 };

const toast = (text: string | RegExp) => page.locator('.toast', { hasText: text });
const head = (domain: string) => page.locator('.outlet-head').filter({ hasText: `${domain} ·` });
const dialog = () => page.getByRole('dialog', { name: `One pitch to ${PLAN}` });
const covers = (title: string) =>
  dialog()
    .getByRole('group', { name: /^It covers/ })
    .getByRole('checkbox', { name: title });
const sendsTo = (email: string) => dialog().getByRole('group', { name: 'To' }).getByRole('checkbox', { name: email });
const triage = async (id: string) => (await host.call('opportunities:get', { brandId, id }))!;

/** Tab until `target` has the focus (the keyboard's way to a control). */
async function tabTo(target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

/** axe-core in this state at every size, light and dark: nothing serious or critical (test/e2e/browser.ts). */
const accessibleEverywhere = (state: string): Promise<void> => accessibleAt(page, state);

function opportunity(id: string, domain: string, title: string, emails: string[]): Record<string, unknown> {
  return {
    _id: id,
    opportunity_type: 'publication-gap',
    title,
    url: `https://${domain}/${id}`,
    domain,
    status: 'New',
    archived: false,
    priority_score: 50,
    author_name: 'Mia Park',
    pitch_subject: 'A data point for {publication}',
    pitch_body: 'Hi [Name],\n\nI read "{article_title}" and have data on espresso extraction you could use.\n\nBest,\nSam',
    contact_emails: emails,
  };
}

beforeAll(async () => {
  browser = await launch();
  sim = await startSimulator({ seed: 52, brands: 1, opportunities: 150, otherBrandOpportunities: 0, citationsPerBrand: 0 });
  brandId = sim.brands[0]!.id;
  sim.inject(brandId, opportunity('plan-a', PLAN, 'Plan A: the espresso guide', [`mia.park@${PLAN}`, `desk@${PLAN} CATCH`]));
  sim.inject(brandId, opportunity('plan-b', PLAN, 'Plan B: the grinder roundup', [`leo@${PLAN}`, `tips@${PLAN}`]));
  sim.inject(brandId, opportunity('plan-c', PLAN, 'Plan C: the kettle review', [`ben@${PLAN}`]));
  for (let i = 0; i < BIG_SIZE; i++) sim.inject(brandId, opportunity(`big-${i}`, BIG, `Big ${i}`, [`ed${i}@${BIG}`]));
  host = await startHost({ baseUrl: sim.url });
  await host.call('keys:set', { key: DEMO_KEY });
  await host.call('dnc:add', { value: `ben@${PLAN}` });
  await host.call('sync:start', {});
  await until(async () => (await host.call('app:state')).sync.lastFinishedAt !== null, 'the first sync to finish');
  // The window's launch starts a sync of its own once its first page is read. Left running, it went on writing
  // pages, reloading the list and recounting the outlets under the first test's keys (it was still running as that
  // test began even on an idle machine); the walk starts once it is done.
  page = await openPageAfterLaunchSync(browser, host, 'light', { failOnPageError: true });
  await page.locator('[role="option"]').first().waitFor();
  await page.getByRole('listbox').focus();
  await page.keyboard.press('g');
  await page.locator('.outlet-head').first().waitFor();
});
afterAll(() => closeWalk(page, host, sim, browser));

describe('outlet-level actions, keyboard only', () => {
  it('one pitch to an outlet for several of its opportunities: one draft listing each, its addresses said, all marked contacted as one action and undone', async () => {
    // Home is the first outlet's first row; Left goes to its head; p plans the pitch.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => head(PLAN).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('p');
    await dialog().waitFor();
    await dialog().getByLabel('Message').waitFor();
    // It covers the outlet's three, all chosen; the draft is the first one's pitch, filled, with each piece listed.
    expect(
      await dialog()
        .getByRole('group', { name: /^It covers/ })
        .locator('legend')
        .textContent(),
    ).toBe('It covers 3 of 3');
    for (const t of ['Plan A: the espresso guide', 'Plan B: the grinder roundup', 'Plan C: the kettle review']) expect(await covers(t).isChecked()).toBe(true);
    const body = await dialog().getByLabel('Message').inputValue();
    expect(body).toMatch(/^Hi Mia,\n\nI read "Plan A: the espresso guide"/);
    expect(body).toContain(
      `This covers 3 of your pieces:\n- Plan A: the espresso guide (https://${PLAN}/plan-a)\n- Plan B: the grinder roundup (https://${PLAN}/plan-b)\n- Plan C: the kettle review (https://${PLAN}/plan-c)\n\nBest,\nSam`,
    );
    expect(await dialog().getByLabel('Subject').inputValue()).toBe(`A data point for ${PLAN}`);
    // The people chosen; the catch-all and the role inbox said and not chosen; the do-not-contact address shown, never choosable.
    const to = await dialog()
      .getByRole('group', { name: 'To' })
      .locator('label')
      .evaluateAll((ls) =>
        ls.map((l) => [
          l.textContent?.replace(/\s+/g, ' ').trim(),
          (l.querySelector('input') as { checked: boolean; disabled: boolean }).checked,
          (l.querySelector('input') as { disabled: boolean }).disabled,
        ]),
      );
    expect(to).toEqual([
      [`mia.park@${PLAN}`, true, false],
      [`desk@${PLAN} catch-all`, false, false],
      [`leo@${PLAN}`, true, false],
      [`tips@${PLAN} shared inbox`, false, false],
      [`ben@${PLAN} do not contact`, false, true],
    ]);
    await accessibleEverywhere('an outlet pitch planned');
    await shoot(page, 'outlets-one-pitch-plan');
    // A shared inbox with the people: warned, in words; taken off again.
    await tabTo(sendsTo(`tips@${PLAN}`));
    await page.keyboard.press(' ');
    await expect.poll(() => dialog().getByTestId('plan-mix').textContent()).toContain(`tips@${PLAN} is a shared inbox`);
    await accessibleEverywhere('an outlet pitch, a person with a shared inbox');
    await page.keyboard.press(' ');
    await expect.poll(() => dialog().getByTestId('plan-mix').count()).toBe(0);
    // Plan C left out: the draft lists two.
    await tabTo(covers('Plan C: the kettle review'));
    await page.keyboard.press(' ');
    await expect.poll(() => dialog().getByLabel('Message').inputValue(), CORE).toContain('This covers 2 of your pieces:');
    expect(await dialog().getByLabel('Message').inputValue()).not.toContain('Plan C');
    // Marked contacted: both, with the two addresses and the subject, as one action.
    await tabTo(dialog().getByRole('button', { name: 'Mark 2 contacted' }));
    await page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await toast(`2 opportunities at ${PLAN} marked contacted`).waitFor();
    for (const id of ['plan-a', 'plan-b']) {
      const d = await triage(id);
      expect([d.item.stage, d.triage.contacted_addresses, d.triage.contacted_subject]).toEqual([
        'Contacted',
        [`mia.park@${PLAN}`, `leo@${PLAN}`],
        `A data point for ${PLAN}`,
      ]);
      const lines = (await host.call('history:get', { brandId, id })).entries.map((e) => `${e.label}: ${e.detail}`).join('\n');
      expect(lines).toMatch(/Contacted/);
    }
    expect((await triage('plan-c')).item.stage ?? 'New').toBe('New');
    await expect.poll(() => head(PLAN).getByTestId('outlet-mix').textContent(), CORE).toBe('1 New, 2 Contacted');
    // The focus is back on the list; Ctrl+Z takes the one action back, both at once.
    await expect
      .poll(() =>
        page.evaluate(() =>
          (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute(
            'role',
          ),
        ),
      )
      .toBe('listbox');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => [(await triage('plan-a')).item.stage ?? 'New', (await triage('plan-b')).item.stage ?? 'New'], CORE).toEqual(['New', 'New']);
    await expect.poll(() => head(PLAN).getByTestId('outlet-mix').textContent(), CORE).toBe('3 New');
    // Plan B pitched on its own since (to Leo): planned again without it, the plan says the outlet was contacted lately, before it goes.
    await host.call('triage:apply', { brandId, ids: ['plan-b'], action: { do: 'contacted', addresses: [`leo@${PLAN}`] } });
    await page.keyboard.press('p');
    await dialog().getByLabel('Message').waitFor();
    expect(await dialog().getByTestId('plan-earlier').count()).toBe(0);
    await tabTo(covers('Plan B: the grinder roundup'));
    await page.keyboard.press(' ');
    await expect.poll(() => dialog().getByTestId('plan-earlier').textContent(), CORE).toContain(`${PLAN} was contacted on`);
    expect(await dialog().getByTestId('plan-earlier').textContent()).toContain('for «Plan B: the grinder roundup» (the same outlet)');
    await accessibleEverywhere('an outlet pitch, the outlet contacted lately');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await host.call('triage:undo', { brandId });
  });

  it(`Snooze all at an outlet of ${BIG_SIZE.toLocaleString('en-US')} opportunities reaches every one (past the 1,000 a page holds), and one undo brings them all back`, async () => {
    await page.keyboard.press(']');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => head(BIG).getAttribute('aria-selected')).toBe('true');
    const before = await listTotal(page);
    await page.keyboard.press('s');
    await page.getByRole('dialog', { name: `Snooze ${BIG_SIZE} opportunities` }).waitFor();
    await accessibleEverywhere(`Snooze all at an outlet of ${BIG_SIZE}`);
    await page.keyboard.press('t');
    await expect.poll(() => listTotal(page), { timeout: 20_000 }).toBe(before - BIG_SIZE);
    const snoozed = await host.call('opportunities:list', { filter: { brandId, domain: BIG, view: 'snoozed' }, offset: 0, limit: 1 });
    expect(snoozed.total).toBe(BIG_SIZE);
    await expect.poll(() => head(BIG).count()).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(() => listTotal(page), { timeout: 20_000 }).toBe(before);
    expect((await host.call('opportunities:list', { filter: { brandId, domain: BIG, view: 'snoozed' }, offset: 0, limit: 1 })).total).toBe(0);
  });
});

describe('the export dialog', () => {
  it('says how many addresses the do-not-contact list left out, in plain words, as copy and compose do', async () => {
    // Ben (an address) and the big outlet (a domain: each of its addresses) on the list.
    await host.call('dnc:add', { value: BIG });
    await page.getByRole('listbox').focus();
    await page.keyboard.press('e');
    const exporting = page.getByRole('dialog', { name: 'Export for your mail tool' });
    await exporting.waitFor();
    await expect
      .poll(() => exporting.getByTestId('export-dnc').textContent(), { timeout: 20_000 })
      .toBe(`${(BIG_SIZE + 1).toLocaleString('en-US')} addresses on your do-not-contact list left out.`);
    await accessibleEverywhere('the export dialog, addresses left out for the do-not-contact list');
    await page.keyboard.press('Escape');
    await exporting.waitFor({ state: 'detached' });
    await host.call('dnc:remove', { value: BIG });
  });
});

describe('the shortcut sheet (?)', () => {
  it("says where each key listed more than once works (on an opportunity's row, on an outlet's head…), so no two of its entries read alike", async () => {
    await page.getByRole('listbox').focus();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    type Row = { cells: ArrayLike<{ textContent: string | null }> };
    const entries = await sheet
      .locator('tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from((tr as unknown as Row).cells, (c) => (c.textContent ?? '').trim()) as [string, string]));
    // Each key of an entry ("s / ." is two keys) with what the entry says it does.
    const byKey = new Map<string, string[]>();
    for (const [keys, what] of entries) for (const k of keys.split(' / ')) byKey.set(k, [...(byKey.get(k) ?? []), what]);
    // Where an entry works: its words before the first colon, after "On".
    const where = (what: string): string | null => /^On ([^:]+):/.exec(what)?.[1] ?? null;
    const untold = [...byKey]
      .filter(([, whats]) => whats.length > 1 && (whats.some((w) => where(w) === null) || new Set(whats.map(where)).size < whats.length))
      .map(([k, whats]) => `${k}: ${whats.join(' | ')}`);
    expect(untold).toEqual([]);
    // The keys that do one thing on an opportunity's row and another on an outlet's head say which is which.
    for (const k of ['s', '.', 'N', 'p', 'Enter'])
      expect({ k, where: byKey.get(k)?.map(where) }).toEqual({ k, where: expect.arrayContaining(["an opportunity's row", "an outlet's head"]) });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });
});
