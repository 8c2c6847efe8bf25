// The end of a streamed file (an export's CSV or workbook): finished only once
// the last flush behind its writes is back. A flush that fails after end() was
// called fails the export: nothing under the user's name, the file named in
// the error, no row marked exported. A stream stopped while its end waits for
// a flush still settles; a part that fails to close is closed before the parts
// are removed; a chunk of nothing is written as nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, fstatSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { Cache } from '../../../electron/core/store/cache';
import { writeExportFile } from '../../../electron/core/export/csv-export';
import { ZipWriter } from '../../../electron/core/export/zip-writer';
import { endFile, FileStream, partialName } from '../../../electron/core/files/atomic-write';
import { realFileOps, useFileOps, type FileOps } from '../../../electron/core/files/file-ops';
import { invalidInput } from '../../../shared/errors';
import { errno, faultyFileOps, withFaults } from '../../support/faulty-files';
import { detail } from '../../support/store';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
const B = '1749113348709x432280934699237400';
const RECORDS = 300;
const ids = Array.from({ length: RECORDS }, (_, i) => `op-${String(i).padStart(4, '0')}`);
let cache: Cache;
const folder = () => mkdtempSync(join(tmp.dir, 'case-'));
const bytes = (size: number) => Buffer.alloc(size, 'abcdefghij');
const turn = () => new Promise((r) => setImmediate(r));

beforeAll(async () => {
  cache = await Cache.open(join(tmp.dir, 'end.db'));
  cache.brands.replaceAll([{ id: B, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
  const records = ids.map((id, i) => ({
    _id: id,
    opportunity_type: 'low-hanging-fruit',
    status: 'New',
    archived: false,
    difficulty: 'Easy',
    domain: `outlet-${i}.example`,
    url: `https://outlet-${i}.example/story-${i}`,
    title: `A story about coffee number ${i} and the people who roast it`,
    author_name: `Writer ${i}`,
    priority_score: i % 100,
    fit_score: i % 10,
    pitch_subject: `Coffee pitch ${i}`,
    pitch_body: `Hello Writer ${i}, a pitch about roasting, with a story ${'of beans '.repeat(i % 40)}.`,
    contact_emails: [`writer${i}@outlet-${i}.example`],
  }));
  cache.tx(() => cache.opportunities.upsertPage(B, records, 1, '2026-11-01T00:00:00Z'));
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});
afterEach(() => {
  vi.restoreAllMocks();
  useFileOps(null);
});

const exportXlsx = (out: string) => writeExportFile(cache, { brandId: B, preset: 'opportunities', out, format: 'xlsx', markExported: true });
const settle = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('an XLSX export past the flush interval', () => {
  it('is flushed behind its writes and whole: every row read back by ExcelJS', async () => {
    const dir = folder();
    const out = join(dir, 'flushed.xlsx');
    const ops = faultyFileOps({ flushEvery: 4096 });
    let flushes = 0;
    useFileOps({ ...ops, flush: (fd, done) => (flushes++, ops.flush(fd, done)) });
    const r = await writeExportFile(cache, { brandId: B, preset: 'opportunities', out, format: 'xlsx' });
    useFileOps(null);
    expect(r.rows).toBe(RECORDS);
    // Past the interval: flushed behind the writes, one flush out at a time, never more than one a 4 KB.
    expect(flushes).toBeGreaterThanOrEqual(1);
    expect(flushes).toBeLessThanOrEqual(Math.ceil(statSync(out).size / 4096));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(RECORDS + 1);
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const ids = new Set(Array.from({ length: RECORDS }, (_, i) => String(sheet.getRow(i + 2).getCell(header.indexOf('_id') + 1).value)));
    expect(ids.size).toBe(RECORDS);
  });

  it('a flush that fails after the end was asked for fails the export: nothing under its name, the file named, no row marked exported', async () => {
    const dir = folder();
    const out = join(dir, 'late-flush.xlsx');
    const ops = faultyFileOps({ flushEvery: 4096 });
    // Every flush behind the writes is held; once the stream's end is asked for (_final), they come back failing.
    const held: (() => void)[] = [];
    let ended = false;
    const fail = () => {
      for (const go of held.splice(0)) go();
    };
    useFileOps({
      ...ops,
      flush: (fd, done) => {
        held.push(() => setImmediate(done, errno('EIO', 'fdatasync')));
        if (ended) fail();
      },
    });
    const final = FileStream.prototype._final;
    vi.spyOn(FileStream.prototype, '_final').mockImplementation(function (this: FileStream, done) {
      ended = true;
      final.call(this, done);
      setImmediate(fail);
    });
    const logged = cache.exports.list().length;
    const e = await settle(exportXlsx(out));
    expect(ended).toBe(true);
    expect(e).toMatchObject({ kind: 'io-error', message: expect.stringContaining(`The export could not be written to ${out} (EIO)`) });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(cache.exports.list().length).toBe(logged);
    expect(ids.filter((id) => detail(cache, B, id)!.triage.exported_at !== null)).toEqual([]);
  });

  it('a part that fails as it closes (past the zip limit) has its file closed before the temporary parts are removed', async () => {
    const dir = folder();
    const out = join(dir, 'too-large.xlsx');
    const opened = new Map<number, string>();
    const closed = new Set<number>();
    const order: string[] = [];
    useFileOps({
      ...realFileOps,
      openSync: (path, flags, mode) => {
        const fd = realFileOps.openSync(path, flags, mode);
        opened.set(fd, path);
        closed.delete(fd);
        return fd;
      },
      closeSync: (fd) => {
        realFileOps.closeSync(fd);
        closed.add(fd);
        order.push(`close ${opened.get(fd)}`);
      },
      rmSync: (path) => {
        const open = [...opened].filter(([fd, p]) => p === path && !closed.has(fd));
        order.push(`remove ${path}${open.length ? ' (still open)' : ''}`);
        realFileOps.rmSync(path);
      },
    });
    vi.spyOn(ZipWriter.prototype, 'finish').mockRejectedValueOnce(invalidInput('The workbook would be larger than a zip file can hold (4 GB).'));
    const e = await settle(exportXlsx(out));
    expect(e).toMatchObject({ kind: 'invalid-input' });
    const part = [...opened.values()].find((p) => p.startsWith(`${out}.partial-`))!;
    expect(order.filter((s) => s.includes(part))).toEqual([`close ${part}`, `remove ${part}`]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('FileStream: the end', () => {
  const heldFlushes = () => {
    const held: ((e: NodeJS.ErrnoException | null) => void)[] = [];
    const fds: number[] = [];
    const ops: FileOps = {
      ...realFileOps,
      flush: (fd, done) => {
        fds.push(fd);
        held.push((e) => (e ? setImmediate(done, e) : realFileOps.flush(fd, done)));
      },
    };
    return { held, fds, ops };
  };

  it('endFile waits for a flush out at the end and rejects when it fails, naming the export', async () => {
    const dir = folder();
    const final = join(dir, 'export.csv');
    const { held, ops } = heldFlushes();
    useFileOps(ops);
    const file = new FileStream(partialName(final), 'The export', 1000);
    file.on('error', () => {});
    await new Promise<void>((r) => file.write(bytes(5000), () => r()));
    expect(held.length).toBe(1);
    const ending = settle(endFile(file));
    await turn();
    held[0]!(errno('EIO', 'fdatasync'));
    expect(await ending).toMatchObject({ kind: 'io-error', message: expect.stringContaining(`The export could not be written to ${final} (EIO)`) });
    // The same for the flush at the end itself (fsync): the stream's own end fails.
    useFileOps(faultyFileOps({ failFsync: 'EIO' }));
    const other = new FileStream(partialName(final), 'The export');
    other.on('error', () => {});
    other.write(bytes(10));
    expect(await settle(endFile(other))).toMatchObject({ kind: 'io-error', message: expect.stringContaining(`${final} (EIO)`) });
  });

  it('a stream destroyed while its end waits for a flush closes its file once the flush is back, and the end settles', async () => {
    const dir = folder();
    const { held, fds, ops } = heldFlushes();
    useFileOps(ops);
    const file = new FileStream(partialName(join(dir, 'export.csv')), 'The export', 1000);
    let closed = false;
    file.on('close', () => (closed = true));
    await new Promise<void>((r) => file.write(bytes(5000), () => r()));
    let settled: unknown = 'pending';
    void settle(endFile(file)).then((e) => (settled = e));
    await turn();
    file.destroy();
    await turn();
    expect(closed).toBe(false);
    expect(fstatSync(fds[0]!).isFile()).toBe(true);
    held[0]!(null);
    await new Promise((r) => file.once('close', r));
    expect(() => fstatSync(fds[0]!)).toThrow(/EBADF/);
    await turn();
    await turn();
    expect(settled).toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('a chunk of nothing is written as nothing, not as a full disk', async () => {
    const dir = folder();
    const part = partialName(join(dir, 'export.csv'));
    await withFaults({}, async () => {
      await pipeline(async function* () {
        yield Buffer.alloc(0);
        yield bytes(10);
        yield Buffer.alloc(0);
      }, new FileStream(part, 'The export'));
      const file = new FileStream(`${part}-2`, 'The export');
      file.write(Buffer.alloc(0));
      file.write(bytes(3));
      await endFile(file);
    });
    expect(readFileSync(part).toString()).toBe('abcdefghij');
    expect(readFileSync(`${part}-2`).toString()).toBe('abc');
  });
});
