// CSV text, written fast and in order: RFC 4180 (a cell with the delimiter, a
// quote, a CR or an LF is quoted, quotes doubled), CRLF between records,
// UTF-8 with an optional BOM. Records are gathered into chunks of about
// 256 KB before they reach the file, so writing 100,000 rows waits on the
// disk a few hundred times, not once a row.
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
  private chunks = new Chunks();
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
    if (bom) this.chunks.add('\uFEFF');
  }

  /** Bytes handed to the file so far. */
  get bytesWritten(): number {
    return this.file.bytesWritten;
  }

  private encode(cell: string): string {
    return this.needsQuotes.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  }

  /** One record; resolves at once unless a chunk went to the file and the file asks to wait. */
  async write(cells: readonly string[]): Promise<void> {
    if (this.failure) throw this.failure;
    let line = '';
    for (let i = 0; i < cells.length; i++) line += (i ? this.delimiter : '') + this.encode(cells[i]!);
    line += '\r\n';
    if (this.chunks.add(line)) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.chunks.take();
    if (chunk === '') return;
    if (!this.file.write(chunk)) await this.until('drain');
    if (this.failure) throw this.failure;
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
    this.chunks.take();
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
