// The Results' tables through the export path: the funnel by week, the wins
// with their evidence, the outlets by type and the time to citation. As XLSX,
// one workbook under the name chosen, a sheet per table. As CSV (one table a
// file), the funnel under the name chosen and the others beside it
// (name-wins.csv, name-outlets.csv, name-timing.csv), with a BOM so a
// spreadsheet reads accents right; a file already at one of those names is
// never replaced: the export is refused before anything is written, naming it.
// The same writers as every export (csv-writer.ts, xlsx-writer.ts), the same
// formula guard in a CSV and text kept text in a workbook (its columns typed
// by kind: numbers, dates, links), written through the app's one atomic
// writer (files/atomic-write.ts: each under its temporary name, all given
// their names once all are complete), and the export kept in the user's record.
import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { WorkbenchError } from '../../../shared/errors';
import { evidenceWords, type ResultsReport } from '../../../shared/results';
import { commitPartial, partialName, removeStalePartials } from '../files/atomic-write';
import { asFileError } from '../files/file-error';
import type { Cache } from '../store/cache';
import { cell } from './csv-export';
import { CsvWriter } from './csv-writer';
import { XlsxWriter, type CellKind } from './xlsx-writer';
import { cutForSpreadsheet } from './cell-limits';

export interface ResultsTable {
  /** The file's suffix and the sheet's name. */
  key: string;
  sheet: string;
  header: string[];
  rows: (string | number | null)[][];
}

const COUNTS = ['Pitched', 'Replied', 'Won', 'Cited'] as const;
/** What each named column holds in a workbook (text where not named). */
const KINDS: ReadonlyMap<string, CellKind> = new Map<string, CellKind>([
  ...[...COUNTS, 'Days to first citation', 'Times cited', 'Cited pages', 'Wins'].map((h) => [h, 'number'] as [string, CellKind]),
  ...['Week of', 'Pitched on', 'Won on', 'First cited'].map((h) => [h, 'date'] as [string, CellKind]),
  ...['Cited page', 'Opportunity page'].map((h) => [h, 'link'] as [string, CellKind]),
]);

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

/** A workbook cell's text, cut with a marker where a cell cannot hold it (the XLSX writer takes cells already cut). */
const text = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  return cutForSpreadsheet(s) ?? s;
};

/** Where each table goes: all in `out` (a workbook), or the first in `out` and each other beside it with its key (CSV). */
function filesFor(tables: readonly ResultsTable[], out: string, format: 'csv' | 'xlsx'): string[] {
  if (format === 'xlsx') return [out];
  const ext = extname(out) || '.csv';
  const stem = join(dirname(out), basename(out, extname(out)));
  return tables.map((t, i) => (i === 0 ? out : `${stem}-${t.key}${ext}`));
}

/**
 * The tables in the file the user confirmed: one workbook, a sheet per
 * table; or a CSV each, the funnel in that file and the others beside it,
 * none of which may be there already (the dialog asked about one name only).
 */
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
  const finals = filesFor(tables, out, format);
  const taken = finals.slice(1).find((f) => existsSync(f));
  if (taken)
    throw new WorkbenchError(
      'invalid-input',
      `The tables go in ${basename(out)} and beside it, but ${basename(taken)} is already in ${dirname(taken)}: choose another name, or move that file away. Nothing was written.`,
      { field: 'file' },
    );
  removeStalePartials(dirname(out));
  const temps = finals.map((f) => partialName(f));
  let open: CsvWriter | XlsxWriter | null = null;
  let rows = 0;
  try {
    for (const [i, t] of tables.entries()) {
      let writer: CsvWriter | XlsxWriter;
      if (format === 'csv') writer = new CsvWriter(temps[i]!, ',', true);
      else if (open instanceof XlsxWriter) await (writer = open).nextSheet(t.sheet);
      else writer = await XlsxWriter.create(temps[0]!, t.sheet, KINDS);
      open = writer;
      await writer.write(t.header);
      for (const r of t.rows) await writer.write(format === 'xlsx' ? r.map(text) : r.map((v) => cell(v)));
      rows += t.rows.length;
      if (format === 'csv') await writer.close();
    }
    if (format === 'xlsx') await open?.close();
    open = null;
    finals.forEach((f, i) => commitPartial(temps[i]!, f, 'The export'));
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
