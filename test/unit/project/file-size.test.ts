// Rooms the right size: no source file in electron/ or renderer/ over 350 lines
// unless its first 10 lines give the reason, in a comment starting "Long because:".
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const ROOMS = ['electron', 'renderer'];
const MAX_LINES = 350;
const SOURCE = /\.(ts|svelte|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist']);
/** A comment opening (`//`, `/*`, ` *`, `<!--`) followed by the reason. */
const REASON = /^\s*(\/\/|\/\*+|\*|<!--)\s*Long because:/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : sourceFiles(path);
    return e.isFile() && SOURCE.test(e.name) ? [path] : [];
  });
}

/** Lines as `wc -l` would count them for a file that ends with a newline. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Too long and no reason at its top: what the failure says; else null. */
function sizeProblem(file: string, text: string): string | null {
  const lines = lineCount(text);
  if (lines <= MAX_LINES) return null;
  if (
    text
      .split('\n')
      .slice(0, 10)
      .some((l) => REASON.test(l))
  )
    return null;
  return `${file}: ${lines} lines (over ${MAX_LINES}, and no "Long because:" comment in its first 10 lines)`;
}

describe('file size', () => {
  it('the rule: over 350 lines needs a "Long because:" comment in the first 10 lines', () => {
    const body = (n: number) => 'x;\n'.repeat(n);
    expect(lineCount(body(350))).toBe(350);
    expect(sizeProblem('a.ts', body(350))).toBeNull();
    expect(sizeProblem('a.ts', body(351))).toBe('a.ts: 351 lines (over 350, and no "Long because:" comment in its first 10 lines)');
    expect(sizeProblem('a.ts', `// Long because: one state machine.\n${body(400)}`)).toBeNull();
    expect(sizeProblem('a.ts', `/**\n * Long because: one state machine.\n */\n${body(400)}`)).toBeNull();
    expect(sizeProblem('A.svelte', `<!-- Long because: one dialog. -->\n${body(400)}`)).toBeNull();
    expect(sizeProblem('a.ts', `${body(10)}// Long because: too late.\n${body(400)}`)).toMatch(/^a\.ts: 411 lines/);
    expect(sizeProblem('a.ts', `const s = 'Long because: not a comment';\n${body(400)}`)).toMatch(/^a\.ts: 401 lines/);
  });

  it(`no .ts, .svelte or .js file in ${ROOMS.join('/ or ')}/ over ${MAX_LINES} lines without a reason at its top`, () => {
    const files = ROOMS.flatMap((room) => sourceFiles(join(ROOT, room)));
    expect(files.some((f) => f.endsWith('.svelte')) && files.some((f) => f.endsWith('service.ts'))).toBe(true);
    const problems = files
      .map((path) => sizeProblem(relative(ROOT, path), readFileSync(path, 'utf8')))
      .filter((p): p is string => p !== null)
      .sort();
    expect(problems).toEqual([]);
  });
});
