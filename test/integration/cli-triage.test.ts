// The CLI's triage commands are the window's intents, through the same owner
// of the record: stage (Not a fit with its reason), contacted (today on this
// computer's calendar and the pre-selected addresses unless said), replied,
// snooze, undo; and the older `triage --status`, still working with a line
// saying it is deprecated. Each test on its own cache file, synced fresh.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { localToday } from '../../electron/core/store/opportunity-list';
import { triageRecord } from '../../electron/core/store/triage';
import { contactsOf } from '../../electron/core/store/opportunity-detail';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { snoozeDates } from '../../shared/pipeline';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';

let sim: Simulator;
let brand: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 44, opportunities: 30, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
});
afterAll(() => sim.close());

let tmp: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  tmp?.cleanup();
  tmp = null;
});

/** A synced cache of its own, the CLI over it, the first opportunities' ids, and a look at one's triage. */
async function fresh() {
  tmp = tempDir();
  const db = join(tmp.dir, 'workbench.db');
  const cli = (args: string[]) => runCli(args, { url: sim.url, db });
  expect((await cli(['sync', '--no-citations', '--no-scores'])).code).toBe(0);
  const ids = (JSON.parse((await cli(['list', '--brand', brand, '--json'])).out) as { id: string }[]).map((o) => o.id);
  const triage = async (id: string) => {
    const cache = await Cache.open(db);
    try {
      return triageRecord(cache.readable, brand, id);
    } finally {
      cache.close();
    }
  };
  /** The first valid address of each of these opportunities (those with none left out), as the cache holds it. */
  const addresses = async (of: string[]) => {
    const cache = await Cache.open(db);
    try {
      return [...contactsOf(cache.readable, brand, of)].flatMap(([id, cs]) => {
        const c = cs.find((x) => x.valid);
        return c ? [[id, c.email] as const] : [];
      });
    } finally {
      cache.close();
    }
  };
  return { cli, ids, triage, addresses };
}

describe('the triage commands', () => {
  it('stage sets any stage, several at once; Not a fit takes a reason; an unknown stage is refused (exit 2)', async () => {
    const c = await fresh();
    const [a, b] = c.ids as [string, string];
    const r = await c.cli(['stage', '--brand', brand, '--id', a, '--id', b, 'Not', 'a', 'fit', '--reason', 'Paywalled or closed']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Not a fit \(Paywalled or closed\): 2 opportunities\. \(`workbench undo` takes it back\.\)\n/);
    expect(await c.triage(a)).toMatchObject({ stage: 'Not a fit', stage_reason: 'Paywalled or closed' });
    const bad = await c.cli(['stage', '--brand', brand, '--id', a, 'Closed']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/The stage must be one of: New, Drafted, Contacted/);
    expect((await c.cli(['stage', '--brand', brand, '--id', 'no-such-id', 'Won'])).code).toBe(2);
    // --json: one document, the answer with the rows as they are now (several actions: the answers in order).
    const j = JSON.parse((await c.cli(['stage', '--brand', brand, '--id', b, 'Won', '--json'])).out) as {
      updated: number;
      items: { id: string; stage: string }[];
    };
    expect(j).toMatchObject({ updated: 1, items: [{ id: b, stage: 'Won' }] });
    const two = JSON.parse((await c.cli(['triage', '--brand', brand, '--id', b, '--note', 'n', '--star', '--json'])).out) as { message: string }[];
    expect(two.map((x) => x.message)).toEqual(['Note edited.', 'Starred.']);
  });

  it('contacted with no date is today on this computer, to the pre-selected addresses; the stage moves on; --clear takes it back', async () => {
    const c = await fresh();
    const id = c.ids[0]!;
    const r = await c.cli(['contacted', '--brand', brand, '--id', id]);
    expect(r.code, r.err).toBe(0);
    const t = (await c.triage(id))!;
    expect(t).toMatchObject({ stage: 'Contacted', contacted_at: localToday() });
    expect(t.contacted_subject).not.toBeNull();
    expect(r.out).toContain(`stage Contacted, contacted ${localToday()}`);
    // --to names the opportunity's own addresses (in any case; kept as the opportunity holds them).
    const [other, address] = (await c.addresses(c.ids.slice(1)))[0]!;
    const given = await c.cli(['contacted', '--brand', brand, '--id', other, '--on', '2026-11-20', '--to', address.toUpperCase(), '--subject', 'An idea']);
    expect(given.code, given.err).toBe(0);
    expect(await c.triage(other)).toMatchObject({ contacted_at: '2026-11-20', contacted_addresses: [address], contacted_subject: 'An idea' });
    expect((await c.cli(['contacted', '--brand', brand, '--id', id, '--clear'])).code).toBe(0);
    expect(await c.triage(id)).toMatchObject({ stage: null, contacted_at: null, contacted_addresses: null });
  });

  it('replied, snooze (named days or a date, --wake), and undo, which takes back the latest, then the one before', async () => {
    const c = await fresh();
    const id = c.ids[2]!;
    expect((await c.cli(['replied', '--brand', brand, '--id', id])).code).toBe(0);
    expect((await c.triage(id))!.stage).toBe('Replied');
    expect((await c.cli(['snooze', '--brand', brand, '--id', id, '--until', 'next-week'])).code).toBe(0);
    expect((await c.triage(id))!.snoozed_until).toBe(snoozeDates(localToday()).nextWeek);
    expect((await c.cli(['snooze', '--brand', brand, '--id', id, '--until', '2000-01-01'])).code).toBe(2);
    const u = await c.cli(['undo', '--brand', brand]);
    expect(u.code, u.err).toBe(0);
    expect(u.out).toMatch(/^Undone: Snoozed until /);
    expect((await c.triage(id))!.snoozed_until).toBeNull();
    expect((await c.cli(['undo'])).out).toMatch(/^Undone: Stage: Replied\./);
    expect((await c.triage(id))!.stage).toBeNull();
    const none = await c.cli(['undo']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Nothing to undo.');
    // The history shows each action and each undo.
    const h = await c.cli(['history', '--brand', brand, '--id', id]);
    expect(h.out.match(/Undone/g)).toHaveLength(2);
    expect(h.out).toMatch(/Stage\s+Replied/);
  });

  it('triage --status still works, carried onto the stage, with a line saying it is deprecated', async () => {
    const c = await fresh();
    const id = c.ids[3]!;
    const r = await c.cli(['triage', '--brand', brand, '--id', id, '--status', 'In Progress', '--star']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      `note: \`triage --status\` is deprecated: the outreach stage is the one triage now. --status In Progress was taken as the stage Drafted; next time run \`workbench stage --brand ${brand} --id ${id} "Drafted"\`.\n`,
    );
    expect(await c.triage(id)).toMatchObject({ stage: 'Drafted', starred: true });
    expect((await c.cli(['triage', '--brand', brand, '--id', id, '--status', 'Archived'])).code).toBe(0);
    expect(await c.triage(id)).toMatchObject({ stage: 'Not a fit', stage_reason: 'Archived' });
  });

  it('triage --status says the typed --id plainly: no escape sequence or right-to-left override reaches the terminal', async () => {
    const c = await fresh();
    const r = await c.cli(['triage', '--brand', brand, '--id', 'nope\u001b[2J\u202e', '--status', 'Done']);
    // eslint-disable-next-line no-control-regex -- the point: the escape and the override never raw
    expect(r.err).not.toMatch(/[\u001b\u202e]/);
    expect(r.err).toContain(`next time run \`workbench stage --brand ${brand} --id nope [2J  "Won"\`.`);
  });
});
