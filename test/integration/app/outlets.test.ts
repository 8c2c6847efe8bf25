// Outlet-level work (electron/core/app/outlets.ts), through the app's own
// handlers on a real cache synced from the simulator: one pitch planned for
// several opportunities at one outlet (one draft listing each piece, the
// outlet's addresses once each, catch-all and role addresses flagged, the
// do-not-contact list honoured), marked contacted as one action through the
// record's owner (each covered opportunity's history shows it, one undo takes
// it all back).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { triageRecord } from '../../../electron/core/store/triage';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import type { HistoryEntry } from '../../../shared/user-record';
import { withPiecesListed } from '../../../electron/core/app/outlets';
import { openApp, type TestApp } from '../../support/app';

let sim: Simulator;
const AT = 'desk.example';
const BIG = 'big.example';
const BIG_SIZE = 1_005;
beforeAll(async () => {
  sim = await startSimulator({ seed: 41, opportunities: 60, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  const base = { opportunity_type: 'publication-gap', status: 'New', archived: false, domain: AT, author_name: 'Ana Lopez' };
  const b = sim.brands[0]!.id;
  sim.inject(b, {
    ...base,
    _id: 'desk-a',
    title: 'Desk A: cold brew at home',
    url: 'https://desk.example/a',
    priority_score: 9,
    contact_emails: ['ana.lopez@desk.example', 'tips@desk.example'],
  });
  sim.inject(b, {
    ...base,
    _id: 'desk-b',
    title: 'Desk B: espresso for beginners',
    url: 'https://desk.example/b',
    priority_score: 8,
    contact_emails: ['Ana.Lopez@desk.example', 'ben.kim@desk.example'],
  });
  sim.inject(b, { ...base, _id: 'desk-c', title: 'Desk C: grinders tested', priority_score: 7, contact_emails: ['all@desk.example CATCH'] });
  sim.inject(b, { ...base, _id: 'elsewhere', domain: 'other.example', title: 'Elsewhere', priority_score: 6, contact_emails: ['ed@other.example'] });
  // An outlet of more than the 1,000 rows a page holds, and one whose name holds its name.
  for (let i = 0; i < BIG_SIZE; i++)
    sim.inject(b, {
      ...base,
      _id: `big-${i}`,
      domain: i % 2 ? BIG : BIG.toUpperCase(),
      title: `Big ${i}`,
      priority_score: i % 10,
      contact_emails: [`ed${i}@${BIG}`],
    });
  sim.inject(b, { ...base, _id: 'not-big', domain: `x${BIG}`, title: 'Not big', priority_score: 5, contact_emails: [`ed@x${BIG}`] });
});
afterAll(() => sim.close());

const TODAY = '2026-11-23';
let open: TestApp | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

async function app() {
  open = await openApp({ key: DEMO_KEY, today: () => TODAY });
  const { s, call } = open;
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, senderName: 'Sam Lee' });
  s.parts.sync.start({});
  await s.settle();
  const brandId = (await call('brands:list'))[0]!.id;
  const history = async (id: string) => (await call('history:get', { brandId, id })).entries.map((e: HistoryEntry) => `${e.label}: ${e.detail}`);
  return { s, call, brandId, history, triage: (id: string) => triageRecord(s.cache.readable, brandId, id) };
}

const IDS = ['desk-a', 'desk-b', 'desk-c'];

describe('one pitch plan for several opportunities at one outlet', () => {
  it("drafts one pitch from the first one's, every piece listed, and the outlet's addresses once each: role and catch-all flagged, do-not-contact never chosen", async () => {
    const a = await app();
    await a.call('dnc:add', { value: 'ben.kim@desk.example' });
    const plan = await a.call('outlets:plan', { brandId: a.brandId, ids: IDS });
    expect(plan.domain).toBe(AT);
    expect(plan.covered.map((c) => [c.id, c.title])).toEqual([
      ['desk-a', 'Desk A: cold brew at home'],
      ['desk-b', 'Desk B: espresso for beginners'],
      ['desk-c', 'Desk C: grinders tested'],
    ]);
    // Ana once (two spellings), the role inbox flagged, Ben shown but blocked, the catch-all flagged: only the person chosen.
    expect(plan.recipients).toEqual([
      { email: 'ana.lopez@desk.example', catchAll: false, role: false, selected: true, blocked: false },
      { email: 'tips@desk.example', catchAll: false, role: true, selected: false, blocked: false },
      { email: 'ben.kim@desk.example', catchAll: false, role: false, selected: false, blocked: true },
      { email: 'all@desk.example', catchAll: true, role: false, selected: false, blocked: false },
    ]);
    expect(plan.mix).toBeNull();
    expect(plan.earlier).toEqual([]);
    // The first one's pitch as the draft pane fills it for the chosen address, with the three pieces listed.
    const lead = await a.call('drafts:get', { brandId: a.brandId, id: 'desk-a', kind: 'pitch', to: 'ana.lopez@desk.example' });
    expect(plan.subject).toBe(lead.filled.subject);
    expect(plan.body).toBe(withPiecesListed(lead.filled.body, plan.covered));
    for (const c of plan.covered) expect(plan.body).toContain(`- ${c.title}`);
    expect(plan.body).toContain('(https://desk.example/a)');
    // Reading it changed nothing.
    expect(a.triage('desk-a')?.stage ?? null).toBeNull();
  });

  it('says when the outlet was contacted lately for a piece it does not cover, before it goes', async () => {
    const a = await app();
    await a.call('triage:apply', { brandId: a.brandId, ids: ['desk-c'], action: { do: 'contacted', addresses: ['all@desk.example'] } });
    const plan = await a.call('outlets:plan', { brandId: a.brandId, ids: ['desk-a', 'desk-b'] });
    expect(plan.earlier.map((w) => [w.kind, w.what, w.opportunity_id, w.contacted_at])).toEqual([['outlet', AT, 'desk-c', TODAY]]);
    expect(plan.earlier[0]!.message).toBe(`${AT} was contacted on ${TODAY} for «Desk C: grinders tested» (the same outlet).`);
    // Covered by this pitch, it is not an earlier contact.
    expect((await a.call('outlets:plan', { brandId: a.brandId, ids: IDS })).earlier).toEqual([]);
  });

  it('refuses opportunities of two outlets, in plain words', async () => {
    const a = await app();
    await expect(a.call('outlets:plan', { brandId: a.brandId, ids: ['desk-a', 'elsewhere'] })).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining('One pitch covers one outlet'),
    });
  });

  it('marks every covered opportunity contacted with the addresses and subject sent, as one action: each history shows it, one undo takes it all back', async () => {
    const a = await app();
    const r = await a.call('outlets:contacted', {
      brandId: a.brandId,
      ids: IDS,
      addresses: ['ANA.LOPEZ@desk.example', 'tips@desk.example'],
      subject: 'Three pieces, one idea',
      filter: {},
      counts: true,
    });
    expect(r.updated).toBe(3);
    expect(r.items.map((i) => [i.id, i.stage])).toEqual(IDS.map((id) => [id, 'Contacted']));
    for (const id of IDS) {
      const t = a.triage(id)!;
      expect([t.stage, t.contacted_at, t.contacted_addresses, t.contacted_subject]).toEqual([
        'Contacted',
        TODAY,
        ['ana.lopez@desk.example', 'tips@desk.example'],
        'Three pieces, one idea',
      ]);
      expect((await a.history(id)).join('\n')).toMatch(/Contacted/);
    }
    // The answer's counts are a fresh read's (the chips; opportunities:counts also says how many the list holds: listed).
    const { listed, ...chips } = await a.call('opportunities:counts', { brandId: a.brandId });
    expect(r.counts).toEqual(chips);
    expect(listed).toBe(chips.total);
    const undone = await a.call('triage:undo', { actionId: r.actionId!, brandId: a.brandId });
    expect(undone.updated).toBe(3);
    expect(undone.message).toContain('one pitch to desk.example');
    for (const id of IDS) {
      const t = a.triage(id)!;
      expect([t.stage, t.contacted_at, t.contacted_addresses]).toEqual([null, null, null]);
      expect((await a.history(id)).join('\n')).toMatch(/Undone/);
    }
  });

  it('never records an address on the do-not-contact list, nor one that is not the outlet’s: nothing changes', async () => {
    const a = await app();
    await a.call('dnc:add', { value: 'ben.kim@desk.example' });
    const ask = (addresses: string[]) => a.call('outlets:contacted', { brandId: a.brandId, ids: IDS, addresses, subject: null });
    await expect(ask(['ana.lopez@desk.example', 'ben.kim@desk.example'])).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining('ben.kim@desk.example is on your do-not-contact list'),
    });
    await expect(ask(['ed@other.example'])).rejects.toMatchObject({ kind: 'invalid-input', message: expect.stringContaining('is not an address of these') });
    for (const id of IDS) expect(a.triage(id)?.contacted_at ?? null).toBeNull();
  });
});

describe("every opportunity of an outlet, under the list's filter", () => {
  it("all of them past the 1,000 a page holds, in the list's order, any case, only the outlet's own; the filter holds; Snooze all reaches each", async () => {
    const a = await app();
    const filter = { brandId: a.brandId, sort: 'domain' as const };
    const { ids } = await a.call('outlets:ids', { filter, domain: 'Big.Example' });
    expect(ids).toHaveLength(BIG_SIZE);
    expect(new Set(ids).size).toBe(BIG_SIZE);
    expect(ids).not.toContain('not-big');
    // The list's own order: its pages narrowed to the outlet, read by an independent path (offsets).
    const listed: string[] = [];
    for (let offset = 0; offset < 2000; offset += 1000) {
      const p = await a.call('opportunities:list', { filter: { ...filter, domain: BIG }, offset, limit: 1000 });
      listed.push(...p.items.filter((it) => it.domain?.toLowerCase() === BIG).map((it) => it.id));
    }
    expect(ids).toEqual(listed);
    // Under the filter: five snoozed leave the list, so they are not the outlet's in it.
    await a.call('triage:apply', { brandId: a.brandId, ids: ids.slice(0, 5), action: { do: 'snooze', until: '2026-12-01' } });
    const rest = (await a.call('outlets:ids', { filter, domain: BIG })).ids;
    expect(rest).toEqual(ids.slice(5));
    // Snooze all at the outlet: one action over every one, one undo.
    const r = await a.call('triage:apply', { brandId: a.brandId, ids: rest, action: { do: 'snooze', until: '2026-12-01' }, filter: {}, counts: true });
    expect(r.updated).toBe(BIG_SIZE - 5);
    expect((await a.call('outlets:ids', { filter, domain: BIG })).ids).toEqual([]);
    expect((await a.call('outlets:ids', { filter: { ...filter, view: 'snoozed' }, domain: BIG })).ids).toHaveLength(BIG_SIZE);
  });
});
