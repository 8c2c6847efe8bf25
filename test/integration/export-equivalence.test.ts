// The export's streamed path (records read from their blocks, the addresses
// of a batch in one read, records encoded straight into the writer's buffer)
// writes the bytes the row-by-row path makes of the same rows: each row the
// export decides (readyRows, with the check's guard) encoded by the plain RFC
// 4180 rule, on a varied cache (the simulator's data, pages that end inside
// blocks of records, titles and mail text that start like formulas, catch-all
// addresses, addresses and a domain on the do-not-contact list, drafts, a
// stage and a note). And each row's addresses are those the record lists,
// valid, not on the list, in its order, catch-alls apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { Cache } from '../../electron/core/store/cache';
import { writeExportFile } from '../../electron/core/export/csv-export';
import { chosenColumns, readyRows } from '../../electron/core/export/rows';
import { newCheck } from '../../electron/core/export/check';
import { presetHeaders } from '../../electron/core/export/presets';
import { buildOpportunity } from '../../electron/simulator/data';
import { parseContacts } from '../../shared/contacts';
import { saveDraft } from '../../electron/core/store/drafts';
import { setTriage } from '../support/store';
import { tempDir } from '../support/tmp';

const tmp = tempDir();
const B = '1749113348709x432280934699237400';
let cache: Cache;
let records: Record<string, unknown>[];

beforeAll(async () => {
  cache = await Cache.open(join(tmp.dir, 'equivalence.db'));
  cache.brands.replaceAll([{ id: B, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
  const opts = { seed: 31, opportunities: 700, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0, today: '2026-11-20' };
  records = Array.from({ length: 700 }, (_, i) => {
    const r = buildOpportunity(opts, { index: 0, name: 'Northwind Coffee' }, i, 1);
    // Every ninth: text that starts like a formula, in the service's fields and in the pitch.
    if (i % 9 === 0) Object.assign(r, { title: `=HYPERLINK("http://x.example","${i}")`, pitch_subject: `+${i} ideas`, pitch_body: `@team ${r.pitch_body}` });
    if (i % 11 === 0) r.contact_emails = [`Ana.${i}@Wired.com`, `tips@wired.com CATCH`, `desk@blocked.org`, 'n/a', `boss${i}@evil.example`];
    return r;
  });
  // Pages of 150: most end part-way through a block of 32 records.
  for (let i = 0; i < records.length; i += 150) cache.tx(() => cache.opportunities.upsertPage(B, records.slice(i, i + 150), 1, '2026-11-01T00:00:00Z'));
  cache.doNotContact.add('blocked.org');
  cache.doNotContact.add('boss11@evil.example');
  const id = (i: number) => String(records[i]!._id);
  setTriage(cache, B, id(3), { stage: 'Drafted', note: 'call first, "then" write' });
  cache.tx(() => saveDraft(cache.writable, B, id(5), 'pitch', { subject: '-minus first', body: 'Hi {first_name},\r\nsee {publication}' }, null));
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

/** The plain RFC 4180 rule, record by record. */
const encode = (rows: string[][]) =>
  Buffer.from(rows.map((cells) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',') + '\r\n').join(''), 'utf8');

describe('the streamed export against the row-by-row path', () => {
  it.each(['opportunities', 'contacts'] as const)('%s: the same bytes, row for row', async (preset) => {
    const o = {
      brandId: B,
      preset,
      filter: { includeArchived: true },
      unfilled: 'keep' as const,
      mailText: preset === 'contacts' ? ('guard' as const) : undefined,
    };
    const out = join(tmp.dir, `${preset}.csv`);
    const result = await writeExportFile(cache, { ...o, out });
    const columns = chosenColumns(preset, undefined);
    const check = newCheck(
      preset,
      'csv',
      presetHeaders(preset),
      columns.map(([h]) => h),
    );
    const rows = [...readyRows(cache, o, 'csv', columns, check, () => 0)].flatMap((r) => (r ? [r.cells] : []));
    expect(rows.length).toBe(result.rows);
    expect(rows.length).toBeGreaterThan(600);
    // Formula-like text met and guarded: the dataset reaches the guard.
    expect(rows.some((cells) => cells.some((c) => c.startsWith("'=")))).toBe(true);
    // The draft and the note reach the file.
    if (preset === 'opportunities') expect(rows.some((cells) => cells.includes('call first, "then" write'))).toBe(true);
    expect(rows.some((cells) => cells.some((c) => c.startsWith("'-minus first")))).toBe(true);
    const want = encode([columns.map(([h]) => h), ...rows]);
    expect(readFileSync(out).equals(want)).toBe(true);
  });

  it("opportunities: each row's addresses are the record's valid ones not on the do-not-contact list, in order, catch-alls apart", async () => {
    const out = join(tmp.dir, 'addresses.csv');
    await writeExportFile(cache, { brandId: B, preset: 'opportunities', filter: { includeArchived: true }, out });
    const byId = new Map(
      (parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => [r.opportunity_id ?? r._id ?? r.id, r] as const),
    );
    const blocked = (email: string) => email.endsWith('@blocked.org') || email === 'boss11@evil.example';
    let withCatchAll = 0;
    for (const r of records) {
      const row = byId.get(String(r._id));
      expect(row, String(r._id)).toBeDefined();
      const contacts = parseContacts(r.contact_emails).filter((c) => c.valid && !blocked(c.identity));
      expect(row!.emails).toBe(
        contacts
          .filter((c) => !c.catchAll)
          .map((c) => c.email)
          .join('; '),
      );
      expect(row!.catch_all_emails).toBe(
        contacts
          .filter((c) => c.catchAll)
          .map((c) => c.email)
          .join('; '),
      );
      if (contacts.some((c) => c.catchAll)) withCatchAll++;
    }
    expect(withCatchAll).toBeGreaterThan(50);
  });
});
