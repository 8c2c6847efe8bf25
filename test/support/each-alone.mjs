#!/usr/bin/env node
// Runs each test of the given test files alone (a vitest of its own, `-t` with
// the test's exact full name, anchored), and reports any that fail alone: a
// test that passes only after another one has run depends on that one's order
// (issue 24.6: each test file passes with any single test run alone).
//
//   node test/support/each-alone.mjs [--config vitest.e2e.config.ts] [--jobs 2] FILE...
//
// Exit 0 when every test passed alone; 1 when any failed alone, or when a name
// matched no test or more than one (each is named in the report).
// Tests that need the keychain need it here too:
//   HOME=$(mktemp -d) dbus-run-session -- bash build/scripts/with-keyring.sh node test/support/each-alone.mjs FILE...
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
let config = null;
let jobs = 1;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--config') config = args[++i];
  else if (args[i] === '--jobs') jobs = Math.max(1, Number(args[++i]) || 1);
  else if (args[i] === '--help' || args[i] === '-h') {
    console.log('Usage: node test/support/each-alone.mjs [--config FILE] [--jobs N] TEST_FILE...');
    process.exit(0);
  } else files.push(args[i]);
}
if (files.length === 0) {
  console.error('Name at least one test file: node test/support/each-alone.mjs test/integration/app/pipeline.test.ts');
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'each-alone-'));
const vitest = resolve('node_modules/vitest/vitest.mjs');
const configArgs = config ? ['--config', config] : [];

/** Run vitest with these arguments; resolves with its exit code and what it printed. */
function runVitest(vArgs) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [vitest, ...configArgs, ...vArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => done({ code, out }));
  });
}

/** The tests of one file, each as its path of names (describe blocks, then the test). */
async function testsOf(file, n) {
  // `--json=PATH`: written with `=`, so the file to list is never taken for the output path.
  const out = join(scratch, `list-${n}.json`);
  const r = await runVitest(['list', `--json=${out}`, file]);
  let listed;
  try {
    listed = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    throw new Error(`Could not list the tests of ${file} (vitest list exited ${r.code}):\n${r.out.slice(-2000)}`);
  }
  return listed.filter((t) => resolve(t.file) === resolve(file)).map((t) => t.name.split(' > '));
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Run one test alone: its full name (vitest joins the names with a space), anchored both ends. */
async function runAlone(file, names, n) {
  const out = join(scratch, `run-${n}.json`);
  const pattern = `^${escape(names.join(' '))}$`;
  const r = await runVitest(['run', file, '-t', pattern, '--reporter=json', `--outputFile=${out}`]);
  let report = null;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    // No report: the file failed to load, or vitest crashed; said below with its output.
  }
  const passed = report?.numPassedTests ?? 0;
  const failed = report?.numFailedTests ?? 0;
  const ran = passed + failed;
  const ok = r.code === 0 && ran === 1 && failed === 0;
  const why =
    ran === 0 ? 'matched no test (or the file failed to load)' : ran > 1 ? `matched ${ran} tests` : failed ? 'failed alone' : `vitest exited ${r.code}`;
  // The failure's own words (the JSON reporter prints none of them).
  const messages = (report?.testResults ?? []).flatMap((f) => [
    ...(f.message ? [f.message] : []),
    ...(f.assertionResults ?? []).flatMap((t) => t.failureMessages ?? []),
  ]);
  return { ok, why, out: messages.length ? messages.join('\n') : r.out };
}

const failures = [];
let total = 0;
let n = 0;
for (const file of files) {
  const tests = await testsOf(file, n++);
  console.log(`${relative('.', resolve(file))}: ${tests.length} tests, each alone`);
  const queue = tests.map((names) => ({ names, n: n++ }));
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const r = await runAlone(file, t.names, t.n);
      total++;
      console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${t.names.join(' > ')}${r.ok ? '' : ` (${r.why})`}`);
      if (!r.ok) failures.push({ file, name: t.names.join(' > '), why: r.why, out: r.out });
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
}
rmSync(scratch, { recursive: true, force: true });

for (const f of failures) console.log(`\n---- ${f.file} > ${f.name}: ${f.why}\n${f.out.slice(-3000)}`);
console.log(`\nalone: ${total - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
