// What a SQLite file holds, read from its bytes without SQLite: the schema
// version (user_version) and the names of its tables, from the schema table
// (sqlite_schema, a table b-tree rooted at page 1). The cache-signature look
// reads a file this way so that the look itself makes nothing beside it (a
// SQLite connection to a file in WAL mode makes `-wal` and `-shm` files),
// never rolls back another program's unfinished transaction (a read-write
// connection would, a read-only one fails), and names the tables of a schema
// this SQLite could not parse (a newer app's). It reads the main file only:
// what a `-wal` file holds is not seen, so the look asks SQLite when one is
// there. The format: https://www.sqlite.org/fileformat2.html
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface FileSchema {
  /** PRAGMA user_version, from the header. */
  version: number;
  /** The names of the tables in the schema table. */
  tables: string[];
}

/** More pages than any schema table spans: a loop in damaged page numbers ends here. */
const MAX_PAGES = 10_000;

class Pages {
  private readonly cache = new Map<number, Buffer>();
  visited = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
    readonly count: number,
  ) {}

  /** Page `n` (1-based), or an error when it is past the end of the file. */
  get(n: number): Buffer {
    if (!Number.isInteger(n) || n < 1 || n > this.count) throw new Error(`page ${n} is not in the file`);
    if (++this.visited > MAX_PAGES) throw new Error('the schema table has too many pages');
    let page = this.cache.get(n);
    if (!page) {
      page = Buffer.alloc(this.size);
      if (readSync(this.fd, page, 0, this.size, (n - 1) * this.size) !== this.size) throw new Error(`page ${n} is cut short`);
      this.cache.set(n, page);
    }
    return page;
  }
}

/** A varint (1 to 9 bytes, big-endian, 7 bits a byte but the ninth), and where it ends. */
function varint(b: Buffer, at: number): [number, number] {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i];
    if (byte === undefined) throw new Error('a number runs past its page');
    v = (v << 7n) | BigInt(byte & 0x7f);
    if (byte < 0x80) return [Number(v), at + i + 1];
  }
  const last = b[at + 8];
  if (last === undefined) throw new Error('a number runs past its page');
  return [Number((v << 8n) | BigInt(last)), at + 9];
}

/** The payload of a cell in a table b-tree leaf, with what overflows onto other pages. */
function payload(pages: Pages, usable: number, page: Buffer, at: number): Buffer {
  const [size, afterSize] = varint(page, at);
  const [, start] = varint(page, afterSize); // the rowid
  const maxLocal = usable - 35;
  if (size <= maxLocal) return page.subarray(start, start + size);
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = minLocal + ((size - minLocal) % (usable - 4));
  const local = k <= maxLocal ? k : minLocal;
  const parts = [page.subarray(start, start + local)];
  let got = local;
  let next = page.readUInt32BE(start + local);
  while (got < size) {
    const over = pages.get(next);
    const take = Math.min(size - got, usable - 4);
    parts.push(over.subarray(4, 4 + take));
    got += take;
    next = over.readUInt32BE(0);
  }
  return Buffer.concat(parts, size);
}

/** The first two columns of a schema row (type, name) as text, from a record. */
function typeAndName(rec: Buffer, text: (b: Buffer) => string): [string | null, string | null] {
  const [headerSize, first] = varint(rec, 0);
  const out: (string | null)[] = [];
  let at = first;
  let body = headerSize;
  while (at < headerSize && out.length < 2) {
    const [serial, next] = varint(rec, at);
    at = next;
    const width =
      serial >= 12 ? Math.floor((serial - 12) / 2) : ([0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0] as const)[serial as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11];
    out.push(serial >= 13 && serial % 2 === 1 ? text(rec.subarray(body, body + width)) : null);
    body += width;
  }
  return [out[0] ?? null, out[1] ?? null];
}

/** Every table b-tree leaf cell's payload under page `n`. */
function* leafPayloads(pages: Pages, usable: number, n: number, depth = 0): Generator<Buffer> {
  if (depth > 20) throw new Error('the schema table is nested too deep');
  const page = pages.get(n);
  const head = n === 1 ? 100 : 0;
  const type = page[head];
  const cells = page.readUInt16BE(head + 3);
  if (type === 0x0d) {
    for (let i = 0; i < cells; i++) yield payload(pages, usable, page, page.readUInt16BE(head + 8 + 2 * i));
  } else if (type === 0x05) {
    for (let i = 0; i < cells; i++) yield* leafPayloads(pages, usable, page.readUInt32BE(page.readUInt16BE(head + 12 + 2 * i)), depth + 1);
    yield* leafPayloads(pages, usable, page.readUInt32BE(head + 8), depth + 1);
  } else throw new Error(`page ${n} is not a table page`);
}

/**
 * The schema version and table names of the SQLite file at `path`, read from
 * its main file alone (see the top of this file); throws when the file is not
 * SQLite or cannot be read as one (damaged, cut short, mid-write).
 */
export function readFileSchema(path: string): FileSchema {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) !== 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') throw new Error('not a SQLite file');
    const raw = header.readUInt16BE(16);
    const size = raw === 1 ? 65536 : raw;
    if (size < 512 || size > 65536 || (size & (size - 1)) !== 0) throw new Error(`page size ${raw} is not one SQLite writes`);
    const usable = size - header[20]!;
    const encoding = header.readUInt32BE(56);
    const text = (b: Buffer) => (encoding === 2 ? b.toString('utf16le') : encoding === 3 ? Buffer.from(b).swap16().toString('utf16le') : b.toString('utf8'));
    const pages = new Pages(fd, size, Math.floor(fstatSync(fd).size / size));
    const tables: string[] = [];
    for (const rec of leafPayloads(pages, usable, 1)) {
      const [type, name] = typeAndName(rec, text);
      if (type === 'table' && name !== null) tables.push(name);
    }
    return { version: header.readInt32BE(60), tables };
  } finally {
    closeSync(fd);
  }
}
