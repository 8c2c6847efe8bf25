// The words of a search as the cache's full-text index takes them: split at
// anything that is not a letter or a digit, the first twelve, each matched as
// the start of a word in any case. The store builds its query from them
// (electron/core/store/opportunity-filter.ts) and the window marks the same
// words in what it shows (renderer/src/lib/highlight.ts); searchOf is what the
// window sends of a typed search. Pure.

export const MAX_SEARCH_WORDS = 12;
/** The longest search the core takes (shared/contract/opportunities.ts: the list filter's `search`); the window cuts to it. */
export const MAX_SEARCH_LENGTH = 500;

export function searchWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, MAX_SEARCH_WORDS);
}

/**
 * What a typed search asks the core: the text trimmed and cut to what the core takes (a pasted page becomes its
 * first MAX_SEARCH_LENGTH characters), or no search while it holds no word the search looks for (an emoji,
 * punctuation: the core would ignore it, and the whole list would read as that search's matches).
 */
export function searchOf(typed: string | undefined): string | undefined {
  let text = typed?.trim().slice(0, MAX_SEARCH_LENGTH) ?? '';
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1); // never half a character
  text = text.trim();
  return searchWords(text).length > 0 ? text : undefined;
}
