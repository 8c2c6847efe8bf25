// The window's frame, the list and what acts on it (the list's page window,
// the selection and its note, the pipeline's actions, outreach, an export),
// run against the real contract handlers and core in this process through an
// in-process window.workbench (support/window.ts). Each test
// opens its own window on a copy of one synced cache, and lets go of it in
// afterEach: no test depends on another, or on their order.
import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { join } from 'node:path';
import { DEMO_KEY } from '../../../electron/simulator/server';
import { AppStore } from '../../../renderer/src/state/app.svelte';
import { ExportJob } from '../../../renderer/src/state/export.svelte';
import { PAGE } from '../../../renderer/src/state/list-window.svelte';
import { MAX_SEARCH_LENGTH, searchOf } from '../../../shared/search-words';
import { createWorkbench, frameOf } from '../../../renderer/src/state/workbench';
import { detail } from '../../support/store';
import { addDays } from '../../../shared/calendar';
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { perFile, until, type TestWindow } from './support/window';

const fixture = perFile();

/** A window with the workbench's stores, its frame read and the first brand on screen (`listed`: and its list read; `loaded: false`: nothing read yet). */
async function workbench(o: { listed?: boolean; loaded?: boolean } = {}) {
  const win = await fixture.window();
  const app = fixture.frame();
  const w = createWorkbench(app);
  fixture.cleanup(() => w.dispose());
  if (o.loaded === false) return { win, app, ...w };
  await app.load();
  app.selectBrand(fixture.cache.sim.brands[0]!.id);
  if (o.listed) await w.list.reload();
  return { win, app, ...w };
}

describe('AppStore: the frame', () => {
  it('loads the frame; a key set from the UI starts a sync whose events update the state', async () => {
    await fixture.window(true);
    const app = fixture.frame();
    await app.load();
    expect(app.loaded).toBe(true);
    expect(app.hasKey).toBe(false);
    await expect(app.setKey('sk_live_nope')).rejects.toMatchObject({ kind: 'invalid-input' });
    await app.setKey(DEMO_KEY);
    expect(app.hasKey).toBe(true);
    expect(app.syncing).toBe(true);
    await until(() => app.toasts.some((t) => t.text.startsWith('Synced')));
    await until(() => !app.syncing);
    expect(app.brands.length).toBe(3);
    app.selectBrand(fixture.cache.sim.brands[0]!.id);
    expect(app.brand?.name).toBe(fixture.cache.sim.brands[0]!.name);
  });
  it("every subscription to main's events ends with dispose(); load() twice subscribes once", async () => {
    const win = await fixture.window();
    const before = win.listenerCount();
    const other = new AppStore();
    await other.load();
    await other.load();
    expect(other.loaded).toBe(true);
    expect(win.listenerCount()).toBe(before + 7);
    other.dispose();
    expect(win.listenerCount()).toBe(before);
  });
});

describe('the list, the selection and the actions on them', () => {
  it('lists a page at a time, fetches further pages on demand, and moves the cursor', async () => {
    const { list, selection } = await workbench();
    await list.reload();
    expect(list.total).toBeGreaterThan(PAGE);
    expect(list.itemAt(0)).toBeDefined();
    expect(list.itemAt(PAGE + 5)).toBeUndefined();
    list.ensure(PAGE, PAGE + 10);
    await until(() => list.itemAt(PAGE + 5) !== undefined);
    selection.moveTo(PAGE + 5);
    expect(selection.cursor).toBe(PAGE + 5);
    selection.move(-10_000);
    expect(selection.cursor).toBe(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
  });
  it("a search typed shows its total as counted so far ('more than'), then the exact total that comes with the chip counts", async () => {
    const { win, app, list } = await workbench({ listed: true });
    // As a far larger cache answers a keystroke: the total counted up to a cap (the core's own cap is 1,000, past this cache).
    const view = win.hold(
      'opportunities:view',
      ([a]) => a.filter.search === 'coffee' && a.counts === false,
      (v) => ({ ...v, total: 5, capped: true }),
    );
    const counts = win.hold('opportunities:counts', ([f]) => f.search === 'coffee');
    list.setFilter({ search: 'coffee' });
    await view.reached;
    view.release();
    await counts.reached;
    await until(() => !list.loading);
    expect({ total: list.total, capped: list.capped }).toEqual({ total: 5, capped: true });
    counts.release();
    const exact = (await win.direct('opportunities:counts', { ...list.filter, brandId: app.brandId! })).listed;
    expect(exact).toBeGreaterThan(5);
    let counted = 0;
    await until(() => ((counted = list.total), !list.capped));
    expect(counted).toBe(exact);
    expect(list.counts?.listed).toBe(exact);
  });
  it('End reads the last page from the end of the list (the index walked backwards): the rows the list holds there', async () => {
    const { win, app, list, selection } = await workbench({ listed: true });
    expect(list.total).toBeGreaterThan(PAGE);
    const brandId = app.brandId!;
    const total = list.total;
    const asked: any[] = [];
    const held = win.hold('opportunities:list', ([a]) => (asked.push(a), true));
    selection.moveTo(total - 1);
    list.ensure(total - 3, total - 1);
    await held.reached;
    held.release();
    await until(() => list.itemAt(total - 1) !== undefined);
    const last = Math.floor((total - 1) / PAGE) * PAGE;
    expect(asked[0]).toMatchObject({ offset: 0, limit: total - last, fromEnd: true });
    const fromStart = await win.direct('opportunities:list', { filter: { ...list.filter, brandId }, offset: last, limit: PAGE });
    expect([...Array(total - last).keys()].map((k) => list.itemAt(last + k)!.id)).toEqual(fromStart.items.map((i: { id: string }) => i.id));
  });
  it('filters reload with counts; search goes to main', async () => {
    const { list } = await workbench();
    // Trakkr's status filters as the service's data.
    list.setFilter({ status: 'Done' });
    await until(() => !list.loading && list.itemAt(0)?.server_status === 'Done');
    // The chip counts follow once typing or clicking pauses.
    await until(() => list.counts?.status.Done === list.total);
    list.setFilter({ status: undefined, search: 'zzzznothing' });
    await until(() => !list.loading && list.total === 0);
    list.clearFilters();
    await until(() => !list.loading && list.total > 0);
  });
  it('a pasted search longer than the core takes is cut to it: the list is read, nothing is refused', async () => {
    const { list } = await workbench({ listed: true });
    list.setFilter({ search: 'x'.repeat(10_000) });
    await until(() => !list.loading);
    expect(list.error).toBeNull();
    expect(list.filter.search).toBe('x'.repeat(MAX_SEARCH_LENGTH));
    expect(list.total).toBe(0);
  });
  it('a search with no word to search for (an emoji, punctuation) is not sent: the whole list, in its own order', async () => {
    const { list } = await workbench({ listed: true });
    const all = list.total;
    for (const text of ['📞', '?!…', ' -- ']) {
      list.setFilter({ search: text });
      await until(() => !list.loading);
      expect(list.filter.search).toBeUndefined();
      expect(list.filter.sort).toBe('priority');
      expect(list.total).toBe(all);
    }
    expect(searchOf('📞 coffee')).toBe('📞 coffee');
  });
  it('a search cut to the length the core takes never ends in half a character', () => {
    expect(searchOf('x'.repeat(MAX_SEARCH_LENGTH - 1) + '📞')).toBe('x'.repeat(MAX_SEARCH_LENGTH - 1));
    expect(searchOf('📞'.repeat(300))).toBeUndefined(); // no word in it
    for (const typed of ['a📞'.repeat(200), '📞a'.repeat(200), 'ab📞'.repeat(150)]) {
      const cut = searchOf(typed)!;
      expect(cut.length).toBeLessThanOrEqual(MAX_SEARCH_LENGTH);
      expect(cut).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });
  it('a list that could not be read shows no rows, total or chip counts of the filter before, and says so in plain words', async () => {
    const { win, list, selection } = await workbench({ listed: true });
    expect(list.total).toBeGreaterThan(0);
    // Refused by the core (longer than a domain filter can be), with a search on: the filters were refused, not the search.
    list.setFilter({ search: 'coffee' });
    await until(() => !list.loading);
    list.setFilter({ domain: 'w'.repeat(300) });
    await until(() => !list.loading);
    expect(list.error).toMatch(/not accepted/);
    expect(list.error).toMatch(/^The list could not be read with these filters/);
    expect(list.error).not.toMatch(/search/);
    expect(list.error).not.toMatch(/Refused|opportunities:|filter\.|Too big/);
    expect({ total: list.total, row: list.itemAt(0), counts: list.counts }).toEqual({ total: 0, row: undefined, counts: null });
    // Any other failure: its own words, and the same empty list.
    list.clearFilters();
    await until(() => !list.loading && list.total > 0);
    // What was selected and open before is let go with the list: no action applies to rows no longer on screen.
    selection.toggleSelect(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
    win.failNext('opportunities:view', 'The cache is busy; try again.');
    list.setFilter({ search: 'cold brew' });
    await until(() => !list.loading);
    expect(list.error).toBe('The list could not be read: The cache is busy; try again.');
    expect({ total: list.total, row: list.itemAt(0), counts: list.counts }).toEqual({ total: 0, row: undefined, counts: null });
    expect(selection.detail).toBeNull();
    expect(selection.selected.size).toBe(0);
    expect(selection.targets()).toEqual([]);
  });
  it('stage, star and an autosaved note, each one round trip; the row updates in place', async () => {
    const { win, list, selection, pipeline } = await workbench({ listed: true });
    selection.moveTo(1);
    await until(() => selection.detail?.item.id === list.itemAt(1)!.id);
    const id = list.itemAt(1)!.id;
    const sent = win.called.length;
    await pipeline.setStage('Drafted');
    expect(list.itemAt(1)!.stage).toBe('Drafted');
    expect(selection.detail!.item.stage).toBe('Drafted');
    // One key, one call: the answer carries the row, the detail, the chips and the follow-ups due.
    expect(win.called.slice(sent)).toEqual(['triage:apply']);
    await pipeline.toggleStar();
    expect(list.itemAt(1)!.starred).toBe(true);
    selection.editNote('first draft');
    expect(selection.noteState).toBe('unsaved');
    await until(() => selection.noteState === 'saved');
    expect(detail(win.s.cache, fixture.cache.sim.brands[0]!.id, id)!.triage.note).toBe('first draft');
    selection.editNote('second');
    const typed = win.called.length;
    await selection.flushNote(); // moving away saves at once
    expect(win.called.slice(typed)).toEqual(['triage:apply']);
    expect(detail(win.s.cache, fixture.cache.sim.brands[0]!.id, id)!.triage.note).toBe('second');
  });
  it('a note is saved to the opportunity it was typed for, even when another brand is on screen by then', async () => {
    const { win, app, list, selection } = await workbench({ listed: true });
    const typedFor = fixture.cache.sim.brands[0]!.id;
    selection.moveTo(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
    const id = list.itemAt(0)!.id;
    selection.editNote('typed for the first brand');
    app.selectBrand(fixture.cache.sim.brands[1]!.id);
    await selection.flushNote();
    expect(selection.noteState).toBe('saved');
    expect(detail(win.s.cache, typedFor, id)!.triage.note).toBe('typed for the first brand');
  });

  it('a note typed just before the list is read again (a brand switch with focus still in the note) is saved at once, not dropped', async () => {
    const { win, app, list, selection } = await workbench({ listed: true });
    const typedFor = fixture.cache.sim.brands[0]!.id;
    selection.moveTo(1);
    await until(() => selection.detail?.item.id === list.itemAt(1)!.id);
    const id = list.itemAt(1)!.id;
    selection.editNote('typed just before the switch');
    const held = win.hold('opportunities:view');
    app.selectBrand(fixture.cache.sim.brands[1]!.id);
    const sent = win.called.length;
    const reloading = list.reload(); // what the window does on a brand switch
    await held.reached;
    held.release();
    await reloading;
    await until(() => selection.detailOf?.brandId === fixture.cache.sim.brands[1]!.id);
    // The new brand's list is on screen: the note was sent then, before its pause ended or the next detail replaced it.
    const after = win.called.slice(sent);
    expect(after.indexOf('triage:apply')).toBeGreaterThan(after.indexOf('opportunities:view'));
    expect(after.indexOf('triage:apply')).toBeLessThan(after.indexOf('opportunities:get'));
    await until(() => selection.noteState === 'saved');
    expect(detail(win.s.cache, typedFor, id)!.triage.note).toBe('typed just before the switch');
  });
  it('a note typed while the next detail is read is saved before that detail replaces it', async () => {
    const { win, list, selection } = await workbench({ listed: true });
    const brandId = fixture.cache.sim.brands[0]!.id;
    selection.moveTo(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
    const id = list.itemAt(0)!.id;
    const held = win.hold('opportunities:get');
    selection.moveTo(1);
    await held.reached;
    // Typed while the next detail is on its way (still the note of the first one on screen).
    selection.editNote('typed as the cursor moved');
    held.release();
    await until(() => selection.detail?.item.id === list.itemAt(1)!.id);
    await until(() => selection.noteState === 'saved' && win.inflight() === 0);
    expect(detail(win.s.cache, brandId, id)!.triage.note).toBe('typed as the cursor moved');
  });

  it('a note typed while the same opportunity is read again (a list reload keeping the cursor) stays on screen and is saved', async () => {
    const { win, list, selection } = await workbench({ listed: true });
    const brandId = fixture.cache.sim.brands[0]!.id;
    selection.moveTo(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id && selection.noteState === 'saved');
    const id = list.itemAt(0)!.id;
    const held = win.hold('opportunities:get');
    selection.listed(true, list.total); // each sync page, a triage answer
    await held.reached;
    selection.editNote('typed during the read');
    held.release();
    await until(() => win.inflight() === 0 && selection.noteState === 'saved');
    expect(selection.noteDraft).toBe('typed during the read');
    expect(selection.detail!.triage.note).toBe('typed during the read');
    expect(detail(win.s.cache, brandId, id)!.triage.note).toBe('typed during the read');
    selection.editNote('typed during the read!');
    await selection.flushNote();
    expect(detail(win.s.cache, brandId, id)!.triage.note).toBe('typed during the read!');
  });

  it('the last keystroke is never lost: text typed while a save is on its way waits, and is saved next', async () => {
    const { win, list, selection } = await workbench({ listed: true });
    selection.moveTo(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
    const id = list.itemAt(0)!.id;
    selection.editNote('one');
    const held = win.hold('triage:apply');
    const saving = selection.flushNote();
    await held.reached;
    expect(selection.noteState).toBe('saving');
    selection.editNote('one two');
    held.release();
    await saving;
    expect(selection.noteState).toBe('unsaved');
    expect(selection.noteDraft).toBe('one two');
    await selection.flushNote();
    expect(selection.noteState).toBe('saved');
    expect(detail(win.s.cache, fixture.cache.sim.brands[0]!.id, id)!.triage.note).toBe('one two');
  });

  it('copying contacts leaves catch-alls out and says how many', async () => {
    const { win, app, list, selection, outreach } = await workbench({ listed: true });
    let i = 0;
    while (!(list.itemAt(i)?.catch_all_count && list.itemAt(i)!.contact_count > list.itemAt(i)!.catch_all_count)) i++;
    selection.moveTo(i);
    await until(() => selection.detail?.item.id === list.itemAt(i)!.id);
    await outreach.copyContacts();
    const catchAll = selection.detail!.contacts.filter((c) => c.catchAll).map((c) => c.email);
    for (const a of catchAll) expect(win.platform.clipboard).not.toContain(a);
    expect(app.toasts.at(-1)!.text).toMatch(/catch-all address(es)? left out/);
  });
  it('copying contacts leaves out an address on the do-not-contact list, and says so', async () => {
    const { win, app, list, selection, outreach } = await workbench({ listed: true });
    // An opportunity with a personal address and a catch-all, open in the detail.
    let i = 0;
    while (!(list.itemAt(i)?.catch_all_count && list.itemAt(i)!.contact_count > list.itemAt(i)!.catch_all_count)) i++;
    selection.moveTo(i);
    await until(() => selection.detail?.item.id === list.itemAt(i)!.id);
    const d = selection.detail!;
    const person = d.contacts.find((c) => c.valid && !c.catchAll)!;
    await win.direct('dnc:add', { value: person.email });
    try {
      await selection.loadDetail();
      expect(selection.detail!.contacts.find((c) => c.email === person.email)!.blocked).toBe(true);
      win.platform.clipboard = '';
      await outreach.copyContacts();
      expect(win.platform.clipboard).not.toContain(person.email);
      expect(app.toasts.at(-1)!.text).toMatch(/address(es)? on your do-not-contact list left out/);
    } finally {
      await win.direct('dnc:remove', { value: person.email });
    }
  });
  it('selection with ranges, and a bulk stage', async () => {
    const { app, selection, pipeline } = await workbench({ listed: true });
    selection.toggleSelect(2);
    selection.toggleSelect(5, true);
    flushSync();
    expect(selection.selected.size).toBe(4);
    await pipeline.setStage('Won');
    expect(selection.selected.size).toBe(0);
    expect(app.toasts.at(-1)!.text).toBe('4 opportunities moved to Won.');
  });
  it('a list answer superseded by newer filters is dropped, and only the latest filter is asked next', async () => {
    const { win, app, list } = await workbench();
    const brandId = app.brandId!;
    const asked: string[] = [];
    const held = win.hold('opportunities:view', ([a]) => {
      asked.push(String(a.filter.search));
      return a.filter.search === 'cold brew';
    });
    list.setFilter({ search: 'cold brew' });
    await held.reached;
    // Typing on while the first answer is on its way: nothing more is sent yet.
    list.setFilter({ search: 'cold brew t' });
    list.setFilter({ search: 'cold brew te' });
    list.clearFilters();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['cold brew']);
    expect(win.inflight()).toBe(1); // only the held one
    const all = (await win.direct('opportunities:view', { filter: { brandId, sort: 'priority' }, limit: 1 })).total;
    const coldBrew = (await win.direct('opportunities:view', { filter: { brandId, sort: 'priority', search: 'cold brew' }, limit: 1 })).total;
    expect(coldBrew).not.toBe(all);
    held.release();
    await until(() => win.inflight() === 0 && !list.loading);
    // The stale answer was never shown; one request with the latest filter followed it.
    expect(win.waiting('opportunities:view')).toBe(0);
    expect(list.filter.search).toBeUndefined();
    expect(list.total).toBe(all);
    // The chip counts came with that same answer: they describe the list on screen.
    expect(list.counts?.total).toBe(all);
  });
  it('a failed star, contacted date, copy or link says why in a toast; nothing is left unhandled', async () => {
    const { win, app, list, selection, pipeline, outreach } = await workbench({ listed: true });
    selection.moveTo(0);
    await until(() => selection.detail?.item.id === list.itemAt(0)!.id);
    const starred = list.itemAt(0)!.starred;
    win.failNext('triage:apply', 'The cache is busy; try again.');
    void pipeline.toggleStar(); // as the s key does: fire and forget
    await until(() => app.toasts.at(-1)?.text === 'The star could not be saved: The cache is busy; try again.');
    expect(app.toasts.at(-1)!.kind).toBe('error');
    expect(list.itemAt(0)!.starred).toBe(starred);
    win.failNext('triage:apply', 'The cache is busy; try again.');
    await expect(pipeline.markContacted()).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The contacted date could not be saved: The cache is busy; try again.' });
    expect(selection.detail!.triage.contacted_at).toBeNull();
    win.failNext('clipboard:write', 'The clipboard is not available.');
    await expect(outreach.copyText('hello', 'subject')).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The subject could not be copied: The clipboard is not available.' });
    win.failNext('links:open', 'No browser is set up.');
    await expect(outreach.openLink('https://example.com/')).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The link could not be opened: No browser is set up.' });
    // A working call afterwards works as before.
    await pipeline.markContacted();
    expect(selection.detail!.triage.contacted_at).toBe(win.s.today());
    await pipeline.unmarkContacted();
    expect(selection.detail!.triage.contacted_at).toBeNull();
  });
  it('export: options changed in a run (a default typed key by key) are counted once, with the last of them', async () => {
    const { win, app, list } = await workbench();
    const brandId = app.brandId!;
    const job = new ExportJob(frameOf(app), () => void list.reload(true));
    const o = (first: string) => ({ brandId, preset: 'contacts' as const, markExported: false, unfilled: 'default' as const, fill: { first_name: first } });
    const expected = await win.direct('export:preview', o('there'));
    const before = win.called.filter((m) => m === 'export:preview').length;
    job.ask(o('t')); // the dialog opens: counted at once
    for (const typed of ['th', 'the', 'ther', 'there']) job.ask(o(typed));
    await until(() => job.check !== null && win.called.filter((m) => m === 'export:preview').length - before === 2 && win.inflight() === 0);
    expect(win.called.filter((m) => m === 'export:preview').length - before).toBe(2);
    expect(job.check).toEqual(expected);
    job.dispose();
  });
  it('export: the latest preview wins, the file is written, and the job lets go of its events', async () => {
    const { win, app, list } = await workbench();
    const brandId = app.brandId!;
    const job = new ExportJob(frameOf(app), () => void list.reload(true));
    const contacts = { brandId, preset: 'contacts' as const, excludeCatchAll: true, markExported: false, unfilled: 'keep' as const };
    const byOpportunity = { brandId, preset: 'opportunities' as const, markExported: false };
    const expected = await win.direct('export:preview', contacts);
    expect((await win.direct('export:preview', byOpportunity)).rows).not.toBe(expected.rows);
    const held = win.hold('export:preview', ([o]) => o.preset === 'opportunities');
    const stale = job.preview(byOpportunity);
    await held.reached;
    await job.preview(contacts);
    expect(job.check!.rows).toBe(expected.rows);
    held.release();
    await stale;
    expect(job.check!.rows).toBe(expected.rows);

    const before = win.listenerCount();
    win.platform.saveAs = join(win.dir, 'batch.csv');
    await job.save(contacts, 'batch.csv');
    await until(() => !job.busy);
    expect(job.error).toBeNull();
    expect(job.result!.rows).toBe(expected.rows);
    expect(app.toasts.at(-1)!.text).toBe(`Exported ${expected.rows.toLocaleString('en-US')} rows.`);
    expect(win.listenerCount()).toBe(before);

    // The dialog closes while the job is being started: its subscriptions end with it.
    const starting = win.hold('export:start');
    win.platform.saveAs = join(win.dir, 'batch-2.csv');
    const saving = job.save(contacts, 'batch-2.csv');
    await starting.reached;
    expect(win.listenerCount()).toBe(before + 2);
    job.dispose();
    expect(win.listenerCount()).toBe(before);
    starting.release();
    await saving;
    await until(() => win.inflight() === 0);
    expect(win.listenerCount()).toBe(before);
  });
});

describe('ExportJob: "I sent these"', () => {
  it('after a follow-ups export the toast says followed up, as the core records it (a contacts export: contacted)', async () => {
    const { win, app, list } = await workbench({ listed: true });
    const brandId = app.brandId!;
    const id = list.itemAt(0)!.id;
    const today = win.s.today();
    // Pitched four days ago: its follow-up is due today.
    await win.direct('triage:apply', { brandId, ids: [id], action: { do: 'contacted', on: addDays(today, -4) } });
    const job = new ExportJob(frameOf(app), () => void list.reload(true));
    fixture.cleanup(() => job.dispose());
    win.platform.saveAs = join(win.dir, 'due.csv');
    await job.save({ brandId, preset: 'followups', markExported: false, unfilled: 'keep' }, 'due.csv');
    await until(() => !job.busy);
    expect(job.error).toBeNull();
    const carried = job.result!.carried;
    expect(carried).toBeGreaterThan(0);
    await job.confirmSent();
    expect(job.error).toBeNull();
    expect(app.toasts.at(-1)!.text).toBe(`Marked ${carried === 1 ? '1 address' : `${carried} addresses`} of 1 opportunity as followed up today.`);
    const history = (await win.direct('history:get', { brandId, id })) as { entries: { kind: string; detail: string }[] };
    expect(history.entries.map((e) => `${e.kind}:${e.detail}`)).toContain(`followed_up:${today}`);

    // A contacts export says contacted, and is recorded so.
    win.platform.saveAs = join(win.dir, 'contacts.csv');
    await job.save({ brandId, preset: 'contacts', markExported: false, unfilled: 'keep' }, 'contacts.csv');
    await until(() => !job.busy);
    expect(job.error).toBeNull();
    expect(job.result!.carried).toBeGreaterThan(0);
    const other = (parse(readFileSync(win.platform.saveAs!, 'utf8'), { columns: true }) as { opportunity_id: string }[]).find(
      (r) => r.opportunity_id !== id,
    )!.opportunity_id;
    await job.confirmSent();
    expect(app.toasts.at(-1)!.text).toMatch(/^Marked \d+ address(es)? of [\d,]+ opportunit(y|ies) as contacted today\.$/);
    expect((await win.direct('opportunities:get', { brandId, id: other })).triage.contacted_at).toBe(today);
  });
});

describe('the first list, asked while the workbench is built', () => {
  const views = (win: TestWindow) => win.called.filter((m) => m === 'opportunities:view').length;

  it('is asked once: the load that follows takes the early answer', async () => {
    const { win, app, list } = await workbench({ loaded: false });
    const before = views(win);
    await app.load(() => list.prefetch());
    expect(app.brandId).not.toBeNull();
    expect(views(win)).toBe(before + 1);
    await list.reload();
    expect(views(win)).toBe(before + 1);
    expect(list.listedBrand).toBe(app.brandId);
    const direct_ = await win.direct('opportunities:view', { filter: { brandId: app.brandId, sort: 'priority' }, limit: 200, counts: true });
    expect(list.total).toBe(direct_.total);
    expect(list.itemAt(0)?.id).toBe(direct_.items[0].id);
    expect(list.counts).toEqual(direct_.counts);
  });
  it('a filter changed before the list was shown is asked for anew; the early answer is not shown', async () => {
    const { win, app, list } = await workbench({ loaded: false });
    const before = views(win);
    await app.load(() => list.prefetch());
    list.setFilter({ status: 'Done' });
    await until(() => list.listedBrand !== null && !list.loading);
    expect(views(win)).toBe(before + 2);
    const want = await win.direct('opportunities:view', { filter: { brandId: app.brandId, sort: 'priority', status: 'Done' }, limit: 200, counts: true });
    expect(list.total).toBe(want.total);
  });
});

describe('ExportJob: cancel', () => {
  it('cancel stops the export (also when asked while main is starting it): it ends as cancelled, no file is left, its events are let go', async () => {
    const { win, app, list } = await workbench({ loaded: false });
    const { existsSync, readdirSync } = await import('node:fs');
    const job = new ExportJob(frameOf(app), () => void list.reload(true));
    const options = { brandId: fixture.cache.sim.brands[0]!.id, preset: 'contacts' as const, markExported: false };
    const left = (name: string) => readdirSync(win.dir).filter((f) => f.startsWith(name));
    const before = win.listenerCount();
    win.platform.saveAs = join(win.dir, 'cancelled.csv');
    await job.save(options, 'cancelled.csv');
    expect(job.busy).toBe(true);
    await job.cancel();
    await until(() => !job.busy);
    expect({ cancelled: job.cancelled, error: job.error, result: job.result }).toEqual({ cancelled: true, error: null, result: null });
    expect(existsSync(win.platform.saveAs)).toBe(false);
    expect(left('cancelled.csv')).toEqual([]);
    expect(win.listenerCount()).toBe(before);

    // Cancel pressed before main has named the job: sent as soon as it does.
    const starting = win.hold('export:start');
    win.platform.saveAs = join(win.dir, 'cancelled-2.xlsx');
    const saving = job.save({ ...options, format: 'xlsx' }, 'cancelled-2.xlsx');
    await starting.reached;
    expect(job.cancelled).toBe(false);
    await job.cancel();
    starting.release();
    await saving;
    await until(() => !job.busy);
    expect(job.cancelled).toBe(true);
    expect(job.error).toBeNull();
    expect(left('cancelled-2.xlsx')).toEqual([]);
    expect(win.listenerCount()).toBe(before);
    await job.cancel(); // nothing running: nothing to do
    job.dispose();
  });
});
