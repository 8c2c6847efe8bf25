// The export check's warnings name the rows they count: "row 3, ana@wired.com",
// then the column and the start of the text where a cell is meant. Addresses
// are written plainly, not in parentheses (which read as if they were optional
// or invalid), and every fact the note holds is still said.
import { describe, expect, it } from 'vitest';
import { finishCheck, newCheck, note } from '../../../../electron/core/export/check';

const check = () => newCheck('instantly', 'csv', [], []);

describe('the export warnings name rows plainly', () => {
  it('a row left out for its merge fields: row and address, no parentheses', () => {
    const c = check();
    c.placeholders = 2;
    c.leftOut.unfilled = 2;
    note(c.unfilledRows, { row: 3, email: 'alex.schmidt@law.com', opportunity_id: 'o3' });
    note(c.unfilledRows, { row: null, email: '', opportunity_id: 'o9' });
    const w = finishCheck(c, { unfilled: 'leave-out' }).warnings;
    expect(w).toContain('Left out: row 3, alex.schmidt@law.com; o9.');
    expect(w.join('\n')).not.toMatch(/\(alex|\(o9/);
  });

  it('a cell: row, address, column and the start of its text; the rest counted', () => {
    const c = check();
    c.dataGuarded = 7;
    for (let i = 1; i <= 6; i++) note(c.dataGuardedCells, { row: i, email: `p${i}@x.example`, opportunity_id: `o${i}`, column: 'title', text: `=X${i}` });
    const w = finishCheck(c, {}).warnings.find((x) => x.includes("guard's apostrophe"));
    expect(w).toBe(
      `7 cells of the service's text (titles, outlets, links) start like a formula and got the guard's apostrophe: ` +
        'row 1, p1@x.example, title: "=X1"; row 2, p2@x.example, title: "=X2"; row 3, p3@x.example, title: "=X3"; ' +
        'row 4, p4@x.example, title: "=X4"; row 5, p5@x.example, title: "=X5"; and 2 more.',
    );
  });

  it('a cell named inside a sentence in brackets keeps its facts, the address unbracketed', () => {
    const c = check();
    c.mailGuarded = 1;
    note(c.mailGuardedCells, { row: null, email: 'ana@wired.com', opportunity_id: 'o1', column: 'subject', text: '=1+1' });
    const w = finishCheck(c, { mailText: 'leave-out' }).warnings.join('\n');
    expect(w).toContain('those rows were left out: ana@wired.com, subject: "=1+1".');
  });
});
