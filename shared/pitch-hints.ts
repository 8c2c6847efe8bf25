// Hints while writing a pitch, from what journalists say they want: under 200
// words, a short subject that says something, no spam-filter words. Hints,
// never blocks. Pure functions; the spam words are one data list (spam-words.ts).
import { SPAM_WORD_EXCEPTIONS, SPAM_WORDS } from './spam-words';

/** Journalists' surveys: a pitch they read is under this many words. */
export const PITCH_WORD_LIMIT = 200;
/** Inboxes cut a subject after about this many characters. */
export const SUBJECT_MAX_LENGTH = 60;
/** A subject of fewer words says too little. */
export const SUBJECT_MIN_WORDS = 3;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Words as a person counts them: runs of text between spaces (and em dashes)
 * that hold a letter or a digit. A link or an e-mail address is one word, so
 * is "well-known" or "$49"; a lone "-" or "•" is none.
 */
export function wordCount(text: string): number {
  let n = 0;
  for (const w of text.split(/[\s\u2014]+/)) if (/[\p{L}\p{N}]/u.test(w)) n++;
  return n;
}

export interface SubjectHint {
  /** Characters, as a person counts them (an emoji is one). */
  length: number;
  words: number;
  empty: boolean;
  /** Over SUBJECT_MAX_LENGTH characters. */
  tooLong: boolean;
  /** Under SUBJECT_MIN_WORDS words (and not empty). */
  tooShort: boolean;
  message: string;
}

export function subjectHint(subject: string): SubjectHint {
  const s = subject.trim();
  const length = [...s].length;
  const words = wordCount(s);
  const hint = { length, words, empty: length === 0, tooLong: length > SUBJECT_MAX_LENGTH, tooShort: length > 0 && words < SUBJECT_MIN_WORDS };
  const message = hint.empty
    ? 'No subject yet.'
    : hint.tooLong
      ? `${plural(length, 'character')}: inboxes cut a subject after about ${SUBJECT_MAX_LENGTH}, so put what matters first.`
      : hint.tooShort
        ? `${plural(words, 'word')}: a subject of a few words says what the pitch is about.`
        : `${plural(length, 'character')}.`;
  return { ...hint, message };
}

export interface PitchLengthHint {
  words: number;
  limit: number;
  over: boolean;
  message: string;
}

/** The body's word count against the 200-word mark. */
export function pitchLengthHint(body: string): PitchLengthHint {
  const words = wordCount(body);
  const over = words > PITCH_WORD_LIMIT;
  return {
    words,
    limit: PITCH_WORD_LIMIT,
    over,
    message: over
      ? `${plural(words, 'word')}: ${plural(words - PITCH_WORD_LIMIT, 'word')} over the ${PITCH_WORD_LIMIT} journalists say they read.`
      : `${plural(words, 'word')} of ${PITCH_WORD_LIMIT}.`,
  };
}

export interface SpamHint {
  /** The words as written in the text. */
  word: string;
  /** The entry of SPAM_WORDS it matched. */
  phrase: string;
  index: number;
  end: number;
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One entry as a pattern: a space or hyphen matches spaces and hyphens, an apostrophe either apostrophe. */
const pattern = (w: string) => escape(w).replace(/[ -]+/g, '[\\s-]+').replace(/'/g, "['’]");
/** Whole words only: not inside a word, nor inside a hyphenated compound ("gluten-free"). */
const wholeWords = (list: readonly string[]) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}-])(?:${[...list]
      .sort((a, b) => b.length - a.length)
      .map(pattern)
      .join('|')})(?![\\p{L}\\p{N}-])`,
    'giu',
  );
const SPAM = wholeWords(SPAM_WORDS);
const EXCEPTIONS = wholeWords(SPAM_WORD_EXCEPTIONS);
const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/[\s-]+/g, ' ');
const ENTRY = new Map<string, string>(SPAM_WORDS.map((w) => [key(w), w]));

/** The spam-filter words and phrases in the text, each where it is (case does not matter; the longest phrase wins). */
export function spamHints(text: string): SpamHint[] {
  const allowed = [...text.matchAll(EXCEPTIONS)].map((m) => [m.index, m.index + m[0].length] as const);
  const out: SpamHint[] = [];
  for (const m of text.matchAll(SPAM)) {
    const end = m.index + m[0].length;
    if (allowed.some(([a, b]) => m.index >= a && end <= b)) continue;
    out.push({ word: m[0], phrase: ENTRY.get(key(m[0])) ?? m[0], index: m.index, end });
  }
  return out;
}

/** Every hint on a pitch, worked out on the text as it would go out (its merge fields filled). */
export interface PitchHints {
  subject: SubjectHint;
  length: PitchLengthHint;
  /** The spam-filter words and phrases in it, each once (as SPAM_WORDS lists them). */
  spam: string[];
}

export function pitchHints(filled: { subject: string; body: string }): PitchHints {
  return {
    subject: subjectHint(filled.subject),
    length: pitchLengthHint(filled.body),
    spam: [...new Set(spamHints(`${filled.subject}\n${filled.body}`).map((h) => h.phrase))],
  };
}
