// The user's record on disk: one JSON document (shared/user-record.ts), plain
// for a record export a person may open, gzipped for backups. Written by the
// app's one writer (files/atomic-write.ts), so a crash or a full disk never
// leaves half a file under the real name; read back with every kind of bad
// file refused in words.
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { parseRecordFile, type RecordFile } from '../../../shared/user-record';
import { writeFileAtomic } from '../files/atomic-write';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The record as bytes: pretty JSON for a person, or gzipped (compressed off this thread) for a backup. */
export async function encodeRecord(record: RecordFile, opts: { gzip?: boolean } = {}): Promise<Buffer> {
  if (!opts.gzip) return Buffer.from(JSON.stringify(record, null, 1) + '\n', 'utf8');
  return gzipAsync(Buffer.from(JSON.stringify(record), 'utf8'), { level: 6 });
}

export async function writeRecordFile(path: string, record: RecordFile, opts: { gzip?: boolean } = {}): Promise<number> {
  const bytes = await encodeRecord(record, opts);
  writeFileAtomic(path, bytes, { what: 'Your record' });
  return bytes.length;
}

/** Read a record file (plain or gzipped): the record, or why it cannot be used, in plain words. */
export async function readRecordFile(path: string): Promise<{ ok: true; record: RecordFile } | { ok: false; reason: string }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return { ok: false, reason: `The file could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).` };
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzipAsync(bytes);
    } catch {
      return { ok: false, reason: 'The compressed file is damaged or cut short.' };
    }
  }
  return parseRecordFile(bytes.toString('utf8'));
}
