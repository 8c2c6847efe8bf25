// The CSV writer encodes each record straight into its buffer (no text
// gathered and joined): its bytes must be what RFC 4180 and the export's
// earlier writer made of the same cells, whatever the text: quotes, CR and
// LF, the delimiter, formula-like text as the guard leaves it, characters of
// one to four UTF-8 bytes, a cell larger than the buffer, many buffers' worth.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvWriter } from '../../../../electron/core/export/csv-writer';
import { realFileOps, useFileOps } from '../../../../electron/core/files/file-ops';
import { guarded } from '../../../../electron/core/export/guard';
import { tempDir } from '../../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** The earlier writer's rule, whole records as text: a cell with the delimiter, a quote, CR or LF quoted, quotes doubled; CRLF after each. */
function reference(rows: string[][], delimiter: string, bom: boolean): Buffer {
  const needs = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter}]`);
  const text = rows.map((cells) => cells.map((c) => (needs.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(delimiter) + '\r\n').join('');
  return Buffer.from((bom ? '\uFEFF' : '') + text, 'utf8');
}

/** Cells of every kind the export meets, drawn from a seeded sequence. */
function rowsOf(n: number): string[][] {
  const pieces = [
    'plain',
    '=HYPERLINK("http://evil.example")',
    '+1 555 0100',
    '-dash',
    '@handle',
    '＝full-width',
    'a "quoted" word',
    'line one\r\nline two',
    'only\nLF',
    'comma, inside',
    'semi; colon',
    'tab\tinside',
    'café — “curly” ✓',
    'emoji 🚀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    '',
    'ana@wired.com; tips@wired.com',
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: n }, (_, r) =>
    Array.from({ length: 12 }, (_, c) => {
      const p = pieces[next() % pieces.length]!;
      return c % 3 === 0 ? guarded(p) : `${p}${r % 7 === 0 ? ` ${'x'.repeat(next() % 3000)}` : ''}`;
    }),
  );
}

describe('CsvWriter', () => {
  it.each([
    [',', false],
    [';', true],
    ['\t', false],
  ] as const)('writes the bytes RFC 4180 makes of the same cells (delimiter %j, byte-order mark %s), over many buffers', async (delimiter, bom) => {
    const rows = rowsOf(4000);
    // One cell larger than the writer's buffer (512 KB), of three-byte characters.
    rows[1234]![5] = '“'.repeat(400_000);
    const path = join(tmp.dir, `out-${delimiter === '\t' ? 'tab' : delimiter}.csv`);
    const w = new CsvWriter(path, delimiter, bom);
    for (const r of rows) await w.write(r);
    await w.close();
    const want = reference(rows, delimiter, bom);
    expect(want.length).toBeGreaterThan(1024 * 1024);
    const got = readFileSync(path);
    expect(got.length).toBe(want.length);
    expect(got.equals(want)).toBe(true);
  });

  it('reuses the buffers the file has written out: a few for a whole export, not one per chunk (memory outside the heap stays flat), the bytes unchanged', async () => {
    const rows = rowsOf(16000);
    const path = join(tmp.dir, 'reused.csv');
    const alloc = vi.spyOn(Buffer, 'allocUnsafe');
    try {
      const w = new CsvWriter(path, ',', false);
      for (const r of rows) await w.write(r);
      await w.close();
      const want = reference(rows, ',', false);
      // Many chunks of 384 KB went to the file...
      expect(want.length).toBeGreaterThan(16 * 384 * 1024);
      expect(readFileSync(path).equals(want)).toBe(true);
      // ...through at most two buffers of the writer's size: one fills while the other is with the file, and none
      // fills while both are (1 MB in all).
      expect(alloc.mock.calls.filter(([n]) => n === 512 * 1024).length).toBeLessThanOrEqual(2);
    } finally {
      alloc.mockRestore();
    }
  });

  it('rows are made while the disk takes the bytes before them; with two buffers out and the disk not answering, they wait, then go on', async () => {
    const rows = rowsOf(16000);
    const path = join(tmp.dir, 'held.csv');
    // A disk that holds every write until told to go on.
    const held: (() => void)[] = [];
    let hold = true;
    useFileOps({
      ...realFileOps,
      write: (fd, b, o, l, done) => (hold ? held.push(() => realFileOps.write(fd, b, o, l, done)) : realFileOps.write(fd, b, o, l, done)),
    });
    try {
      const w = new CsvWriter(path, ',', false);
      const turn = () => new Promise<'waiting'>((r) => setImmediate(() => r('waiting')));
      let i = 0;
      let waiting: Promise<void> | null = null;
      for (; i < rows.length && !waiting; i++) {
        const p = w.write(rows[i]!);
        if (p && (await Promise.race([p.then(() => 'written' as const), turn()])) === 'waiting') waiting = p;
      }
      // The rows went on while nothing reached the disk, two buffers' worth (384 KB each), then waited.
      expect(waiting).not.toBeNull();
      expect(w.bytesWritten).toBe(0);
      expect(held.length).toBe(1);
      expect(reference(rows.slice(0, i), ',', false).length).toBeGreaterThanOrEqual(2 * 384 * 1024);
      expect(await Promise.race([waiting!.then(() => 'written' as const), turn()])).toBe('waiting');
      // The disk answers: the buffer it wrote comes back and the rows go on, every byte in order.
      hold = false;
      held.shift()!();
      await waiting;
      for (; i < rows.length; i++) await w.write(rows[i]!);
      await w.close();
      expect(readFileSync(path).equals(reference(rows, ',', false))).toBe(true);
    } finally {
      useFileOps(null);
    }
  });
});
