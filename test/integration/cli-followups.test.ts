// `workbench export --preset followups` is the app's Due view: the CLI reads
// the app's settings.json (beside the cache, in the app's user-data folder),
// so follow-ups are due after the user's days, not the default 3, and
// {sender_name} is filled with the user's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { AppService } from '../../electron/core/app/service';
import { Cache } from '../../electron/core/store/cache';
import { localToday } from '../../electron/core/store/opportunity-list';
import { caller } from '../support/call';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { addDays } from '../../shared/calendar';
import { FakeKeychain, FakePlatform } from '../support/fake-platform';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';
import { setTriage } from '../support/store';

let sim: Simulator;
const tmp = tempDir();
/** The app's user-data folder: the cache and settings.json side by side, as the app keeps them. */
const dataDir = join(tmp.dir, 'Outreach Workbench');
const db = join(dataDir, 'workbench.db');
const settingsFile = join(dataDir, 'settings.json');
let brand: string;
/** Contacted 2, 5 and 10 days ago, no follow-up yet. */
let contacted: { id: string; daysAgo: number }[];

const cli = (args: string[]) => runCli(args, { url: sim.url, db });

async function followUpsCsv(name: string) {
  const out = join(tmp.dir, name);
  const r = await cli(['export', '--brand', brand, '--preset', 'followups', '--out', out, '--unfilled', 'keep']);
  expect(r.code, r.err).toBe(0);
  return parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 41, opportunities: 60, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  expect((await cli(['sync', '--no-citations', '--no-scores'])).code).toBe(0);
  const ids = (JSON.parse((await cli(['list', '--brand', brand, '--json'])).out) as { id: string }[]).map((o) => o.id);
  contacted = [2, 5, 10].map((daysAgo, i) => ({ id: ids[i]!, daysAgo }));
  const cache = await Cache.open(db);
  for (const c of contacted) setTriage(cache, brand, c.id, { stage: 'Contacted', contacted_at: addDays(localToday(), -c.daysAgo) });
  cache.close();
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

describe("workbench export --preset followups uses the app's settings", () => {
  it("follow-up days and the sender's name from settings.json: the same rows as the app's Due view, {sender_name} filled", async () => {
    writeFileSync(settingsFile, JSON.stringify({ followUpAfterDays: 7, senderName: 'Dana Reyes' }));
    const rows = await followUpsCsv('due-7.csv');
    // 7 days: only the one contacted 10 days ago (the default 3 would add the one from 5 days ago).
    const dueIds = contacted.filter((c) => c.daysAgo >= 7).map((c) => c.id);
    // One row per address written to: the opportunities are the Due view's.
    expect([...new Set(rows.map((r) => r.opportunity_id))]).toEqual(dueIds);
    expect(rows[0]!.body!.endsWith('Thanks,\nDana Reyes')).toBe(true);
    expect(rows[0]!.unfilled).not.toContain('{sender_name}');

    // The app, on the same folder, shows exactly these in its Due view.
    const s = await AppService.create({
      userDataDir: dataDir,
      platform: new FakePlatform(),
      keychain: new FakeKeychain(),
      appName: 'Outreach Workbench',
      appVersion: '0.1.0',
      platformName: 'linux',
      integrityCheckDelayMs: 60_000,
    });
    try {
      expect(s.parts.settings.get()).toMatchObject({ followUpAfterDays: 7, senderName: 'Dana Reyes' });
      expect((await caller(s)('opportunities:list', { filter: { brandId: brand, view: 'due' }, offset: 0, limit: 100 })).items.map((i) => i.id).sort()).toEqual(
        [...dueIds].sort(),
      );
    } finally {
      await s.close();
    }

    // The .xlsx workbook: the same rows and the same filled text.
    const xlsx = join(tmp.dir, 'due-7.xlsx');
    expect((await cli(['export', '--brand', brand, '--preset', 'followups', '--out', xlsx, '--unfilled', 'keep'])).code).toBe(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(sheet.rowCount).toBe(rows.length + 1);
    expect(sheet.getRow(2).getCell(header.indexOf('body') + 1).value).toBe(rows[0]!.body);
  });

  it('other days in settings.json move the Due view with them; no settings.json: the defaults (3 days, no sender name)', async () => {
    writeFileSync(settingsFile, JSON.stringify({ followUpAfterDays: 1, senderName: 'Dana Reyes' }));
    expect([...new Set((await followUpsCsv('due-1.csv')).map((r) => r.opportunity_id))].sort()).toEqual(contacted.map((c) => c.id).sort());

    rmSync(settingsFile);
    const rows = await followUpsCsv('due-default.csv');
    expect([...new Set(rows.map((r) => r.opportunity_id))].sort()).toEqual(
      contacted
        .filter((c) => c.daysAgo >= 3)
        .map((c) => c.id)
        .sort(),
    );
    expect(rows.every((r) => r.unfilled!.includes('{sender_name}'))).toBe(true);
  });
});
