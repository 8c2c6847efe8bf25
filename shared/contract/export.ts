// The export's slice of the contract: the check before, the file chosen in
// main's dialog, the job (progress and outcome come as events), cancel, show
// in folder, and "I sent these". Implemented in electron/core/app/export-jobs.ts.
import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_PRESETS, MAIL_TEXT_CHOICES, UNFILLED_CHOICES } from '../export-presets';
import { MERGE_FIELDS } from '../merge-fields';
import type { ExportCheck } from '../model';
import { listFilterSchema } from './opportunities';
import { brandId, int, jobStarted, once, one, shaped, text, method, type ContractSlice } from './parts';

const exportOptionsSchema = once(() =>
  z.strictObject({
    brandId,
    filter: listFilterSchema().omit({ brandId: true }).optional(),
    /** Which destination the file is for (shared/export-presets.ts): its headers, format, line breaks and guard. */
    preset: z.enum(EXPORT_PRESETS),
    /** The preset's first format when not given. */
    format: z.enum(EXPORT_FORMATS).optional(),
    /** The columns to write, from the preset's (a subset, in any order); all of them when not given. */
    columns: z.array(text(100)).min(1).max(200).optional(),
    /** Rows whose mail text holds merge fields not filled: leave them out, fill a default, keep them on purpose (needed when there are any). */
    unfilled: z.enum(UNFILLED_CHOICES).optional(),
    /** The defaults "fill a default" uses (first_name: "there" when not given). */
    fill: z.partialRecord(z.enum(MERGE_FIELDS), text(200)).optional(),
    /** In a CSV, mail text that starts like a formula: the apostrophe (default), leave those rows out, or as written (a tool that never runs formulas). */
    mailText: z.enum(MAIL_TEXT_CHOICES).optional(),
    perPair: z.boolean().optional(),
    excludeCatchAll: z.boolean().optional(),
    onlyCatchAll: z.boolean().optional(),
    skipContacted: z.boolean().optional(),
    markExported: z.boolean().optional(),
    bom: z.boolean().optional(),
    delimiter: z.enum([',', ';', '\t']).optional(),
    flattenNewlines: z.boolean().optional(),
    maxRows: z.number().int().min(1).max(10_000_000).optional(),
    split: z.boolean().optional(),
    raw: z.boolean().optional(),
  }),
);

export const exportContract = {
  'export:preview': method(
    () => one(exportOptionsSchema()),
    () => shaped<ExportCheck>(),
  ),
  // The renderer never names a path: main's save dialog gives it an opaque handle and the file's name (null when cancelled).
  'export:choose-file': method(
    () => one(z.strictObject({ suggestedName: text(200) })),
    () => z.object({ file: z.object({ handle: z.string(), name: z.string() }).nullable() }),
  ),
  // Exports are named by job id.
  'export:start': method(
    () => one(z.strictObject({ options: exportOptionsSchema(), file: z.uuid() })),
    () => jobStarted(),
  ),
  'export:show-in-folder': method(
    () => one(z.strictObject({ jobId: z.uuid() })),
    () => z.object({ shown: z.boolean() }),
  ),
  // Stop a running export: it ends as cancelled (export:done's error kind 'cancelled'), leaving no file and no temporary part.
  'export:cancel': method(
    () => one(z.strictObject({ jobId: z.uuid() })),
    () => z.object({ cancelled: z.boolean() }),
  ),
  // "I sent these": the addresses an export carried become contacted (a follow-ups export: followed up), today.
  // An export is not a contact until then. `alreadySent`: the day it was confirmed before (nothing changed).
  'export:confirm-sent': method(
    () => one(z.strictObject({ exportId: z.string().min(1).max(100) })),
    () => z.object({ updated: int(), addresses: int(), alreadySent: z.string().nullable() }),
  ),
} as const satisfies ContractSlice;
