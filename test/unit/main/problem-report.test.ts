// Help › "Report a problem…" (electron/main/problem-report.ts): one .zip with the versions, the last logs
// and the crash dumps, the API key taken out of all of it, read back by independent readers (Info-ZIP's
// unzip and Python's zipfile), and crash dumps that are never uploaded.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_REPORTER_OPTIONS, countCrashDumps, gatherReport, redactBytes, reportFileName, zipEntries } from '../../../electron/main/problem-report';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const KEY = `sk_live_${'Ab3'.repeat(10)}xy`;
const NOW = new Date('2026-11-24T10:20:30Z');

function sources() {
  const dir = join(tmp.dir, `case-${n++}`);
  const logsDir = join(dir, 'logs');
  const crashDumpsDir = join(dir, 'Crashpad');
  mkdirSync(logsDir, { recursive: true });
  mkdirSync(join(crashDumpsDir, 'completed'), { recursive: true });
  writeFileSync(join(logsDir, 'workbench.log'), `2026-11-24T10:00:00Z ERROR sync failed with ${KEY}\n2026-11-24T10:00:01Z INFO ok\n`);
  writeFileSync(join(logsDir, 'workbench.1.log'), 'older main lines\n');
  writeFileSync(join(logsDir, 'core.log'), `2026-11-24T10:00:02Z ERROR Bearer ${KEY} refused\n`);
  writeFileSync(join(logsDir, 'notes.txt'), 'not a log');
  const dump = Buffer.concat([Buffer.from([0x4d, 0x44, 0x4d, 0x50, 0, 1, 2, 3]), Buffer.from(`\0stack\0${KEY}\0more`, 'latin1'), Buffer.alloc(64, 7)]);
  writeFileSync(join(crashDumpsDir, 'completed', '5f1e-core.dmp'), dump);
  return {
    dir,
    dump,
    src: {
      appName: 'Outreach Workbench',
      appVersion: '1.4.2',
      versions: { electron: '45.4.1', chrome: '142.0.0.0', node: '22.20.0', v8: '14.2' },
      os: { platform: 'linux', release: '6.8.0', arch: 'x64' },
      logsDir,
      crashDumpsDir,
      now: NOW,
    },
  };
}

describe('a problem report', () => {
  it('holds the versions, every log (not other files) and the crash dumps, as one zip that unzip and Python read', () => {
    const { dir, src, dump } = sources();
    const file = join(dir, reportFileName(NOW));
    writeFileSync(file, zipEntries(gatherReport(src), NOW));
    expect(reportFileName(NOW)).toBe('outreach-workbench-report-2026-11-24-10-20-30.zip');

    const test = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(test.status).toBe(0);
    expect(test.stdout).toContain('No errors detected');
    const listed = spawnSync(
      'python3',
      ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(z.namelist()))', file],
      {
        encoding: 'utf8',
      },
    );
    expect(listed.status).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual([
      'about.txt',
      'logs/core.log',
      'logs/workbench.1.log',
      'logs/workbench.log',
      'crash-dumps/completed/5f1e-core.dmp',
    ]);

    const read = (name: string) => spawnSync('unzip', ['-p', file, name]).stdout as Buffer;
    expect(read('about.txt').toString()).toContain(
      'Outreach Workbench 1.4.2\nElectron 45.4.1, Chromium 142.0.0.0, Node 22.20.0, V8 14.2\nSystem: linux 6.8.0 (x64)',
    );
    expect(read('logs/workbench.1.log').toString()).toBe('older main lines\n');
    const dumpBack = read('crash-dumps/completed/5f1e-core.dmp');
    expect(dumpBack.length).toBe(dump.length); // same size: the dump's offsets still hold
    expect(dumpBack.subarray(0, 8)).toEqual(dump.subarray(0, 8));
  });

  it('never holds the API key: not in a log, not in a crash dump', () => {
    const { dir, src } = sources();
    const file = join(dir, 'report.zip');
    writeFileSync(file, zipEntries(gatherReport(src), NOW));
    const everything = spawnSync('unzip', ['-p', file]).stdout as Buffer;
    expect(everything.toString('latin1')).not.toContain(KEY.slice(8));
    expect(everything.toString('latin1')).toContain('sync failed with sk_live_[redacted]');
    expect(everything.toString('latin1')).toContain('Bearer sk_live_[redacted] refused');
    expect(readFileSync(join(src.logsDir, 'workbench.log'), 'utf8')).toContain(KEY); // the log itself is left as it is
  });

  it('works with no logs and no dumps yet (a report of the versions alone)', () => {
    const entries = gatherReport({ ...sources().src, logsDir: join(tmp.dir, 'none'), crashDumpsDir: join(tmp.dir, 'none') });
    expect(entries.map((e) => e.name)).toEqual(['about.txt']);
    expect(countCrashDumps(join(tmp.dir, 'none'))).toBe(0);
  });

  it('never holds a key a crashed renderer held as a two-byte (UTF-16) string: read back by unzip, same size', () => {
    const { dir, src } = sources();
    // A minidump's memory region with the key as Blink holds a typed string: UTF-16LE, between other strings.
    const dump = Buffer.concat([
      Buffer.from([0x4d, 0x44, 0x4d, 0x50, 0, 1, 2, 3]),
      Buffer.from('value of <input type=password>: ', 'utf16le'),
      Buffer.from(KEY, 'utf16le'),
      Buffer.from('\0renderer', 'utf16le'),
    ]);
    writeFileSync(join(src.crashDumpsDir, 'completed', '77aa-renderer.dmp'), dump);
    const file = join(dir, 'report.zip');
    writeFileSync(file, zipEntries(gatherReport(src), NOW));
    const back = spawnSync('unzip', ['-p', file, 'crash-dumps/completed/77aa-renderer.dmp']).stdout as Buffer;
    expect(back.length).toBe(dump.length);
    expect(back.toString('utf16le', 8)).not.toContain(KEY.slice(8));
    expect(back.toString('utf16le', 8)).toContain(`value of <input type=password>: sk_live_[redacted]${'-'.repeat(KEY.length - 18)}\0renderer`);
    const everything = (spawnSync('unzip', ['-p', file]).stdout as Buffer).toString('latin1');
    expect(everything).not.toContain(Buffer.from(KEY.slice(8), 'utf16le').toString('latin1'));
  });

  it('redacts a key in bytes in place, and leaves bytes without one untouched', () => {
    const clean = Buffer.from([1, 2, 3, 0, 255]);
    expect(redactBytes(clean)).toBe(clean);
    const withKey = Buffer.from(`xx${KEY}yy`, 'latin1');
    const out = redactBytes(withKey);
    expect(out.length).toBe(withKey.length);
    expect(out.toString('latin1')).toMatch(/^xxsk_live_\[redacted\]-+yy$/);
  });
});

describe('crash dumps', () => {
  it('are kept on this computer: crashReporter is started with uploading off', () => {
    expect(CRASH_REPORTER_OPTIONS.uploadToServer).toBe(false);
    expect(CRASH_REPORTER_OPTIONS).not.toHaveProperty('submitURL');
  });

  it('are counted for the dialog', () => {
    const { src } = sources();
    expect(countCrashDumps(src.crashDumpsDir)).toBe(1);
  });
});
