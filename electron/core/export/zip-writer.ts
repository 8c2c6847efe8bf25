// A zip file written front to back (PKWARE's APPNOTE: local headers, deflated
// data, a data descriptor after a streamed entry, the central directory at the
// end), for the .xlsx workbook: small parts are deflated whole, the sheet is
// deflated as it is written, so memory stays flat for any number of rows.
// Names are UTF-8 (flag bit 11). No zip64: a part or a file over 4 GB is
// refused in plain words (split the export with a row limit).
import { invalidInput } from '../../../shared/errors';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

const LIMIT = 0xffff_ffff;
const UTF8_NAMES = 0x0800;
const DESCRIPTOR_FOLLOWS = 0x0008;
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** A date as MS-DOS writes it in a zip header (local time, two-second steps). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

const tooLarge = () =>
  invalidInput('The workbook would be larger than 4 GB, more than a zip file without extensions holds. Export it in parts (a row limit per file).');

export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp: { time: number; date: number };
  /** Rejects when the file fails (disk full, folder gone), so no wait for it can hang. */
  private readonly failed: Promise<never>;

  constructor(
    private readonly file: Writable,
    when = new Date(),
  ) {
    this.stamp = dosTime(when);
    this.failed = new Promise<never>((_, reject) => file.once('error', reject));
    this.failed.catch(() => {});
  }

  /** Bytes handed to the file so far. */
  get bytes(): number {
    return this.offset;
  }

  private async put(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.file.write(chunk)) await Promise.race([once(this.file, 'drain'), this.failed]);
  }

  private localHeader(e: Entry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(VERSION, 4);
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt32LE(e.crc >>> 0, 14);
    h.writeUInt32LE(e.compressed, 18);
    h.writeUInt32LE(e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, e.name]);
  }

  /** A small part, deflated whole. */
  async add(name: string, text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data, { level: constants.Z_DEFAULT_COMPRESSION });
    if (this.offset > LIMIT) throw tooLarge();
    const e: Entry = {
      name: Buffer.from(name, 'utf8'),
      flags: UTF8_NAMES,
      crc: crc32(data),
      compressed: packed.length,
      size: data.length,
      offset: this.offset,
    };
    this.entries.push(e);
    await this.put(this.localHeader(e));
    await this.put(packed);
  }

  /** A part written as it comes (the sheet): write() its text in order, then end(). */
  async begin(name: string): Promise<StreamedEntry> {
    if (this.offset > LIMIT) throw tooLarge();
    const e: Entry = { name: Buffer.from(name, 'utf8'), flags: UTF8_NAMES | DESCRIPTOR_FOLLOWS, crc: 0, compressed: 0, size: 0, offset: this.offset };
    this.entries.push(e);
    await this.put(this.localHeader(e));
    return new StreamedEntry(
      e,
      createDeflateRaw({ level: 6 }),
      this.file,
      this.failed,
      (n) => (this.offset += n),
      (b) => this.put(b),
    );
  }

  /** The central directory and its end record; the file is then complete (the caller closes the stream). */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(VERSION, 4);
      h.writeUInt16LE(VERSION, 6);
      h.writeUInt16LE(e.flags, 8);
      h.writeUInt16LE(DEFLATE, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      // extra, comment, disk, internal attributes: 0; external attributes: 0
      h.writeUInt32LE(e.offset, 42);
      await this.put(Buffer.concat([h, e.name]));
    }
    const size = this.offset - start;
    if (this.offset > LIMIT) throw tooLarge();
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
  }
}

/** One entry being deflated into the file as its text arrives. */
export class StreamedEntry {
  private ended = false;

  constructor(
    private readonly entry: Entry,
    private readonly deflate: DeflateRaw,
    file: Writable,
    private readonly failed: Promise<never>,
    counted: (n: number) => void,
    private readonly put: (b: Buffer) => Promise<void>,
  ) {
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      counted(chunk.length);
    });
    deflate.pipe(file, { end: false });
  }

  async write(text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    this.entry.crc = crc32(data, this.entry.crc);
    this.entry.size += data.length;
    if (this.entry.size > LIMIT) throw tooLarge();
    if (!this.deflate.write(data)) await Promise.race([once(this.deflate, 'drain'), this.failed]);
  }

  /** The rest deflated and the data descriptor written. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const done = once(this.deflate, 'end');
    this.deflate.end();
    await Promise.race([done, this.failed]);
    if (this.entry.compressed > LIMIT) throw tooLarge();
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(this.entry.crc >>> 0, 4);
    d.writeUInt32LE(this.entry.compressed, 8);
    d.writeUInt32LE(this.entry.size, 12);
    await this.put(d);
  }

  /** Stop at once (a cancel): nothing more reaches the file. */
  abort(): void {
    this.ended = true;
    this.deflate.unpipe();
    this.deflate.destroy();
  }
}
