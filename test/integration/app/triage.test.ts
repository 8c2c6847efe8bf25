// The user's record has one owner (electron/core/app/triage.ts), through the
// app's own handlers on a real cache and the simulator: one action is one
// call that answers with everything the window repaints; every action, one
// or many, can be undone, and the history shows both; typing a note is one
// action; marked contacted keeps the addresses and the subject that went
// out, and the follow-up replies to that subject. A fresh app per test.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { triageRecord } from '../../../electron/core/store/triage';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import type { HistoryEntry } from '../../../shared/user-record';
import { openApp, type TestApp } from '../../support/app';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 31, opportunities: 120, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  // Two opportunities at one outlet sharing an address: pitching one shows on the other.
  const base = { opportunity_type: 'publication-gap', status: 'New', archived: false, domain: 'shared.example', contact_emails: ['desk@shared.example'] };
  sim.inject(sim.brands[0]!.id, { ...base, _id: 'share-a', title: 'Shared A', priority_score: 3 });
  sim.inject(sim.brands[0]!.id, { ...base, _id: 'share-b', title: 'Shared B', priority_score: 2 });
});
afterAll(() => sim.close());

const TODAY = '2026-11-23';
let open: TestApp | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

/** A synced app on a fresh folder, its contract, and its first opportunities (ids). */
async function app() {
  open = await openApp({ key: DEMO_KEY, today: () => TODAY });
  const { s, platform, call } = open;
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, senderName: 'Sam Lee' });
  s.parts.sync.start({});
  await s.settle();
  const brandId = (await call('brands:list'))[0]!.id;
  const ids = (await call('opportunities:list', { filter: { brandId }, offset: 0, limit: 20 })).items.map((o) => o.id);
  const history = async (id: string) => (await call('history:get', { brandId, id })).entries.map((e: HistoryEntry) => `${e.label}: ${e.detail}`);
  return { s, platform, call, brandId, ids, history, triage: (id: string) => triageRecord(s.cache.readable, brandId, id) };
}

describe('one action, one round trip', () => {
  it('a stage key answers with the changed row, the detail, whether the row leaves the list, the chips and the follow-ups due', async () => {
    const a = await app();
    const id = a.ids[0]!;
    const before = (await a.call('opportunities:view', { filter: { brandId: a.brandId }, limit: 200 })).counts!;
    const r = await a.call('triage:apply', {
      brandId: a.brandId,
      ids: [id],
      action: { do: 'not-a-fit', reason: 'Paywalled or closed' },
      filter: {},
      counts: true,
    });
    expect(r.updated).toBe(1);
    expect(r.items).toEqual([expect.objectContaining({ id, stage: 'Not a fit' })]);
    // The answer's row and detail are what a fresh read gives.
    const fresh = await a.call('opportunities:get', { brandId: a.brandId, id });
    expect(r.detail).toEqual(fresh);
    expect(r.items[0]).toEqual({ ...fresh!.item, sort_value: null });
    // Not a fit leaves the default list; the chips the answer carries count it out.
    expect(r.leaving).toEqual([id]);
    expect(r.counts!.total).toBe(before.total - 1);
    expect(r.counts!.stage['Not a fit']).toBe(0);
    expect(r.due).toEqual(await a.call('pipeline:due'));
    expect(r.message).toBe('Not a fit (Paywalled or closed).');
    expect(a.triage(id)).toMatchObject({ stage: 'Not a fit', stage_reason: 'Paywalled or closed' });
  });

  it('the same action twice changes nothing the second time, and says so (nothing to undo either)', async () => {
    const a = await app();
    const first = await a.call('triage:apply', { brandId: a.brandId, ids: [a.ids[0]!], action: { do: 'won' } });
    const again = await a.call('triage:apply', { brandId: a.brandId, ids: [a.ids[0]!], action: { do: 'won' } });
    expect(first.actionId).not.toBeNull();
    expect(again).toMatchObject({ actionId: null, updated: 0, message: 'Nothing to change: stage: won already.' });
  });
});

describe('what the window reads after an action', () => {
  it('a note or a stage leaves the "already pitched" dates as they are; marked contacted (and its undo) updates them at once', async () => {
    const a = await app();
    const pitched = async (id: string) => (await a.call('opportunities:get', { brandId: a.brandId, id }))!.item.pitched_at;
    const search = async () =>
      (await a.call('opportunities:view', { filter: { brandId: a.brandId, search: 'shared' }, limit: 10 })).items.map((o) => o.id).sort();
    expect(await pitched('share-a')).toBeNull();
    expect(await search()).toEqual(['share-a', 'share-b']);
    await a.call('triage:apply', { brandId: a.brandId, ids: ['share-b'], action: { do: 'note', text: 'desk replies on Mondays' } });
    expect(await pitched('share-a')).toBeNull();
    await a.call('triage:apply', { brandId: a.brandId, ids: ['share-b'], action: { do: 'contacted', addresses: ['desk@shared.example'] } });
    expect(await pitched('share-a')).toBe(TODAY);
    const r = await a.call('triage:apply', { brandId: a.brandId, ids: ['share-a'], action: { do: 'star', on: true }, filter: { alreadyPitched: false } });
    expect(r.items[0]!.pitched_at).toBe(TODAY);
    expect(r.leaving).toEqual(['share-a']);
    expect(await search()).toEqual(['share-a', 'share-b']);
    await a.call('triage:undo', { actionId: (await a.call('triage:apply', { brandId: a.brandId, ids: ['share-b'], action: { do: 'replied' } })).actionId! });
    await a.call('triage:apply', { brandId: a.brandId, ids: ['share-b'], action: { do: 'not-contacted' } });
    expect(await pitched('share-a')).toBeNull();
    await a.call('triage:undo', { brandId: a.brandId });
    expect(await pitched('share-a')).toBe(TODAY);
  });
});

describe('undo', () => {
  it('takes back one action: the stage goes back, and the history shows the action and its undo', async () => {
    const a = await app();
    const id = a.ids[1]!;
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'stage', stage: 'Replied' } });
    const won = await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'won' } });
    const u = await a.call('triage:undo', { brandId: a.brandId, filter: {}, counts: true });
    expect(u).toMatchObject({ actionId: won.actionId, updated: 1, message: 'Undone: Stage: Won.' });
    expect(u.detail!.item.stage).toBe('Replied');
    expect(a.triage(id)!.stage).toBe('Replied');
    expect(await a.history(id)).toEqual(['Undone: Stage: Won', 'Stage: Won', 'Stage: Replied']);
    // The next undo takes back the one before it; then there is nothing left.
    await a.call('triage:undo', { brandId: a.brandId });
    expect(a.triage(id)!.stage).toBeNull();
    await expect(a.call('triage:undo', { brandId: a.brandId })).rejects.toMatchObject({ kind: 'not-found', message: 'Nothing to undo.' });
  });

  it('takes back a bulk action all at once, except where a field was changed since (kept, and said)', async () => {
    const a = await app();
    const [x, y, z] = a.ids as [string, string, string];
    const snooze = await a.call('triage:apply', { brandId: a.brandId, ids: [x, y, z], action: { do: 'snooze', until: '2026-12-01' } });
    expect(snooze.updated).toBe(3);
    // A later change to one of them, by another action.
    await a.call('triage:apply', { brandId: a.brandId, ids: [z], action: { do: 'snooze', until: '2026-12-24' } });
    const u = await a.call('triage:undo', { actionId: snooze.actionId! });
    expect(u.updated).toBe(2);
    expect(u.message).toBe('Undone: Snoozed until 2026-12-01 (2 opportunities); 1 opportunity changed since keeps its later change.');
    expect([x, y, z].map((id) => a.triage(id)!.snoozed_until)).toEqual([null, null, '2026-12-24']);
    expect(await a.history(x)).toEqual(['Undone: Snoozed until 2026-12-01', 'Snoozed until: 2026-12-01']);
    await expect(a.call('triage:undo', { actionId: snooze.actionId! })).rejects.toMatchObject({ kind: 'invalid-input' });
  });

  it('marked contacted, undone: the date, the addresses, the subject and the stage all go back', async () => {
    const a = await app();
    // An opportunity with an address (the addresses named must be its own).
    const details = await Promise.all(a.ids.slice(2).map((id) => a.call('opportunities:get', { brandId: a.brandId, id })));
    const d = details.find((x) => x?.contacts.some((c) => c.valid))!;
    const id = d.item.id;
    const address = d.contacts.find((c) => c.valid)!.email;
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'stage', stage: 'Drafted' } });
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'contacted', addresses: [address], subject: 'An idea' } });
    expect(a.triage(id)).toMatchObject({ stage: 'Contacted', contacted_at: TODAY, contacted_addresses: [address], contacted_subject: 'An idea' });
    await a.call('triage:undo', {});
    expect(a.triage(id)).toMatchObject({ stage: 'Drafted', contacted_at: null, contacted_addresses: null, contacted_subject: null });
  });

  it('typing a note is one action: one undo puts back the note from before the typing', async () => {
    const a = await app();
    const id = a.ids[3]!;
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'note', text: 'Kept' } });
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'star', on: true } });
    const typed = ['Kept; c', 'Kept; ca', 'Kept; called Ana'];
    const ids = new Set<number | null>();
    for (const text of typed) ids.add((await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'note', text } })).actionId);
    expect(ids.size).toBe(1);
    await a.call('triage:undo', { brandId: a.brandId });
    expect(a.triage(id)).toMatchObject({ note: 'Kept', starred: true });
  });

  it('from the CLI too: `workbench undo` takes back the window’s last action', async () => {
    const a = await app();
    await a.call('triage:apply', { brandId: a.brandId, ids: [a.ids[4]!], action: { do: 'replied' } });
    const { runCli } = await import('../../support/cli-run');
    const r = await runCli(['undo', '--brand', a.brandId], { url: sim.url, db: a.s.cache.path });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Undone: Stage: Replied\.\n {2}.+: stage New\.\n$/);
    expect(a.triage(a.ids[4]!)!.stage).toBeNull();
  });
});

describe('marked contacted keeps what went out', () => {
  it('without addresses: the ones the pitch pre-selects and its subject filled for them; the follow-up replies to that subject', async () => {
    const a = await app();
    const id = a.ids.find((i) => i !== a.ids[0]) ?? a.ids[0]!;
    await a.call('drafts:save', { brandId: a.brandId, id, kind: 'pitch', subject: 'For {publication}: one idea', body: 'Hi {first_name},\nshort.' });
    const pitch = await a.call('drafts:get', { brandId: a.brandId, id, kind: 'pitch' });
    const selected = pitch.recipients.filter((r) => r.selected).map((r) => r.email);
    expect(pitch.filled.subject).not.toContain('{');
    await a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'contacted' } });
    expect(a.triage(id)).toMatchObject({
      contacted_at: TODAY,
      // None pre-selected: its catch-alls when that is all it has, else nobody (every address on the do-not-contact list).
      contacted_addresses: selected.length ? selected : pitch.recipients.filter((r) => r.catchAll && !r.blocked).map((r) => r.email),
      contacted_subject: pitch.filled.subject,
    });
    // The draft changes after sending: the follow-up still replies to what was sent.
    await a.call('drafts:save', { brandId: a.brandId, id, kind: 'pitch', subject: 'Something else entirely', body: 'x' });
    const followUp = await a.call('drafts:get', { brandId: a.brandId, id, kind: 'followup' });
    expect(followUp.text.subject).toBe(`Re: ${pitch.filled.subject}`);
    expect(followUp.filled.subject).toBe(`Re: ${pitch.filled.subject}`);
  });

  it("with addresses none of which is this opportunity's: refused (nothing recorded), never the pre-selected ones instead", async () => {
    const a = await app();
    const id = a.ids[0]!;
    const before = a.triage(id);
    await expect(
      a.call('triage:apply', { brandId: a.brandId, ids: [id], action: { do: 'contacted', addresses: ['nobody@nowhere.example'] } }),
    ).rejects.toMatchObject({ kind: 'invalid-input', message: expect.stringContaining('nobody@nowhere.example is not an address of this opportunity') });
    expect(a.triage(id)).toEqual(before);
  });
});
