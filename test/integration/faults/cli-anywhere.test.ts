// The CLI runs from anywhere and writes nothing into the project (or an
// install) folder at run time: `npm run cli` checks that the native modules
// load without rewriting a stamp file, and the `workbench` bin works from any
// folder, writing only the cache it is given.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../../support/tmp';

const root = resolve(import.meta.dirname, '../../..');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Each entry of these folders with its last change: a file written, made or removed there shows. */
function snapshot(): Map<string, number> {
  const out = new Map<string, number>();
  for (const dir of [root, join(root, 'build'), join(root, 'build', 'scripts'), join(root, 'electron', 'cli')]) {
    out.set(dir, statSync(dir).mtimeMs);
    for (const name of readdirSync(dir)) {
      // node_modules changes under the test runner's own caches while tests run.
      if (name === 'node_modules') continue;
      const path = join(dir, name);
      out.set(path, statSync(path).mtimeMs);
    }
  }
  return out;
}

describe('the CLI writes nothing into the project folder', () => {
  it('`npm run cli -- cache path` leaves every file and folder of the project as it was', () => {
    const db = join(tmp.dir, 'cache', 'workbench.db');
    const before = snapshot();
    const r = spawnSync('npm', ['run', '--silent', 'cli', '--', 'cache', 'path', '--db', db], { cwd: root, encoding: 'utf8', env: { ...process.env } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').pop()).toBe(db);
    expect(snapshot()).toEqual(before);
  });

  it('the bin run from another folder works, and writes only the cache it was given', () => {
    const db = join(tmp.dir, 'elsewhere', 'workbench.db');
    const before = snapshot();
    const r = spawnSync(process.execPath, [join(root, 'electron', 'cli', 'bin.mjs'), 'dnc', 'add', 'ana@outlet.example', '--db', db], {
      cwd: tmp.dir,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Added address ana@outlet.example');
    expect(snapshot()).toEqual(before);
    expect(readdirSync(join(tmp.dir, 'elsewhere'))).toContain('workbench.db');
  });
});
