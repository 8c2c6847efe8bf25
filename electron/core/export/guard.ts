// The formula guard for CSV files (OWASP, "CSV Injection"): a cell that a
// spreadsheet would read as a formula is written with a leading apostrophe,
// which Excel, LibreOffice and Google Sheets show as text. A cell starts like
// a formula when its first character is = + - @, a tab, a CR or an LF, or a
// character a spreadsheet folds to one of = + - @: the full-width forms
// (＝ ＋ － ＠, which Excel in Japanese locales reads as = + - @), the small
// forms (﹦ ﹢ ﹣ ﹫), the super- and subscript signs (⁼ ⁺ ⁻ ₌ ₊ ₋) and the
// minus sign (−). The folding is Unicode's compatibility form (NFKC), so any
// other look-alike that folds to a trigger is caught too.
//
// The apostrophe is a character a journalist would read if the cell went out
// in mail, so the export never adds it to mail text without saying so: the
// pre-export check names every mail cell that would get it and offers what
// keeps the text as written (an .xlsx, where text cells are strings and need
// no guard; leaving those rows out; or, for a mail tool that never evaluates
// formulas, the text as written). See csv-export.ts and shared/export-presets.ts.

/** 1 for an ASCII character that starts a formula: a table looked up for every cell of an export. */
const ASCII_TRIGGERS = new Uint8Array(0x80);
for (const c of [0x3d /* = */, 0x2b /* + */, 0x2d /* - */, 0x40 /* @ */, 0x09, 0x0d, 0x0a]) ASCII_TRIGGERS[c] = 1;
const FOLDED_TRIGGERS = new Set(['=', '+', '-', '@', '\u2212']);

/** Would a spreadsheet read this text as a formula (or a formula's start)? */
export function startsLikeFormula(text: string): boolean {
  if (text === '') return false;
  // Nearly every cell starts with an ASCII character: one lookup; anything else is folded first.
  const unit = text.charCodeAt(0);
  if (unit < 0x80) return ASCII_TRIGGERS[unit] === 1;
  const first = text.codePointAt(0)!;
  const folded = String.fromCodePoint(first).normalize('NFKC');
  return FOLDED_TRIGGERS.has(folded[0]!);
}

/** The text as a CSV writes it with the guard: a leading apostrophe where it would start a formula. */
export function guarded(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}
