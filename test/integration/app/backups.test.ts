// Backups of the user's record on a real cache and folder: after a change, at
// most one an hour (a quiet moment first), none when nothing changed, the last
// seven days kept and always the newest, a damaged backup refused in words.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Backups } from '../../../electron/core/app/backups';
import { Cache } from '../../../electron/core/store/cache';
import { tempDir } from '../../support/tmp';
import { setTriage } from '../../support/store';

const BRAND = 'd'.repeat(32);
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

async function setup(opts: { minIntervalMs?: number; settleMs?: number } = {}) {
  const tmp = tempDir();
  const cache = await Cache.open(join(tmp.dir, 'workbench.db'));
  let now = new Date('2026-11-23T08:00:00.000Z');
  const backups = new Backups({ dir: join(tmp.dir, 'backups'), cache: () => cache, appVersion: 't', now: () => now, ...opts });
  cleanups.push(() => {
    backups.dispose();
    cache.close();
    tmp.cleanup();
  });
  return { cache, backups, dir: join(tmp.dir, 'backups'), at: (iso: string) => (now = new Date(iso)) };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe('backups of the user record', () => {
  it('after a change: one once things are quiet; the next change within the hour waits for the hour', async () => {
    const { cache, backups } = await setup({ minIntervalMs: 400, settleMs: 20 });
    setTriage(cache, BRAND, 'a', { note: 'one' });
    backups.noteChange();
    await until(() => backups.list().length === 1);
    setTriage(cache, BRAND, 'b', { note: 'two' });
    backups.noteChange();
    backups.noteChange();
    await new Promise((r) => setTimeout(r, 150));
    expect(backups.list()).toHaveLength(1); // not before the interval
    await until(() => backups.list().length === 2);
    expect(backups.list()[0]!.counts).toMatchObject({ triage: 2, notes: 2 });
  });

  it('the backup is the same record document the record export reads, field for field', async () => {
    const { cache, backups } = await setup();
    setTriage(cache, BRAND, 'a', { stage: 'Won', note: 'with "quotes" and\nlines, Café — naïve 😀', starred: true, contacted_at: '2026-11-20' });
    setTriage(cache, BRAND, 'b', { starred: false, exported_at: '2026-11-21T10:00:00.000Z' });
    cache.doNotContact.add('press@outlet.example', 'asked');
    cache.exports.add({
      at: '2026-11-22T10:00:00.000Z',
      brand_id: BRAND,
      preset: 'contacts',
      file_name: 'b.csv',
      rows: 2,
      opportunities: 1,
      marked_exported: 1,
    });
    const at = new Date('2026-11-23T08:00:00.000Z');
    const fast = cache.record.readJson('t', at);
    expect(JSON.parse(fast.json.toString('utf8'))).toEqual(cache.record.read('t', at));
    expect(fast.counts).toEqual({ triage: 2, notes: 1, do_not_contact: 1, exports: 1, history: 5, drafts: 0, snippets: 0 });
    // Handed over part by part, the first holding the head and the whole triage (compressed while the rest is built).
    const parts: Buffer[] = [];
    cache.record.writeJson('t', at, (bytes) => parts.push(bytes));
    expect(Buffer.concat(parts).equals(fast.json)).toBe(true);
    const [head, triage] = parts[0]!.toString('utf8').split(',"triage":');
    expect(JSON.parse(`${head}}`)).toMatchObject({ app_version: 't', created_at: at.toISOString() });
    expect(JSON.parse(triage!)).toEqual(cache.record.read('t', at).triage);
    const b = (await backups.backupNow('manual'))!;
    expect((await backups.read(b.id)).record).toEqual({ ...cache.record.read('t', at), created_at: b.created_at });
  });

  it('nothing changed: no backup, even when asked at quit', async () => {
    const { cache, backups } = await setup();
    setTriage(cache, BRAND, 'a', { starred: true });
    expect(await backups.backupNow('quit')).not.toBeNull();
    expect(await backups.backupNow('quit')).toBeNull();
    expect(backups.list()).toHaveLength(1);
  });

  it('keeps the last seven days, and always the newest', async () => {
    const { cache, backups, at } = await setup();
    for (const [day, note] of [
      ['2026-11-01', 'a'],
      ['2026-11-10', 'b'],
      ['2026-11-17', 'c'],
      ['2026-11-20', 'd'],
    ] as const) {
      at(`${day}T09:00:00.000Z`);
      setTriage(cache, BRAND, 'x', { note });
      await backups.backupNow('hourly');
    }
    expect(backups.list().map((b) => b.created_at.slice(0, 10))).toEqual(['2026-11-20', '2026-11-17']);
    at('2026-12-30T00:00:00.000Z');
    setTriage(cache, BRAND, 'x', { note: 'e' });
    await backups.backupNow('hourly');
    expect(backups.list().map((b) => b.created_at.slice(0, 10))).toEqual(['2026-12-30']);
  });

  it('a damaged backup is refused in plain words, and the newest readable one serves the recovery', async () => {
    const { cache, backups, dir, at } = await setup();
    setTriage(cache, BRAND, 'x', { note: 'good' });
    await backups.backupNow('hourly');
    at('2026-11-23T09:30:00.000Z');
    setTriage(cache, BRAND, 'x', { note: 'newer' });
    const newest = (await backups.backupNow('hourly'))!;
    writeFileSync(join(dir, newest.id), Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    await expect(backups.read(newest.id)).rejects.toMatchObject({
      message: expect.stringMatching(/^The backup of 2026-11-23 09:30 cannot be used: The compressed file is damaged or cut short\.$/),
    });
    const latest = await backups.latest();
    expect(latest?.record.triage[0]?.note).toBe('good');
    expect(readdirSync(dir).filter((f) => f.endsWith('.meta.json'))).toHaveLength(2);
  });
});
