// The difference between two texts, line by line (the longest common
// subsequence of lines): what the pane shows when the service changed its
// pitch under a draft. Plain data, rendered as text.

export interface DiffLine {
  /** ' ' in both, '-' only in the old text, '+' only in the new one. */
  op: ' ' | '-' | '+';
  text: string;
}

/** Lines past this many on each side are compared as one block (a pitch is far shorter). */
const MAX_LINES = 2000;

const linesOf = (text: string) => text.replace(/\r\n?/g, '\n').split('\n');

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  if (a.length > MAX_LINES || b.length > MAX_LINES) {
    return before === after
      ? a.map((text) => ({ op: ' ', text }))
      : [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  }
  // lcs[i][j]: the longest common run of lines of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  while (i < a.length) out.push({ op: '-', text: a[i++]! });
  while (j < b.length) out.push({ op: '+', text: b[j++]! });
  return out;
}

/** True when the diff holds a change. */
export const changed = (d: readonly DiffLine[]) => d.some((l) => l.op !== ' ');
