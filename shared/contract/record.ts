// The record files' slice of the contract: files chosen in main's dialogs
// (handles, never paths), the user's record to and from a file, its backups,
// and the do-not-contact list as CSV. Implemented in
// electron/core/app/record-keeping.ts.
import { z } from 'zod';
import type { BackupInfo, DncCsvPreview, ImportPreview, RecordCounts } from '../user-record';
import { int, none, one, shaped, text, type ContractSlice } from './parts';

export const recordContract = {
  // Files for the user's record and the do-not-contact list come from main's dialogs, as handles.
  'files:choose': {
    args: one(z.strictObject({ purpose: z.enum(['record-export', 'record-import', 'dnc-import', 'dnc-export']) })),
    result: z.object({ file: z.object({ handle: z.string(), name: z.string() }).nullable() }),
  },
  'record:export': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<RecordCounts>() },
  'record:import-preview': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<ImportPreview>() },
  'record:import': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<ImportPreview>() },
  'backups:list': { args: none, result: z.object({ backups: z.array(shaped<BackupInfo>()), bytes: int() }) },
  // A backup is named by its file name in the backups folder, never by a path.
  'backups:restore': {
    args: one(z.strictObject({ id: z.string().regex(/^record-[0-9TZ-]+\.json\.gz$/) })),
    result: z.object({ restored: shaped<BackupInfo>(), safety: shaped<BackupInfo>().nullable() }),
  },
  'dnc:import-preview': { args: one(z.strictObject({ file: z.uuid(), column: text(200).optional() })), result: shaped<DncCsvPreview>() },
  'dnc:import': { args: one(z.strictObject({ file: z.uuid(), column: text(200).optional() })), result: shaped<DncCsvPreview>() },
  'dnc:export': { args: one(z.strictObject({ file: z.uuid() })), result: z.object({ entries: int() }) },
} as const satisfies ContractSlice;
