// The words of the search marked in a text the window shows (a row's title,
// the detail): the text cut into pieces, each a match or not, for the
// component to render as text (Marked.svelte: never as HTML). A match is a
// search word at the start of a word, in any case, as the index matches it.
import { searchWords } from '../../../shared/search-words';

export interface Piece {
  text: string;
  hit: boolean;
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for the search's words (null: nothing to mark). */
export function matcher(search: string | undefined): RegExp | null {
  const words = [...new Set(searchWords(search ?? '').map((w) => w.toLowerCase()))].sort((a, b) => b.length - a.length);
  return words.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escape).join('|')})`, 'giu') : null;
}

export function pieces(text: string, match: RegExp | null): Piece[] {
  if (!match || !text) return [{ text, hit: false }];
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(match)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), hit: false });
    out.push({ text: m[0], hit: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}
