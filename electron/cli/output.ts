// Output helpers for commands: JSON, aligned text tables, and API text made safe
// for a terminal.
export const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** Columns padded to their widest cell; the first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

/** At most n characters, with an ellipsis where cut. */
export const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** Text from the API on a terminal: no control characters (escape sequences could rewrite the screen). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const plain = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
