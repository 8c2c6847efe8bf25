// A text file someone else's program wrote (a do-not-contact list from a CRM
// or a spreadsheet), read in the encoding it is in: UTF-8 (with or without a
// byte-order mark) or UTF-16 (with a byte-order mark, as Excel's "Unicode
// Text" writes it, or without one when the zero bytes give it away). Anything
// else is refused naming the encoding found and the way out, never read as
// garbage.
import { WorkbenchError } from '../../../shared/errors';
import { basename } from 'node:path';

/** A file in an encoding this app does not read: the user's input, said with the way out. */
export class TextFileError extends WorkbenchError {
  constructor(message: string) {
    super('invalid-input', message, { field: 'file' });
  }
}

/** Most of the first bytes' odd (or even) positions are zero: UTF-16 text of mostly Latin letters, without a byte-order mark. */
function zeroPattern(b: Uint8Array): 'le' | 'be' | null {
  const n = Math.min(b.length - (b.length % 2), 4096);
  if (n < 4) return null;
  let oddZero = 0;
  let evenZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) evenZero++;
    if (b[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.6 && evenZero < pairs * 0.1) return 'le';
  if (evenZero > pairs * 0.6 && oddZero < pairs * 0.1) return 'be';
  return null;
}

/** The text of a file's bytes; `path` names it in the error. */
export function decodeText(bytes: Uint8Array, path: string): string {
  const name = basename(path);
  const refuse = (what: string) =>
    new TextFileError(`${name} is ${what}, which this app does not read. Save it as "CSV UTF-8" (Excel: File > Save As > CSV UTF-8) and import it again.`);
  const [a, b, c, d] = bytes;
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) throw refuse('UTF-32 text');
  if (a === 0xef && b === 0xbb && c === 0xbf) return utf8(bytes.subarray(3), () => refuse('not valid UTF-8 text although it starts like UTF-8'));
  if (a === 0xff && b === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (a === 0xfe && b === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const sixteen = zeroPattern(bytes);
  if (sixteen) return new TextDecoder(sixteen === 'le' ? 'utf-16le' : 'utf-16be').decode(bytes);
  return utf8(bytes, () => refuse('not UTF-8 text (it looks like Windows-1252, Latin-1 or another older encoding)'));
}

function utf8(bytes: Uint8Array, fail: () => Error): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail();
  }
}
