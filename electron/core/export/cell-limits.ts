// What a cell may hold where the file goes, and how text is cut when it holds
// more, always with a visible marker (never silently): a spreadsheet cell
// holds 32,767 characters (Excel's and LibreOffice's limit; more is cut when
// the file is opened), a Mailchimp text field 255 bytes of UTF-8 (its import
// clips the rest, shared/export-presets.ts).

/** Excel's limit for one cell, in UTF-16 code units (what it counts as characters). */
export const SPREADSHEET_CELL_MAX = 32_767;

const count = (n: number) => n.toLocaleString('en-US');

/** The end of `text` that fits in `units` code units without splitting a surrogate pair. */
function headOf(text: string, units: number): string {
  let end = Math.max(0, units);
  const c = text.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Text cut to a spreadsheet cell, with a marker that says how much was left out; null when it fits. */
export function cutForSpreadsheet(text: string): string | null {
  if (text.length <= SPREADSHEET_CELL_MAX) return null;
  // The marker's own length depends on the count; the count on the marker: at most one more round.
  let kept = SPREADSHEET_CELL_MAX - 80;
  const marker = (left: number) => `… [${count(left)} more characters cut: a spreadsheet cell holds ${count(SPREADSHEET_CELL_MAX)}]`;
  let head = headOf(text, kept);
  let m = marker(text.length - head.length);
  kept = SPREADSHEET_CELL_MAX - m.length;
  head = headOf(text, kept);
  m = marker(text.length - head.length);
  return head + m;
}

const utf8 = new TextEncoder();

/** Text cut to `bytes` of UTF-8 on a character boundary, ending in "…"; null when it fits. */
export function cutToBytes(text: string, bytes: number): string | null {
  if (text.length <= bytes / 3 || utf8.encode(text).length <= bytes) return null;
  const room = bytes - 3; // "…" is three bytes
  let used = 0;
  let out = '';
  for (const ch of text) {
    const n = utf8.encode(ch).length;
    if (used + n > room) break;
    used += n;
    out += ch;
  }
  return `${out}…`;
}
