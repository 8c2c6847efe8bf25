// The Results' tables through the export path: the funnel by week, the wins
// with their evidence, the outlets by type and the time to citation, as one
// CSV file per table (name-funnel.csv, name-wins.csv, …, with a BOM so a
// spreadsheet reads accents right) or one workbook with a sheet per table.
// The same writers as every export (csv-writer.ts, xlsx-writer.ts), the same
// formula guard in a CSV and text kept text in a workbook, written to
// temporary files renamed when all are complete, and the export kept in the
// user's record.
import { accessSync, constants, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { evidenceWords, type ResultsReport } from '../../../shared/results';
import { asFileError } from '../files/file-error';
import type { Cache } from '../store/cache';
import { cell } from './csv-export';
import { CsvWriter } from './csv-writer';
import { XlsxWriter } from './xlsx-writer';

export interface ResultsTable {
  /** The file's suffix and the sheet's name. */
  key: string;
  sheet: string;
  header: string[];
  rows: (string | number | null)[][];
}

const COUNTS = ['Pitched', 'Replied', 'Won', 'Cited'] as const;
const NUMERIC = new Set([...COUNTS, 'Days to first citation', 'Times cited', 'Cited pages', 'Wins']);
const DATES = new Set(['Week of', 'Pitched on', 'Won on', 'First cited']);
const LINKS = new Set(['Cited page', 'Opportunity page']);

/** The report's tables, as a spreadsheet shows them (the totals row last in the funnel). */
export function resultsTables(r: ResultsReport): ResultsTable[] {
  const counts = (c: { pitched: number; replied: number; won: number; cited: number }) => [c.pitched, c.replied, c.won, c.cited];
  return [
    {
      key: 'funnel',
      sheet: 'Funnel by week',
      header: ['Week of', ...COUNTS],
      rows: [...r.funnel.map((w) => [w.week, ...counts(w)]), ['Total', ...counts(r.totals)]],
    },
    {
      key: 'wins',
      sheet: 'Wins',
      header: [
        'Opportunity',
        'Outlet',
        'Outlet type',
        'Opportunity page',
        'Pitched on',
        'Stage',
        'Won on',
        'Evidence',
        'Cited page',
        'First cited',
        'Days to first citation',
        'Times cited',
        'Cited pages',
        'Prompts',
      ],
      rows: r.wins.map((w) => {
        const e = w.evidence;
        return [
          w.title,
          w.domain,
          w.outlet_type,
          w.url,
          w.pitched_on,
          w.stage ?? 'New',
          w.won_on,
          e ? evidenceWords(e, r.brandName) : 'marked Won',
          e?.citation.url ?? null,
          e?.first_since ?? null,
          e?.days ?? null,
          e?.citation.times_cited ?? null,
          e?.pages ?? null,
          e ? e.citation.prompts.join('; ') : null,
        ];
      }),
    },
    { key: 'outlets', sheet: 'Outlets by type', header: ['Outlet type', ...COUNTS], rows: r.outlets.map((o) => [o.type, ...counts(o)]) },
    {
      key: 'timing',
      sheet: 'Time to citation',
      header: ['From pitch to first citation', 'Wins'],
      rows: [
        ...r.timing.buckets.map((b) => [b.label, b.count]),
        ['Median (days)', r.timing.median_days],
        ['Fastest (days)', r.timing.fastest_days],
        ['Slowest (days)', r.timing.slowest_days],
      ],
    },
  ];
}

const text = (v: string | number | null): string => (v === null ? '' : String(v));

/** One CSV file per table beside `out` (its name with -funnel, -wins, …), or one workbook at `out`. */
export async function exportResultsTables(
  cache: Cache,
  report: ResultsReport,
  out: string,
  format: 'csv' | 'xlsx',
  now: () => string = () => new Date().toISOString(),
): Promise<{ files: string[]; rows: number }> {
  try {
    accessSync(dirname(out), constants.W_OK);
  } catch (e) {
    throw asFileError(e, out, 'The export');
  }
  const tables = resultsTables(report);
  const ext = extname(out) || (format === 'xlsx' ? '.xlsx' : '.csv');
  const stem = join(dirname(out), basename(out, extname(out)));
  const finals = format === 'xlsx' ? [out] : tables.map((t) => `${stem}-${t.key}${ext}`);
  const temps = finals.map((f) => `${f}.partial-${process.pid}`);
  let open: CsvWriter | XlsxWriter | null = null;
  let rows = 0;
  try {
    if (format === 'xlsx') {
      const book = await XlsxWriter.create(temps[0]!, tables[0]!.sheet, NUMERIC, { dates: DATES, links: LINKS });
      open = book;
      for (const [i, t] of tables.entries()) {
        if (i > 0) book.nextSheet(t.sheet);
        await book.write(t.header);
        for (const r of t.rows) await book.write(r.map(text));
        rows += t.rows.length;
      }
      await book.close();
    } else {
      for (const [i, t] of tables.entries()) {
        const csv = new CsvWriter(temps[i]!, ',', true);
        open = csv;
        await csv.write(t.header);
        for (const r of t.rows) await csv.write(r.map((v) => cell(v)));
        rows += t.rows.length;
        await csv.close();
      }
    }
    open = null;
    finals.forEach((f, i) => renameSync(temps[i]!, f));
  } catch (e) {
    await open?.abandon();
    for (const t of temps) rmSync(t, { force: true });
    throw asFileError(e, out, 'The export');
  }
  const names = finals.map((f) => basename(f));
  cache.exports.add({
    at: now(),
    brand_id: report.brandId,
    preset: 'results',
    file_name: names.join(', '),
    rows,
    opportunities: report.wins.length,
    marked_exported: 0,
  });
  return { files: finals, rows };
}
