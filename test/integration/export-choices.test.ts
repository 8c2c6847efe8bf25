// What an export asks before it writes: rows whose merge fields could not be
// filled are left out, filled with a default, or kept on purpose, never sent
// silently; the sender's name is asked for once. And the follow-ups: one row
// per address the pitch went to, never a list in a cell, never an empty
// address, the first name and the body filled for the same person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Cache } from '../../electron/core/store/cache';
import { writeExportFile, previewExport, SenderNameNeeded, UnfilledChoiceNeeded } from '../../electron/core/export/csv-export';
import { pythonCsv } from '../support/readers';
import { tempDir } from '../support/tmp';
import { BRAND, cacheWith } from '../support/export-cache';
import { existsSync, readdirSync } from 'node:fs';
import { act, list, setTriage } from '../support/store';

const tmp = tempDir();
const B = BRAND;
let cache: Cache;
const base = {
  opportunity_type: 'low-hanging-fruit',
  status: 'New',
  archived: false,
  difficulty: 'Easy',
  domain: 'wired.com',
  url: 'https://wired.com/a',
  title: 'Best espresso',
};
const records = [
  {
    ...base,
    _id: 'p1',
    priority_score: 90,
    author_name: 'Ana Souza',
    pitch_subject: 'For {publication}',
    pitch_body: 'Hi {first_name},\nBest,\n{sender_name}',
    contact_emails: ['ana@wired.com', 'press@wired.com', 'tips@wired.com CATCH'],
  },
  {
    ...base,
    _id: 'p2',
    priority_score: 80,
    author_name: null,
    pitch_subject: 'Hello',
    pitch_body: 'Hi [Name], a note.',
    contact_emails: ['desk@verge.example'],
  },
  {
    ...base,
    _id: 'p3',
    priority_score: 70,
    author_name: 'Ben Kim',
    pitch_subject: 'Plain',
    pitch_body: 'No fields here.',
    contact_emails: ['ben@kim.example'],
  },
  { ...base, _id: 'p4', priority_score: 60, author_name: 'Dee Do', pitch_subject: 'Gone', pitch_body: 'x', contact_emails: ['dee@blocked.example'] },
];

beforeAll(async () => {
  cache = await cacheWith(tmp.dir, 'choices.db', records);
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

const rowsOf = (path: string) => {
  const [head, ...body] = pythonCsv(path);
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
};

describe('rows with merge fields not filled', () => {
  it('without a choice nothing is written: the check asks, the export refuses and leaves no file', async () => {
    const check = await previewExport(cache, { brandId: B, preset: 'contacts', excludeCatchAll: true });
    expect(check.unfilledChoiceNeeded).toBe(true);
    expect(check.senderNameMissing).toBe(true);
    expect(check.warnings.join('\n')).toContain('Before writing, choose what to do with them');
    const dir = join(tmp.dir, 'refused');
    (await import('node:fs')).mkdirSync(dir);
    await expect(writeExportFile(cache, { brandId: B, preset: 'contacts', excludeCatchAll: true, out: join(dir, 'x.csv') })).rejects.toBeInstanceOf(
      UnfilledChoiceNeeded,
    );
    expect(readdirSync(dir)).toEqual([]);
    // The opportunities preset is for reading, not sending: it needs no choice.
    expect((await previewExport(cache, { brandId: B, preset: 'opportunities' })).unfilledChoiceNeeded).toBe(false);
  });

  it('leave those rows out: only rows with every field filled go, and the check names the rest', async () => {
    const out = join(tmp.dir, 'leave-out.csv');
    const r = await writeExportFile(cache, { brandId: B, preset: 'contacts', excludeCatchAll: true, out, unfilled: 'leave-out', senderName: 'Sam Reed' });
    const rows = rowsOf(out);
    expect(rows.map((x) => x.email)).toEqual(['ana@wired.com', 'ben@kim.example', 'dee@blocked.example']);
    expect(rows[0]!.body).toBe('Hi Ana,\nBest,\nSam Reed');
    expect(r.check.leftOut.unfilled).toBe(2);
    expect(r.check.unfilledRows.map((x) => [x.email, x.tokens])).toEqual([
      ['press@wired.com', ['{first_name}']],
      ['desk@verge.example', ['[Name]']],
    ]);
    for (const x of rows) expect(`${x.subject}${x.body}`).not.toMatch(/[{[]/);
  });

  it('fill a default: "Hi there" for a missing first name (or the default given); a name known stays', async () => {
    const out = join(tmp.dir, 'default.csv');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', excludeCatchAll: true, out, unfilled: 'default', senderName: 'Sam Reed' });
    const rows = rowsOf(out);
    expect(rows.map((x) => [x.email, x.body!.split('\n')[0]])).toEqual([
      ['ana@wired.com', 'Hi Ana,'],
      ['press@wired.com', 'Hi there,'],
      ['desk@verge.example', 'Hi there, a note.'],
      ['ben@kim.example', 'No fields here.'],
      ['dee@blocked.example', 'x'],
    ]);
    // The first_name column says what is known (nothing for an inbox): the text is what was chosen.
    expect(rows[1]!.first_name).toBe('');
    const given = join(tmp.dir, 'default-given.csv');
    await writeExportFile(cache, {
      brandId: B,
      preset: 'contacts',
      excludeCatchAll: true,
      out: given,
      unfilled: 'default',
      fill: { first_name: 'team' },
      senderName: 'Sam',
    });
    expect(rowsOf(given)[1]!.body!.split('\n')[0]).toBe('Hi team,');
  });

  it('fill a default: a row whose merge fields have no default is left out and named, never sent with the token; {sender_name} without a name refuses', async () => {
    const c = await cacheWith(tmp.dir, 'defaults.db', [
      {
        ...base,
        _id: 'd1',
        priority_score: 90,
        author_name: 'Ana Souza',
        pitch_subject: 'Hi',
        pitch_body: 'Hi {first_name}, see {Article 2 Title}',
        contact_emails: ['ana@wired.com'],
      },
      {
        ...base,
        _id: 'd2',
        priority_score: 80,
        author_name: null,
        pitch_subject: 'Hi',
        pitch_body: 'Hi {first_name}, a note.',
        contact_emails: ['desk@verge.example'],
      },
      {
        ...base,
        _id: 'd3',
        priority_score: 70,
        author_name: 'Ben Kim',
        pitch_subject: 'Hi',
        pitch_body: 'Hi {first_name},\n{sender_name}',
        contact_emails: ['ben@kim.example'],
      },
    ]);
    try {
      for (const preset of ['instantly', 'contacts'] as const) {
        const out = join(tmp.dir, `defaults-${preset}.csv`);
        const r = await writeExportFile(c, { brandId: B, preset, out, unfilled: 'default', senderName: 'Sam Reed' });
        const rows = rowsOf(out);
        const [email, body] = preset === 'instantly' ? ['email', 'personalization'] : ['email', 'body'];
        expect(rows.map((x) => [x[email], x[body]])).toEqual([
          ['desk@verge.example', 'Hi there, a note.'],
          ['ben@kim.example', 'Hi Ben,\nSam Reed'],
        ]);
        expect(r.check.leftOut.unfilled).toBe(1);
        expect(r.check.unfilledRows).toEqual([expect.objectContaining({ email: 'ana@wired.com', tokens: ['{Article 2 Title}'] })]);
        expect(r.warnings.join('\n')).toMatch(/left out, with merge fields that have no default: ana@wired\.com\.$/m);
      }
      // Without your name, {sender_name} has no default: nothing is written, and the check asks for the name.
      const dir = join(tmp.dir, 'no-sender');
      (await import('node:fs')).mkdirSync(dir);
      const check = await previewExport(c, { brandId: B, preset: 'instantly', unfilled: 'default' });
      expect(check.senderNameMissing).toBe(true);
      expect(check.warnings.join('\n')).toContain('Nothing is written until it is.');
      await expect(writeExportFile(c, { brandId: B, preset: 'instantly', unfilled: 'default', out: join(dir, 'x.csv') })).rejects.toBeInstanceOf(
        SenderNameNeeded,
      );
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      c.close();
    }
  });

  it('the opportunities preset (for reading, not sending) never leaves a row out for its merge fields, whatever choice is sent; a mail preset still does', async () => {
    const all = await writeExportFile(cache, { brandId: B, preset: 'opportunities', out: join(tmp.dir, 'opp-all.csv') });
    const ids = rowsOf(join(tmp.dir, 'opp-all.csv')).map((x) => x._id);
    expect(ids).toEqual(expect.arrayContaining(['p1', 'p2']));
    for (const unfilled of ['leave-out', 'default'] as const) {
      const out = join(tmp.dir, `opp-${unfilled}.csv`);
      const preview = await previewExport(cache, { brandId: B, preset: 'opportunities', unfilled });
      const r = await writeExportFile(cache, { brandId: B, preset: 'opportunities', out, unfilled });
      expect(rowsOf(out).map((x) => x._id)).toEqual(ids);
      expect([preview.rows, r.rows, r.check.leftOut.unfilled]).toEqual([all.rows, all.rows, 0]);
      expect(r.warnings.join('\n')).not.toMatch(/left out/i);
      // Nor rewritten: every cell as the no-choice file has it (the service's `[Name]` kept, no "Hi there"),
      // and the check says nothing of defaults it did not fill.
      expect(rowsOf(out)).toEqual(rowsOf(join(tmp.dir, 'opp-all.csv')));
      expect(
        rowsOf(out)
          .map((x) => Object.values(x).join(' '))
          .join('\n'),
      ).toContain('Hi [Name], a note.');
      expect([...preview.warnings, ...r.warnings].join('\n')).not.toMatch(/default/i);
    }
    // A mail preset sent the same choice leaves them out, as before.
    const mail = await writeExportFile(cache, {
      brandId: B,
      preset: 'instantly',
      excludeCatchAll: true,
      out: join(tmp.dir, 'mail-leave-out.csv'),
      unfilled: 'leave-out',
    });
    expect(mail.check.leftOut.unfilled).toBeGreaterThan(0);
    expect(
      rowsOf(join(tmp.dir, 'mail-leave-out.csv'))
        .map((x) => `${Object.values(x).join(' ')}`)
        .join('\n'),
    ).not.toContain('[Name]');
  });

  it('keep them on purpose: written as they are, listed in `unfilled`, and the check says they were kept', async () => {
    const out = join(tmp.dir, 'keep.csv');
    const r = await writeExportFile(cache, { brandId: B, preset: 'sheets-merge', format: 'csv', excludeCatchAll: true, out, unfilled: 'keep' });
    const rows = rowsOf(out);
    expect(rows[0]!.Body).toBe('Hi Ana,\nBest,\n{sender_name}');
    expect(r.warnings.join('\n')).toMatch(/Kept on purpose: .*The mail-merge add-on reads \{\{…\}\} as a column/s);
    expect(r.check.senderNameMissing).toBe(true);
  });
});

describe('the follow-ups: one row per person written to', () => {
  it('one row per address recorded, never a list in a cell, never an empty address; the first name and the body agree', async () => {
    // Contacted 10 days ago, to the person and the press desk; the follow-up is due.
    setTriage(cache, B, 'p1', { stage: 'Contacted', contacted_at: '2026-10-20', contacted_addresses: ['ana@wired.com', 'PRESS@wired.com'] });
    // Marked contacted without naming an address: the one the pitch pre-selects is recorded.
    act(cache, B, ['p3'], { do: 'contacted', on: '2026-10-20' }, '2026-11-01');
    // Written to an address now on the do-not-contact list, and no other: not due at all (the Due view leaves it out).
    act(cache, B, ['p4'], { do: 'contacted', on: '2026-10-20' }, '2026-11-01');
    cache.doNotContact.add('blocked.example');
    // Written to an address the opportunity no longer lists (a sync replaced it): due, but nobody written to is left to follow up.
    setTriage(cache, B, 'p2', { stage: 'Contacted', contacted_at: '2026-10-20', contacted_addresses: ['old.desk@verge.example'] });
    cache.days = () => ({ today: '2026-11-01', dueOnOrBefore: '2026-10-29' });
    expect(list(cache, { brandId: B, view: 'due' }).map((o) => o.id)).toEqual(['p1', 'p2', 'p3']);
    const out = join(tmp.dir, 'due.csv');
    const r = await writeExportFile(cache, { brandId: B, preset: 'followups', out, unfilled: 'keep', senderName: 'Sam Reed' });
    const rows = rowsOf(out);
    expect(rows.map((x) => [x.opportunity_id, x.email, x.first_name])).toEqual([
      ['p1', 'ana@wired.com', 'Ana'],
      ['p1', 'press@wired.com', ''],
      ['p3', 'ben@kim.example', 'Ben'],
    ]);
    for (const x of rows) {
      expect(x.email).toMatch(/^[^;,\s]+@[^;,\s]+$/);
      // The body greets whom the row names: the person by name, an inbox never by the author's.
      expect(x.body!.startsWith(x.first_name ? `Hi ${x.first_name},` : 'Hi {first_name},')).toBe(true);
    }
    expect(r.check.leftOut.noAddress).toBe(1);
    expect(r.warnings.join('\n')).toContain('1 row left out: no address left to write to');
    expect(existsSync(out)).toBe(true);
  });

  it('a follow-up written only to a catch-all, with catch-alls left out: "left out" names that filter, not the do-not-contact list', async () => {
    const c = await cacheWith(tmp.dir, 'catch-follow.db', [
      { ...base, _id: 'c1', priority_score: 90, author_name: 'Ana Souza', pitch_subject: 'Hi', pitch_body: 'Hello', contact_emails: ['tips@wired.com CATCH'] },
    ]);
    try {
      setTriage(c, B, 'c1', { stage: 'Contacted', contacted_at: '2026-10-20', contacted_addresses: ['tips@wired.com'] });
      c.days = () => ({ today: '2026-11-01', dueOnOrBefore: '2026-10-29' });
      const left = await previewExport(c, { brandId: B, preset: 'followups', unfilled: 'keep', excludeCatchAll: true });
      expect(left.leftOut.noAddress).toBe(1);
      expect(left.warnings.join('\n')).toContain(
        '1 row left out: no address left to write to (each was on the do-not-contact list, or a catch-all address, and catch-all addresses are left out',
      );
      // With catch-alls included, the row is there.
      expect((await previewExport(c, { brandId: B, preset: 'followups', unfilled: 'keep' })).rows).toBe(1);
    } finally {
      c.close();
    }
  });
});
