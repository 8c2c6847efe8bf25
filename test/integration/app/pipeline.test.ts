// The outreach pipeline through the app's own handlers, on a real cache and
// the simulator: drafts saved and never overwritten by a sync, merge fields
// per address, sending through Gmail with the link checked, stages mapped to
// the service's status, snooze and the one follow-up as the clock moves, the
// warning before an outlet is pitched twice, and exports (CSV, .xlsx, the
// follow-ups preset) carrying the filled text and the stage. Also: the
// follow-ups due count matches the Due view, the do-not-contact list is
// honoured when sending, and every way of marking contacted dates it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { AppService } from '../../../electron/core/app/service';
import { Cache } from '../../../electron/core/store/cache';
import { MemorySecretStore } from '../../../electron/core/seams';
import { run } from '../../../electron/cli/main';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import type { MethodName } from '../../../shared/contract';
import type { CachedBrand, ComposeResult, ContactWarning, DraftView, ListItem } from '../../../shared/model';
import { triageRecord } from '../../../electron/core/store/triage';
import { detail, list as storeList } from '../../support/store';
import { addDays } from '../../../shared/calendar';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 12, opportunities: 240, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 5 });
});
afterAll(() => sim.close());

/** What a test opened (an app, a cache, a folder), let go after it, newest first, whether it passed or not: a failing test leaks nothing. */
const opened: (() => unknown)[] = [];
afterEach(async () => {
  for (const letGo of opened.splice(0).reverse()) await letGo();
});

async function app() {
  const tmp = tempDir();
  opened.push(() => tmp.cleanup());
  const platform = new FakePlatform();
  const keychain = new FakeKeychain();
  keychain.value = DEMO_KEY;
  let today = '2026-11-23';
  const s = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    integrityCheckDelayMs: 60_000,
    noReplyEveryMs: 20,
    today: () => today,
  });
  opened.push(() => s.close());
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, senderName: 'Sam Lee' });
  const h = createHandlers(s);
  const call = async <T = unknown>(m: MethodName, ...args: unknown[]): Promise<T> => {
    const r = await dispatch(h, m, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
    return r.value as T;
  };
  s.parts.sync.start({});
  await s.settle();
  const brands = await call<CachedBrand[]>('brands:list');
  const brand = brands[0]!.id;
  const list = (filter: Record<string, unknown> = {}) => storeList(s.cache, { brandId: brand, ...filter }, { limit: 1000 });
  /** The user's triage of one opportunity, as the record holds it. */
  const triage = (id: string) => triageRecord(s.cache.readable, brand, id);
  const opportunity = (id: string) => detail(s.cache, brand, id);
  /** One action through the contract, as the window sends it. */
  const act = (ids: string[], action: Record<string, unknown>) => call<{ updated: number }>('triage:apply', { brandId: brand, ids, action });
  return { s, platform, call, tmp, brand, brandName: brands[0]!.name, list, triage, opportunity, act, setToday: (d: string) => (today = d) };
}

let injected = 0;
/**
 * A record of our own on the server (a copy of a generated one with a known
 * author, a personal and a catch-all address, and a pitch), synced in.
 */
async function personAndCatchAll(a: Awaited<ReturnType<typeof app>>, pitchBody = 'Hi [Name], the service wrote this.') {
  const template = a.opportunity(a.list()[0]!.id)!.raw;
  const id = `custom-${++injected}`;
  const record = {
    ...template,
    _id: id,
    unique_key: `low-hanging-fruit:custom.example/${id}`,
    domain: 'custom.example',
    author_name: 'Ana María Souza',
    contact_emails: ['ana.souza@custom.example', 'tips@custom.example CATCH', 'not an address'],
    pitch_body: pitchBody,
    archived: false,
    status: 'New',
  };
  sim.inject(a.brand, record);
  a.s.parts.sync.start({});
  await a.s.settle();
  return { id, person: 'ana.souza@custom.example', catchAll: 'tips@custom.example', record };
}

describe('a draft per opportunity', () => {
  it('starts as the service pitch, is saved as typed (Drafted), fills per address, and a sync that changes the pitch never overwrites it', async () => {
    const a = await app();
    const { id, person, catchAll, record } = await personAndCatchAll(a);
    const fresh = await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch' });
    expect(fresh.draft).toBeNull();
    expect(fresh.text).toEqual(fresh.service);
    const saved = await a.call<DraftView>('drafts:save', {
      brandId: a.brand,
      id,
      kind: 'pitch',
      subject: 'For {publication}: an idea',
      body: 'Hi {first_name},\n\nAbout "{article_title}".\n\n{sender_name}',
    });
    expect(saved.draft).toMatchObject({ subject: 'For {publication}: an idea' });
    expect(a.opportunity(id)!.item).toMatchObject({ stage: 'Drafted', server_status: 'New' });

    const toPerson = await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch', to: person });
    expect(toPerson.filled.body.startsWith('Hi Ana,')).toBe(true);
    expect(toPerson.filled.body.endsWith('Sam Lee')).toBe(true);
    expect(toPerson.unfilled).toEqual([]);
    const toCatchAll = await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch', to: catchAll });
    expect(toCatchAll.unfilled).toEqual([{ token: '{first_name}', field: 'first_name', part: 'body' }]);
    expect(toCatchAll.recipients.find((r) => r.email === catchAll)!.selected).toBe(false);

    // The service rewrites its pitch; the next sync brings it: the draft stays, and the pane is told.
    sim.inject(a.brand, { ...record, pitch_body: 'A new pitch from the service.' });
    a.s.parts.sync.start({});
    await a.s.settle();
    const after = await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch' });
    expect(after.draft!.body).toBe(saved.draft!.body);
    expect(after.serviceChanged).toBe(true);
    expect(after.service.body).toBe('A new pitch from the service.');
    expect(after.base!.body).not.toBe('A new pitch from the service.');
    const reset = await a.call<DraftView>('drafts:reset', { brandId: a.brand, id, kind: 'pitch' });
    expect(reset.draft).toBeNull();
    expect(reset.text.body).toBe('A new pitch from the service.');
  });
});

describe("sending through the user's own mail", () => {
  it("opens Gmail on the web with the filled pitch for the chosen addresses, then 'mark contacted' records the date and the addresses", async () => {
    const a = await app();
    const { id, person, catchAll } = await personAndCatchAll(a);
    // A second opportunity of this test's own at the same outlet (not one an earlier test left on the simulator).
    const { id: twinId } = await personAndCatchAll(a);
    await a.call('drafts:save', { brandId: a.brand, id, kind: 'pitch', subject: 'Hi from {brand}', body: 'Hi {first_name}, a short note.' });
    const r = await a.call<ComposeResult>('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'gmail', to: [person, 'someone-else@nowhere.example'] });
    expect(r).toMatchObject({ opened: true, via: 'gmail', to: [person], bodyCopied: false, unfilled: [] });
    const url = new URL(a.platform.opened.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://mail.google.com/mail/');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ view: 'cm', to: person, su: `Hi from ${a.brandName}` });
    expect(url.searchParams.get('body')).toBe('Hi Ana, a short note.');
    await expect(a.call('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'gmail', to: ['nobody@nowhere.example'] })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
    // The same address in two spellings: written once, as the opportunity holds it.
    const twice = await a.call<ComposeResult>('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'gmail', to: [person.toUpperCase(), person] });
    expect(twice).toMatchObject({ to: [person], inLink: { to: [person] } });
    expect(new URL(a.platform.opened.at(-1)!).searchParams.get('to')).toBe(person);

    await a.act([id], { do: 'contacted', addresses: [person] });
    const d = a.opportunity(id)!;
    expect(d.item).toMatchObject({ stage: 'Contacted', contacted_at: '2026-11-23' });
    expect(a.triage(id)!.contacted_addresses).toEqual([person]);
    // Another opportunity at the same outlet: warned, naming when and for which.
    const twin = a.list().find((o) => o.domain === d.item.domain && o.id === twinId);
    if (!twin) throw new Error('the second opportunity at that outlet was not synced');
    const warnings = await a.call<{ kind: string; message: string }[]>('pipeline:warnings', { brandId: a.brand, id: twin.id, addresses: [person, catchAll] });
    expect(warnings.map((w) => w.kind)).toContain('outlet');
    expect(warnings.find((w) => w.kind === 'person')?.message ?? warnings[0]!.message).toMatch(/was contacted on 2026-11-23 for «.+»/);
  });

  it('Outlook.com for personal accounts opens its own compose link; key C without addresses records the pre-selected person, not the catch-all', async () => {
    const a = await app();
    const { id, person, catchAll } = await personAndCatchAll(a);
    const r = await a.call<ComposeResult>('mail:compose', {
      brandId: a.brand,
      id,
      kind: 'pitch',
      via: 'outlook-personal',
      to: [person, catchAll],
      mix: 'together',
    });
    expect(r).toMatchObject({ opened: true, via: 'outlook-personal', inLink: { to: [person, catchAll] } });
    const url = new URL(a.platform.opened.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://outlook.live.com/mail/0/deeplink/compose');
    expect(url.searchParams.get('to')).toBe(`${person},${catchAll}`);
    await a.call('triage:apply', { brandId: a.brand, ids: [id], action: { do: 'contacted', addresses: [] } });
    expect(triageRecord(a.s.cache.readable, a.brand, id)!.contacted_addresses).toEqual([person]);
  });

  it('a body too long for a link: the mail app opens with the subject, and the body is on the clipboard', async () => {
    const a = await app();
    const { id, person } = await personAndCatchAll(a);
    const long = 'A very long pitch. '.repeat(200);
    await a.call('drafts:save', { brandId: a.brand, id, kind: 'pitch', subject: 'Long one', body: long });
    const r = await a.call<ComposeResult>('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'default', to: [person] });
    expect(r.bodyCopied).toBe(true);
    expect(r.message).toMatch(/copied, so paste it in/);
    expect(a.platform.clipboard).toBe(long);
    expect(a.platform.opened.at(-1)!.startsWith('mailto:')).toBe(true);
  });
});

describe('the pipeline as the days go by', () => {
  it("stages are the user's, beside Trakkr's status; snoozed ones leave the list and come back on their date; a follow-up is due after 3 days, once; no reply moves it to Not a fit", async () => {
    const a = await app();
    const [x, y, z] = a.list().slice(0, 3) as [ListItem, ListItem, ListItem];
    await a.act([x.id], { do: 'stage', stage: 'Won' });
    expect(a.opportunity(x.id)!.item).toMatchObject({ stage: 'Won', server_status: x.server_status });
    await a.act([x.id], { do: 'stage', stage: 'Not a fit', reason: 'Paywalled or closed' });
    expect(a.triage(x.id)).toMatchObject({ stage: 'Not a fit', stage_reason: 'Paywalled or closed' });
    // Not a fit leaves the list (as archived ones do), and the Not a fit stage shows it.
    expect(a.list().some((o) => o.id === x.id)).toBe(false);
    expect(a.list({ stage: 'Not a fit' }).map((o) => o.id)).toEqual([x.id]);
    await expect(a.act(['no-such-id'], { do: 'stage', stage: 'Won' })).rejects.toMatchObject({ kind: 'not-found' });

    await a.act([y.id], { do: 'snooze', until: '2026-11-30' });
    expect(a.list().some((o) => o.id === y.id)).toBe(false);
    expect(a.list({ view: 'snoozed' }).map((o) => o.id)).toEqual([y.id]);
    await expect(a.act([y.id], { do: 'snooze', until: '2026-11-23' })).rejects.toMatchObject({ kind: 'invalid-input' });
    a.setToday('2026-11-30');
    const back = a.list().find((o) => o.id === y.id);
    expect(back).toMatchObject({ snoozed_until: '2026-11-30' });

    a.setToday('2026-11-23');
    await a.act([z.id], { do: 'contacted', addresses: [] });
    expect((await a.call<{ total: number }>('pipeline:due')).total).toBe(0);
    expect(a.list({ view: 'due' })).toEqual([]);
    a.setToday(addDays('2026-11-23', 3));
    expect(await a.call('pipeline:due')).toEqual({ byBrand: { [a.brand]: 1 }, total: 1 });
    expect(a.list({ view: 'due' }).map((o) => o.id)).toEqual([z.id]);
    // The follow-ups export lists exactly what the Due view shows, with the follow-up filled.
    const out = join(a.tmp.dir, 'followups.csv');
    a.platform.saveAs = out;
    const file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'followups.csv' })).file;
    a.s.parts.exports.start({ brandId: a.brand, preset: 'followups', unfilled: 'keep' }, file.handle);
    await a.platform.waitFor('export:done');
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
    // One row per address written to (key C recorded the pre-selected ones), all of this one opportunity.
    expect([...new Set(rows.map((r) => r.opportunity_id))]).toEqual([z.id]);
    expect(rows.map((r) => r.email)).toEqual(triageRecord(a.s.cache.readable, a.brand, z.id)!.contacted_addresses);
    expect(rows[0]!.subject).toMatch(/^Re: /);
    expect(rows[0]!.body).toMatch(/Sam Lee$/);

    await a.act([z.id], { do: 'followed-up' });
    expect(a.list({ view: 'due' })).toEqual([]);
    a.setToday(addDays('2026-11-26', 7));
    await a.s.launch();
    expect(a.triage(z.id)).toMatchObject({ stage: 'Not a fit', stage_reason: 'No reply' });
    const history = await a.call<{ entries: { kind: string; detail: string }[] }>('history:get', { brandId: a.brand, id: z.id });
    expect(history.entries.map((e) => `${e.kind}:${e.detail}`)).toEqual(
      expect.arrayContaining(['stage:Not a fit', 'reason:No reply', 'followed_up:2026-11-26', 'stage:Contacted']),
    );
  });
});

describe('exports carry the filled text and the stage', () => {
  it('CSV and .xlsx: the filled draft, the stage, links and dates typed; read back with the same library', async () => {
    const a = await app();
    const { id } = await personAndCatchAll(a);
    await a.call('drafts:save', { brandId: a.brand, id, kind: 'pitch', subject: '=cmd|calc: {brand}', body: 'Hi {first_name},\nshort.' });
    await a.act([id], { do: 'contacted', addresses: [] });
    const filter = { ids: [id] };
    for (const format of ['csv', 'xlsx'] as const) {
      const out = join(a.tmp.dir, `filled.${format}`);
      a.platform.saveAs = out;
      const file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: `filled.${format}` })).file;
      a.s.parts.exports.start({ brandId: a.brand, preset: 'opportunities', filter, format }, file.handle);
      const done = await a.platform.waitFor('export:done');
      expect(done.error).toBeNull();
    }
    const csv = (parse(readFileSync(join(a.tmp.dir, 'filled.csv'), 'utf8'), { columns: true }) as Record<string, string>[])[0]!;
    const brand = a.brandName;
    expect(csv).toMatchObject({ stage: 'Contacted', subject: `'=cmd|calc: ${brand}`, unfilled: '' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(a.tmp.dir, 'filled.xlsx'));
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const at = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.rowCount).toBe(2);
    // Text is text: no formula, no apostrophe.
    expect(at('subject').value).toBe(`=cmd|calc: ${brand}`);
    expect(at('subject').formula).toBeUndefined();
    expect(at('body').value).toBe(csv.body);
    expect(at('stage').value).toBe('Contacted');
    expect(at('contacted_at').value).toEqual(new Date('2026-11-23T00:00:00Z'));
    expect(at('url').value).toMatchObject({ hyperlink: csv.url });
    expect(sheet.getColumn(header.indexOf('title') + 1).width).toBeGreaterThan(10);
  });
});

describe('the follow-ups due, marked contacted every way, and the do-not-contact list', () => {
  it('pipeline:due counts what the Due view lists (no snoozed, archived or removed one); stage Contacted dates it; the no-reply rule runs while the window stays open', async () => {
    const a = await app();
    await a.s.launch();
    const gone = sim.mutate({ removed: 1 }).removed[0]!; // still in the cache until the next sync
    // Due means an address left to write to: four with one (whatever earlier tests did to the simulator's records), and
    // the removed one counts only if it has one.
    const writable = (id: string) => a.opportunity(id)!.contacts.some((c) => c.valid && !c.blocked);
    const [p, q, r, t] = a.list().filter((o) => o.id !== gone && !o.id.startsWith('custom-') && writable(o.id)) as [ListItem, ListItem, ListItem, ListItem];
    const dueAtFirst = 4 + (writable(gone) ? 1 : 0);
    await a.act([p.id], { do: 'contacted', addresses: [] });
    a.setToday('2026-11-24');
    await a.act([p.id, q.id, r.id, t.id, gone], { do: 'stage', stage: 'Contacted' });
    expect([p, q].map((o) => a.triage(o.id)!.contacted_at)).toEqual(['2026-11-23', '2026-11-24']);
    a.setToday('2026-11-27');
    expect(await a.call('pipeline:due')).toEqual({ byBrand: { [a.brand]: dueAtFirst }, total: dueAtFirst });
    await a.act([r.id], { do: 'snooze', until: '2026-11-30' });
    // Trakkr archives t (the service's flag), and the next sync brings that and the removal.
    sim.inject(a.brand, { ...a.opportunity(t.id)!.raw, archived: true });
    a.s.parts.sync.start({});
    await a.s.settle();
    const due = a.list({ view: 'due' }).map((o) => o.id);
    expect(due.sort()).toEqual([p.id, q.id].sort());
    expect(await a.call('pipeline:due')).toEqual({ byBrand: { [a.brand]: 2 }, total: 2 });

    // A window left open for days: the no-reply rule runs by itself (every hour; here every 20 ms), no launch needed, and counting never writes.
    await a.act([p.id], { do: 'followed-up' });
    a.setToday(addDays('2026-11-27', 7));
    await vi.waitFor(() => expect(a.triage(p.id)).toMatchObject({ stage: 'Not a fit', stage_reason: 'No reply' }));
    const later = await a.call<{ total: number }>('pipeline:due');
    expect(later.total).toBe(a.list({ view: 'due' }).length);
    expect(
      a
        .list({ view: 'due' })
        .map((o) => o.id)
        .sort(),
    ).toEqual([q.id, r.id].sort()); // r is back from its snooze
  });

  it('snoozes several at once through the handlers, all or nothing, and wakes them together', async () => {
    const a = await app();
    const ids = a
      .list()
      .slice(0, 3)
      .map((o) => o.id);
    expect(await a.act([...ids, ids[0]!], { do: 'snooze', until: '2026-11-25' })).toMatchObject({ updated: 3 });
    expect(a.list().filter((o) => ids.includes(o.id))).toEqual([]);
    expect(
      a
        .list({ view: 'snoozed' })
        .map((o) => o.id)
        .sort(),
    ).toEqual([...ids].sort());
    await expect(a.act([ids[0]!, 'no-such-id'], { do: 'snooze', until: '2026-11-28' })).rejects.toMatchObject({
      kind: 'not-found',
    });
    expect(a.triage(ids[0]!)!.snoozed_until).toBe('2026-11-25');
    expect(await a.act(ids, { do: 'snooze', until: null })).toMatchObject({ updated: 3 });
    expect(a.list({ view: 'snoozed' })).toEqual([]);
  });

  it('warns about the same person at another outlet (the person alone); a contact window of 0 turns warnings off', async () => {
    const a = await app();
    const { id, person, record } = await personAndCatchAll(a);
    const other = `custom-${++injected}`;
    sim.inject(a.brand, {
      ...record,
      _id: other,
      unique_key: `low-hanging-fruit:elsewhere.example/${other}`,
      domain: 'elsewhere.example',
      contact_emails: [person],
    });
    a.s.parts.sync.start({});
    await a.s.settle();
    await a.act([other], { do: 'contacted', addresses: [person] });
    const warned = await a.call<ContactWarning[]>('pipeline:warnings', { brandId: a.brand, id, addresses: [person] });
    expect(warned).toEqual([expect.objectContaining({ kind: 'person', what: person, opportunity_id: other, contacted_at: '2026-11-23' })]);
    a.s.setSettings({ contactWindowDays: 0 });
    expect(await a.call('pipeline:warnings', { brandId: a.brand, id, addresses: [person] })).toEqual([]);
    expect((await a.call<ComposeResult>('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'gmail', to: [person] })).warnings).toEqual([]);
  });

  it('a blocked address (or domain) is marked, never pre-selected, and mail to it is refused in plain words', async () => {
    const a = await app();
    const { id, person, catchAll } = await personAndCatchAll(a);
    await a.call('dnc:add', { value: person });
    const v = await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch' });
    expect(v.recipients.find((x) => x.email === person)).toMatchObject({ selected: false, blocked: true });
    expect(v.recipients.find((x) => x.email === catchAll)).toMatchObject({ selected: false, blocked: false });
    // Read without an address, the text is filled for the first one allowed (the catch-all), never for the blocked person: no first name.
    expect(v.filled.body.startsWith('Hi [Name],')).toBe(true);
    expect(v.unfilled.map((u) => u.token)).toContain('[Name]');
    const opened = a.platform.opened.length;
    const refused = {
      kind: 'invalid-input',
      message: `${person} is on your do-not-contact list, so nothing was opened. Untick it, or take it off the list first.`,
    };
    await expect(a.call('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'default', to: [person] })).rejects.toMatchObject(refused);
    await a.call('dnc:remove', { value: person });
    await a.call('dnc:add', { value: 'custom.example' });
    expect((await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch' })).recipients.every((x) => x.blocked && !x.selected)).toBe(true);
    await expect(a.call('mail:compose', { brandId: a.brand, id, kind: 'pitch', via: 'gmail', to: [catchAll, person] })).rejects.toMatchObject({
      message: expect.stringMatching(/^tips@custom\.example, ana\.souza@custom\.example are on your do-not-contact list/),
    });
    expect(a.platform.opened.length).toBe(opened);
    await a.call('dnc:remove', { value: 'custom.example' });
    expect((await a.call<DraftView>('drafts:get', { brandId: a.brand, id, kind: 'pitch' })).recipients.find((x) => x.email === person)).toMatchObject({
      selected: true,
      blocked: false,
    });
  });

  it('the CLI: triage --contacted moves the stage to Contacted, as the app does', async () => {
    const tmp = tempDir();
    opened.push(() => tmp.cleanup());
    const env = { TRAKKR_BASE_URL: sim.url, WORKBENCH_DB: join(tmp.dir, 'cli.db'), WORKBENCH_RATE: '0', TRAKKR_API_KEY: DEMO_KEY };
    let out = '';
    const cli = (args: string[]) =>
      run(args, { out: (x) => (out += x), err: () => {}, isTTY: false, readStdin: async () => '', env, secrets: new MemorySecretStore() });
    expect(await cli(['sync', '--no-citations'])).toBe(0);
    const brand = sim.brands[0]!.id;
    out = '';
    expect(await cli(['list', '--brand', brand, '--json', '--limit', '1'])).toBe(0);
    const id = (JSON.parse(out) as { id: string }[])[0]!.id;
    out = '';
    expect(await cli(['triage', '--brand', brand, '--id', id, '--contacted', '2026-11-20'])).toBe(0);
    expect(out).toMatch(/stage Contacted, contacted 2026-11-20\.\n$/);
    const cache = await Cache.open(env.WORKBENCH_DB);
    opened.push(() => cache.close());
    expect(triageRecord(cache.readable, brand, id)).toMatchObject({ stage: 'Contacted', contacted_at: '2026-11-20' });
  });
});
