// The results domain's slice of the contract: from pitch to citation. The
// Results of a brand over a period, the evidence of one opportunity, the
// opportunities with evidence (the list's Cited mark), and the report and its
// tables written where the user chose. Marking Won is the user's record's
// (triage:apply with `won`, undone by triage:undo): not declared here.
// Implemented in electron/core/app/results.ts.
import { z } from 'zod';
import type { Evidence } from '../evidence';
import { PERIOD_PRESETS, type ResultsReport } from '../results';
import { dateSchema } from '../rules';
import { brandId, int, oppId, one, shaped, text, method, type ContractSlice } from './parts';

/** A period of the Results: a preset (this month, last month, this quarter: on the core's calendar), or custom days from and to. */
const period = () => ({ period: z.enum(PERIOD_PRESETS), from: dateSchema('from').optional(), to: dateSchema('to').optional() });

export const resultsContract = {
  // What the outreach won over a period: the funnel by week, the wins with their evidence, the timing, the outlets, the scores with events.
  'results:get': method(
    () => one(z.strictObject({ brandId, ...period() })),
    () => shaped<ResultsReport>(),
  ),
  // The evidence of one opportunity (its Cited mark), or null.
  'results:evidence': method(
    () => one(z.strictObject({ brandId, id: oppId })),
    () => shaped<Evidence>().nullable(),
  ),
  // The opportunities of a brand with evidence (the list's Cited mark).
  'results:cited': method(
    () => one(z.strictObject({ brandId })),
    () => z.object({ ids: z.array(z.string()) }),
  ),
  // The report to send, one page, to a file chosen in main's save dialog (export:choose-file): a PDF printed from the window by main,
  // or the HTML the window shows (its markup and styles; the file runs nothing).
  'results:save-report': method(
    () =>
      one(
        z.discriminatedUnion('format', [
          z.strictObject({ format: z.literal('pdf'), file: z.uuid() }),
          z.strictObject({ format: z.literal('html'), file: z.uuid(), title: text(300), html: text(5_000_000), css: text(2_000_000) }),
        ]),
      ),
    () => z.object({ name: z.string(), bytes: int() }),
  ),
  // The Results' tables through the export path: one CSV file per table, or one workbook per table.
  'results:export': method(
    () => one(z.strictObject({ brandId, ...period(), format: z.enum(['csv', 'xlsx']), file: z.uuid() })),
    () => z.object({ files: z.array(z.string()), rows: int() }),
  ),
} as const satisfies ContractSlice;
