// The opportunities an export wrote, kept to the end (the count in its record,
// the export date marked on each): one bit per rowid, not a Set, whose entries
// were about 10 MB of the process at 300,000 rows, held for the whole export.
// Rowids are dense (the sync numbers them from 1); one far beyond them is kept
// apart, so a stray large rowid never makes the bits large. So is any number
// that is not a rowid the sync gives (a negative or a fraction: SQLite allows
// a negative rowid written by hand): kept once, as a Set keeps it, never lost
// or taken for another.

/** Rowids up to this are bits (8 MB at most); any beyond, in a Set. */
const BITS_MAX = 1 << 26;

export class RowidSet implements Iterable<number> {
  private bits = new Uint32Array(4096);
  private readonly beyond = new Set<number>();
  /** How many distinct rowids were added. */
  size = 0;

  add(rowid: number): void {
    if (!Number.isInteger(rowid) || rowid < 0 || rowid >= BITS_MAX) {
      if (!this.beyond.has(rowid)) this.size++;
      this.beyond.add(rowid);
      return;
    }
    const word = rowid >>> 5;
    if (word >= this.bits.length) {
      const grown = new Uint32Array(Math.max(this.bits.length * 2, word + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    const bit = 1 << (rowid & 31);
    if ((this.bits[word]! & bit) === 0) {
      this.bits[word]! |= bit;
      this.size++;
    }
  }

  /** Each rowid once: those kept as bits in ascending order, then the others. */
  *[Symbol.iterator](): Iterator<number> {
    for (let word = 0; word < this.bits.length; word++) {
      const w = this.bits[word]!;
      if (w === 0) continue;
      for (let b = 0; b < 32; b++) if (w & (1 << b)) yield word * 32 + b;
    }
    yield* this.beyond;
  }
}
