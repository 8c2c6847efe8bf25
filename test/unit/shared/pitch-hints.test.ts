import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PITCH_WORD_LIMIT, SUBJECT_MAX_LENGTH, pitchLengthHint, spamHints, subjectHint, wordCount } from '../../../shared/pitch-hints';
import { SPAM_WORD_EXCEPTIONS, SPAM_WORDS } from '../../../shared/spam-words';

describe('wordCount', () => {
  it('counts words as a person does: a link and an address are one word each', () => {
    expect(wordCount('')).toBe(0);
    expect(wordCount('  \n\t ')).toBe(0);
    expect(wordCount('Hi Maya,')).toBe(2);
    expect(wordCount('See https://www.wired.com/story/best-cold-brew?utm_source=x&y=1 or mail sam.carter@northwind.coffee.')).toBe(5);
    expect(wordCount('A well-known, data-driven piece: $49 and 4.7/5 - really • truly')).toBe(9);
    expect(wordCount('fast—and honest')).toBe(3);
    expect(wordCount('Café crème, naïve résumé')).toBe(4);
    expect(wordCount('Line one\nLine two\r\n\r\n- point three')).toBe(6);
  });

  it('a simulator-style pitch is counted word by word', () => {
    const body = [
      'Hi Maya,',
      'I read "The 12 best cold brew makers in 2026" on wired.com and really enjoyed how you broke down cold brew.',
      'Best,\nSam\nNorthwind Coffee',
    ].join('\n\n');
    expect(wordCount(body)).toBe(2 + 21 + 4);
  });

  it('adds up over text joined by white space', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.constantFrom(' ', '\n', '\t', ' \r\n '), (a, b, gap) => {
        expect(wordCount(a + gap + b)).toBe(wordCount(a) + wordCount(b));
      }),
    );
  });
});

describe('pitchLengthHint', () => {
  it('says the count against the 200-word mark, and how far over', () => {
    expect(PITCH_WORD_LIMIT).toBe(200);
    expect(pitchLengthHint('word '.repeat(200))).toEqual({ words: 200, limit: 200, over: false, message: '200 words of 200.' });
    expect(pitchLengthHint('word '.repeat(201))).toEqual({
      words: 201,
      limit: 200,
      over: true,
      message: '201 words: 1 word over the 200 journalists say they read.',
    });
    expect(pitchLengthHint('Hi').message).toBe('1 word of 200.');
  });
});

describe('subjectHint', () => {
  it('over 60 characters is too long, 60 is not', () => {
    expect(SUBJECT_MAX_LENGTH).toBe(60);
    const sixty = 'Northwind Coffee data for your cold brew roundup this spring'.padEnd(60, '!');
    expect(sixty).toHaveLength(60);
    expect(subjectHint(sixty)).toMatchObject({ length: 60, tooLong: false, tooShort: false, message: '60 characters.' });
    expect(subjectHint(`${sixty}x`)).toMatchObject({
      length: 61,
      tooLong: true,
      message: '61 characters: inboxes cut a subject after about 60, so put what matters first.',
    });
  });

  it('under three words is too short; empty is said as such', () => {
    expect(subjectHint('Quick idea')).toMatchObject({
      words: 2,
      tooShort: true,
      tooLong: false,
      message: '2 words: a subject of a few words says what the pitch is about.',
    });
    expect(subjectHint('Cold brew data?')).toMatchObject({ words: 3, tooShort: false });
    expect(subjectHint('   ')).toEqual({ length: 0, words: 0, empty: true, tooLong: false, tooShort: false, message: 'No subject yet.' });
  });

  it('counts characters as a person sees them, around white space trimmed', () => {
    expect(subjectHint('  Café ☕ for your roundup  ').length).toBe(23);
    expect(subjectHint('😀'.repeat(60)).tooLong).toBe(false);
  });
});

describe('the spam word list', () => {
  it('is about 60 lower-case entries, each once, holding the usual suspects', () => {
    expect(SPAM_WORDS.length).toBeGreaterThanOrEqual(55);
    const key = (w: string) => w.replace(/[\s-]+/g, ' ');
    expect(new Set(SPAM_WORDS.map(key)).size).toBe(SPAM_WORDS.length);
    for (const w of SPAM_WORDS) expect(w, w).toBe(w.toLowerCase().trim());
    expect(SPAM_WORDS).toEqual(
      expect.arrayContaining(['free', 'guarantee', 'act now', '100%', 'click here', 'limited time', 'risk-free', 'urgent', 'winner', '$$$']),
    );
  });

  it('every entry is found on its own, in any case', () => {
    for (const w of SPAM_WORDS) {
      for (const text of [`so ${w} here`, `${w.toUpperCase()}!`, `(${w})`]) {
        const hints = spamHints(text);
        expect(
          hints.map((h) => h.phrase),
          text,
        ).toEqual([w]);
      }
    }
  });
});

describe('spamHints', () => {
  it('finds whole words and phrases, with where they are', () => {
    const text = 'FREE samples, 100% guaranteed. Click  here, act now!';
    expect(spamHints(text)).toEqual([
      { word: 'FREE', phrase: 'free', index: 0, end: 4 },
      { word: '100%', phrase: '100%', index: 14, end: 18 },
      { word: 'guaranteed', phrase: 'guaranteed', index: 19, end: 29 },
      { word: 'Click  here', phrase: 'click here', index: 31, end: 42 },
      { word: 'act now', phrase: 'act now', index: 44, end: 51 },
    ]);
  });

  it('a space and a hyphen are alike in a phrase; the longest phrase wins', () => {
    expect(spamHints('It is risk free and risk-free and Risk - Free').map((h) => h.phrase)).toEqual(['risk-free', 'risk-free', 'risk-free']);
    expect(spamHints('get it for free').map((h) => h.phrase)).toEqual(['for free']);
    expect(spamHints('Don’t miss out').map((h) => h.phrase)).toEqual(["don't miss out"]);
  });

  it('not inside a word, a hyphenated compound or an everyday phrase', () => {
    expect(spamHints('freedom, carefree, gluten-free, free-range, feel free to reply, Feel  Free, urgently, winners, 1100%')).toEqual([]);
    expect(SPAM_WORD_EXCEPTIONS).toContain('feel free');
  });

  it('each hint is the text at its place, in order, never overlapping', () => {
    const words = fc.constantFrom(...SPAM_WORDS, 'feel free', 'gluten-free', 'hello', 'data', '-', ',', '\n');
    fc.assert(
      fc.property(fc.array(fc.oneof(words, fc.string({ maxLength: 8 })), { maxLength: 20 }), fc.constantFrom(' ', '  ', '\n'), (ws, gap) => {
        const text = ws.join(gap);
        let end = 0;
        for (const h of spamHints(text)) {
          expect(h.index).toBeGreaterThanOrEqual(end);
          expect(text.slice(h.index, h.end)).toBe(h.word);
          expect(SPAM_WORDS as readonly string[]).toContain(h.phrase);
          end = h.end;
        }
      }),
    );
  });
});
