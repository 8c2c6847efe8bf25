// Export for mail tools on a real cache: presets, options, the formula guard
// (golden files), round trips through csv-parse and Python's csv module,
// do-not-contact, already pitched, mark-exported, split files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { Cache } from '../../electron/core/store/cache';
import { CONTACT_COLUMNS, OPPORTUNITY_COLUMNS, cell, writeExportFile, previewExport, splitName } from '../../electron/core/export/csv-export';
import { tempDir } from '../support/tmp';
import { act, detail, list, setTriage, setTriageMany, triageOf } from '../support/store';
import { resetDraft, saveDraft } from '../../electron/core/store/drafts';
import { confirmExportSent } from '../../electron/core/export/confirm-sent';

const tmp = tempDir();
const B = '1749113348709x432280934699237400';
let cache: Cache;
const GOLDEN = 'test/fixtures/golden';
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const base = {
  opportunity_type: 'low-hanging-fruit',
  status: 'New',
  archived: false,
  difficulty: 'Easy',
  pitch_subject: 'Quick idea for your roundup',
  pitch_body: 'Hi Ana,\n\nLine two, with "quotes", commas; and semicolons.\r\nBest,\nSam',
  last_seen_date: '2026-11-01T10:00:00Z',
};
const records = [
  {
    ...base,
    _id: 'o1',
    domain: 'wired.com',
    url: 'https://wired.com/a',
    title: 'Best espresso',
    priority_score: 90,
    fit_score: 70,
    author_name: 'Ana María Souza',
    contact_emails: ['ana@wired.com', 'tips@wired.com CATCH', 'n/a'],
  },
  {
    ...base,
    _id: 'o2',
    domain: 'evil.example',
    url: 'https://evil.example/x',
    title: '=HYPERLINK("http://x","y")',
    priority_score: 80,
    fit_score: 10,
    author_name: null,
    pitch_subject: '+SUM(A1)',
    pitch_body: '\n-2+3 @home\ttab',
    contact_emails: ['ANA@wired.com', 'bob@evil.example'],
  },
  {
    ...base,
    _id: 'o3',
    domain: 'theverge.com',
    url: 'https://theverge.com/c',
    title: 'مرحبا 👋 émoji',
    priority_score: 50,
    fit_score: 99,
    author_name: 'Prince',
    pitch_subject: '',
    pitch_body: 'Hi [Name], {{first_name}}',
    contact_emails: ['editor@theverge.com CATCH'],
  },
  {
    ...base,
    _id: 'o4',
    domain: 'blocked.org',
    title: 'Blocked domain',
    priority_score: 40,
    author_name: 'X Y',
    contact_emails: ['a@blocked.org', 'b@news.blocked.org'],
  },
  { ...base, _id: 'o5', domain: 'nobody.com', title: 'No contacts', priority_score: 30, contact_emails: [] },
];

beforeAll(async () => {
  cache = await Cache.open(join(tmp.dir, 'export.db'));
  cache.brands.replaceAll([{ id: B, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
  cache.tx(() => cache.opportunities.upsertPage(B, records, 1, '2026-11-01T00:00:00Z'));
  cache.doNotContact.add('blocked.org');
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

function readCsv(path: string, delimiter = ',') {
  const text = readFileSync(path, 'utf8');
  return parse(text.replace(/^\uFEFF/, ''), { columns: true, delimiter, relax_column_count: false, record_delimiter: '\r\n' }) as Record<string, string>[];
}

function golden(name: string, path: string) {
  const got = readFileSync(path);
  const file = join(GOLDEN, name);
  if (UPDATE) writeFileSync(file, got);
  // A missing golden file fails (it is written only with UPDATE_GOLDEN=1), so a renamed or deleted one cannot pass silently.
  if (!existsSync(file)) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 to write it, then read it`);
  expect(got.equals(readFileSync(file)), `${name} differs from its golden file (UPDATE_GOLDEN=1 to accept)`).toBe(true);
}

describe('contacts preset', () => {
  it('one row per distinct address, highest priority wins; invalid and do-not-contact never exported; golden file', async () => {
    const out = join(tmp.dir, 'contacts.csv');
    const r = await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      unfilled: 'keep',
      mailText: 'guard',
      out,
      now: () => new Date('2026-11-02T00:00:00Z'),
    });
    golden('contacts.csv', out);
    const rows = readCsv(out);
    expect(Object.keys(rows[0]!)).toEqual([...CONTACT_COLUMNS]);
    expect(rows.map((x) => x.email)).toEqual(['ana@wired.com', 'tips@wired.com', 'bob@evil.example', 'editor@theverge.com']);
    expect(r.rows).toBe(4);
    const ana = rows[0]!;
    expect(ana).toMatchObject({
      catch_all: 'false',
      name: 'Ana María Souza',
      first_name: 'Ana',
      last_name: 'María Souza',
      opportunity_id: 'o1',
      brand: 'Northwind Coffee',
      priority_score: '90',
    });
    expect(ana.pitch_body).toBe(base.pitch_body);
    expect(rows[1]).toMatchObject({ email: 'tips@wired.com', catch_all: 'true' });
    const bob = rows[2]!;
    expect(bob).toMatchObject({
      name: '',
      first_name: '',
      last_name: '',
      title: `'=HYPERLINK("http://x","y")`,
      pitch_subject: "'+SUM(A1)",
      pitch_body: "'\n-2+3 @home\ttab",
    });
    // A catch-all address: the author's name stays in `name`, but no first name is put to an inbox that may not be theirs.
    expect(rows[3]).toMatchObject({ name: 'Prince', first_name: '', last_name: '' });
    const bytes = readFileSync(out, 'utf8');
    expect(bytes.split('\r\n')[0]).toBe(CONTACT_COLUMNS.join(','));
    expect(bytes.endsWith('\r\n')).toBe(true);
    expect(r.check).toMatchObject({ emptySubject: 1, placeholders: 1, unfilled: ['[Name]', '{{first_name}}'], catchAll: 2 });
    expect(r.warnings).toContain('1 row with a merge field or placeholder not filled in the pitch: [Name], {{first_name}}');
  });

  it('per (opportunity, address) pair keeps the same address under each opportunity', async () => {
    const out = join(tmp.dir, 'pairs.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, perPair: true });
    const rows = readCsv(out);
    expect(rows.filter((x) => x.email!.toLowerCase() === 'ana@wired.com').map((x) => x.opportunity_id)).toEqual(['o1', 'o2']);
  });

  it('catch-all only and excluded', async () => {
    const only = join(tmp.dir, 'only.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: only, onlyCatchAll: true });
    expect(readCsv(only).map((x) => x.email)).toEqual(['tips@wired.com', 'editor@theverge.com']);
    const none = join(tmp.dir, 'none.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: none, excludeCatchAll: true });
    expect(readCsv(none).every((x) => x.catch_all === 'false')).toBe(true);
    await expect(
      writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: none, excludeCatchAll: true, onlyCatchAll: true }),
    ).rejects.toThrow(/either/);
  });

  it('raw turns the formula guard off, with a warning; golden file', async () => {
    const out = join(tmp.dir, 'raw.csv');
    const r = await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, raw: true });
    golden('contacts-raw.csv', out);
    expect(readCsv(out)[2]!.title).toBe('=HYPERLINK("http://x","y")');
    expect(r.warnings.join(' ')).toContain('Formula guard off');
  });

  it('BOM, semicolon and tab delimiters, flattened newlines; golden file', async () => {
    const out = join(tmp.dir, 'excel.csv');
    await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      unfilled: 'keep',
      mailText: 'guard',
      out,
      bom: true,
      delimiter: ';',
      flattenNewlines: true,
    });
    golden('contacts-excel.csv', out);
    expect(
      readFileSync(out)
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    ).toBe(true);
    const rows = readCsv(out, ';');
    expect(rows[0]!.pitch_body).toBe('Hi Ana, Line two, with "quotes", commas; and semicolons. Best, Sam');
    expect(rows[2]!.pitch_body).toBe('-2+3 @home\ttab'.replace(/^/, "'"));
    const tsv = join(tmp.dir, 'tabs.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: tsv, delimiter: '\t' });
    expect(readCsv(tsv, '\t')).toHaveLength(4);
  });
});

describe('opportunities preset', () => {
  it('one row per opportunity with every scalar field, addresses joined, and the local triage', async () => {
    setTriage(cache, B, 'o3', { stage: 'Drafted', note: 'call first', contacted_at: '2026-10-30' });
    const out = join(tmp.dir, 'opps.csv');
    await writeExportFile(cache, { brandId: B, preset: 'opportunities', out });
    const rows = readCsv(out);
    expect(Object.keys(rows[0]!)).toEqual([...OPPORTUNITY_COLUMNS]);
    expect(rows.map((x) => x._id)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(rows[0]).toMatchObject({ emails: 'ana@wired.com', catch_all_emails: 'tips@wired.com', server_status: 'New', status: 'New', archived: 'false' });
    // The user's triage is the stage; Trakkr's status stays the service's.
    expect(rows[2]).toMatchObject({ stage: 'Drafted', status: 'New', server_status: 'New', note: 'call first', contacted_at: '2026-10-30' });
    expect(rows[3]).toMatchObject({ emails: '', title: 'Blocked domain' });
    setTriage(cache, B, 'o3', { stage: null, contacted_at: null, note: '' });
  });

  it('a value missing or null is an empty cell; numbers and booleans as written; a list or an object where text was expected as its JSON', async () => {
    const own = await Cache.open(join(tmp.dir, 'values.db'));
    try {
      own.brands.replaceAll([{ id: B, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
      const record = {
        ...records[0]!,
        _id: 'v1',
        author_name: null,
        fit_score: 7.5,
        archived: true,
        gap_analysis: { why: 'a "gap"' },
        why_relevant: ['x', 'y'],
      };
      delete (record as Record<string, unknown>).language;
      // The wrong types on purpose (an object and a list where the spec says text), as a server may send them.
      const page = [record] as unknown as Parameters<typeof own.opportunities.upsertPage>[1];
      own.tx(() => own.opportunities.upsertPage(B, page, 1, '2026-11-01T00:00:00Z'));
      const out = join(tmp.dir, 'values.csv');
      await writeExportFile(own, { brandId: B, preset: 'opportunities', out, filter: { includeArchived: true } });
      const [row] = readCsv(out);
      expect(row).toMatchObject({
        _id: 'v1',
        author_name: '',
        language: '',
        contacted_at: '',
        stage_reason: '',
        fit_score: '7.5',
        priority_score: '90',
        archived: 'true',
        gap_analysis: '{"why":"a \\"gap\\""}',
        why_relevant: '["x","y"]',
      });
    } finally {
      own.close();
    }
  });
});

describe('never pitching the same person twice', () => {
  it('already pitched shows on every opportunity sharing an address written to; skip-contacted leaves those out; an export counts once confirmed sent', async () => {
    expect(list(cache, { brandId: B }).every((o) => o.pitched_at === null)).toBe(true);
    act(cache, B, ['o1'], { do: 'contacted', on: '2026-11-05' }, '2026-11-05');
    // Marked contacted without naming the addresses: the pre-selected one is recorded (the person, not the catch-all tips@).
    expect(triageOf(cache, B, 'o1').contacted_addresses).toEqual(['ana@wired.com']);
    const o2 = detail(cache, B, 'o2')!;
    expect(list(cache, { brandId: B, alreadyPitched: true }).map((o) => [o.id, o.pitched_at])).toEqual([
      ['o1', '2026-11-05'],
      ['o2', '2026-11-05'],
    ]);
    expect(o2.item.pitched_at).toBe('2026-11-05');
    const out = join(tmp.dir, 'skip.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, skipContacted: true });
    // tips@wired.com was never written to: it is not "already contacted".
    expect(readCsv(out).map((x) => x.email)).toEqual(['tips@wired.com', 'bob@evil.example', 'editor@theverge.com']);

    const marked = join(tmp.dir, 'marked.csv');
    const r = await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      unfilled: 'keep',
      mailText: 'guard',
      out: marked,
      skipContacted: true,
      markExported: true,
      now: () => new Date('2026-11-06T09:00:00Z'),
    });
    expect(r.markedExported).toBe(3);
    expect(r.carried).toBe(3);
    expect(detail(cache, B, 'o3')!.triage.exported_at).toBe('2026-11-06T09:00:00.000Z');
    // Exported is not contacted: the next export still carries them, and nothing shows as pitched because of it...
    const again = join(tmp.dir, 'again.csv');
    expect((await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: again, skipContacted: true })).rows).toBe(
      3,
    );
    expect(detail(cache, B, 'o3')!.item.pitched_at).toBeNull();
    // ...until the person says the export was sent: its addresses are then contacted.
    expect(confirmExportSent(cache, r.exportId, '2026-11-07')).toMatchObject({ updated: 3, addresses: 3, alreadySent: null });
    expect(triageOf(cache, B, 'o3')).toMatchObject({ contacted_at: '2026-11-07', contacted_addresses: ['editor@theverge.com'], stage: 'Contacted' });
    expect(confirmExportSent(cache, r.exportId, '2026-11-08')).toMatchObject({ updated: 0, alreadySent: expect.any(String) });
    const r2 = await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out: again, skipContacted: true });
    expect(r2.rows).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(CONTACT_COLUMNS.join(',') + '\r\n');
    expect(r2.warnings).toContain('Nothing to export under these filters.');
    setTriageMany(cache, B, ['o1', 'o2', 'o3'], { contacted_at: null, exported_at: null, contacted_addresses: null, contacted_subject: null, stage: null });
  });

  it('flags, by name, every token the editor flags as unfilled, in any spelling (a draft for a catch-all inbox)', async () => {
    const body = "Hi {First_Name}, {firstName} {{ First Name }}: about [Journalist's Name] and [Article 2 Title]. {brand}";
    const save = (text: { subject: string; body: string }) => cache.writable.transaction(() => saveDraft(cache.writable, B, 'o3', 'pitch', text, null));
    save({ subject: 'For {publication}', body });
    try {
      const check = await previewExport(cache, { brandId: B, preset: 'contacts' });
      // The editor's own reading of the same text, filled for the same inbox: what stays is what the export must name.
      expect(check.unfilled).toEqual(['{First_Name}', '{firstName}', '{{ First Name }}', "[Journalist's Name]", '[Article 2 Title]']);
      expect(check.placeholders).toBe(1);
      expect(check.warnings.join(' ')).toContain("[Journalist's Name]");
      expect(check.warnings.join(' ')).not.toContain('more');
      // More distinct ones than the warning names: it says how many it left out.
      save({ subject: '{a1} {a2} {a3} {a4}', body: '{a5} {a6} {a7} {a8} {a9} {a10} {a11}' });
      const many = await previewExport(cache, { brandId: B, preset: 'contacts' });
      expect(many.unfilled).toHaveLength(8);
      expect(many.warnings).toContain(
        '1 row with a merge field or placeholder not filled in the pitch: {a1}, {a2}, {a3}, {a4}, {a5}, {a6}, {a7}, {a8}, and 3 more',
      );
    } finally {
      cache.writable.transaction(() => resetDraft(cache.writable, B, 'o3', 'pitch'));
    }
  });

  it('the do-not-contact list: addresses and domains (with subdomains), flagged in the list, and the preview counts the addresses it left out', async () => {
    expect(detail(cache, B, 'o4')!.item.do_not_contact_count).toBe(2);
    expect((await previewExport(cache, { brandId: B, preset: 'contacts' })).doNotContact).toBe(2);
    cache.doNotContact.add('BOB@evil.example');
    expect(detail(cache, B, 'o2')!.item.do_not_contact_count).toBe(1);
    expect((await previewExport(cache, { brandId: B, preset: 'contacts' })).rows).toBe(3);
    // Each address once, under the export's filter, whatever the rows are: a@ and b@ (the blocked domain, a subdomain too) and Bob.
    expect((await previewExport(cache, { brandId: B, preset: 'contacts' })).doNotContact).toBe(3);
    expect((await previewExport(cache, { brandId: B, preset: 'opportunities' })).doNotContact).toBe(3);
    expect((await previewExport(cache, { brandId: B, preset: 'contacts', filter: { domain: 'blocked.org' } })).doNotContact).toBe(2);
    expect((await previewExport(cache, { brandId: B, preset: 'contacts', onlyCatchAll: true })).doNotContact).toBe(0);
    expect(cache.doNotContact.remove('bob@evil.example')).toBe(true);
    expect(cache.doNotContact.list().map((d) => [d.kind, d.value])).toEqual([['domain', 'blocked.org']]);
    expect(() => cache.doNotContact.add('not an address')).toThrow(/neither an e-mail address nor a domain/);
  });
});

describe('files', () => {
  it('max rows with split writes numbered parts, each with a header; without split it stops and says so', async () => {
    const out = join(tmp.dir, 'split', 'batch.csv');
    execFileSync('mkdir', ['-p', join(tmp.dir, 'split')]);
    const r = await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, maxRows: 3, split: true });
    expect(r.files.map((f) => f.split('/').pop())).toEqual(['batch-1.csv', 'batch-2.csv']);
    expect(readCsv(r.files[0]!)).toHaveLength(3);
    expect(readCsv(r.files[1]!)).toHaveLength(1);
    expect(readdirSync(join(tmp.dir, 'split')).sort()).toEqual(['batch-1.csv', 'batch-2.csv']);
    const cut = await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      unfilled: 'keep',
      mailText: 'guard',
      out: join(tmp.dir, 'cut.csv'),
      maxRows: 2,
    });
    expect(cut).toMatchObject({ rows: 2, truncated: true });
    expect(cut.warnings.join(' ')).toContain('Stopped at 2 rows');
  });

  it('a failed export leaves no half-written file', async () => {
    const out = join(tmp.dir, 'nope', 'missing-dir', 'x.csv');
    await expect(writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out })).rejects.toThrow();
    expect(existsSync(out)).toBe(false);
  });

  it("Python's csv module reads the file exactly as csv-parse does", async () => {
    const out = join(tmp.dir, 'py.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, bom: true });
    const py = execFileSync(
      'python3',
      ['-c', 'import csv,json,sys\nwith open(sys.argv[1], newline="", encoding="utf-8-sig") as f: print(json.dumps(list(csv.DictReader(f))))', out],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(py)).toEqual(readCsv(out));
  });
});

describe('cells, properties', () => {
  const hostile = fc.string({
    unit: fc.oneof(
      fc.constantFrom('"', ',', ';', '\r', '\n', '\r\n', '\t', '=', '+', '-', '@', '👋', 'ש', 'ا', ' ', 'a', 'Z', '\u202e'),
      fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
    ),
  });

  it('any text round-trips through CSV, guarded exactly when it could run as a formula', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(hostile, hostile), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',', ';', '\t') as fc.Arbitrary<',' | ';' | '\t'>,
        async (pairs, delimiter) => {
          const c = await Cache.open(':memory:');
          const recs = pairs.map(([title, body], i) => ({
            _id: `r${i}`,
            title,
            pitch_body: body,
            priority_score: 100 - i,
            contact_emails: [`p${i}@example.com`],
          }));
          c.tx(() => c.opportunities.upsertPage(B, recs, 1, 'now'));
          const out = join(tmp.dir, `prop-${Math.random().toString(36).slice(2)}.csv`);
          await writeExportFile(c, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard', out, delimiter });
          const rows = readCsv(out, delimiter);
          expect(rows).toHaveLength(recs.length);
          rows.forEach((row, i) => {
            expect(row.title).toBe(cell(recs[i]!.title));
            expect(row.pitch_body).toBe(cell(recs[i]!.pitch_body));
            // A formula's start, or a look-alike a spreadsheet folds to one (its first character in Unicode's compatibility form).
            const t = recs[i]!.title;
            const guarded = t !== '' && /^[=+\-@\t\r\n\u2212]/.test(String.fromCodePoint(t.codePointAt(0)!).normalize('NFKC'));
            expect(row.title!.startsWith("'") && row.title!.slice(1) === recs[i]!.title).toBe(guarded);
            if (!guarded) expect(row.title).toBe(recs[i]!.title);
          });
          c.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('names split without inventing anything', () => {
    expect(splitName(null)).toEqual({ first: '', last: '' });
    expect(splitName('  Cher ')).toEqual({ first: 'Cher', last: '' });
    expect(splitName('Ana María Souza')).toEqual({ first: 'Ana', last: 'María Souza' });
  });
});
