// The draft in the editor (PitchStore), sending it (Sending), snippets, and
// the pipeline's views over the list, run against the real contract handlers
// and core in this process through an in-process window.workbench
// (support/window.ts). Each test opens its own window on a copy
// of one synced cache, and lets go of it in afterEach: no test depends on
// another, or on their order.
import { describe, expect, it } from 'vitest';
import { SAVE_AFTER_MS } from '../../../renderer/src/state/pitch.svelte';
import { SnippetList } from '../../../renderer/src/state/snippets.svelte';
import { OutletPlanStore } from '../../../renderer/src/state/outlet-plan.svelte';
import { createWorkbench, frameOf } from '../../../renderer/src/state/workbench';
import { lineDiff } from '../../../renderer/src/lib/line-diff';
import { fieldStates, segments, unfilledText } from '../../../renderer/src/lib/merge-words';
import { addDays } from '../../../shared/calendar';
import { copyPitch } from '../../../shared/outreach';
import { perFile, until } from './support/window';

const fixture = perFile();

/**
 * A window on a copy of the synced cache with the workbench's stores, the
 * first brand on screen and its list read; `mixed` is a New opportunity with
 * a personal address and a catch-all (and an author), `other` another New one
 * with an address.
 */
async function editor() {
  const win = await fixture.window();
  const app = fixture.frame();
  const w = createWorkbench(app);
  fixture.cleanup(() => w.dispose());
  await app.load();
  const brandId = fixture.cache.sim.brands[0]!.id;
  app.selectBrand(brandId);
  await w.list.reload();
  let mixed = '';
  let other = '';
  const { items } = await win.direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 1000 });
  for (const it of items as { id: string; catch_all_count: number; contact_count: number; stage: string | null }[]) {
    if (it.stage !== null) continue;
    const v = await win.direct('drafts:get', { brandId, id: it.id, kind: 'pitch' });
    const personal = v.recipients.some((r: { catchAll: boolean; role: boolean }) => !r.catchAll && !r.role);
    const catchAll = v.recipients.some((r: { catchAll: boolean }) => r.catchAll);
    if (!mixed && personal && catchAll && (await win.direct('opportunities:get', { brandId, id: it.id })).raw.author_name) mixed = it.id;
    else if (!other && v.recipients.length) other = it.id;
    if (mixed && other) break;
  }
  expect(mixed && other).toBeTruthy();
  const lastToast = () => app.toasts.at(-1);
  return { win, app, ...w, brandId, mixed, other, lastToast };
}

describe('PitchStore and Sending: the draft in the editor', () => {
  it('opens the service pitch with the personal addresses chosen (never a catch-all); typing saves after a pause and the stage moves to Drafted', async () => {
    const { win, brandId, mixed, pitch } = await editor();
    await pitch.follow(brandId, mixed, 'pitch');
    const service = await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    expect(pitch.isOf(brandId, mixed)).toBe(true);
    expect(pitch.body).toBe(service.service.body);
    expect(pitch.to.length).toBeGreaterThan(0);
    for (const r of pitch.view!.recipients) expect(pitch.chosen.has(r.email)).toBe(!r.catchAll && !r.role);
    pitch.edit('body', 'Hi {first_name}, a short note on {article_title}.');
    expect(pitch.saveState).toBe('unsaved');
    await new Promise((r) => setTimeout(r, SAVE_AFTER_MS / 2));
    expect((await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft).toBeNull(); // not before the pause
    await until(() => pitch.saveState === 'saved' && pitch.view?.draft !== null);
    expect((await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.body).toBe('Hi {first_name}, a short note on {article_title}.');
    const first = (await win.direct('opportunities:get', { brandId, id: mixed })).raw.author_name.split(' ')[0];
    expect(pitch.view!.filled.body.startsWith(`Hi ${first},`)).toBe(true);
    expect(pitch.unfilled).toEqual([]);
    expect(
      segments(pitch.body, pitch.states)
        .filter((x) => x.state)
        .map((x) => [x.text, x.state]),
    ).toEqual([
      ['{first_name}', 'filled'],
      ['{article_title}', 'filled'],
    ]);
    expect((await win.direct('opportunities:get', { brandId, id: mixed })).item.stage).toBe('Drafted');
  });
  it('the catch-all alone: {first_name} is listed unfilled and a send waits for "open anyway"; then y marks it contacted with the addresses used', async () => {
    const { win, brandId, mixed, pitch, sending, lastToast } = await editor();
    // The draft the first test types: the first name comes from the address chosen.
    const { service } = await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    await win.direct('drafts:save', { brandId, id: mixed, kind: 'pitch', subject: service.subject, body: 'Hi {first_name}, a short note on {article_title}.' });
    await pitch.follow(brandId, mixed, 'pitch');
    const personal = pitch.view!.recipients.filter((r) => pitch.chosen.has(r.email)).map((r) => r.email);
    const catchAll = pitch.view!.recipients.find((r) => r.catchAll)!.email;
    pitch.toggleRecipient(catchAll);
    for (const e of personal) pitch.toggleRecipient(e);
    await until(() => pitch.unfilled.length === 1 && win.inflight() === 0);
    expect(pitch.filledFor?.email).toBe(catchAll);
    expect(unfilledText(pitch.unfilled[0]!, { recipient: pitch.filledFor, author: 'Ana Lopez', domain: null, title: null, url: null, senderName: '' })).toBe(
      "{first_name} can't be filled: the chosen address is a catch-all",
    );
    expect(segments(pitch.body, pitch.states).find((x) => x.text === '{first_name}')?.state).toBe('unfilled');
    const opened = win.platform.opened.length;
    await sending.send('gmail');
    expect(sending.pending).toBe('gmail');
    expect(win.platform.opened.length).toBe(opened);
    sending.cancelSend();
    for (const e of personal) pitch.toggleRecipient(e);
    pitch.toggleRecipient(catchAll);
    await until(() => pitch.unfilled.length === 0 && win.inflight() === 0);
    await sending.send('gmail');
    expect(win.platform.opened.length).toBe(opened + 1);
    const url = new URL(win.platform.opened.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://mail.google.com/mail/');
    expect(url.searchParams.get('to')).toBe(personal.join(','));
    expect(url.searchParams.get('body')).toBe(pitch.view!.filled.body);
    expect(sending.sent?.to).toEqual(personal);
    await sending.confirmSent();
    expect(sending.sent).toBeNull();
    expect(lastToast()?.text).toBe(`Marked contacted today: ${personal.join(', ')}.`);
    const d = await win.direct('opportunities:get', { brandId, id: mixed });
    expect(d.item.stage).toBe('Contacted');
    expect(d.item.contacted_at).toBe(win.s.today());
  });
  it('moving to another opportunity saves the text typed before it at once; an answer for the one left is never shown', async () => {
    const { win, brandId, mixed, other, pitch } = await editor();
    await pitch.follow(brandId, mixed, 'pitch');
    pitch.edit('body', 'Typed, then moved away at once.');
    const held = win.hold('drafts:get', ([a]) => a.id === other);
    const moving = pitch.follow(brandId, other, 'pitch');
    await held.reached;
    // The text of the one left was saved without waiting for the pause.
    await until(() => win.inflight() === 1);
    expect((await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.body).toBe('Typed, then moved away at once.');
    expect(pitch.view).toBeNull();
    held.release();
    await moving;
    expect(pitch.isOf(brandId, other)).toBe(true);
    expect(pitch.body).toBe((await win.direct('drafts:get', { brandId, id: other, kind: 'pitch' })).text.body);

    // An answer for the draft the editor has left is dropped.
    const late = win.hold('drafts:get', ([a]) => a.id === other && a.kind === 'followup');
    const switching = pitch.switchKind('followup');
    await late.reached;
    await pitch.follow(brandId, mixed, 'pitch');
    late.release();
    await switching;
    expect(pitch.isOf(brandId, mixed)).toBe(true);
    expect(pitch.kind).toBe('pitch');
    expect(pitch.body).toBe('Typed, then moved away at once.');
  });
  it('a failed save says why and is tried again; reset brings the service text back', async () => {
    const { win, brandId, mixed, pitch, lastToast } = await editor();
    await pitch.follow(brandId, mixed, 'pitch');
    win.failNext('drafts:save', 'The cache is busy; try again.');
    pitch.edit('subject', 'A new subject');
    await pitch.flush();
    expect(pitch.saveState).toBe('error');
    expect(lastToast()).toMatchObject({ kind: 'error', text: 'The draft could not be saved: The cache is busy; try again.' });
    await pitch.flush();
    expect(pitch.saveState).toBe('saved');
    expect((await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' })).draft.subject).toBe('A new subject');
    pitch.askReset();
    expect(pitch.askingReset).toBe(true);
    await pitch.confirmReset();
    const v = await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    expect(v.draft).toBeNull();
    expect(pitch.subject).toBe(v.service.subject);
    expect(pitch.body).toBe(v.service.body);
  });
  it('p before the editor has read the draft copies the draft filled as it would go out, never the service text', async () => {
    const { win, brandId, mixed, list, selection, pitch, outreach, lastToast } = await editor();
    pitch.close();
    await win.direct('drafts:save', { brandId, id: mixed, kind: 'pitch', subject: 'For {publication}', body: 'Hi {first_name}, one line on {article_title}.' });
    // Only the row with the draft: the cursor is on it, its detail and the editor not read yet.
    list.setFilter({ ids: [mixed] });
    await until(() => selection.active?.id === mixed);
    expect(pitch.isOf(brandId, mixed)).toBe(false);
    await outreach.copyPitch();
    const v = await win.direct('drafts:get', { brandId, id: mixed, kind: 'pitch' });
    const first = (await win.direct('opportunities:get', { brandId, id: mixed })).raw.author_name.split(' ')[0];
    expect(win.platform.clipboard).toBe(copyPitch(v.filled.subject, v.filled.body));
    expect(win.platform.clipboard).toContain(`Hi ${first}, one line on `);
    expect(win.platform.clipboard).not.toContain('{');
    expect(win.platform.clipboard).not.toContain(v.service.body.slice(0, 40));
    expect(lastToast()?.text).toBe('Copied the pitch.');
    list.setFilter({ ids: undefined });
    await until(() => list.total > 1);
  });
});

describe('SnippetList', () => {
  it('snippets: added, listed by kind, removed', async () => {
    await fixture.window();
    const app = fixture.frame();
    const snippets = new SnippetList(frameOf(app));
    await snippets.load();
    expect(await snippets.save({ kind: 'other', name: '  ', text: 'x' })).toBe(false);
    expect(snippets.error).toBe('Give the snippet a name.');
    expect(await snippets.save({ kind: 'signoff', name: 'Thanks', text: 'Thanks,\n{sender_name}' })).toBe(true);
    expect(await snippets.save({ kind: 'opening', name: 'Warm', text: 'Hi {first_name},' })).toBe(true);
    expect(snippets.list.map((x) => [x.kind, x.name])).toEqual([
      ['opening', 'Warm'],
      ['signoff', 'Thanks'],
    ]);
    const warm = snippets.list[0]!;
    expect(await snippets.save({ id: warm.id, kind: 'opening', name: 'Warmer', text: 'Hello {first_name},' })).toBe(true);
    expect(snippets.list.find((x) => x.id === warm.id)?.text).toBe('Hello {first_name},');
    expect(await snippets.remove(warm.id)).toBe(true);
    expect(snippets.list.map((x) => x.name)).toEqual(['Thanks']);
    snippets.dispose();
  });
});

describe('PipelineStore: stages, snooze, the Due and Snoozed views, grouping', () => {
  it('the Due chip has no count (a placeholder, never a wrong 0) until the follow-ups are counted', async () => {
    const { app, brandId, win } = await editor();
    const other = createWorkbench(app);
    const fresh = other.pipeline;
    try {
      expect(fresh.dueHere).toBeNull();
      await fresh.refreshDue();
      const due = await win.direct('pipeline:due');
      expect(fresh.dueHere).toBe(due.byBrand[brandId] ?? 0);
    } finally {
      other.dispose();
    }
  });
  it('stages, snooze and the Due and Snoozed views, in bulk for a selection', async () => {
    const { win, brandId, list, selection, pipeline, lastToast } = await editor();
    await list.reload();
    const ids = [list.itemAt(0)!.id, list.itemAt(1)!.id];
    selection.toggleSelect(0);
    selection.toggleSelect(1);
    await pipeline.setStage('Not a fit', 'Paywalled or closed');
    expect(lastToast()?.text).toBe('2 opportunities moved to Not a fit (Paywalled or closed).');
    expect(selection.selected.size).toBe(0);
    for (const id of ids) expect((await win.direct('opportunities:get', { brandId, id })).item.stage).toBe('Not a fit');
    await win.direct('triage:apply', { brandId, ids, action: { do: 'stage', stage: 'New' } });

    await list.reload();
    const snoozed = list.itemAt(0)!.id;
    selection.moveTo(0);
    await pipeline.snooze(addDays(win.s.today(), 1));
    expect(list.itemAt(0)?.id).not.toBe(snoozed);
    pipeline.showView('snoozed');
    await until(() => !list.loading && list.itemAt(0)?.id === snoozed);
    expect(list.total).toBe(1);
    selection.moveTo(0);
    await pipeline.snooze(null);
    expect(lastToast()?.text).toBe('It is back in the list.');
    expect(list.total).toBe(0);
    pipeline.showView('snoozed'); // again: the whole list
    await until(() => !list.loading && list.total > 1);
    expect(list.filter.view).toBeUndefined();

    // Nothing is due today: contacted today is not due for three days.
    await pipeline.refreshDue();
    expect(pipeline.due?.byBrand[brandId] ?? 0).toBe(0);
    pipeline.showView('due');
    await until(() => !list.loading);
    expect(list.total).toBe(0);
    pipeline.showView(undefined);
    await until(() => !list.loading && list.total > 1);
  });
  it('u on an opportunity that was never snoozed sends nothing and says "Not snoozed."; on a selection only the snoozed ones come back', async () => {
    const { win, brandId, list, selection, pipeline, lastToast } = await editor();
    await list.reload();
    selection.moveTo(0);
    const never = list.itemAt(0)!.id;
    expect(list.itemAt(0)!.snoozed_until).toBeNull();
    const sent = win.called.length;
    await pipeline.snooze(null);
    expect(lastToast()?.text).toBe('Not snoozed.');
    expect(win.called.slice(sent)).toEqual([]);
    expect((await win.direct('opportunities:get', { brandId, id: never })).item.snoozed_until).toBeNull();

    // Two at once: one snoozed (out of the list, so its row is not here: the core is asked) and one never snoozed (left out).
    const snoozedId = list.itemAt(1)!.id;
    await pipeline.snooze(addDays(win.s.today(), 3), [snoozedId]);
    pipeline.showView('snoozed');
    await until(() => !list.loading && list.itemAt(0)?.id === snoozedId);
    pipeline.showView(undefined);
    await until(() => !list.loading && list.total > 1);
    const plain = list.itemAt(0)!.id;
    const asked: any[] = [];
    const held = win.hold('triage:apply', ([a]) => (asked.push(a), true));
    const done = pipeline.snooze(null, [plain, snoozedId]);
    await held.reached;
    held.release();
    await done;
    expect(asked[0].ids).toEqual([snoozedId]);
    expect(lastToast()?.text).toBe('It is back in the list.');
    selection.toggleSelect(0);
    await pipeline.snooze(null);
    expect(lastToast()?.text).toBe('Not snoozed.');
  });
  it('grouped by publication: sorted by domain with each outlet counted; another sort ends it', async () => {
    const { win, brandId, list, outlets } = await editor();
    outlets.toggle();
    await until(() => !list.loading && (outlets.rows?.outlets.length ?? 0) > 0);
    expect(list.filter.sort).toBe('domain');
    const first = list.itemAt(0)!.domain.toLowerCase();
    const counted = Object.fromEntries(outlets.rows!.outlets.map((o) => [o.domain.toLowerCase(), o.total]));
    expect(counted[first]).toBe((await win.direct('opportunities:domains', { brandId, sort: 'domain' }))[first]);
    list.setFilter({ sort: 'fit' });
    expect(outlets.grouped).toBe(false);
    outlets.toggle();
    outlets.toggle();
    expect(list.filter.sort).toBe('fit');
    await until(() => !list.loading && win.inflight() === 0);
  });
  it('a pitch plan marks contacted in the brand it was opened for, though another brand is on screen by the click', async () => {
    const { win, app, brandId } = await editor();
    const plan = new OutletPlanStore({ frame: frameOf(app), filter: () => ({ sort: 'domain' }), applied: async () => {}, undo: () => {} });
    // An outlet of several opportunities whose plan chooses an address to send to.
    const outlets = (await win.direct('opportunities:outlets', { brandId, sort: 'domain' })) as { domain: string; total: number }[];
    let ids: string[] = [];
    for (const o of outlets.filter((x) => x.total >= 2)) {
      const { items } = await win.direct('opportunities:list', { filter: { brandId, sort: 'domain', domain: o.domain }, offset: 0, limit: 1000 });
      ids = (items as { id: string }[]).map((i) => i.id);
      await plan.open(o.domain, ids);
      if (plan.to.length > 0) break;
    }
    expect(plan.to.length).toBeGreaterThan(0);
    const other = fixture.cache.sim.brands.find((b) => b.id !== brandId)!.id;
    app.selectBrand(other);
    expect(app.brandId).toBe(other);
    expect(await plan.markContacted()).toBe(true);
    expect(plan.error).toBeNull();
    const covered = ids.filter((id) => plan.covers(id));
    for (const id of covered) expect((await win.direct('opportunities:get', { brandId, id })).item.stage, id).toBe('Contacted');
  });
  it("grouped while searching: an outlet's actions reach exactly the opportunities its head counts (the search too)", async () => {
    const { win, brandId, list, selection, outlets } = await editor();
    // A word and an outlet where the search keeps some of the outlet's opportunities, not all.
    const all = new Map<string, number>(
      (await win.direct('opportunities:outlets', { brandId, sort: 'domain' })).map((o: { domain: string; total: number }) => [o.domain, o.total]),
    );
    let pick: { word: string; domain: string; total: number } | null = null;
    for (const word of ['coffee', 'brew', 'best', 'guide', 'review', 'tools', 'data', 'how']) {
      const some = (await win.direct('opportunities:outlets', { brandId, sort: 'domain', search: word })) as { domain: string; total: number }[];
      const o = some.filter((x) => x.total > 0 && x.total < (all.get(x.domain) ?? 0)).sort((x, y) => y.total - x.total)[0];
      if (o) {
        pick = { word, ...o };
        break;
      }
    }
    expect(pick).not.toBeNull();
    outlets.toggle();
    await until(() => !list.loading && (outlets.rows?.outlets.length ?? 0) > 0);
    list.setFilter({ search: pick!.word });
    await until(() => !list.loading && list.filter.search === pick!.word && (outlets.rows?.outlets ?? []).some((o) => o.domain === pick!.domain));
    expect(list.filter.sort).toBe('domain');
    const head = outlets.rows!.outlets.find((o) => o.domain === pick!.domain)!;
    expect(head.total).toBe(pick!.total);
    let at = 0;
    for (;;) {
      list.ensure(at, at + 1);
      await until(() => list.itemAt(at) !== undefined);
      if (list.itemAt(at)!.domain === pick!.domain) break;
      at++;
    }
    selection.moveTo(at);
    const got = await outlets.ids();
    expect(got?.outlet).toBe(pick!.domain);
    expect(got?.ids.length).toBe(head.total);
    const matching = await win.direct('opportunities:list', {
      filter: { brandId, sort: 'domain', search: pick!.word, domain: pick!.domain },
      offset: 0,
      limit: 1000,
    });
    expect(new Set(got!.ids)).toEqual(
      new Set(matching.items.filter((it: { domain: string }) => it.domain === pick!.domain).map((it: { id: string }) => it.id)),
    );
  });
  it('"Mark contacted today" (and C) goes through the core: its today, stage Contacted, once; Clear takes the date and the stage back', async () => {
    const { win, brandId, list, selection, pipeline, lastToast } = await editor();
    pipeline.showView(undefined);
    await list.reload();
    let i = 0;
    while (list.itemAt(i) && (list.itemAt(i)!.stage !== null || list.itemAt(i)!.contacted_at)) i++;
    selection.moveTo(i);
    const id = list.itemAt(i)!.id;
    win.failNext('triage:apply', 'The cache is busy; try again.');
    await pipeline.markContacted();
    expect(lastToast()).toMatchObject({ kind: 'error', text: 'The contacted date could not be saved: The cache is busy; try again.' });
    await pipeline.markContacted();
    expect(lastToast()?.text).toBe('Marked contacted today.');
    let d = await win.direct('opportunities:get', { brandId, id });
    expect(d.item).toMatchObject({ stage: 'Contacted', contacted_at: win.s.today() });
    expect(list.itemAt(i)).toMatchObject({ id, stage: 'Contacted', contacted_at: win.s.today() });
    await pipeline.markContacted();
    expect(lastToast()?.text).toMatch(/^Already marked contacted on /);
    await pipeline.unmarkContacted();
    d = await win.direct('opportunities:get', { brandId, id });
    expect(d.item).toMatchObject({ stage: null, contacted_at: null });
    expect(list.itemAt(i)).toMatchObject({ id, stage: null, contacted_at: null });
  });
});

describe("the editor's text helpers", () => {
  it('a line diff keeps what both have and marks what went and what came', async () => {
    expect(lineDiff('Hi [Name],\nOld line\nBest', 'Hi [Name],\nNew line\nAnother\nBest')).toEqual([
      { op: ' ', text: 'Hi [Name],' },
      { op: '-', text: 'Old line' },
      { op: '+', text: 'New line' },
      { op: '+', text: 'Another' },
      { op: ' ', text: 'Best' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ op: ' ', text: 'same' }]);
  });
  it('tokens are filled, unfilled, or not known yet (typed since the last answer)', async () => {
    const view = {
      text: { subject: '', body: 'Hi {first_name} at {publication}' },
      unfilled: [{ token: '{first_name}', field: 'first_name', part: 'body' }],
    } as any;
    expect(segments('{publication}: {first_name}, [Whatever] {brand}', fieldStates(view)).map((x) => [x.text, x.state])).toEqual([
      ['{publication}', 'filled'],
      [': ', null],
      ['{first_name}', 'unfilled'],
      [', ', null],
      ['[Whatever]', 'unfilled'],
      [' ', null],
      ['{brand}', 'pending'],
    ]);
  });
});
