// CSV text, written fast and in order: RFC 4180 (a cell with the delimiter, a
// quote, a CR or an LF is quoted, quotes doubled), CRLF between records,
// UTF-8 with an optional BOM. Records are encoded straight into a buffer of
// about 256 KB that goes to the file when full, so writing 100,000 rows waits
// on the disk a few hundred times, not once a row, and no text is gathered
// and joined first (at 230 MB of CSV the joins and their copies cost a
// fifth of the export).
import type { Writable } from 'node:stream';
import { FileStream } from '../files/atomic-write';

const CHUNK = 256 * 1024;

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
  private buf: Buffer = Buffer.allocUnsafe(CHUNK * 2);
  private at = 0;
  /** A buffer the file has written out, for the next chunk. */
  private spare: Buffer | null = null;
  private failure: Error | null = null;

  constructor(
    path: string,
    private readonly delimiter: string,
    bom: boolean,
  ) {
    // The app's one writer: every byte written, flushed at the end, failures named (files/atomic-write.ts).
    this.file = new FileStream(path, 'The export');
    // A write failure (disk full, folder gone) is kept and ends the export at the next write.
    this.file.on('error', (e) => (this.failure = e));
    this.needsQuotes = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter}]`);
    if (bom) this.put('\uFEFF');
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

  /** Bytes handed to the file so far. */
  get bytesWritten(): number {
    return this.file.bytesWritten;
  }

  /** One record; resolves at once unless a chunk went to the file and the file asks to wait. */
  async write(cells: readonly string[]): Promise<void> {
    if (this.failure) throw this.failure;
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
    if (this.at >= CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.at === 0) return;
    // The filled part goes to the file as it is (the stream may hold it a while); the next records go to the buffer
    // written out before, else a new one. A new buffer for each chunk (900 of 512 KB for 230 MB of CSV) is memory
    // outside the heap that waits for a full collection: about 60 MB of the process, at any time of a long export.
    const full = this.buf;
    const chunk = full.subarray(0, this.at);
    this.buf = this.spare ?? Buffer.allocUnsafe(CHUNK * 2);
    this.spare = null;
    this.at = 0;
    if (!this.file.write(chunk)) await this.until('drain');
    if (this.failure) throw this.failure;
    // Nothing left waiting in the stream: every chunk given to it so far has reached the file, so this one's buffer
    // may take records again (one grown past the usual size for a long cell is let go).
    if (this.file.writableLength === 0 && full.length === CHUNK * 2) this.spare = full;
  }

  /** The file's `event`, or its failure, whichever comes first. */
  private until(event: 'drain' | 'finish'): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.file.off(event, done);
        this.file.off('error', done);
        resolve();
      };
      this.file.on(event, done);
      this.file.on('error', done);
    });
  }

  /** Write what is left and close the file; rejects if anything failed to reach it. */
  async close(): Promise<void> {
    await this.flush();
    const finished = this.until('finish');
    this.file.end();
    if (!this.failure) await finished;
    if (this.failure) throw this.failure;
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
