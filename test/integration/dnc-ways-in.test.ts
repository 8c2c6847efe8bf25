// The do-not-contact list in one normal form whatever the way in (typed, a
// CSV from another program, a record file), so every entry is honoured by the
// next export; a CSV in UTF-16 is read, one in an encoding this app does not
// read is refused by name, never read as garbage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cache } from '../../electron/core/store/cache';
import { importDncCsv, previewDncCsv } from '../../electron/core/app/record';
import { previewExport } from '../../electron/core/export/csv-export';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';
import { BRAND, cacheWith } from '../support/export-cache';

const tmp = tempDir();
const B = BRAND;
let cache: Cache;
const db = join(tmp.dir, 'dnc.db');

const people = ['ana@wired.com', 'ben@kim.example', 'cat@tips.example', 'dee@dee.example', 'eve@eve.example', 'fay@fay.example', 'gus@gus.example'];
const records = people.map((email, i) => ({
  _id: `o${i}`,
  title: `T${i}`,
  domain: email.split('@')[1],
  priority_score: 100 - i,
  pitch_subject: 'S',
  pitch_body: 'B',
  contact_emails: [email],
}));

beforeAll(async () => {
  cache = await cacheWith(tmp.dir, 'dnc.db', records);
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

/** The addresses the next export writes. */
const exported = async () => (await previewExport(cache, { brandId: B, preset: 'contacts', unfilled: 'keep' })).rows;
const file = (name: string, bytes: Buffer) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  return path;
};
const utf16le = (text: string, bom = true) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};

/** The CSV the first test imports (the second builds on it: importing it again adds nothing, so each passes alone). */
const firstList = () =>
  importDncCsv(cache, file('list.csv', Buffer.from('ANA@Wired.COM\ncat@tips.example CATCH\nBen Kim <Ben@Kim.Example>\nmailto:dee@dee.example\n')));
/** A Windows-1252 CSV (refused). */
const latin1Csv = () => file('latin.csv', Buffer.from('Email\r\nzo\xeb@caf\xe9.example\r\n', 'latin1'));

describe('every way in gives the same normal form, honoured by the next export', () => {
  it("a CSV line in any case, with the API's ' CATCH' suffix, as \"Name <address>\" or a mailto: link, is read as the address", async () => {
    expect(await exported()).toBe(7);
    const p = firstList();
    expect(p).toMatchObject({ toAdd: 4, skipped: 0 });
    expect(cache.doNotContact.list().map((d) => d.value)).toEqual(['ana@wired.com', 'ben@kim.example', 'cat@tips.example', 'dee@dee.example']);
    expect(await exported()).toBe(3);
  });

  it('a record file holding mixed-case entries (as older versions wrote them): normalised on import, and honoured', async () => {
    firstList();
    const record = cache.record.read('0.1.0');
    record.do_not_contact.push(
      { kind: 'address', value: 'EVE@Eve.Example', note: '', added_at: '2026-11-01T00:00:00Z' },
      { kind: 'domain', value: 'FAY.example', note: '', added_at: '2026-11-01T00:00:00Z' },
    );
    cache.record.merge(record);
    expect(cache.doNotContact.list().map((d) => d.value)).toEqual(expect.arrayContaining(['eve@eve.example', 'fay.example']));
    expect(await exported()).toBe(1);
  });
});

describe('the CSV in the encoding it is in', () => {
  it('UTF-16 with a byte-order mark (little- and big-endian) and without one is read as text', () => {
    const text = 'Email\r\ngus@gus.example\r\nZoë@Café.example\r\n';
    for (const [name, bytes] of [
      ['le.csv', utf16le(text)],
      ['be.csv', utf16be(text)],
      ['le-nobom.csv', utf16le(text, false)],
    ] as const) {
      const p = previewDncCsv(cache, file(name, bytes));
      expect(p, name).toMatchObject({ rows: 3, toAdd: 1, skipped: 2 });
      expect(p.sample, name).toEqual([{ kind: 'address', value: 'gus@gus.example' }]);
    }
  });

  it('Windows-1252 and UTF-32 are refused, naming the encoding and the way out; nothing is added', () => {
    const before = cache.doNotContact.list().length;
    const latin = latin1Csv();
    expect(() => importDncCsv(cache, latin)).toThrow(/latin\.csv is not UTF-8 text \(it looks like Windows-1252.*Save it as "CSV UTF-8"/);
    const utf32 = file('wide.csv', Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]));
    expect(() => importDncCsv(cache, utf32)).toThrow(/wide\.csv is UTF-32 text/);
    expect(cache.doNotContact.list()).toHaveLength(before);
  });

  it('the CLI: a UTF-16 list imports; a Windows-1252 one exits 2 with the reason', async () => {
    const cli = (args: string[]) => runCli(args, { url: 'http://127.0.0.1:9', db });
    const ok = await cli(['dnc', 'import', file('cli.csv', utf16le('gus@gus.example\r\n'))]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('added 1');
    const bad = await cli(['dnc', 'import', latin1Csv()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not UTF-8 text');
  });
});
