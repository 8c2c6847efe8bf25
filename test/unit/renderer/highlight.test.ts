// The search's words marked in what the window shows: the same words the
// index matches (the start of a word, any case), the text kept whole.
import { describe, expect, it } from 'vitest';
import { matcher, pieces } from '../../../renderer/src/lib/highlight';

const marked = (text: string, search: string) =>
  pieces(text, matcher(search))
    .map((p) => (p.hit ? `[${p.text}]` : p.text))
    .join('');

describe('marking the searched words', () => {
  it('marks each word where a word starts, in any case, and keeps every character of the text', () => {
    expect(marked('Cold brew guide: the cold-brew Colder test', 'cold')).toBe('[Cold] brew guide: the [cold]-brew [Cold]er test');
    expect(marked('Scold the unfolding cold', 'cold')).toBe('Scold the unfolding [cold]');
    const text = 'Privacy guide for privacy-minded readers';
    expect(
      pieces(text, matcher('PRIV guide'))
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
    expect(marked(text, 'PRIV guide')).toBe('[Priv]acy [guide] for [priv]acy-minded readers');
  });

  it('takes the words as the index does: punctuation splits them, and regex characters are plain text', () => {
    expect(marked('a.b (c) [d] *e*', 'a.b (c)')).toBe('[a].[b] ([c]) [d] *e*');
    expect(marked('price $5+ off', '$5+')).toBe('price $[5]+ off');
    expect(matcher('  ')).toBeNull();
    expect(matcher('.*')).toBeNull();
  });

  it('the longer word wins where two start alike', () => {
    expect(marked('espresso machines', 'es espresso')).toBe('[espresso] machines');
  });

  it('letters of other scripts and accents are words too', () => {
    expect(marked('Café crème, CAFÉ', 'café')).toBe('[Café] crème, [CAFÉ]');
    expect(marked('Кофе и чай', 'коф')).toBe('[Коф]е и чай');
  });
});
