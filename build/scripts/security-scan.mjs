#!/usr/bin/env node
// Runs @doyensec/electronegativity on the main and preload sources (from a
// temporary folder, offline: the check that looks up security fixes online is
// skipped) and fails on any HIGH finding of FIRM or CERTAIN confidence that
// build/security-review.json does not explain. Electronegativity exits 0 even
// with findings, so this reads its CSV output. It cannot read .svelte files:
// lint's svelte/no-at-html-tags is an error instead.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const review = JSON.parse(readFileSync(join(root, 'build', 'security-review.json'), 'utf8')).reviewed;
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const work = mkdtempSync(join(tmpdir(), 'workbench-scan-'));
try {
  cpSync(join(root, 'electron', 'main'), join(work, 'src', 'main'), { recursive: true });
  cpSync(join(root, 'electron', 'preload'), join(work, 'src', 'preload'), { recursive: true });
  const out = join(work, 'findings.csv');
  execFileSync(
    join(root, 'node_modules', '.bin', 'electronegativity'),
    ['-i', 'src', '-x', 'AvailableSecurityFixesGlobalCheck', '-e', electronVersion, '-o', out, '-r'],
    { cwd: work, stdio: 'ignore' },
  );
  // Its CSV quotes the description only sometimes (a comma in it then splits the row), so read
  // just the five leading columns of each finding line, which never hold a comma.
  const rows = readFileSync(out, 'utf8')
    .split('\n')
    .map((line) => /^([A-Z_]+),"?([A-Z]+)"?,"?([A-Z]+)"?,"?([^",]+)"?,"?([^",]*)"?,/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ issue: m[1], severity: m[2], confidence: m[3], file: m[4], location: m[5] }));
  const lines = readFileSync(out, 'utf8').trim().split('\n').length;
  if (lines > 1 && rows.length === 0) {
    console.error('electronegativity wrote findings this script could not read; refusing to pass blind.');
    process.exit(1);
  }
  const serious = rows.filter((r) => r.severity === 'HIGH' && (r.confidence === 'FIRM' || r.confidence === 'CERTAIN'));
  const unexplained = serious.filter((r) => !review.some((v) => v.issue === r.issue && v.file === r.file));
  console.log(
    `electronegativity: ${rows.length} finding(s), ${serious.length} high and firm, ${serious.length - unexplained.length} reviewed (build/security-review.json).`,
  );
  for (const r of rows) console.log(`  ${r.severity.padEnd(6)} ${r.confidence.padEnd(9)} ${r.issue} ${r.file}:${r.location}`);
  if (unexplained.length) {
    console.error(`\n${unexplained.length} high-severity finding(s) not reviewed:`);
    for (const r of unexplained) console.error(`  ${r.issue} at ${r.file}:${r.location}`);
    process.exit(1);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
