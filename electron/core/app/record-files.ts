// The user's record on disk: one JSON document (shared/user-record.ts), plain
// for a record export a person may open, gzipped for backups. Written under a
// temporary name, flushed, then renamed, so a crash never leaves half a file
// under the real name; read back with every kind of bad file refused in words.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { parseRecordFile, type RecordFile } from '../../../shared/user-record';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Write bytes to `path` atomically: a temporary file beside it, flushed, then renamed over. */
export function writeFileAtomic(path: string, bytes: Buffer | string): void {
  const tmp = `${path}.partial-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The record as bytes: pretty JSON for a person, or gzipped (compressed off this thread) for a backup. */
export async function encodeRecord(record: RecordFile, opts: { gzip?: boolean } = {}): Promise<Buffer> {
  if (!opts.gzip) return Buffer.from(JSON.stringify(record, null, 1) + '\n', 'utf8');
  return gzipAsync(Buffer.from(JSON.stringify(record), 'utf8'), { level: 6 });
}

export async function writeRecordFile(path: string, record: RecordFile, opts: { gzip?: boolean } = {}): Promise<number> {
  const bytes = await encodeRecord(record, opts);
  writeFileAtomic(path, bytes);
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
