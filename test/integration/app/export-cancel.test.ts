// Cancelling an export (export:cancel) through the app's own handlers, on a
// real cache synced from the simulator: a CSV (split into parts) and an .xlsx
// cancelled in the middle end as cancelled, with no file under the chosen
// name and no temporary part beside it; a finished or unknown job is not
// cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import type { EventPayloads, MethodName } from '../../../shared/contract';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

const MANY = 4000;
let sim: Simulator;
let s: AppService;
let platform: FakePlatform;
let brandId: string;
let h: ReturnType<typeof createHandlers>;
const tmp = tempDir();

beforeAll(async () => {
  sim = await startSimulator({ seed: 14, opportunities: MANY, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  platform = new FakePlatform();
  const keychain = new FakeKeychain();
  keychain.value = DEMO_KEY;
  s = await AppService.create({
    userDataDir: join(tmp.dir, 'data'),
    platform,
    keychain,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    integrityCheckDelayMs: 60_000,
  });
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  h = createHandlers(s);
  s.parts.sync.start({});
  await s.settle();
  brandId = s.cache.brands.list()[0]!.id;
}, 60_000);
afterAll(async () => {
  await s.close();
  await sim.close();
  tmp.cleanup();
});

async function call<T = unknown>(m: MethodName, ...args: unknown[]): Promise<T> {
  const r = await dispatch(h, m, args);
  if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
  return r.value as T;
}

/** Start an export into a fresh folder; the user's cancel arrives with its first progress event (1,000 rows in). */
async function exportCancelledMidway(name: string, options: Record<string, unknown>) {
  const dir = join(tmp.dir, name);
  mkdirSync(dir);
  platform.saveAs = join(dir, name);
  const { file } = await call<{ file: { handle: string } }>('export:choose-file', { suggestedName: name });
  const progress: EventPayloads['export:progress'][] = [];
  let cancelling: Promise<{ cancelled: boolean }> | null = null;
  const emit = platform.emit.bind(platform);
  platform.emit = (event, payload) => {
    emit(event, payload);
    if (event !== 'export:progress') return;
    const p = payload as EventPayloads['export:progress'];
    progress.push(p);
    cancelling ??= call('export:cancel', { jobId: p.jobId });
  };
  try {
    const done = platform.waitFor('export:done');
    const { jobId } = await call<{ jobId: string }>('export:start', {
      options: { brandId, filter: { includeArchived: true }, markExported: true, ...options },
      file: file.handle,
    });
    const end = await done;
    expect(end.jobId).toBe(jobId);
    expect(await cancelling).toEqual({ cancelled: true });
    return { end, progress, dir, jobId };
  } finally {
    platform.emit = emit;
  }
}

describe('export:cancel', () => {
  it('a CSV in parts, cancelled mid-way: the job ends as cancelled, and no file and no temporary part is left', async () => {
    const { end, progress, dir, jobId } = await exportCancelledMidway('pitches.csv', { preset: 'opportunities', maxRows: 300, split: true });
    expect(end).toEqual({ jobId, result: null, error: { kind: 'cancelled', message: 'Export cancelled: no file was written.' } });
    // Mid-way: rows were written (several parts closed), far from all of them.
    expect(progress[0]!.rows).toBe(1000);
    expect(readdirSync(dir)).toEqual([]);
    // Nothing was marked exported, and "Show in folder" knows no such export.
    expect(
      (
        await call<{ items: { exported_at: string | null }[] }>('opportunities:list', { filter: { brandId, includeArchived: true }, offset: 0, limit: 1000 })
      ).items.some((i) => i.exported_at),
    ).toBe(false);
    await expect(call('export:show-in-folder', { jobId })).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('an .xlsx cancelled mid-way: cancelled, no workbook and no temporary part left', async () => {
    const { end, progress, dir, jobId } = await exportCancelledMidway('pitches.xlsx', { preset: 'contacts', format: 'xlsx', unfilled: 'keep' });
    expect(end).toMatchObject({ jobId, result: null, error: { kind: 'cancelled' } });
    expect(progress[0]!.rows).toBe(1000);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a finished job or an unknown one is not cancelled; a job id must be a job id', async () => {
    const dir = join(tmp.dir, 'finished');
    mkdirSync(dir);
    platform.saveAs = join(dir, 'few.csv');
    const { file } = await call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'few.csv' });
    const done = platform.waitFor('export:done');
    const { jobId } = await call<{ jobId: string }>('export:start', { options: { brandId, preset: 'opportunities', maxRows: 5 }, file: file.handle });
    expect((await done).error).toBeNull();
    expect(await call('export:cancel', { jobId })).toEqual({ cancelled: false });
    expect(existsSync(join(dir, 'few.csv'))).toBe(true);
    expect(await call('export:cancel', { jobId: '00000000-0000-4000-8000-000000000000' })).toEqual({ cancelled: false });
    await expect(call('export:cancel', { jobId: '../../etc' })).rejects.toMatchObject({ kind: 'invalid-input' });
  });

  it('the preview lets other calls through while it counts, and a newer preview stops the older one (its answer is "cancelled")', async () => {
    const options = { brandId, filter: { includeArchived: true }, preset: 'contacts', unfilled: 'keep', mailText: 'guard' };
    // While it counts, the event loop turns (every 500 rows), so other calls and events get through: count the turns seen.
    let turns = 0;
    let counted = false;
    const tick = () => {
      if (counted) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const full = await call<{ rows: number }>('export:preview', options);
    counted = true;
    expect(full.rows).toBeGreaterThan(2000);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(full.rows / 500) - 1);
    // The dialog asks again (the person changed an option): the first count stops, the second answers.
    const older = call('export:preview', options).catch((e: unknown) => e);
    const newer = call<{ rows: number }>('export:preview', { ...options, excludeCatchAll: true });
    expect(await older).toMatchObject({ kind: 'cancelled' });
    expect((await newer).rows).toBeLessThan(full.rows);
  });
});
