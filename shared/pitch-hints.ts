// Hints while writing a pitch, from what journalists say they want: under 200
// words, a short subject, no spam-filter words. Pure functions; the spam words
// are one data list (spam-words.ts).
import { SPAM_WORDS } from './spam-words';

export const PITCH_WORD_LIMIT = 200;
export const SUBJECT_MAX_LENGTH = 60;

/** Words as a person counts them: an address or a link is one word. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

export function subjectHint(subject: string): { length: number; tooLong: boolean; empty: boolean; message: string } {
  const s = subject.trim();
  const length = [...s].length;
  if (length === 0) return { length, tooLong: false, empty: true, message: 'No subject yet.' };
  if (length > SUBJECT_MAX_LENGTH) return { length, tooLong: true, empty: false, message: `${length} characters: inboxes cut subjects after about ${SUBJECT_MAX_LENGTH}.` };
  return { length, tooLong: false, empty: false, message: `${length} characters.` };
}

export interface SpamHint {
  word: string;
  index: number;
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each listed word or phrase as a whole word (a phrase's inner spaces match any white space). */
const SPAM = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...SPAM_WORDS]
    .sort((a, b) => b.length - a.length)
    .map((w) => escape(w).replace(/ /g, '\\s+'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/** The spam-filter words and phrases in the text, each where it is (case does not matter). */
export function spamHints(text: string): SpamHint[] {
  return [...text.matchAll(SPAM)].map((m) => ({ word: m[0], index: m.index }));
}
