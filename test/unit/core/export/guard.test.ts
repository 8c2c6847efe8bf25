// The CSV formula guard: what starts a formula in a spreadsheet gets a leading
// apostrophe (OWASP), look-alikes a spreadsheet folds to = + - @ included;
// nothing else is changed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { guarded, startsLikeFormula } from '../../../../electron/core/export/guard';
import { cell } from '../../../../electron/core/export/csv-export';

describe('startsLikeFormula', () => {
  it('the ASCII triggers and a tab, CR or LF at the start (OWASP)', () => {
    for (const s of ['=1+1', '+SUM(A1)', '-2+3', '@SUM(1)', '\t=1', '\r=1', '\nx']) expect(startsLikeFormula(s), JSON.stringify(s)).toBe(true);
  });

  it('full-width, small and super/subscript forms, and the minus sign, which spreadsheets fold to = + - @', () => {
    for (const s of ['＝1+1', '＋SUM(A1)', '－2+3', '＠SUM(1)', '﹦1', '﹢1', '﹣1', '﹫x', '⁺1', '⁻1', '⁼1', '₊1', '₋1', '₌1', '−2+3'])
      expect(startsLikeFormula(s), s).toBe(true);
  });

  it('text that only contains a trigger later, or starts with a space, is left alone', () => {
    for (const s of ['', 'a=1', 'Café -20%', ' =1', '1-2', "'=1", 'Ｅ=mc²', '«=»']) expect(startsLikeFormula(s), s).toBe(false);
  });

  it('guarded() adds one apostrophe exactly when it starts like a formula, and never changes anything else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const g = guarded(s);
        expect(g).toBe(startsLikeFormula(s) ? `'${s}` : s);
        expect(startsLikeFormula(g)).toBe(false);
      }),
    );
    expect(cell('＝SUM(A1)')).toBe("'＝SUM(A1)");
    expect(cell('＝SUM(A1)', { raw: true })).toBe('＝SUM(A1)');
  });
});
