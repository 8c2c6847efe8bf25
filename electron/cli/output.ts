// Output helpers for commands: JSON, aligned text tables, and API text made safe
// for a terminal: control characters (escape sequences could rewrite the
// screen) and bidirectional controls (U+202E would show the rest of a line,
// an id included, reversed) never reach it raw.

/** What JSON.stringify leaves raw that a terminal acts on: C1 controls, and bidirectional marks, embeddings, overrides and isolates. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON with every control and bidirectional character escaped (\u202e): the same data, safe on a terminal. */
export const json = (v: unknown) => JSON.stringify(v, null, 2).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';

/** Columns padded to their widest cell; the first row is the header. Every cell is made plain (see plain). */
export function table(cellsOf: string[][]): string {
  const rows = cellsOf.map((r) => r.map(plain));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

/** At most n characters, with an ellipsis where cut. */
export const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** Text from the API on a terminal: no control characters and no bidirectional controls (each becomes a space). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const plain = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ');
