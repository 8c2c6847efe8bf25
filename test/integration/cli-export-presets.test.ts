// The CLI's side of exports for mail tools: a preset per destination (in
// --help with what each is for), the choice rows with unfilled merge fields
// need (nothing written without it), the sender's name asked for once and
// kept, "I sent these" (export sent) and the exports made (export log); and
// `triage --contacted` with no date (today), recording who was written to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { localToday } from '../../electron/core/store/opportunity-list';
import { setTriageMany, triageOf } from '../support/store';
import { EXPORT_PRESETS, PRESETS } from '../../shared/export-presets';
import { pythonCsv } from '../support/readers';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';

const tmp = tempDir();
const B = '1749113348709x432280934699237400';
const HOSTILE = '1749113348709x000000000000000001';
const dataDir = join(tmp.dir, 'data');
const db = join(dataDir, 'workbench.db');
const cli = (args: string[]) => runCli(args, { url: 'http://127.0.0.1:9', db });
const base = { opportunity_type: 'low-hanging-fruit', status: 'New', archived: false, difficulty: 'Easy', url: 'https://wired.com/a', title: 'Espresso' };

beforeAll(async () => {
  mkdirSync(dataDir);
  const cache = await Cache.open(db);
  cache.brands.replaceAll(
    [
      { id: B, name: 'Northwind Coffee' },
      { id: HOSTILE, name: 'Hostile' },
    ],
    '2026-11-01T00:00:00Z',
  );
  // Text from the service that would drive a terminal: colour, the window title, a screen clear, reversed text.
  cache.tx(() =>
    cache.opportunities.upsertPage(
      HOSTILE,
      [
        {
          ...base,
          _id: 'h1',
          domain: 'evil.example',
          title: '@\x1b[31mred\x1b]0;pwned\x07 \u202eesrever',
          author_name: 'Eve Vil',
          priority_score: 90,
          pitch_subject: '-20% \x1b[2J off',
          pitch_body: '=1+1 \u{1F600}'.padEnd(39, 'x') + '\u{1F600}\u{1F600}',
          contact_emails: ['eve@evil.example'],
        },
      ],
      1,
      '2026-11-01T00:00:00Z',
    ),
  );
  cache.tx(() =>
    cache.opportunities.upsertPage(
      B,
      [
        {
          ...base,
          _id: 'o1',
          domain: 'wired.com',
          author_name: 'Ana Souza',
          priority_score: 90,
          pitch_subject: 'Hi',
          pitch_body: 'Hi {first_name},\n{sender_name}',
          contact_emails: ['ana@wired.com', 'press@wired.com'],
        },
        {
          ...base,
          _id: 'o2',
          domain: 'kim.example',
          author_name: 'Ben Kim',
          priority_score: 80,
          pitch_subject: 'Yo',
          pitch_body: 'Hi {first_name}',
          contact_emails: ['ben@kim.example'],
        },
      ],
      1,
      '2026-11-01T00:00:00Z',
    ),
  );
  cache.close();
});
afterAll(() => tmp.cleanup());

describe('workbench export by preset', () => {
  it('--help names every preset with what it is for', async () => {
    const help = (await cli(['--help'])).out;
    for (const p of EXPORT_PRESETS) expect(help).toContain(`${p.padEnd(13)} ${PRESETS[p].purpose}`);
    expect(help).toContain('export sent [ID|latest]');
  });

  it('rows with merge fields not filled: nothing written without --unfilled (exit 2, the choices named); the sender name asked for once, then kept', async () => {
    const out = join(tmp.dir, 'leads.csv');
    const refused = await cli(['export', '--brand', B, '--preset', 'instantly', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/Nothing was written: .*--unfilled leave-out.*--unfilled default.*--unfilled keep/s);
    expect(refused.err).toContain('--sender-name NAME');
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('leads'))).toEqual([]);
    const ok = await cli(['export', '--brand', B, '--preset', 'instantly', '--out', out, '--unfilled', 'default', '--sender-name', 'Sam Reed']);
    expect(ok.code, ok.err).toBe(0);
    const rows = pythonCsv(out);
    expect(rows[0]).toEqual([
      'email',
      'first_name',
      'last_name',
      'company_name',
      'subject',
      'personalization',
      'article_title',
      'article_url',
      'opportunity_id',
      'catch_all',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[5]])).toEqual([
      ['ana@wired.com', 'Hi Ana,\nSam Reed'],
      ['press@wired.com', 'Hi there,\nSam Reed'],
      ['ben@kim.example', 'Hi Ben'],
    ]);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).senderName).toBe('Sam Reed');
    // Asked once: the next export fills it from the settings.
    const again = await cli(['export', '--brand', B, '--preset', 'lemlist', '--out', join(tmp.dir, 'lem.csv'), '--unfilled', 'leave-out']);
    expect(again.code, again.err).toBe(0);
    expect(pythonCsv(join(tmp.dir, 'lem.csv'))[1]![5]).toBe('Hi Ana,\nSam Reed');
  });

  it('--unfilled is refused for the Opportunities sheet (for reading, every row as the service wrote it), naming the mail presets it is for', async () => {
    const mail = EXPORT_PRESETS.filter((p) => PRESETS[p].forMail);
    expect(mail).not.toContain('opportunities');
    for (const choice of ['leave-out', 'default', 'keep']) {
      const out = join(tmp.dir, `opp-${choice}.csv`);
      const r = await cli(['export', '--brand', B, '--preset', 'opportunities', '--out', out, '--unfilled', choice]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain('--unfilled applies to the mail presets');
      for (const p of mail) expect(r.err).toMatch(new RegExp(`\\b${p}\\b`));
      expect(r.err).toContain('Opportunities');
      expect(existsSync(out)).toBe(false);
    }
    const ok = await cli(['export', '--brand', B, '--preset', 'opportunities', '--out', join(tmp.dir, 'opp.csv')]);
    expect(ok.code, ok.err).toBe(0);
  });

  it('a mail tool reads comma-separated UTF-8: its presets refuse --delimiter and --bom, and a format it does not take', async () => {
    expect((await cli(['export', '--brand', B, '--preset', 'mailchimp', '--out', join(tmp.dir, 'm.csv'), '--delimiter', ';', '--unfilled', 'keep'])).code).toBe(
      2,
    );
    const x = await cli(['export', '--brand', B, '--preset', 'lemlist', '--out', join(tmp.dir, 'm.xlsx'), '--unfilled', 'keep']);
    expect(x.code).toBe(2);
    expect(x.err).toContain('lemlist takes csv only');
    expect(
      (await cli(['export', '--brand', B, '--preset', 'contacts', '--out', join(tmp.dir, 'c.csv'), '--columns', 'email,nope', '--unfilled', 'keep'])).err,
    ).toMatch(/has no column "nope"/);
  });

  it('export sent: the addresses it carried become contacted today, once; export log lists the exports with their ids', async () => {
    const out = join(tmp.dir, 'batch.csv');
    const r = await cli(['export', '--brand', B, '--preset', 'contacts', '--out', out, '--unfilled', 'keep', '--columns', 'email,first_name,body']);
    expect(r.code, r.err).toBe(0);
    expect(pythonCsv(out)[0]).toEqual(['email', 'first_name', 'body']);
    const id = /workbench export sent ([\w-]+)/.exec(r.out)![1]!;
    const log = await cli(['export', 'log']);
    expect(log.out).toContain(id);
    const sent = await cli(['export', 'sent', id]);
    expect(sent.out).toMatch(/batch\.csv: 3 addresses of 2 opportunities marked contacted today\./);
    expect((await cli(['export', 'sent', id])).out).toMatch(/was confirmed sent on \d{4}-\d{2}-\d{2}; nothing changed/);
    const cache = await Cache.open(db);
    expect(triageOf(cache, B, 'o1')).toMatchObject({
      contacted_at: localToday(),
      contacted_addresses: ['ana@wired.com', 'press@wired.com'],
      stage: 'Contacted',
    });
    setTriageMany(cache, B, ['o1', 'o2'], { contacted_at: null, contacted_addresses: null, contacted_subject: null, stage: null });
    cache.close();
    expect((await cli(['export', 'sent', 'no-such-export'])).code).toBe(2);
  });
});

describe('workbench export: text that starts like a formula, and text that would drive the terminal', () => {
  it('a CSV for a program that runs formulas is refused until mail text has a choice (exit 2, the choices named); the warnings reach the terminal plain', async () => {
    const out = join(tmp.dir, 'hostile.csv');
    const refused = await cli(['export', '--brand', HOSTILE, '--preset', 'contacts', '--out', out, '--unfilled', 'keep']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /Nothing was written: 2 cells of mail text start like a formula\. Choose --format xlsx .*--mail-text leave-out.*--mail-text guard/s,
    );
    expect(existsSync(out)).toBe(false);
    const checked = await cli(['export', '--brand', HOSTILE, '--preset', 'instantly', '--check']);
    for (const r of [refused, checked]) {
      // The warnings quote the text (so the person sees which cells), with every control and direction character made a space.
      expect(r.err).toContain('red');
      // eslint-disable-next-line no-control-regex -- control characters are what this looks for
      expect(r.err).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u202e]/);
    }
    // A cell quoted in a warning is cut on a character: never half of an emoji.
    expect(checked.err).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(checked.err).toContain('\u{1F600}');
    const ok = await cli(['export', '--brand', HOSTILE, '--preset', 'contacts', '--out', out, '--unfilled', 'keep', '--mail-text', 'guard']);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('marks this address contacted');
    expect(pythonCsv(out)[1]!.filter((v) => /^[=+\-@]/.test(v))).toEqual([]);
  });
});

describe('workbench triage --contacted', () => {
  it('with no date means today, and records the pre-selected addresses (or those named with --to)', async () => {
    const r = await cli(['triage', '--brand', B, '--id', 'o1', '--contacted']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`contacted ${localToday()}\\.\\n$`));
    expect(r.err).toContain('recorded as written to: ana@wired.com (the addresses the app pre-selects');
    const named = await cli(['triage', '--brand', B, '--id', 'o2', '--contacted', '2026-11-20', '--to', 'BEN@kim.example']);
    expect(named.code, named.err).toBe(0);
    const cache = await Cache.open(db);
    expect(triageOf(cache, B, 'o1').contacted_addresses).toEqual(['ana@wired.com']);
    expect(triageOf(cache, B, 'o2')).toMatchObject({ contacted_at: '2026-11-20', contacted_addresses: ['ben@kim.example'] });
    cache.close();
    expect((await cli(['triage', '--brand', B, '--id', 'o2', '--contacted', '--to', 'nobody@x.example'])).code).toBe(2);
    expect(existsSync(db)).toBe(true);
  });
});
