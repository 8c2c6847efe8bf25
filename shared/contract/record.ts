// The record files' slice of the contract: files chosen in main's dialogs
// (handles, never paths), the user's record to and from a file, its backups,
// and the do-not-contact list as CSV. Implemented in
// electron/core/app/record-keeping.ts.
import { z } from 'zod';
import type { BackupInfo, DncCsvPreview, ImportPreview, RecordCounts } from '../user-record';
import { int, none, one, shaped, text, method, type ContractSlice } from './parts';

export const recordContract = {
  // Files for the user's record and the do-not-contact list come from main's dialogs, as handles.
  'files:choose': method(
    () => one(z.strictObject({ purpose: z.enum(['record-export', 'record-import', 'dnc-import', 'dnc-export']) })),
    () => z.object({ file: z.object({ handle: z.string(), name: z.string() }).nullable() }),
  ),
  'record:export': method(
    () => one(z.strictObject({ file: z.uuid() })),
    () => shaped<RecordCounts>(),
  ),
  'record:import-preview': method(
    () => one(z.strictObject({ file: z.uuid() })),
    () => shaped<ImportPreview>(),
  ),
  'record:import': method(
    () => one(z.strictObject({ file: z.uuid() })),
    () => shaped<ImportPreview>(),
  ),
  'backups:list': method(
    () => none,
    () => z.object({ backups: z.array(shaped<BackupInfo>()), bytes: int() }),
  ),
  // A backup is named by its file name in the backups folder, never by a path.
  'backups:restore': method(
    () => one(z.strictObject({ id: z.string().regex(/^record-[0-9TZ-]+\.json\.gz$/) })),
    () => z.object({ restored: shaped<BackupInfo>(), safety: shaped<BackupInfo>().nullable() }),
  ),
  'dnc:import-preview': method(
    () => one(z.strictObject({ file: z.uuid(), column: text(200).optional() })),
    () => shaped<DncCsvPreview>(),
  ),
  'dnc:import': method(
    () => one(z.strictObject({ file: z.uuid(), column: text(200).optional() })),
    () => shaped<DncCsvPreview>(),
  ),
  'dnc:export': method(
    () => one(z.strictObject({ file: z.uuid() })),
    () => z.object({ entries: int() }),
  ),
} as const satisfies ContractSlice;
