// The README's CLI section lists the exit codes with the failures each covers,
// in step with the code: every kind a user can meet (all but the app's own
// bugs) is in the row of the code the CLI exits with for it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_KINDS, errorGroup, type ErrorKind } from '../../../shared/errors';
import { exitCodeOf } from '../../../electron/cli/exit-codes';

const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
const cli = readme.slice(readme.indexOf('## The CLI'), readme.indexOf('## The desktop app'));
/** Each row of the exit code table: its code and the kinds it names. */
const rows = [...cli.matchAll(/^\| (\d+) \| [^|]+ \|([^|]*)\|/gm)].map((m) => ({
  code: Number(m[1]),
  kinds: [...m[2]!.matchAll(/`([a-z-]+)`/g)].map((k) => k[1]!),
}));

describe("the README's exit codes", () => {
  it('has the table', () => {
    expect(rows.map((r) => r.code)).toEqual([0, 2, 3, 4, 5, 130, 1]);
  });

  it.each(Object.keys(ERROR_KINDS) as ErrorKind[])('%s is listed under the code the CLI exits with (the app’s own may be left to “…”)', (kind) => {
    const row = rows.find((r) => r.kinds.includes(kind));
    if (!row) {
      expect(errorGroup(kind), `${kind} is missing from the README's table`).toBe('app');
      return;
    }
    expect(row.code).toBe(exitCodeOf(kind));
  });
});
