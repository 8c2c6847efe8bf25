// Runs every test of the given files on its own (`vitest run <file> -t <its
// full name>`), one after another, and says which fail alone: the proof that
// no test of a file depends on another having run before it (issue 24).
// Usage: node build/scripts/each-test-alone.mjs <test file>...
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('Usage: node build/scripts/each-test-alone.mjs <test file>...');
  process.exit(2);
}
const vitest = 'node_modules/.bin/vitest';
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
let failed = 0;
let ran = 0;
for (const file of files) {
  const dir = mkdtempSync(join(tmpdir(), 'each-alone-'));
  const out = join(dir, 'tests.json');
  const listed = spawnSync(vitest, ['list', file, `--json=${out}`], { encoding: 'utf8' });
  if (listed.status !== 0) {
    console.error(`Could not list the tests of ${file}:\n${listed.stderr}`);
    process.exit(1);
  }
  const tests = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  for (const { name } of tests) {
    ran++;
    // The full name is "describe > test"; -t matches it with the parts joined by spaces.
    const pattern = `^${escape(name.split(' > ').join(' '))}$`;
    const r = spawnSync(vitest, ['run', file, '-t', pattern], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    const passed = r.status === 0 && /Tests\s+1 passed/.test(r.stdout);
    console.log(`${passed ? 'alone: passes' : 'alone: FAILS '}  ${file} > ${name}`);
    if (!passed) failed++;
  }
}
console.log(`\n${ran - failed} of ${ran} tests pass run alone.`);
process.exit(failed ? 1 : 0);
