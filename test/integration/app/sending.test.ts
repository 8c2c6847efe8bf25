// Sending that respects people, through the app's own handlers on a real cache
// and the simulator: a person and shared inboxes (a catch-all, a role address)
// in one To: line are said first, with one message each or Bcc offered; the
// hints count the text as it would go out; the Due view leaves out a follow-up
// with nobody left to write to; the detail marks an address on the
// do-not-contact list, so copying leaves it out. A fresh app per test.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { copyGoodAddresses } from '../../../shared/outreach';
import { addDays } from '../../../shared/calendar';
import { openApp, type TestApp } from '../../support/app';

let sim: Simulator;
let brandId: string;
const PERSON = 'ana.souza@mixed.example';
const TIPS = 'tips@mixed.example';
const CATCH = 'desk@mixed.example';
beforeAll(async () => {
  sim = await startSimulator({ seed: 33, opportunities: 40, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brandId = sim.brands[0]!.id;
  sim.inject(brandId, {
    _id: 'mixed-1',
    opportunity_type: 'publication-gap',
    title: 'The best cold brew makers',
    url: 'https://mixed.example/cold-brew',
    domain: 'mixed.example',
    status: 'New',
    archived: false,
    priority_score: 100,
    author_name: 'Ana María Souza',
    pitch_subject: 'For {publication}: a cold brew study',
    pitch_body: 'Hi {first_name}, a short note about {article_title}.',
    contact_emails: [PERSON, TIPS, `${CATCH} CATCH`],
  });
});
afterAll(() => sim.close());

let open: TestApp | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

let today = '2026-11-23';
async function app() {
  today = '2026-11-23';
  open = await openApp({ key: DEMO_KEY, today: () => today });
  const { s, platform, call } = open;
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, senderName: 'Sam Lee' });
  s.parts.sync.start({});
  await s.settle();
  const compose = (to: string[], mix?: 'each' | 'bcc' | 'together') =>
    call('mail:compose', { brandId, id: 'mixed-1', kind: 'pitch', via: 'gmail', to, ...(mix ? { mix } : {}) });
  return { s, platform, call, compose };
}

describe('a person and shared inboxes in one To: line', () => {
  it('is said before anything opens, naming who is who, with one message each, Bcc, or together offered', async () => {
    const a = await app();
    const r = await a.compose([PERSON, TIPS, CATCH]);
    expect(r).toMatchObject({ opened: false, messages: 0, mix: { people: [PERSON], shared: [TIPS, CATCH], offers: ['each', 'bcc', 'together'] } });
    expect(r.mix!.message).toMatch(
      /^tips@mixed\.example, desk@mixed\.example are shared inboxes \(a catch-all or role address\), sent with ana\.souza@mixed\.example/,
    );
    expect(a.platform.opened).toEqual([]);
    // The person alone, or shared inboxes alone, open at once.
    expect((await a.compose([PERSON])).opened).toBe(true);
    expect((await a.compose([TIPS, CATCH])).opened).toBe(true);
  });

  it('one message each: a message an address, each filled for its own address (a first name only for the person)', async () => {
    const a = await app();
    const r = await a.compose([PERSON, TIPS], 'each');
    expect(r).toMatchObject({ opened: true, messages: 2, to: [PERSON, TIPS], bcc: [], mix: null });
    const links = a.platform.opened.map((u) => new URL(u).searchParams);
    expect(links.map((p) => p.get('to'))).toEqual([PERSON, TIPS]);
    expect(links[0]!.get('body')).toMatch(/^Hi Ana, /);
    expect(links[1]!.get('body')).toMatch(/^Hi \{first_name\}, /);
    const h = await a.call('history:get', { brandId, id: 'mixed-1' });
    expect(h.entries[0]!.detail).toBe(`Gmail: ${PERSON}, ${TIPS} (one message each)`);
  });

  it('Bcc: the person in To, the shared inboxes in Bcc, in one message', async () => {
    const a = await app();
    const r = await a.compose([PERSON, TIPS, CATCH], 'bcc');
    expect(r).toMatchObject({ opened: true, messages: 1, to: [PERSON], bcc: [TIPS, CATCH] });
    const link = new URL(a.platform.opened.at(-1)!).searchParams;
    expect(link.get('to')).toBe(PERSON);
    expect(link.get('bcc')).toBe(`${TIPS},${CATCH}`);
    // The mail app's link carries the Bcc too.
    await a.call('mail:compose', { brandId, id: 'mixed-1', kind: 'pitch', via: 'default', to: [PERSON, TIPS], mix: 'bcc' });
    expect(a.platform.opened.at(-1)!).toMatch(/^mailto:ana\.souza@mixed\.example\?bcc=tips@mixed\.example&subject=/);
  });

  it('together anyway: all in To, as asked', async () => {
    const a = await app();
    const r = await a.compose([PERSON, TIPS], 'together');
    expect(r).toMatchObject({ opened: true, messages: 1, to: [PERSON, TIPS], bcc: [] });
    expect(new URL(a.platform.opened.at(-1)!).searchParams.get('to')).toBe(`${PERSON},${TIPS}`);
  });
});

describe('hints count the filled text', () => {
  it('the subject length and the word count are of the text as it would go out, not of the template', async () => {
    const a = await app();
    // A template whose merge fields fill to much longer text.
    await a.call('drafts:save', { brandId, id: 'mixed-1', kind: 'pitch', subject: '{article_title} {article_title}', body: '{article_url} {article_title}' });
    const v = await a.call('drafts:get', { brandId, id: 'mixed-1', kind: 'pitch', to: PERSON });
    expect(v.filled.subject).toBe('The best cold brew makers The best cold brew makers');
    expect(v.hints.subject.length).toBe(v.filled.subject.length);
    expect(v.hints.subject.length).toBeGreaterThan(v.text.subject.length);
    expect(v.hints.length.words).toBe(6);
    // A spam-filter word that only the filled text holds is named.
    await a.call('drafts:save', { brandId, id: 'mixed-1', kind: 'pitch', subject: 'x', body: 'From {sender_name}' });
    a.s.setSettings({ senderName: 'Free Money' });
    const spam = await a.call('drafts:get', { brandId, id: 'mixed-1', kind: 'pitch', to: PERSON });
    expect(spam.hints.spam.length).toBeGreaterThan(0);
  });
});

describe('the do-not-contact list', () => {
  it('the Due view leaves out a follow-up with every address on the list, and the count agrees', async () => {
    const a = await app();
    await a.call('triage:apply', { brandId, ids: ['mixed-1'], action: { do: 'contacted', addresses: [PERSON] } });
    today = addDays('2026-11-23', 3);
    const due = async () => (await a.call('opportunities:list', { filter: { brandId, view: 'due' }, offset: 0, limit: 100 })).items.map((o) => o.id);
    expect(await due()).toEqual(['mixed-1']);
    expect((await a.call('pipeline:due')).total).toBe(1);
    // One address left to write to: still due.
    await a.call('dnc:add', { value: PERSON });
    expect(await due()).toEqual(['mixed-1']);
    // Nobody left: not due, and the count says so too.
    await a.call('dnc:add', { value: 'mixed.example' });
    expect(await due()).toEqual([]);
    expect((await a.call('pipeline:due')).total).toBe(0);
  });

  it('the detail marks each address on the list, so copying leaves it out and says so', async () => {
    const a = await app();
    await a.call('dnc:add', { value: PERSON });
    const d = (await a.call('opportunities:get', { brandId, id: 'mixed-1' }))!;
    expect(d.contacts.map((c) => [c.email, c.blocked])).toEqual([
      [PERSON, true],
      [TIPS, false],
      [CATCH, false],
    ]);
    const copied = copyGoodAddresses(d.contacts);
    expect(copied.text).toBe(TIPS);
    expect(copied.message).toBe('Copied 1 address; 1 catch-all address left out; 1 address on your do-not-contact list left out.');
  });
});
