// The raw record as stored: compressed, so a 100,000-opportunity cache is a
// fraction of the size of the JSON it keeps. The first byte names the codec;
// codec 1 is raw deflate (level 6) with a preset dictionary of the record's
// field names in the spec's order and its enumerated values, which is what
// small JSON documents repeat most. Measured on 100,000 records (2.8 KB of
// JSON each): deflate 6 alone keeps 49% of the bytes, with this dictionary 40%,
// brotli 6 46% at twice the time per record; brotli 11 keeps 39% at 70 times
// the time. Decompression costs about 15 µs a record, mostly zlib's set-up
// for each call (zlib's thread pool is slower still for records this small).
// A codec is never changed once it has written a cache: a new dictionary is a
// new codec number, and the reader keeps every old one.
//
// Codec 2 (version 12 on) packs 32 records to a block, keyed by rowid / 32:
// one deflate stream (level 6, the same dictionary) over a table of the 32
// records' byte lengths (0: no record in that slot) and their JSON one after
// another. Measured on the bench's 100,000 records: 34 MB against 108 MB one
// by one, and a quarter of the time to inflate them all (zlib's set-up paid
// once a block, not once a record). A single record costs one block's inflate
// (about 90 KB of JSON): store/opportunity-blocks.ts keeps the blocks it has read.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { WorkbenchError } from '../../../shared/errors';

/** Codec 1's dictionary, frozen. (zlib looks back from the end of the dictionary, so the likeliest text goes last.) */
const DICTIONARY_1 = Buffer.from(
  'low-hanging-fruitpublication-gapNewIn ProgressDoneArchivedEasyMediumHardhttps://www..com/' +
    '"Created Date":"","Modified Date":"","contact_count":0,"catch_all_count":0' +
    '{"_id":"","unique_key":"","opportunity_type":"","domain":"","title":"","url":"","content_type":"","language":"en","country":"",' +
    '"status":"","archived":false,"difficulty":"","strategy_name":"","topics_covered":[""],"site_type":"","audience_profile":"",' +
    '"content_style":"","competitors":[""],"competitor_count":0,"gap_analysis":"","why_competitors_win":"","brand_angle":"",' +
    '"fit_score":0,"topics_aligned":[""],"audience_match":"","why_relevant":"","pitch_subject":"","pitch_body":"Hi [Name],\\n\\n",' +
    '"author_name":"","contact_emails":[""," CATCH"],"contact_confidence":"","appearance_count":0,"prompt_count":0,"query_count":0,' +
    '"priority_score":0,"brand_citations_on_prompt":0,"competitor_citations_on_prompt":0,"original_prompts":[""],"search_queries":[""],' +
    '"weak_prompt":"","competitors_winning":[""],"instructions":[""],"what_itll_do":"","last_seen_date":"","Created Date":"","Modified Date":""}',
  'utf8',
);

const CODEC_DEFLATE_DICT_1 = 1;

/** The record's JSON text, packed for storage. */
export function packRecord(json: string): Buffer {
  const body = deflateRawSync(Buffer.from(json, 'utf8'), { level: 6, dictionary: DICTIONARY_1 });
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = CODEC_DEFLATE_DICT_1;
  body.copy(out, 1);
  return out;
}

const asBuffer = (packed: Uint8Array) => (Buffer.isBuffer(packed) ? packed : Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength));
/** Written by a newer app (a codec added without a schema version): the same way out as a newer cache refused at open. */
const unknownCodec = (codec: number | undefined) =>
  new WorkbenchError('cache-newer', `A stored record uses a format this version does not know (codec ${codec}). Update the app.`);

/** The record's JSON text from what packRecord stored (refused in words for a codec this app does not know). */
export function unpackRecord(packed: Uint8Array): string {
  const buf = asBuffer(packed);
  if (buf[0] === CODEC_DEFLATE_DICT_1) return inflateRawSync(buf.subarray(1), { dictionary: DICTIONARY_1 }).toString('utf8');
  throw unknownCodec(buf[0]);
}

const CODEC_BLOCK_1 = 2;
/** Records a block holds: the record of rowid r is slot r % 32 of block floor(r / 32). */
export const RECORDS_PER_BLOCK = 32;
export const blockOf = (rowid: number): number => Math.floor(rowid / RECORDS_PER_BLOCK);
export const slotOf = (rowid: number): number => rowid % RECORDS_PER_BLOCK;

/** One block's records, slot by slot: each record's JSON as UTF-8 bytes, or null for an empty slot. */
export type BlockSlots = (Buffer | null)[];

/** A block of records packed for storage (slots past the 32nd are refused). */
export function packBlock(slots: readonly (Buffer | string | null)[]): Buffer {
  if (slots.length > RECORDS_PER_BLOCK) throw new Error(`A block holds ${RECORDS_PER_BLOCK} records, not ${slots.length}.`);
  const bodies = slots.map((s) => (s === null ? null : typeof s === 'string' ? Buffer.from(s, 'utf8') : s));
  const head = Buffer.alloc(RECORDS_PER_BLOCK * 4);
  bodies.forEach((b, i) => head.writeUInt32LE(b?.length ?? 0, i * 4));
  const body = deflateRawSync(Buffer.concat([head, ...bodies.filter((b): b is Buffer => b !== null)]), { level: 6, dictionary: DICTIONARY_1 });
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = CODEC_BLOCK_1;
  body.copy(out, 1);
  return out;
}

const INFLATE_CHUNK_MIN = 16 * 1024;
const INFLATE_CHUNK_MAX = 256 * 1024;

/** A block's records as packBlock stored them: 32 slots (null where none). */
export function unpackBlock(packed: Uint8Array): BlockSlots {
  const buf = asBuffer(packed);
  if (buf[0] !== CODEC_BLOCK_1) throw unknownCodec(buf[0]);
  // Inflated into one buffer sized from the packed length (blocks inflate to 8-9 times it: about 90 KB), not zlib's
  // default 16 KB pieces joined at the end: half the memory allocated per block, which an export that inflates
  // every block waits on the collector for. A block that inflates to more takes a second piece, joined as before.
  const chunkSize = Math.min(INFLATE_CHUNK_MAX, Math.max(INFLATE_CHUNK_MIN, Math.ceil((buf.length * 9) / 1024) * 1024));
  const all = inflateRawSync(buf.subarray(1), { dictionary: DICTIONARY_1, chunkSize });
  const slots: BlockSlots = [];
  let at = RECORDS_PER_BLOCK * 4;
  for (let i = 0; i < RECORDS_PER_BLOCK; i++) {
    const n = all.readUInt32LE(i * 4);
    slots.push(n === 0 ? null : all.subarray(at, at + n));
    at += n;
  }
  return slots;
}
