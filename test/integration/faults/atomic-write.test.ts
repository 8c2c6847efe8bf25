// The one writer of a user's file (electron/core/files/atomic-write.ts) on
// its own, against a disk that writes short, fills up, is read-only, or
// fails the rename: the file under its name is whole or untouched, never half
// written, and no temporary part is left beside it. And the clean-up of what
// killed writers left: only this app's temporary files, by name and age.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, fdatasyncSync, fstatSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WorkbenchError } from '../../../shared/errors';
import { commitPartial, endFile, FileStream, partialName, removeStalePartials, writeFileAtomic } from '../../../electron/core/files/atomic-write';
import { realFileOps, useFileOps, type FileOps } from '../../../electron/core/files/file-ops';
import { errno, withFaults } from '../../support/faulty-files';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
const folder = () => {
  const dir = join(tmp.dir, `case-${++n}`);
  mkdirSync(dir);
  return dir;
};
const bytes = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => 'abcdefghij'[i % 10]).join(''));

async function failure(fn: () => unknown): Promise<WorkbenchError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(WorkbenchError);
    return e as WorkbenchError;
  }
  throw new Error('it did not fail');
}

describe('writeFileAtomic', () => {
  it('writes every byte when the disk takes a few at a time', async () => {
    const path = join(folder(), 'record.json');
    const data = bytes(100_000);
    await withFaults({ shortWrites: 7 }, (ops) => {
      writeFileAtomic(path, data);
      // The loop really met short writes: thousands of them.
      expect(ops.shortCount).toBeGreaterThan(1000);
    });
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(readdirSync(join(path, '..'))).toEqual(['record.json']);
  });

  it.each([
    ['ENOSPC', 'disk-full', /The disk is full: free some space and try again\./],
    ['EDQUOT', 'disk-full', /The disk is full/],
    ['EIO', 'io-error', /The disk may be failing or disconnected/],
  ] as const)('a disk that fails with %s midway: %s named with the file; the old file stays as it was, no part is left', async (code, kind, next) => {
    const dir = folder();
    const path = join(dir, 'list.csv');
    writeFileSync(path, 'the previous list\n');
    const e = await withFaults({ fullAtByte: 30_000, code }, () => failure(() => writeFileAtomic(path, bytes(100_000), { what: 'The do-not-contact list' })));
    expect(e.kind).toBe(kind);
    expect(e.message).toContain(`The do-not-contact list could not be written to ${path} (${code}).`);
    expect(e.message).toMatch(next);
    expect(readFileSync(path, 'utf8')).toBe('the previous list\n');
    expect(readdirSync(dir)).toEqual(['list.csv']);
  });

  it('a read-only disk: read-only, naming the folder; nothing is created', async () => {
    const dir = folder();
    const path = join(dir, 'record.json');
    const e = await withFaults({ failOpen: 'EROFS' }, () => failure(() => writeFileAtomic(path, 'x', { what: 'Your record' })));
    expect(e.kind).toBe('read-only');
    expect(e.message).toContain(`Your record could not be written to ${path} (EROFS). The disk or folder (${dir}) is read-only: choose a writable folder.`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a disk that takes every byte but fails the flush or the rename: failure, the part removed, nothing under the name', async () => {
    for (const faults of [{ failFsync: 'EIO' as const }, { failRename: 'EIO' as const }]) {
      const dir = folder();
      const path = join(dir, 'settings.json');
      const e = await withFaults(faults, () => failure(() => writeFileAtomic(path, bytes(5000))));
      expect(e.kind).toBe('io-error');
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});

describe('FileStream (exports)', () => {
  it('writes every byte of every chunk through short writes, flushed before finish', async () => {
    const dir = folder();
    const final = join(dir, 'export.csv');
    const chunks = [bytes(70_000), bytes(3), bytes(300_000)];
    await withFaults({ shortWrites: 4096 }, async () => {
      const part = partialName(final);
      const file = new FileStream(part, 'The export');
      for (const c of chunks) if (!file.write(c)) await new Promise((r) => file.once('drain', r));
      await new Promise<void>((resolve, reject) => file.end((e?: Error | null) => (e ? reject(e) : resolve())));
      expect(file.bytesWritten).toBe(370_003);
      commitPartial(part, final, 'The export');
    });
    expect(readFileSync(final).equals(Buffer.concat(chunks))).toBe(true);
    expect(readdirSync(dir)).toEqual(['export.csv']);
  });

  it('a disk that fills up midway fails the stream with disk-full naming the export, not its temporary name', async () => {
    const dir = folder();
    const final = join(dir, 'export.csv');
    const e = await withFaults({ fullAtByte: 100_000 }, async () => {
      const file = new FileStream(partialName(final), 'The export');
      const source = async function* () {
        for (let i = 0; i < 10; i++) yield bytes(50_000);
      };
      return pipeline(source, file).then(
        () => null,
        (err: unknown) => err,
      );
    });
    expect(e).toMatchObject({ kind: 'disk-full', message: expect.stringContaining(`The export could not be written to ${final} (ENOSPC)`) });
    expect(existsSync(final)).toBe(false);
  });
  it('a stream stopped while the disk is still writing a chunk closes its file only once that write is back, then the part can be removed', async () => {
    const dir = folder();
    const part = partialName(join(dir, 'export.csv'));
    const held: { fd: number; go: () => void }[] = [];
    useFileOps({ ...realFileOps, write: (fd, b, o, l, done) => held.push({ fd, go: () => realFileOps.write(fd, b, o, l, done) }) });
    try {
      const file = new FileStream(part, 'The export');
      let closed = false;
      file.on('close', () => (closed = true));
      file.write(bytes(70_000));
      await new Promise((r) => setImmediate(r));
      expect(held.length).toBe(1);
      const fd = held[0]!.fd;
      file.destroy();
      await new Promise((r) => setImmediate(r));
      // Still open: closing it now would let the write land in whatever file takes the number next.
      expect(closed).toBe(false);
      expect(fstatSync(fd).isFile()).toBe(true);
      held[0]!.go();
      await new Promise((r) => file.once('close', r));
      expect(() => fstatSync(fd)).toThrow(/EBADF/);
      rmSync(part);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      useFileOps(null);
    }
  });
  it('a long stream is flushed behind its writes as it goes; a flush that fails fails the stream, naming the export, and the part can be removed', async () => {
    const dir = folder();
    const final = join(dir, 'export.csv');
    const chunks = Array.from({ length: 60 }, () => bytes(10_000));
    const write = async (flush: FileOps['flush']) => {
      useFileOps({ ...realFileOps, flush });
      try {
        const part = partialName(final);
        const file = new FileStream(part, 'The export', 100_000);
        const ended = pipeline(async function* () {
          yield* chunks;
        }, file).then(
          () => null,
          (e: unknown) => e,
        );
        return { part, error: await ended };
      } finally {
        useFileOps(null);
      }
    };
    let flushes = 0;
    // A flush the disk answers at once (done here, answered in the next turn): nothing but the interval keeps them apart.
    const whole = await write((fd, done) => {
      flushes++;
      fdatasyncSync(fd);
      setImmediate(done, null);
    });
    expect(whole.error).toBeNull();
    // Past 100,000 bytes at least once (how many more depends on when the disk answers: one flush is out at a time).
    expect(flushes).toBeGreaterThanOrEqual(1);
    // ...and never more than once an interval: 600,000 bytes, a flush at most every 100,000.
    expect(flushes).toBeLessThanOrEqual(Math.ceil(600_000 / 100_000));
    expect(readFileSync(whole.part).equals(Buffer.concat(chunks))).toBe(true);
    rmSync(whole.part);
    // The disk fails a flush behind the writes (the flush at the end would not): the stream fails all the same.
    const failed = await write((_fd, done) => process.nextTick(done, errno('EIO', 'fdatasync')));
    expect(failed.error).toMatchObject({ kind: 'io-error', message: expect.stringContaining(`The export could not be written to ${final} (EIO)`) });
    rmSync(failed.part);
    expect(readdirSync(dir)).toEqual([]);
  });

  /** A stream's part in a folder of its own, with every flush behind its writes held until `held[i]()`. */
  async function withHeldFlushes(fn: (part: string, dir: string, held: (() => void)[]) => Promise<void>): Promise<void> {
    const dir = folder();
    const held: (() => void)[] = [];
    useFileOps({ ...realFileOps, flush: (fd, done) => held.push(() => realFileOps.flush(fd, done)) });
    try {
      await fn(partialName(join(dir, 'export.csv')), dir, held);
    } finally {
      useFileOps(null);
    }
  }

  it('while a flush behind the writes is out, the writes go on; the end waits for it', () =>
    withHeldFlushes(async (part, _dir, held) => {
      const file = new FileStream(part, 'The export', 1000);
      const written = (b: Buffer) => new Promise<void>((r) => file.write(b, () => r()));
      await written(bytes(5000));
      expect(held.length).toBe(1);
      // The disk has not answered the flush: three more chunks are written all the same, and no second flush starts.
      for (let i = 0; i < 3; i++) await written(bytes(5000));
      expect(file.bytesWritten).toBe(20_000);
      expect(held.length).toBe(1);
      let ended = false;
      const ending = endFile(file).then(() => (ended = true));
      await new Promise((r) => setImmediate(r));
      expect(ended).toBe(false);
      held[0]!();
      await ending;
      expect(readFileSync(part).length).toBe(20_000);
      rmSync(part);
    }));

  it('a stream stopped while a flush behind its writes is out closes its file only once the flush is back', () =>
    withHeldFlushes(async (part, dir, held) => {
      const file = new FileStream(part, 'The export', 1000);
      let closed = false;
      file.on('close', () => (closed = true));
      await new Promise<void>((r) => file.write(bytes(5000), () => r()));
      expect(held.length).toBe(1);
      file.destroy();
      await new Promise((r) => setImmediate(r));
      expect(closed).toBe(false);
      held[0]!();
      await new Promise((r) => file.once('close', r));
      rmSync(part);
      expect(readdirSync(dir)).toEqual([]);
    }));
});

describe('the clean-up of what killed writers left', () => {
  /** A pid that is certainly not running: a child that has exited. */
  const deadPid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

  it('removes this app’s temporary files whose writer is gone once they are a minute old, and nothing else', () => {
    const dir = folder();
    const gone = deadPid();
    const now = Date.now();
    const files = {
      killedExport: `contacts.csv.partial-${gone}-0a1b2c3d`,
      killedExportAnyName: `list for Ana.txt.partial-${gone}-99aa00ff`,
      killedWorkbook: `list.xlsx.partial-${gone}`,
      killedRecord: `my-record.json.partial-${gone}`,
      killedBackup: `record-2026-01-01T00-00-00-000Z.json.gz.partial-${gone}-12345678`,
      killedUpgradeBackup: `workbench.db.v3.2026-01-01T00-00-00-000Z.bak.partial-${gone}-abcdef01`,
      oldSettings: `settings.json.tmp-${gone}`,
      justKilled: `other.csv.partial-${gone}-0a1b2c3d`,
      stillWriting: `mine.csv.partial-${process.pid}-0a1b2c3d`,
      notOurs: `photo.jpg.partial-${gone}`,
      anotherProgramsTmp: `notes.json.tmp-${gone}`,
      anotherProgramsText: `notes.txt.partial-${gone}`,
      userFile: 'contacts.csv',
    };
    for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x');
    const age = (name: string, ms: number) => utimesSync(join(dir, name), new Date(now - ms), new Date(now - ms));
    for (const k of Object.keys(files) as (keyof typeof files)[]) if (k !== 'justKilled') age(files[k], 5 * 60_000);
    age(files.justKilled, 10_000);
    const removed = removeStalePartials(dir, now);
    expect(removed.sort()).toEqual(
      [files.killedBackup, files.killedExport, files.killedExportAnyName, files.killedRecord, files.killedWorkbook, files.killedUpgradeBackup].sort(),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [files.justKilled, files.notOurs, files.oldSettings, files.anotherProgramsTmp, files.anotherProgramsText, files.stillWriting, files.userFile].sort(),
    );
    // The settings sweep their own: only settings.json's temporary files, its older `.tmp-<pid>` ones too.
    expect(removeStalePartials(dir, now, { of: 'settings.json' })).toEqual([files.oldSettings]);
    expect(readdirSync(dir)).toContain(files.anotherProgramsTmp);
  });

  it('each write has a temporary name of its own: two writes of one file at once in one process never share one', async () => {
    const dir = folder();
    const final = join(dir, 'record.json');
    const names = new Set(Array.from({ length: 50 }, () => partialName(final)));
    expect(names.size).toBe(50);
    for (const n of names) expect(n.startsWith(`${final}.partial-${process.pid}-`)).toBe(true);
    // Two streams to the same file, interleaved: each whole, the last to take the name wins, nothing left.
    const a = partialName(final);
    const b = partialName(final);
    const one = new FileStream(a, 'Your record');
    const two = new FileStream(b, 'Your record');
    for (let i = 0; i < 100; i++) {
      one.write(Buffer.from(`a${i}\n`));
      two.write(Buffer.from(`b${i}\n`));
    }
    await Promise.all([one, two].map((f) => new Promise<void>((resolve, reject) => f.end((e?: Error | null) => (e ? reject(e) : resolve())))));
    commitPartial(a, final, 'Your record');
    commitPartial(b, final, 'Your record');
    expect(readFileSync(final, 'utf8')).toBe(Array.from({ length: 100 }, (_, i) => `b${i}\n`).join(''));
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('removes any of them after a day, whatever its pid says (the pid may belong to another process by now)', () => {
    const dir = folder();
    const name = `contacts.csv.partial-${process.pid}-0a1b2c3d`;
    writeFileSync(join(dir, name), 'x');
    const now = Date.now();
    utimesSync(join(dir, name), new Date(now - 25 * 3_600_000), new Date(now - 25 * 3_600_000));
    expect(removeStalePartials(dir, now)).toEqual([name]);
  });

  it('a folder that cannot be read is left alone, without an error', () => {
    expect(removeStalePartials(join(tmp.dir, 'no-such-folder'))).toEqual([]);
  });
});
