// The locked Electron may not fall out of support silently: build/scripts/check-electron.mjs fails when its
// major is older than package.json's config.minElectronMajor, both as a function and as the script npm runs.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Verdict {
  ok: boolean;
  message: string;
}
interface CheckElectronModule {
  electronSupport(pkg: unknown, lock: unknown): Verdict;
  checkElectron(root: string): Verdict;
}

const script = resolve('build/scripts/check-electron.mjs');
// An .mjs module has no type declarations: import it by URL and state the shape used here.
const { electronSupport, checkElectron } = (await import(pathToFileURL(script).href)) as CheckElectronModule;

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const minimum: number = pkg.config.minElectronMajor;
const lockWith = (version: string | undefined) => ({
  packages: { '': {}, ...(version === undefined ? {} : { 'node_modules/electron': { version } }) },
});

function runScript(root: string) {
  const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

describe('the supported Electron check', () => {
  it('passes for the Electron this repository locks', () => {
    const locked: string = lock.packages['node_modules/electron'].version;
    expect(checkElectron(process.cwd())).toEqual({ ok: true, message: `Electron ${locked} (minimum major ${minimum}): supported.` });
  });

  it.each([
    ['an old major', '39.8.10', false],
    ['the major just below the minimum', `${minimum - 1}.9.9`, false],
    ['the minimum itself', `${minimum}.0.0`, true],
    ['a newer major, pre-release included', `${minimum + 1}.0.0-beta.3`, true],
  ])('%s (%s): supported is %s', (_what, version, ok) => {
    const verdict = electronSupport(pkg, lockWith(version));
    expect(verdict.ok).toBe(ok);
    if (!ok) expect(verdict.message).toContain(`Electron ${version} is locked, but the minimum supported major is ${minimum}`);
  });

  it('fails when the lock has no electron entry, or the version is unreadable', () => {
    expect(electronSupport(pkg, lockWith(undefined))).toMatchObject({ ok: false, message: expect.stringContaining('no entry for electron') });
    expect(electronSupport(pkg, {})).toMatchObject({ ok: false });
    expect(electronSupport(pkg, lockWith('latest'))).toMatchObject({ ok: false, message: expect.stringContaining('"latest"') });
  });

  it('fails when package.json has no usable minimum (it is written in one place only)', () => {
    const current = lockWith(`${minimum}.0.0`);
    for (const config of [undefined, {}, { minElectronMajor: '45' }, { minElectronMajor: 0 }, { minElectronMajor: 44.5 }]) {
      expect(electronSupport({ config }, current)).toMatchObject({ ok: false, message: expect.stringContaining('config.minElectronMajor') });
    }
  });

  describe('as the script npm runs', () => {
    it('prints one line and exits 0 for this repository', () => {
      const r = runScript(process.cwd());
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Electron \\d+\\.\\d+\\.\\d+\\S* \\(minimum major ${minimum}\\): supported\\.$`));
    });

    it('exits 1 with a plain message on copies whose lock pins an old Electron or none', () => {
      const dir = mkdtempSync(join(tmpdir(), 'workbench-electron-'));
      try {
        writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
        const old = structuredClone(lock);
        old.packages['node_modules/electron'].version = '39.8.10';
        writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(old));
        const r = runScript(dir);
        expect(r.status).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`Electron 39.8.10 is locked, but the minimum supported major is ${minimum}`);
        expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

        delete old.packages['node_modules/electron'];
        writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(old));
        expect(runScript(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('no entry for electron') });

        rmSync(join(dir, 'package-lock.json'));
        expect(runScript(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('Cannot read package-lock.json') });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
