// CSV text, written fast and in order: RFC 4180 (a cell with the delimiter, a
// quote, a CR or an LF is quoted, quotes doubled), CRLF between records,
// UTF-8 with an optional BOM. Records are encoded straight into a buffer of
// 512 KB that goes to the file when nearly full, and no text is gathered and
// joined first (at 230 MB of CSV the joins and their copies cost a fifth of
// the export). The file writes a buffer from the thread pool while the next
// one fills: at most IN_FLIGHT buffers exist (1 MB, as much as a writer that
// waited for each write held; none fills while both are out), and the rows
// wait on the disk only when both are with it.
import type { Writable } from 'node:stream';
import { endFile, FileStream } from '../files/atomic-write';

const CHUNK = 256 * 1024;
/** A buffer records are encoded into; it goes to the file once BUFFER_FULL bytes are in it (a record up to 42,000 characters still fits). */
const BUFFER = 512 * 1024;
const BUFFER_FULL = BUFFER - 128 * 1024;
/** Buffers with the file at once (written, or waiting their turn): past this, the rows wait for one to come back. */
const IN_FLIGHT = 2;

/** Text gathered into chunks of about 256 KB, so a file is written a few hundred times for 100,000 rows, not once a row. */
export class Chunks {
  private parts: string[] = [];
  private size = 0;

  /** Add text; true when a chunk is ready to go (take() it). */
  add(text: string): boolean {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= CHUNK;
  }

  /** What was gathered, as one string ('' when nothing). */
  take(): string {
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return chunk;
  }
}

export class CsvWriter {
  private readonly file: FileStream;
  private readonly needsQuotes: RegExp;
  private buf: Buffer = Buffer.allocUnsafe(BUFFER);
  private at = 0;
  /** Buffers the file has written out, for the next records (a new buffer for each would be memory outside the heap waiting for a full collection). */
  private readonly free: Buffer[] = [];
  /** Buffers handed to the file and not yet written. */
  private out = 0;
  /** The rows waiting for a buffer to come back (or for the file to fail or close). */
  private waiting: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(
    path: string,
    private readonly delimiter: string,
    bom: boolean,
  ) {
    // The app's one writer: every byte written, flushed at the end, failures named (files/atomic-write.ts).
    this.file = new FileStream(path, 'The export');
    // A write failure (disk full, folder gone) is kept and ends the export at the next write.
    this.file.on('error', (e) => {
      this.failure = e;
      this.wake();
    });
    this.file.on('close', () => this.wake());
    this.needsQuotes = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter}]`);
    if (bom) this.put('\uFEFF');
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  /** Text encoded as UTF-8 at the end of the buffer (grown first when it might not fit: a UTF-16 unit is at most 3 bytes). */
  private put(text: string): void {
    if (this.at + text.length * 3 > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + text.length * 3));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /** Bytes written to the file so far. */
  get bytesWritten(): number {
    return this.file.bytesWritten;
  }

  /**
   * One record. Nothing to wait for (undefined) unless a buffer went to the file: then a promise, resolved at once
   * unless all IN_FLIGHT are still out (no promise and no turn of the microtasks for each of 100,000 rows).
   */
  write(cells: readonly string[]): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    // One record's text, encoded in one call (a call a cell costs more than the concatenation); each piece added
    // to the line as it is, no string made of a delimiter and a cell first (a second string a cell, at 45 cells a row).
    const delimiter = this.delimiter;
    const needsQuotes = this.needsQuotes;
    let line = '';
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      if (i) line += delimiter;
      line += needsQuotes.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
    }
    line += '\r\n';
    this.put(line);
    return this.at >= BUFFER_FULL ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (this.at === 0) return;
    // The filled part goes to the file (written from the thread pool, in order); its buffer comes back to `free` once
    // written (one grown past the usual size for a long cell is let go). The next records go to a free buffer, else a
    // new one while fewer than IN_FLIGHT are out, else they wait for one: the memory is bounded, the disk rarely waited on.
    const full = this.buf;
    const chunk = full.subarray(0, this.at);
    this.at = 0;
    this.out++;
    this.file.write(chunk, () => {
      this.out--;
      if (full.length === BUFFER) this.free.push(full);
      this.wake();
    });
    while (this.free.length === 0 && this.out >= IN_FLIGHT && !this.failure && !this.file.destroyed) await new Promise<void>((r) => (this.waiting = r));
    if (this.failure) throw this.failure;
    this.buf = this.free.pop() ?? Buffer.allocUnsafe(BUFFER);
  }

  /** Write what is left and close the file; rejects if anything failed to reach it (the last flush included). */
  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    await endFile(this.file);
  }

  /** Give up (a cancel, an error elsewhere): close the file at once without caring what it says; resolves once it is closed. */
  abandon(): Promise<void> {
    this.at = 0;
    return closeAtOnce(this.file);
  }
}

/** Destroy a file stream now; resolves once its file is closed (so it can be removed and stays removed). */
export function closeAtOnce(file: Writable): Promise<void> {
  if (file.closed) return Promise.resolve();
  return new Promise((resolve) => {
    file.once('close', () => resolve());
    file.destroy();
  });
}
