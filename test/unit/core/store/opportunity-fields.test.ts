// The field table drives the store and the export: a fixture table with one field more
// sees it flow into the SQL column lists, row values and mapping, search document, list and export.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/core/store/db';
import { faces } from '../../../../electron/core/store/database';
import { ExportRowStore } from '../../../../electron/core/store/export-rows';
import { prepareBrand } from '../../../../electron/core/store/list-items';
import { OpportunityWriter } from '../../../../electron/core/store/opportunities-write';
import { readOpportunity } from '../../../../electron/core/store/opportunity-detail';
import { listPage, prepareList } from '../../../../electron/core/store/opportunity-list';
import { markExported } from '../../../../electron/core/store/triage';
import type { ListFilter } from '../../../../shared/model';
import {
  columnPlan,
  listColumns,
  listItemMapper,
  listRowsMapper,
  recordValues,
  searchValues,
  upsertSql,
} from '../../../../electron/core/store/opportunity-columns';
import { contactColumns, opportunityColumns, type OpportunityExportRow } from '../../../../electron/core/export/presets';
import { apiFields, fieldNamed, OPPORTUNITY_FIELDS, type FieldTable, type OpportunityField } from '../../../../shared/opportunity-fields';

/** The real table and one new field: stored, searched in a column of its own, shown in the list, exported. */
const FIXTURE: FieldTable = [...OPPORTUNITY_FIELDS, { name: 'outlet', kind: 'string', column: 'text', search: 'outlet', list: true }];
const record = { _id: 'a1', title: 'Best espresso', domain: 'theverge.com', outlet: 'The Verge', pitch_subject: 'Hi', contact_emails: ['ana@theverge.com'] };

describe('a field added to the table', () => {
  const plan = columnPlan(FIXTURE);
  const at = plan.stored.findIndex((f) => f.name === 'outlet');

  it('joins the sync statements, the record values and the search document', () => {
    expect(at).toBeGreaterThan(0);
    const q = upsertSql(plan);
    expect(q.insert.text).toMatch(/INSERT INTO opportunities \(brand_key, id, .*\boutlet, raw_hash/s);
    expect(q.update.text).toMatch(/\boutlet = \?/);
    expect(q.search.text).toMatch(/\boutlet\) VALUES/);
    expect(recordValues(plan, record, [])[at]).toBe('The Verge');
    expect(searchValues(plan, record, [])[plan.search.findIndex((s) => s.column === 'outlet')]).toBe('The Verge');
    expect(apiFields(FIXTURE).map((f) => f.name)).toContain('outlet');
  });

  it('joins the list columns and the row mapping', () => {
    expect(listColumns(FIXTURE).text).toContain('o.outlet AS outlet');
    expect(listColumns(OPPORTUNITY_FIELDS).text).not.toContain('outlet');
    const item = listItemMapper<Record<string, unknown>>(FIXTURE, ['starred'])({ _rowid: 1, id: 'a1', archived: 1, outlet: 'The Verge', starred: 0 });
    expect(item).toEqual({ id: 'a1', archived: true, outlet: 'The Verge', starred: false });
    // A page's rows mapped at once: the same items, key for key and in the same order, as each row mapped alone.
    const rows = [
      { _rowid: 1, id: 'a1', archived: 1, outlet: 'The Verge', starred: 0, _sort: 'x' },
      { _rowid: 2, id: 'a2', archived: 0, outlet: null, starred: 1, _sort: 'y' },
    ];
    const one = listItemMapper<Record<string, unknown>>(FIXTURE, ['starred', 'removed_on_server']);
    // (Read as arrays, in the columns' order.)
    const columns = ['_rowid', 'id', 'archived', 'outlet', 'starred', '_sort'];
    const all = listRowsMapper<Record<string, unknown>>(FIXTURE, ['starred', 'removed_on_server'])(
      columns,
      rows.map((r) => columns.map((c) => r[c as keyof typeof r])),
    );
    expect(JSON.stringify(all)).toBe(JSON.stringify(rows.map(one)));
    expect(all).toEqual([
      { id: 'a1', archived: true, outlet: 'The Verge', starred: false, removed_on_server: false },
      { id: 'a2', archived: false, outlet: null, starred: true, removed_on_server: false },
    ]);
    expect(listRowsMapper(FIXTURE, [])(columns, [])).toEqual([]);
  });

  it('joins the opportunities export (every scalar field); the contacts preset keeps its chosen columns', () => {
    const columns = opportunityColumns(FIXTURE);
    const headers = columns.map(([h]) => h);
    expect(headers.slice(headers.indexOf('Modified Date'), headers.indexOf('emails'))).toEqual(['Modified Date', 'outlet']);
    const row = { record, opportunity: {}, emails: [], catchAlls: [], brand: 'B' } as unknown as OpportunityExportRow;
    expect(columns[headers.indexOf('outlet')]![1](row)).toBe('The Verge');
    expect(contactColumns(FIXTURE).map(([h]) => h)).toEqual(contactColumns().map(([h]) => h));
  });

  it('end to end: a store over a schema with its column (what its migration would add) stores, lists, finds and shows it', async () => {
    const db = await openDatabase(':memory:');
    const fts = plan.search.map((s) => s.column).join(', ');
    db.exec(`ALTER TABLE opportunities ADD COLUMN outlet TEXT;
      DROP TABLE opportunity_search;
      CREATE VIRTUAL TABLE opportunity_search USING fts5 (${fts}, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');`);
    const { readable, writable } = faces(db, FIXTURE);
    new OpportunityWriter(writable).upsertPage('b', [record, { _id: 'a2', title: 'Other', outlet: 'Wired' }], 1, 'now');
    const list = (f: ListFilter) => listPage(readable, prepareList(writable, f)).items;
    const byId = (items: unknown[]) => (items as Record<string, unknown>[]).map((o) => [o.id, o.outlet]);
    expect(byId(list({ brandId: 'b', sort: 'title' }))).toEqual([
      ['a1', 'The Verge'],
      ['a2', 'Wired'],
    ]);
    expect(byId(list({ brandId: 'b', search: 'verge' }))).toEqual([['a1', 'The Verge']]);
    expect((readOpportunity(readable, prepareBrand(writable, 'b'), 'a2')!.item as Record<string, unknown>).outlet).toBe('Wired');
    // An export asks for it with the contact rows: stored fields from their columns, the others from the record.
    const rows = [
      ...new ExportRowStore(
        readable,
        db,
        (f) => prepareList(writable, f),
        (brandId, ids, at) => markExported(writable, brandId, ids, at),
      ).contactRows(
        { brandId: 'b' },
        {},
        ['outlet', 'title', 'pitch_subject'].map((n) => fieldNamed(n, FIXTURE)),
      ),
    ];
    expect(rows.map((r) => [r.email, r.stored, r.record])).toEqual([
      ['ana@theverge.com', { outlet: 'The Verge', title: 'Best espresso' }, { pitch_subject: 'Hi' }],
    ]);
    db.close();
  });
});

describe('some fields read from the record', () => {
  it("reads an opportunity's record once for its run of addresses, and again for the next opportunity", async () => {
    const { someFieldsSql } = await import('../../../../electron/core/store/opportunity-columns');
    const fromRecord = (OPPORTUNITY_FIELDS as readonly OpportunityField[]).filter((f) => !f.column).slice(0, 1);
    expect(fromRecord).toHaveLength(1);
    const key = fromRecord[0]!.name;
    // The records by rowid, as the store's block reader hands them (each read counted).
    const stored = new Map([1, 2, 3].map((rowid) => [rowid, JSON.stringify({ [key]: ['one', 'two', 'three'][rowid - 1] })]));
    const reads: number[] = [];
    const some = someFieldsSql(fromRecord, (rowid) => (reads.push(rowid), stored.get(rowid) ?? null));
    const first = some.read([1], 1);
    // The same opportunity's next address: the record read before is shared, not read and parsed again.
    const again = some.read([1], 1);
    expect(again.record).toBe(first.record);
    const next = some.read([2], 2);
    expect(next.record).not.toBe(first.record);
    expect(next.record[key]).toBe('two');
    // Without a key every row is read on its own.
    expect(some.read([3]).record[key]).toBe('three');
    expect(reads).toEqual([1, 2, 3]);
  });
});
