// Every preset's file read back by programs the project does not write with:
// Python's csv module for CSV, openpyxl (and the workbook's own XML, read with
// Python's zipfile) for .xlsx, and LibreOffice headless where it is installed.
// Each cell is compared with what the cache's JSON says it must be (the
// expected values are written here from the records, not computed by the
// app's code): the headers each destination needs, one row per address,
// addresses with their domain lower-cased, mail text as written in a workbook
// and (by choice) for a tool that never runs formulas, the CSV guard on every
// cell that could run, dates as date cells, no formula cell anywhere, spaces
// and line breaks kept, a cell over 32,767 characters cut with a marker and
// named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Cache } from '../../electron/core/store/cache';
import { writeExportFile, MailTextChoiceNeeded, previewExport, type ExportOptions } from '../../electron/core/export/csv-export';
import { existsSync, readFileSync } from 'node:fs';
import { EXPORT_PRESETS, PRESETS, type ExportPreset } from '../../shared/export-presets';
import { openpyxlRead, pythonCsv, sofficeConvert, SOFFICE, xlsxPart, type XlsxRead } from '../support/readers';
import { tempDir } from '../support/tmp';
import { BRAND, cacheWith } from '../support/export-cache';
import { setTriage } from '../support/store';

const tmp = tempDir();
const B = BRAND;
let cache: Cache;

const LONG = 'x'.repeat(40_000);
const ACCENTED = `Long read: ${'é'.repeat(200)}`;
const base = { opportunity_type: 'low-hanging-fruit', status: 'New', archived: false, difficulty: 'Easy', fit_score: 50 };
const records = [
  {
    ...base,
    _id: 'r1',
    domain: 'baristamagazine.com',
    url: 'https://baristamagazine.com/espresso',
    title: 'Best espresso: -20% tricks',
    author_name: 'Sam García',
    priority_score: 90,
    pitch_subject: '-20% on espresso for your readers',
    pitch_body: 'Hi {first_name},\n\n  Indented line\r\nLast line\n',
    contact_emails: ['SAM.garcia@BARISTAMAGAZINE.COM', 'press@BaristaMagazine.com', 'sam.garcia@baristamagazine.com'],
    last_seen_date: '2026-11-01T10:00:00Z',
    'Created Date': '2026-10-01T08:30:00Z',
    'Modified Date': '2026-10-02T09:15:00Z',
  },
  {
    ...base,
    _id: 'r2',
    domain: 'evil.example',
    url: 'https://evil.example/x',
    title: '=HYPERLINK("http://x","y")',
    author_name: '+Plus Person',
    priority_score: 80,
    pitch_subject: '@here: a data point',
    pitch_body: '＝SUM(A1) full-width start',
    contact_emails: ['ana@EVIL.example'],
  },
  {
    ...base,
    _id: 'r3',
    domain: 'long.example',
    url: 'https://long.example/l',
    title: '\u2212Long minus-sign title',
    author_name: 'Lee Long',
    priority_score: 70,
    pitch_subject: ACCENTED,
    pitch_body: LONG,
    contact_emails: ['long@long.example'],
  },
  {
    ...base,
    _id: 'r4',
    domain: 'catch.example',
    url: 'https://catch.example/c',
    title: 'Catch',
    author_name: 'Cat Chall',
    priority_score: 60,
    pitch_subject: 'For the desk',
    pitch_body: 'Hi [Name], hello',
    contact_emails: ['tips@catch.example CATCH'],
  },
  {
    ...base,
    _id: 'r5',
    domain: 'cafe.example',
    url: 'https://cafe.example/z',
    title: 'Café ☕ مرحبا 👋',
    author_name: 'Zoë Café',
    priority_score: 50,
    pitch_subject: 'Tab\tsubject',
    pitch_body: 'Tab\there\r\nCRLF line',
    contact_emails: ['zoe@cafe.example'],
  },
];

/** One row per address, as the cache's JSON says it must go out (names only for a person, never for press@ or a catch-all). */
interface Person {
  email: string;
  first: string;
  last: string;
  full: string;
  publication: string;
  subject: string;
  body: string;
  title: string;
  url: string;
  id: string;
  /** 'true' for a catch-all inbox (the record's address marked ' CATCH'), else 'false'. */
  catchAll: string;
}
const person = (r: (typeof records)[number], email: string, names: [string, string] | null, body: string): Person => ({
  email,
  first: names?.[0] ?? '',
  last: names?.[1] ?? '',
  full: names ? r.author_name : '',
  publication: r.domain,
  subject: r.pitch_subject,
  body,
  title: r.title,
  url: r.url,
  id: r._id,
  catchAll: String(r.contact_emails.some((e) => e.endsWith(' CATCH') && e.slice(0, -' CATCH'.length).trim().toLowerCase() === email.toLowerCase())),
});
const [r1, r2, r3, r4, r5] = records as [(typeof records)[0], (typeof records)[1], (typeof records)[2], (typeof records)[3], (typeof records)[4]];
/** In priority order; the same address in another case is the same person, written once, domain lower-cased. */
const PEOPLE: Person[] = [
  person(r1, 'SAM.garcia@baristamagazine.com', ['Sam', 'García'], 'Hi Sam,\n\n  Indented line\r\nLast line\n'),
  person(r1, 'press@baristamagazine.com', null, r1.pitch_body),
  person(r2, 'ana@evil.example', ['+Plus', 'Person'], r2.pitch_body),
  person(r3, 'long@long.example', ['Lee', 'Long'], LONG),
  person(r4, 'tips@catch.example', null, r4.pitch_body),
  person(r5, 'zoe@cafe.example', ['Zoë', 'Café'], r5.pitch_body),
];

/** Each address preset's headers (its destination's names) and which part of a person each holds. */
const HEADERS: Record<Exclude<ExportPreset, 'contacts' | 'opportunities' | 'followups'>, [string, keyof Person][]> = {
  instantly: [
    ['email', 'email'],
    ['first_name', 'first'],
    ['last_name', 'last'],
    ['company_name', 'publication'],
    ['subject', 'subject'],
    ['personalization', 'body'],
    ['article_title', 'title'],
    ['article_url', 'url'],
    ['opportunity_id', 'id'],
    ['catch_all', 'catchAll'],
  ],
  lemlist: [
    ['email', 'email'],
    ['firstName', 'first'],
    ['lastName', 'last'],
    ['companyName', 'publication'],
    ['subject', 'subject'],
    ['icebreaker', 'body'],
    ['articleTitle', 'title'],
    ['articleUrl', 'url'],
    ['opportunityId', 'id'],
    ['catchAll', 'catchAll'],
  ],
  mailchimp: [
    ['Email Address', 'email'],
    ['First Name', 'first'],
    ['Last Name', 'last'],
    ['Company', 'publication'],
    ['Subject', 'subject'],
    ['Article Title', 'title'],
    ['Article URL', 'url'],
    ['Opportunity ID', 'id'],
    ['Catch-all', 'catchAll'],
  ],
  'sheets-merge': [
    ['Email', 'email'],
    ['First Name', 'first'],
    ['Last Name', 'last'],
    ['Full Name', 'full'],
    ['Publication', 'publication'],
    ['Subject', 'subject'],
    ['Body', 'body'],
    ['Article Title', 'title'],
    ['Article URL', 'url'],
    ['Opportunity ID', 'id'],
    ['Catch-all', 'catchAll'],
  ],
  'word-merge': [
    ['Email', 'email'],
    ['FirstName', 'first'],
    ['LastName', 'last'],
    ['FullName', 'full'],
    ['Publication', 'publication'],
    ['Subject', 'subject'],
    ['Body', 'body'],
    ['ArticleTitle', 'title'],
    ['ArticleURL', 'url'],
    ['OpportunityID', 'id'],
    ['CatchAll', 'catchAll'],
  ],
};
const CONTACTS: [string, keyof Person][] = [
  ['email', 'email'],
  ['catch_all', 'catchAll'],
  ['first_name', 'first'],
  ['last_name', 'last'],
  ['domain', 'publication'],
  ['url', 'url'],
  ['title', 'title'],
  ['subject', 'subject'],
  ['body', 'body'],
  ['opportunity_id', 'id'],
];

/** The rule the CSV guard follows (the README's): a first character that is = + - @ (or a full-width, small, super- or subscript form of one, or the minus sign), a tab, a CR or an LF. */
const RUNS = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B\u2212\u207A-\u207C\u208A-\u208C]/;
/** What the person sends (the names the mail greets, the subject, the body): the only cells "as written" ever applies to. */
const SENT: ReadonlySet<keyof Person> = new Set(['first', 'last', 'full', 'subject', 'body']);
/** The headers of a preset's columns that hold the service's text or anything else not sent (always guarded in a CSV). */
const notSent = (map: [string, keyof Person][]) => map.filter(([, k]) => !SENT.has(k)).map(([h]) => h);
const flat = (s: string) => s.replace(/\s*(\r\n|\r|\n)+\s*/g, ' ').trim();
const MAILCHIMP_BYTES = 255;

beforeAll(async () => {
  cache = await cacheWith(tmp.dir, 'readers.db', records);
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

async function exported(name: string, o: Omit<ExportOptions, 'brandId' | 'out'>) {
  const out = join(tmp.dir, name);
  const r = await writeExportFile(cache, { brandId: B, out, unfilled: 'keep', ...o });
  return { out, r };
}

/** Rows as objects by header, from records read by Python's csv. */
function byHeader(rows: string[][]): Record<string, string>[] {
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
}

describe('CSV, read by Python: every cell as the records say, guarded where it could run', () => {
  for (const preset of ['contacts', ...Object.keys(HEADERS)] as ExportPreset[]) {
    it(`${preset}: its headers, one row per address, and each cell; mail text never given an apostrophe unasked`, async () => {
      const info = PRESETS[preset];
      if (!info.neverEvaluates) {
        // A program that may run formulas: mail text starting like one needs a choice; nothing is written without it.
        const refused = join(tmp.dir, `${preset}-refused.csv`);
        const no = await writeExportFile(cache, { brandId: B, out: refused, unfilled: 'keep', preset, format: 'csv' }).catch((e: unknown) => e);
        expect(no).toBeInstanceOf(MailTextChoiceNeeded);
        expect((no as MailTextChoiceNeeded).check.mailGuardedCells.map((c) => c.email)).toContain('ana@evil.example');
        expect(existsSync(refused)).toBe(false);
      }
      // The tools that never run formulas take mail text as written by default; the others, the apostrophe when chosen.
      const { out, r } = await exported(`${preset}.csv`, { preset, format: 'csv', ...(info.neverEvaluates ? {} : { mailText: 'guard' as const }) });
      const rows = pythonCsv(out);
      // Word reads the encoding from a byte-order mark; the mail tools' uploads and the generic CSV go without one.
      expect(
        readFileSync(out)
          .subarray(0, 3)
          .equals(Buffer.from([0xef, 0xbb, 0xbf])),
        'byte-order mark',
      ).toBe(preset === 'word-merge');
      const map = preset === 'contacts' ? CONTACTS : HEADERS[preset as keyof typeof HEADERS];
      if (preset !== 'contacts') expect(rows[0]).toEqual(map.map(([h]) => h));
      const got = byHeader(rows);
      expect(got.map((x) => x[map[0]![0]])).toEqual(PEOPLE.map((p) => p.email));
      got.forEach((row, i) => {
        for (const [header, key] of map) {
          let want = PEOPLE[i]![key];
          if (info.oneLinePerRecord) want = flat(want);
          const cut = info.maxTextBytes && key !== 'email' && Buffer.byteLength(want) > info.maxTextBytes;
          if (cut) {
            // Cut on a character, with a visible end; never more than the tool keeps.
            expect(Buffer.byteLength(row[header]!), header).toBeLessThanOrEqual(MAILCHIMP_BYTES);
            expect(row[header]!.endsWith('…')).toBe(true);
            expect(want.startsWith(row[header]!.slice(0, -1))).toBe(true);
            continue;
          }
          const guarded = RUNS.test(want) && !(info.neverEvaluates && SENT.has(key));
          expect(row[header], `${preset} row ${i + 2} ${header}`).toBe(guarded ? `'${want}` : want);
        }
      });
      // Every mail cell that starts like a formula is named, with what was done.
      expect(r.check.mailGuarded).toBeGreaterThan(0);
      expect(r.check.mailGuardedCells.map((c) => c.email)).toContain('ana@evil.example');
      expect(r.warnings.join('\n')).toMatch(info.neverEvaluates ? /written as written for .*never runs formulas/ : /given an apostrophe, as chosen/);
      // The service's text that got the apostrophe is said too.
      expect(r.check.dataGuardedCells).toContainEqual(expect.objectContaining({ email: 'ana@evil.example', text: '=HYPERLINK("http://x","y")' }));
      if (info.maxTextBytes) expect(r.check.cutCells).toContainEqual(expect.objectContaining({ email: 'long@long.example', column: 'Subject' }));
      // A CSV keeps a 40,000-character body whole for the mail tool, and says a spreadsheet would cut it.
      if (map.some(([, k]) => k === 'body')) expect(r.check.overlongCells).toContainEqual(expect.objectContaining({ email: 'long@long.example' }));
    });
  }

  it("Instantly, lemlist, Mailchimp: mail text as written (those tools never run formulas); the service's text still guarded, checked cell by cell", async () => {
    for (const preset of ['instantly', 'lemlist', 'mailchimp'] as const) {
      for (const mailText of [undefined, 'as-written'] as const) {
        const { out } = await exported(`${preset}-as-written-${mailText}.csv`, { preset, ...(mailText ? { mailText } : {}) });
        const got = byHeader(pythonCsv(out));
        const [subject] = HEADERS[preset].find(([, k]) => k === 'subject')!;
        const [first] = HEADERS[preset].find(([, k]) => k === 'first')!;
        const [title] = HEADERS[preset].find(([, k]) => k === 'title')!;
        expect(got[2]![subject]).toBe('@here: a data point');
        expect(got[2]![first]).toBe('+Plus');
        expect(got[0]![subject]).toBe('-20% on espresso for your readers');
        // The page title comes from the service: "as written" never reaches it.
        expect(got[2]![title]).toBe('\'=HYPERLINK("http://x","y")');
        expect(got[3]![title]).toBe("'\u2212Long minus-sign title");
        // No cell outside what the person sends starts like a formula (read with this file's own rule, not the app's guard).
        for (const row of got) for (const h of notSent(HEADERS[preset])) expect(RUNS.test(row[h]!), `${preset} ${h}: ${row[h]}`).toBe(false);
      }
    }
    await expect(exported('sheets-as-written.csv', { preset: 'sheets-merge', format: 'csv', mailText: 'as-written' })).rejects.toThrow(/never runs formulas/);
  });

  it('Mailchimp: the 255-byte cut holds for a text field by its name, wherever the columns put it; never for the address', async () => {
    const { out, r } = await exported('mailchimp-columns.csv', { preset: 'mailchimp', columns: ['Subject', 'Email Address'] });
    const got = byHeader(pythonCsv(out));
    expect(pythonCsv(out)[0]).toEqual(['Subject', 'Email Address']);
    const long = got.find((x) => x['Email Address'] === 'long@long.example')!;
    expect(Buffer.byteLength(long.Subject!)).toBeLessThanOrEqual(MAILCHIMP_BYTES);
    expect(long.Subject!.endsWith('…')).toBe(true);
    expect(r.check.cutCells).toEqual([expect.objectContaining({ email: 'long@long.example', column: 'Subject' })]);
  });

  it('mail text that would start a formula: those rows left out on request, and named', async () => {
    const { out, r } = await exported('leave-out.csv', { preset: 'lemlist', mailText: 'leave-out' });
    const got = byHeader(pythonCsv(out));
    expect(got.map((x) => x.email)).toEqual(
      PEOPLE.map((p) => p.email).filter((e) => !e.startsWith('SAM') && e !== 'press@baristamagazine.com' && e !== 'ana@evil.example'),
    );
    expect(r.check.leftOut.formula).toBe(3);
    for (const x of got) for (const v of Object.values(x)) expect(RUNS.test(v), v).toBe(false);
  });
});

/** A workbook read by openpyxl and its XML: no formula and no formula-string cell. */
function workbook(out: string): XlsxRead {
  const book = openpyxlRead(out);
  expect(book.formulas).toBe(0);
  const xml = xlsxPart(out, 'xl/worksheets/sheet1.xml');
  expect(xml).not.toMatch(/<f[ >]/);
  expect(xml).not.toContain('t="str"');
  // Every text run keeps its spaces and line breaks: LibreOffice drops a leading space or a final line break without this.
  expect(xml.match(/<t[ >]/g)!.length).toBe(xml.match(/<t xml:space="preserve">/g)!.length);
  return book;
}
const text = (c: { v: unknown } | undefined) => (c?.v === null || c?.v === undefined ? '' : String(c.v));

describe('.xlsx, read by openpyxl: text as written, dates as dates, nothing that runs', () => {
  for (const preset of ['contacts', 'sheets-merge', 'word-merge'] as ExportPreset[]) {
    it(`${preset}: each cell as the records say, with no apostrophe; the header bold and frozen; links clickable`, async () => {
      const { out, r } = await exported(`${preset}.xlsx`, { preset, format: 'xlsx' });
      const book = workbook(out);
      expect(book.freeze).toBe('A2');
      const head = book.rows[0]!.map(text);
      expect(book.rows[0]!.every((c) => c.bold)).toBe(true);
      const map = preset === 'contacts' ? CONTACTS : HEADERS[preset as keyof typeof HEADERS];
      expect(book.rows.slice(1).map((row) => text(row[head.indexOf(map[0]![0])]))).toEqual(PEOPLE.map((p) => p.email));
      book.rows.slice(1).forEach((row, i) => {
        for (const [header, key] of map) {
          const c = row[head.indexOf(header)]!;
          const want = PEOPLE[i]![key];
          if (want.length > 32_767) {
            // Never written whole: cut with a marker that says how much, and the export named the row.
            expect(text(c).length).toBeLessThanOrEqual(32_767);
            expect(text(c)).toMatch(/^x{30000}x*… \[[\d,]+ more characters cut: a spreadsheet cell holds 32,767\]$/);
            expect(r.check.cutCells).toContainEqual(expect.objectContaining({ email: PEOPLE[i]!.email, column: header, row: i + 2 }));
            continue;
          }
          expect(text(c), `${preset} row ${i + 2} ${header}`).toBe(want);
          if (want) expect(c.t).toBe('s');
          if (key === 'url') expect(c.link).toBe(want);
        }
      });
      expect(r.check.mailGuarded).toBe(0);
    });
  }

  it('opportunities: every field of the JSON, the dates (last_seen_date too) as date cells, the whole numbers as numbers', async () => {
    setTriage(cache, B, 'r1', { note: '  two leading spaces\n', contacted_at: '2026-11-03' });
    const { out } = await exported('opportunities.xlsx', { preset: 'opportunities', format: 'xlsx' });
    const book = workbook(out);
    const head = book.rows[0]!.map(text);
    const row = (id: string) => book.rows.find((x) => text(x[head.indexOf('_id')]) === id)!;
    for (const rec of records) {
      const x = row(rec._id);
      for (const [key, value] of Object.entries(rec)) {
        if (Array.isArray(value)) continue;
        const c = x[head.indexOf(key)];
        expect(c, key).toBeDefined();
        if (key === 'last_seen_date' || key === 'Created Date' || key === 'Modified Date') {
          expect(c!.t, key).toBe('d');
          expect(`${c!.v}`.slice(0, 16)).toBe((value as string).slice(0, 16));
        } else if (typeof value === 'number') expect(c!.v, key).toBe(value);
        else if (typeof value === 'boolean') expect(c!.v, key).toBe(String(value));
        else if ((value as string).length > 32_767) expect(text(c)).toContain('more characters cut');
        else expect(text(c), key).toBe(value);
      }
    }
    expect(text(row('r1')[head.indexOf('note')])).toBe('  two leading spaces\n');
    expect(row('r1')[head.indexOf('contacted_at')]!).toMatchObject({ t: 'd', v: '2026-11-03T00:00:00' });
    setTriage(cache, B, 'r1', { note: '', contacted_at: null });
  });
});

describe('.xlsx: times as the person reads them, links Excel can follow', () => {
  it('date-times are the wall-clock time of the time zone the export runs in (a spreadsheet date has no zone); a link too long for Excel is text, and named', async () => {
    const zone = 'America/New_York';
    const before = process.env.TZ;
    const long = `https://long.example/${'a'.repeat(2_100)}`;
    const c = await cacheWith(tmp.dir, 'zones.db', [
      { ...base, _id: 'z1', domain: 'z.example', url: long, title: 'Z', author_name: 'Zed Zone', priority_score: 9, last_seen_date: '2026-07-01T02:30:00Z' },
      {
        ...base,
        _id: 'z2',
        domain: 'y.example',
        url: 'https://y.example/',
        title: 'Y',
        author_name: 'Y Y',
        priority_score: 8,
        last_seen_date: '2026-12-01T23:45:00Z',
      },
    ]);
    process.env.TZ = zone;
    try {
      const out = join(tmp.dir, 'zones.xlsx');
      const r = await writeExportFile(c, { brandId: B, out, preset: 'opportunities', format: 'xlsx' });
      const book = workbook(out);
      const head = book.rows[0]!.map(text);
      // The wall-clock time in that zone, worked out by Intl (not the writer's arithmetic), across a summer and a winter offset.
      const wall = (iso: string) =>
        new Intl.DateTimeFormat('sv-SE', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hour12: false,
        })
          .format(new Date(iso))
          .replace(' ', 'T');
      const seen = book.rows.slice(1).map((x) => x[head.indexOf('last_seen_date')]!);
      expect(seen.map((x) => x.t)).toEqual(['d', 'd']);
      expect(seen.map((x) => `${x.v}`.slice(0, 16))).toEqual([wall('2026-07-01T02:30:00Z'), wall('2026-12-01T23:45:00Z')]);
      const url = book.rows.slice(1).map((x) => x[head.indexOf('url')]!);
      expect(url.map((x) => [text(x), x.link])).toEqual([
        [long, null],
        ['https://y.example/', 'https://y.example/'],
      ]);
      expect(r.check.linksAsTextCells).toEqual([expect.objectContaining({ opportunity_id: 'z1', column: 'url', row: 2 })]);
      expect(r.warnings.join('\n')).toMatch(/1 link written as text, not clickable \(Excel follows links of up to 2,079 characters/);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
      c.close();
    }
  });
});

describe('LibreOffice headless, where installed', () => {
  it.skipIf(!SOFFICE)(
    'opens every CSV with formulas evaluated: none with the guard; "as written" runs only in what the person sends, never in the service\'s text; workbooks keep the text',
    async () => {
      for (const preset of EXPORT_PRESETS.filter((p) => PRESETS[p].formats.includes('csv') && p !== 'followups')) {
        const { out } = await exported(`lo-${preset}.csv`, { preset, format: 'csv', ...(PRESETS[preset].forMail ? { mailText: 'guard' as const } : {}) });
        const asBook = sofficeConvert(out, 'xlsx', 'CSV:44,34,76,1');
        expect(xlsxPart(asBook, 'xl/worksheets/sheet1.xml'), preset).not.toMatch(/<f[ >]/);
        expect(openpyxlRead(asBook).rows.length).toBe(pythonCsv(out).length);
      }
      // A tool that never runs formulas gets mail text as written; a person who double-clicks the file anyway runs at most that text,
      // never a title, an outlet, a link or an id from the service.
      const ranIn = async (preset: 'instantly' | 'lemlist' | 'mailchimp', raw: boolean) => {
        const { out } = await exported(`lo-${preset}-${raw ? 'raw' : 'as-written'}.csv`, { preset, raw });
        const book = openpyxlRead(sofficeConvert(out, 'xlsx', 'CSV:44,34,76,1'));
        const head = book.rows[0]!.map(text);
        // The headers of the cells LibreOffice ran as formulas, row by row (r2, whose title is a formula, is the file's row 4).
        return book.rows.map((row) => row.flatMap((c, i) => (c.t === 'f' ? [head[i]!] : [])));
      };
      for (const preset of ['instantly', 'lemlist', 'mailchimp'] as const) {
        const title = HEADERS[preset].find(([, k]) => k === 'title')![0];
        // The control: without any guard LibreOffice runs the title, so the reading below can see it.
        expect((await ranIn(preset, true))[3], preset).toContain(title);
        const ran = (await ranIn(preset, false)).flat();
        expect(
          ran.filter((h) => notSent(HEADERS[preset]).includes(h)),
          preset,
        ).toEqual([]);
      }
      for (const preset of ['contacts', 'sheets-merge'] as const) {
        const { out } = await exported(`lo-${preset}.xlsx`, { preset, format: 'xlsx' });
        const again = openpyxlRead(sofficeConvert(out, 'xlsx'));
        expect(again.formulas).toBe(0);
        const mine = openpyxlRead(out);
        // LibreOffice keeps leading spaces and trailing line breaks (xml:space="preserve"); line ends it may write as LF.
        expect(again.rows.map((r) => r.map((c) => text(c).replace(/\r\n/g, '\n')))).toEqual(mine.rows.map((r) => r.map((c) => text(c).replace(/\r\n/g, '\n'))));
      }
    },
    240_000,
  );
});

describe('the check is what the file holds', () => {
  it('the preview counts and names what the export then writes', async () => {
    const check = await previewExport(cache, { brandId: B, preset: 'contacts', unfilled: 'keep', mailText: 'guard' });
    const { r } = await exported('same.csv', { preset: 'contacts', mailText: 'guard' });
    expect({ ...check, warnings: [] }).toEqual({ ...r.check, warnings: [] });
    expect(pythonCsv(join(tmp.dir, 'same.csv')).length - 1).toBe(check.rows);
  });

  it("a refused export counts every row in the same pass: its check is the preview's", async () => {
    const check = await previewExport(cache, { brandId: B, preset: 'sheets-merge', format: 'csv', unfilled: 'keep' });
    expect(check.mailTextChoiceNeeded).toBe(true);
    const e = await writeExportFile(cache, { brandId: B, preset: 'sheets-merge', format: 'csv', unfilled: 'keep', out: join(tmp.dir, 'refused.csv') }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(MailTextChoiceNeeded);
    expect((e as MailTextChoiceNeeded).check).toEqual(check);
  });
});
