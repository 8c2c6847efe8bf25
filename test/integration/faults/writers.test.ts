// Every writer of a user's file, through the `workbench` command a person
// runs, against a disk that writes a few bytes at a time, fills up midway,
// or is read-only (the fault seam of electron/core/files/file-ops.ts): the
// record export, the do-not-contact list, a CSV and an .xlsx export, a
// backup (its record and its description), and the settings. A file is
// never reported written unless it is whole under its name; a failure is
// named for what it is (exit 5, the file, what to do next), the previous file
// stays as it was, and no temporary part is left beside it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import { SettingsFile } from '../../../electron/core/app/settings';
import { runCli } from '../../support/cli-run';
import { withFaults, type Faults } from '../../support/faulty-files';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';

let sim: Simulator;
const tmp = tempDir();
const db = join(tmp.dir, 'data', 'workbench.db');
let brand: string;
const NOTES = 40;
const DNC = 400;
/** Where the disk fills up: every file below is at least twice this. */
const FULL_AT = 4096;

const cli = (args: string[]) => runCli(args, { url: sim.url, db });

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, opportunities: 300, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  expect((await cli(['sync', '--no-scores', '--no-citations'])).code).toBe(0);
  const cache = await Cache.open(db);
  const ids = list(cache, { brandId: brand }, { limit: NOTES }).map((o) => o.id);
  cache.tx(() => {
    for (const [i, id] of ids.entries()) setTriage(cache, brand, id, { note: `Called the desk, try again on the ${i + 1}th`, stage: 'Drafted' });
    for (let i = 0; i < DNC; i++) cache.doNotContact.add(`person${i}@outlet${i % 7}.example`, 'asked not to be contacted');
  });
  cache.close();
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

interface Writer {
  name: string;
  file: string;
  /** The words naming it in a failure. */
  what: string;
  args: (out: string) => string[];
  /** What a successful run prints. */
  reported: RegExp;
  /** The file is whole: read back by an independent reader. */
  whole: (path: string) => Promise<void> | void;
}

const csvRows = (path: string) => parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as string[][];
let contactRows = 0;

const WRITERS: Writer[] = [
  {
    name: 'record export',
    file: 'record.json',
    what: 'Your record',
    args: (out) => ['record', 'export', '--out', out],
    reported: /^Wrote your record to /,
    whole: (path) => {
      const r = JSON.parse(readFileSync(path, 'utf8')) as { triage: { note: string | null }[]; do_not_contact: unknown[] };
      expect(r.triage.filter((t) => t.note?.startsWith('Called the desk'))).toHaveLength(NOTES);
      expect(r.do_not_contact).toHaveLength(DNC);
    },
  },
  {
    name: 'do-not-contact export',
    file: 'dnc.csv',
    what: 'The do-not-contact list',
    args: (out) => ['dnc', 'export', '--out', out],
    reported: new RegExp(`^Wrote ${DNC} entries to `),
    whole: (path) => {
      const rows = csvRows(path);
      expect(rows[0]).toEqual(['kind', 'value', 'note', 'added_at']);
      expect(rows).toHaveLength(DNC + 1);
    },
  },
  {
    name: 'CSV export',
    file: 'contacts.csv',
    what: 'The export',
    args: (out) => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', out],
    reported: /^Exported [\d,]+ rows to /,
    whole: (path) => {
      const rows = csvRows(path);
      expect(rows.length).toBeGreaterThan(100);
      // Every row has the header's cells: none cut off at the end.
      expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);
      if (contactRows) expect(rows.length).toBe(contactRows);
      contactRows = rows.length;
    },
  },
  {
    name: '.xlsx export',
    file: 'contacts.xlsx',
    what: 'The export',
    args: (out) => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', out],
    reported: /^Exported [\d,]+ rows to /,
    whole: async (path) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path);
      expect(wb.worksheets[0]!.rowCount).toBe(contactRows || wb.worksheets[0]!.rowCount);
      expect(wb.worksheets[0]!.rowCount).toBeGreaterThan(100);
    },
  },
];

/** The folder's files, other than the one being written. */
const leftovers = (dir: string, except: string) => readdirSync(dir).filter((f) => f !== except);

describe.each(WRITERS)('$name', (w) => {
  const dir = join(tmp.dir, w.file.replace(/\W/g, '-'));
  const out = join(dir, w.file);
  const only: Faults = { path: new RegExp(`${w.file.replace('.', '\\.')}\\.partial-\\d+-[0-9a-f]{8}$`) };
  // Each test's folder exists before it runs (not only after the first test made it): each passes alone.
  beforeEach(() => mkdirSync(dir, { recursive: true }));

  it('written whole on a healthy disk (the reference), and large enough to fail midway below', async () => {
    mkdirSync(dir, { recursive: true });
    const r = await cli(w.args(out));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(w.reported);
    await w.whole(out);
    expect(readFileSync(out).length).toBeGreaterThan(2 * FULL_AT);
  });

  it('a disk that writes a few bytes at a time: every byte is written, and the file is whole', async () => {
    const r = await withFaults({ ...only, shortWrites: 509 }, async (ops) => {
      const run = await cli(w.args(out));
      expect(ops.shortCount).toBeGreaterThan(0);
      return run;
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(w.reported);
    await w.whole(out);
    expect(leftovers(dir, w.file)).toEqual([]);
  });

  it('a disk that fills up midway: exit 5, the disk named full for the file, the previous file as it was, nothing reported written, no part left', async () => {
    writeFileSync(out, 'the previous file\n');
    const r = await withFaults({ ...only, fullAtByte: FULL_AT }, async (ops) => {
      const run = await cli(w.args(out));
      expect(ops.written).toBe(FULL_AT);
      return run;
    });
    expect(r.code).toBe(5);
    expect(r.out).not.toMatch(w.reported);
    expect(r.err).toContain(`workbench: ${w.what} could not be written to ${out} (ENOSPC). The disk is full: free some space and try again.`);
    expect(r.err).not.toMatch(/at .+\.ts:\d+/); // no stack trace
    expect(readFileSync(out, 'utf8')).toBe('the previous file\n');
    expect(leftovers(dir, w.file)).toEqual([]);
  });

  it('a read-only disk: exit 5, read-only, naming the folder; nothing created', async () => {
    const fresh = join(dir, `new-${w.file}`);
    const r = await withFaults({ path: /\.partial-\d+-[0-9a-f]{8}$/, failOpen: 'EROFS' }, () => cli(w.args(fresh)));
    expect(r.code).toBe(5);
    expect(r.err).toContain(`${w.what} could not be written to ${fresh} (EROFS). The disk or folder (${dir}) is read-only: choose a writable folder.`);
    expect(existsSync(fresh)).toBe(false);
    expect(leftovers(dir, w.file)).toEqual([]);
  });
});

describe('a backup of the record (`workbench backup now`)', () => {
  const backups = join(tmp.dir, 'data', 'backups');
  const names = () => (existsSync(backups) ? readdirSync(backups).sort() : []);
  const listed = async () => (JSON.parse((await cli(['backup', 'list', '--json'])).out) as { id: string }[]).map((b) => b.id);

  it('a disk that writes a few bytes at a time: the backup is listed, and whole', async () => {
    const before = new Set(names());
    const r = await withFaults({ path: /backups/, shortWrites: 333 }, () => cli(['backup', 'now']));
    expect(r.code, r.err).toBe(0);
    const made = names().filter((f) => !before.has(f));
    expect(made).toHaveLength(2); // the record and its description
    const id = made.find((f) => f.endsWith('.json.gz'))!;
    expect(await listed()).toContain(id);
    const record = JSON.parse(gunzipSync(readFileSync(join(backups, id))).toString('utf8')) as { triage: unknown[] };
    expect(record.triage.length).toBeGreaterThanOrEqual(NOTES);
  });

  it.each([
    ['the record', /record-[^/]*\.json\.gz\.partial-\d+-[0-9a-f]{8}$/],
    ['its description', /\.meta\.json\.partial-\d+-[0-9a-f]{8}$/],
  ])('a disk that fills up while writing %s: exit 5, named; no file is left under a backup’s name and the list is as it was', async (_, path) => {
    const before = names();
    const listedBefore = await listed();
    const r = await withFaults({ path, fullAtByte: 100 }, () => cli(['backup', 'now']));
    expect(r.code).toBe(5);
    expect(r.out).not.toMatch(/Backed up/);
    expect(r.err).toMatch(
      /workbench: The backup of your record could not be written to .+backups.+ \(ENOSPC\)\. The disk is full: free some space and try again\./,
    );
    expect(names()).toEqual(before);
    expect(await listed()).toEqual(listedBefore);
  });
});

describe('the settings (settings.json, written by the app)', () => {
  it('a full disk: the change fails as disk-full, settings.json as it was, no part left; short writes: saved whole', async () => {
    const dir = join(tmp.dir, 'settings');
    mkdirSync(dir);
    const path = join(dir, 'settings.json');
    const settings = new SettingsFile(path);
    settings.set({ senderName: 'Ana' });
    const before = readFileSync(path, 'utf8');
    const failed = await withFaults({ path: /settings\.json/, fullAtByte: 20 }, () => {
      try {
        settings.set({ senderName: 'Bo' });
        return null;
      } catch (e) {
        return e;
      }
    });
    expect(failed).toMatchObject({ kind: 'disk-full', message: expect.stringContaining(`The settings could not be written to ${path} (ENOSPC).`) });
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['settings.json']);
    await withFaults({ path: /settings\.json/, shortWrites: 3 }, () => settings.set({ senderName: 'Bo' }));
    expect(new SettingsFile(path).get().senderName).toBe('Bo');
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});

describe('an export split into parts (`--max-rows N --split`)', () => {
  const split = (out: string) => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', out, '--max-rows', '100', '--split'];
  const parts = (dir: string) => readdirSync(dir).filter((f) => /^batch-\d+\.csv$/.test(f));

  it('a part’s name taken by a folder: nothing renamed (the earlier parts as they were), exit 5 naming it, no temporary part left', async () => {
    const dir = join(tmp.dir, 'split-blocked');
    mkdirSync(join(dir, 'batch-2.csv'), { recursive: true });
    writeFileSync(join(dir, 'batch-1.csv'), 'the previous part 1\n');
    const r = await cli(split(join(dir, 'batch.csv')));
    expect(r.code, r.err).toBe(5);
    expect(r.out).not.toMatch(/Exported/);
    expect(r.err).toContain(`The export could not be written to ${join(dir, 'batch-2.csv')} (EISDIR).`);
    expect(readFileSync(join(dir, 'batch-1.csv'), 'utf8')).toBe('the previous part 1\n');
    expect(readdirSync(dir).sort()).toEqual(['batch-1.csv', 'batch-2.csv']);
  });

  it('a rename that fails after the first part took its name: the message says which parts are this export’s and which are not', async () => {
    const dir = join(tmp.dir, 'split-half');
    mkdirSync(dir);
    const r = await withFaults({ path: /batch-2\.csv$/, failRename: 'EIO' }, () => cli(split(join(dir, 'batch.csv'))));
    expect(r.code).toBe(5);
    const written = parts(dir);
    expect(written).toEqual(['batch-1.csv']);
    const all = readdirSync(dir).length;
    expect(all).toBe(1); // no temporary part left
    expect(r.err).toContain(`The export could not be written to ${join(dir, 'batch-2.csv')} (EIO).`);
    expect(r.err).toMatch(
      /Written by this export: batch-1\.csv; not written \(as they were before\): batch-2\.csv, batch-3\.csv(, batch-\d+\.csv)*\. Export again/,
    );
  });
});
