// From pitch to citation through the app's own handlers, on a real cache and
// the simulator over loopback: an opportunity pitched, later syncs bringing
// citations at its outlet (a new page, a page from before the pitch, one that
// does not mention the brand, the pitched page turning to mention it), the
// evidence each gives, the sync's count of what it found, Won marked by itself
// only when Settings allow it (an action the one owner logs and undoes), one
// key's Won through the owner and the same undo as every action, the Results over a
// period, and the report and its tables written and read back by other
// programs (Python's csv and openpyxl).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import type { Evidence } from '../../../shared/evidence';
import type { ResultsReport } from '../../../shared/results';
import { addDays } from '../../../shared/calendar';
import { allTriage } from '../../../electron/core/store/triage';
import type { HistoryEntry } from '../../../shared/user-record';
import { FakeKeychain } from '../../support/fake-platform';
import { openApp } from '../../support/app';
import { looseCaller } from '../../support/call';
import { setTriage, triageOf } from '../../support/store';
import { tempDir } from '../../support/tmp';
import { citeAt, opportunityAt as opportunityAtSim, outletsMade, resultsApp, type ResultsApp } from '../../support/results-app';

const TODAY = '2026-11-20';
/** The day on this computer's clock: stage changes are stamped with it (the app's "today" is the test's). */
const NOW = new Date().toISOString().slice(0, 10);
const TO = NOW > '2026-11-30' ? NOW : '2026-11-30';
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 21, opportunities: 200, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 40, today: TODAY });
});
afterAll(() => sim.close());

const app = () => resultsApp(sim, TODAY);
const opportunityAt = (a: ResultsApp) => opportunityAtSim(sim, a);
const cite = (over: Record<string, unknown>) => citeAt(TODAY, over);

describe('evidence of a win, sync after sync', () => {
  it('a citation at the pitched outlet after the pitch is evidence; one from before, or without the brand, is not; the pitched page turning to mention the brand is stronger', async () => {
    const a = await app();
    const o = await opportunityAt(a);
    a.setToday('2026-11-10');
    await a.act([o.id], { do: 'contacted', addresses: [] });
    a.setToday(TODAY);
    expect(await a.call('results:evidence', { brandId: a.brand, id: o.id })).toBeNull();
    expect(await a.call('results:cited', { brandId: a.brand })).toEqual({ ids: [] });

    // Before the pitch, and not mentioning the brand: nothing, and the sync says it found nothing.
    sim.mutate({
      cite: [
        cite({ url: `https://${o.domain}/older-roundup`, domain: o.domain, first_seen: '2026-11-02T09:00:00Z', mentions_brand: true }),
        cite({ url: `https://${o.domain}/no-mention`, domain: o.domain, first_seen: '2026-11-15T09:00:00Z', mentions_brand: false }),
        cite({ url: o.url, domain: o.domain, first_seen: '2026-09-01T09:00:00Z', mentions_brand: false, times_cited: 30 }),
      ],
    });
    let summary = await a.sync();
    expect(summary.brands[0]!.cited).toBe(0);
    expect(await a.call('results:evidence', { brandId: a.brand, id: o.id })).toBeNull();

    // Another page of the outlet, first seen after the pitch and mentioning the brand: evidence at the outlet.
    sim.mutate({
      cite: [cite({ url: `https://blog.${o.domain}/cold-brew-roundup`, domain: `blog.${o.domain}`, first_seen: '2026-11-13T09:00:00Z', mentions_brand: true })],
    });
    summary = await a.sync();
    expect(summary.brands[0]!.cited).toBe(1);
    let e = (await a.call<Evidence>('results:evidence', { brandId: a.brand, id: o.id }))!;
    expect(e).toMatchObject({ match: 'outlet', strength: 'new', since: '2026-11-13', days: 3, pages: 1, pitched_on: '2026-11-10' });
    expect(await a.call('results:cited', { brandId: a.brand })).toEqual({ ids: [o.id] });
    expect(e.citation).toMatchObject({ url: `https://blog.${o.domain}/cold-brew-roundup`, times_cited: 9, prompts: ['best cold brew maker'] });
    // Nothing is marked Won without the user (the setting is off by default).
    expect(a.opportunity(o.id)!.item.stage).toBe('Contacted');

    // The pitched page, cited since before the pitch, now mentions the brand: a flip between two syncs, the strongest.
    sim.mutate({ cite: [{ url: o.url, mentions_brand: true }] });
    summary = await a.sync();
    expect(summary.brands[0]!.cited).toBe(1);
    e = (await a.call<Evidence>('results:evidence', { brandId: a.brand, id: o.id }))!;
    // The flip counts from the day the sync saw it (the sync's own clock).
    expect(e).toMatchObject({ match: 'page', strength: 'flip', since: new Date().toISOString().slice(0, 10), first_since: '2026-11-13', pages: 2 });
    expect(e.citation.url).toBe(o.url);
    // A sync that brings nothing new counts nothing new.
    summary = await a.sync();
    expect(summary.brands[0]!.cited).toBe(0);
    await a.s.close();
    a.tmp.cleanup();
  });

  it('with "mark Won by itself" on, a sync that finds evidence marks it Won; one key marks Won, and undo puts the stage back', async () => {
    const a = await app();
    const o = await opportunityAt(a);
    const other = await opportunityAt(a);
    a.setToday('2026-11-05');
    await a.act([o.id], { do: 'contacted', addresses: [] });
    await a.act([other.id], { do: 'stage', stage: 'Replied' });
    a.setToday(TODAY);
    expect((await a.call<{ autoMarkWon: boolean }>('settings:get')).autoMarkWon).toBe(false);
    await a.call('settings:set', { autoMarkWon: true });
    sim.mutate({ cite: [cite({ url: `https://${o.domain}/news/cold-brew`, domain: o.domain, first_seen: '2026-11-08T10:00:00Z', mentions_brand: true })] });
    const summary = await a.sync();
    expect(summary.brands[0]).toMatchObject({ cited: 1, markedWon: 1 });
    expect(a.opportunity(o.id)!.item).toMatchObject({ stage: 'Won' });
    const history = async (id: string) =>
      (await a.call<{ entries: HistoryEntry[] }>('history:get', { brandId: a.brand, id })).entries.map((e) => `${e.kind}: ${e.detail}`);
    // The automatic mark is the owner's action: in the history like any other.
    expect(await history(o.id)).toContain('stage: Won');

    // One key: Won, through the owner (the won intent); the undo every action has brings back what it was.
    const won = await a.act([other.id], { do: 'won' });
    expect(won.actionId).not.toBeNull();
    expect(a.opportunity(other.id)!.item.stage).toBe('Won');
    expect(await history(other.id)).toContain('stage: Won');
    await a.call('triage:undo', { brandId: a.brand });
    expect(a.opportunity(other.id)!.item).toMatchObject({ stage: 'Replied' });
    // The automatic mark undoes the same way: the next undo takes it back.
    await a.call('triage:undo', { brandId: a.brand });
    expect(a.opportunity(o.id)!.item).toMatchObject({ stage: 'Contacted' });
    await expect(a.act(['no-such-one'], { do: 'won' })).rejects.toMatchObject({ kind: 'not-found' });
    await a.s.close();
    a.tmp.cleanup();
  });
});

describe('the Results over a period, the report and its tables', () => {
  it('funnel by week, wins with evidence, time to citation, outlets by type; tables read back by Python; the report written as HTML that runs nothing, and as the PDF main printed', async () => {
    const a = await app();
    const x = await opportunityAt(a);
    const y = await opportunityAt(a);
    const z = await opportunityAt(a);
    for (const [o, day] of [
      [x, '2026-11-03'],
      [y, '2026-11-04'],
      [z, '2026-11-11'],
    ] as const) {
      a.setToday(day);
      await a.act([o.id], { do: 'contacted', addresses: [] });
    }
    a.setToday(TODAY);
    await a.act([y.id], { do: 'stage', stage: 'Replied' });
    await a.act([y.id], { do: 'won' });
    sim.mutate({
      cite: [
        cite({
          url: `https://${x.domain}/a`,
          domain: x.domain,
          first_seen: '2026-11-09T10:00:00Z',
          mentions_brand: true,
          times_cited: 40,
          prompts: ['=cmd|x', 'best'],
        }),
        // Cited in more prompts than a spreadsheet cell holds once they are joined (below: the workbook's cell is cut, with a marker).
        cite({
          url: `https://${z.domain}/b`,
          domain: z.domain,
          first_seen: '2026-11-12T10:00:00Z',
          mentions_brand: true,
          prompts: Array.from({ length: 50 }, (_, i) => `${i}: ${'which cold brew maker suits a small office? '.repeat(25)}`),
        }),
      ],
    });
    await a.sync();
    const r = await a.call<ResultsReport>('results:get', { brandId: a.brand, period: 'custom', from: '2026-11-01', to: TO });
    expect(r.totals).toEqual({ pitched: 3, replied: 1, won: 1, cited: 2 });
    expect(r.funnel.slice(0, 4).map((w) => [w.week, w.pitched, w.replied, w.won, w.cited])).toEqual([
      ['2026-11-01', 0, 0, 0, 0],
      ['2026-11-02', 2, 1, 1, 1],
      ['2026-11-09', 1, 0, 0, 1],
      ['2026-11-16', 0, 0, 0, 0],
    ]);
    expect(r.wins.map((w) => w.id).sort()).toEqual([x.id, y.id, z.id].sort());
    expect(r.wins.find((w) => w.id === x.id)!.evidence).toMatchObject({ days: 6, match: 'outlet' });
    expect(r.wins.find((w) => w.id === y.id)).toMatchObject({ evidence: null, won_on: NOW });
    expect(r.timing).toMatchObject({ count: 2, median_days: 4, fastest_days: 1, slowest_days: 6 });
    expect(r.outlets).toEqual([{ type: 'review site', pitched: 3, replied: 1, won: 1, cited: 2 }]);
    expect(r.events.find((d) => d.date === '2026-11-09')!.cited.map((c) => c.id)).toEqual([x.id]);
    expect(r.scores.length).toBe(20);
    await expect(a.call('results:get', { brandId: a.brand, period: 'custom', from: '2026-12-01', to: '2026-11-01' })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
    await expect(a.call('results:get', { brandId: a.brand, period: 'custom', from: '2026-11-01' })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'to',
    });
    // A preset is the core's calendar's: this month to today, last month whole.
    expect((await a.call<ResultsReport>('results:get', { brandId: a.brand, period: 'this-month' })).period).toEqual({
      from: '2026-11-01',
      to: TODAY,
      label: 'November 2026',
    });
    const october = await a.call<ResultsReport>('results:get', { brandId: a.brand, period: 'last-month' });
    expect(october.period).toEqual({ from: '2026-10-01', to: '2026-10-31', label: 'October 2026' });
    expect(october.totals).toEqual({ pitched: 0, replied: 0, won: 0, cited: 0 });

    // The tables: one workbook under the name confirmed, a sheet per table, read by openpyxl;
    // CSV files (the funnel under the name confirmed, the others beside it) read by Python's csv.
    execFileSync('mkdir', ['-p', join(a.tmp.dir, 'xlsx')]);
    a.platform.saveAs = join(a.tmp.dir, 'xlsx', 'results.xlsx');
    let file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'results.xlsx' })).file!.handle;
    const books = await a.call<{ files: string[] }>('results:export', { brandId: a.brand, period: 'custom', from: '2026-11-01', to: TO, format: 'xlsx', file });
    expect(books.files).toEqual(['results.xlsx']);
    expect(readdirSync(join(a.tmp.dir, 'xlsx')).sort()).toEqual([...books.files].sort());
    const book = JSON.parse(
      execFileSync(
        PY,
        [
          '-c',
          'import json,sys,openpyxl\nbook={}\nfor f in sys.argv[1:]:\n  wb=openpyxl.load_workbook(f)\n  book.update({ws.title:[[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets})\nprint(json.dumps(book, default=str))',
          ...books.files.map((f) => join(a.tmp.dir, 'xlsx', f)),
        ],
        { encoding: 'utf8' },
      ),
    ) as Record<string, unknown[][]>;
    expect(Object.keys(book)).toEqual(['Funnel by week', 'Wins', 'Outlets by type', 'Time to citation']);
    expect(book['Funnel by week']!.at(-1)).toEqual(['Total', 3, 1, 1, 2]);
    const wins = book.Wins!;
    const prompts = wins[0]!.indexOf('Prompts');
    // Text stays text in a workbook: a prompt starting with = is not a formula.
    expect(wins.find((row) => row[0] === `Best cold brew makers (${outletsMade() - 2})`)![prompts]).toBe('=cmd|x; best');
    // A cell over a spreadsheet's 32,767 characters is cut, and says so (Excel would otherwise refuse or cut it silently).
    const long = String(wins.find((row) => row[0] === `Best cold brew makers (${outletsMade()})`)![prompts]);
    expect(long.length).toBeLessThanOrEqual(32_767);
    expect(long).toMatch(/more characters cut: a spreadsheet cell holds 32,767\]$/);
    a.platform.saveAs = join(a.tmp.dir, 'csv', 'results.csv');
    execFileSync('mkdir', ['-p', join(a.tmp.dir, 'csv')]);
    file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'results.csv' })).file!.handle;
    const out = await a.call<{ files: string[] }>('results:export', { brandId: a.brand, period: 'custom', from: '2026-11-01', to: TO, format: 'csv', file });
    expect(out.files).toEqual(['results.csv', 'results-wins.csv', 'results-outlets.csv', 'results-timing.csv']);
    expect(readdirSync(join(a.tmp.dir, 'csv')).sort()).toEqual([...out.files].sort());
    const py = (f: string) =>
      JSON.parse(
        execFileSync(
          PY,
          ['-c', 'import csv,json,sys\nwith open(sys.argv[1], newline="", encoding="utf-8-sig") as f: print(json.dumps(list(csv.reader(f))))', f],
          {
            encoding: 'utf8',
          },
        ),
      ) as string[][];
    expect(py(join(a.tmp.dir, 'csv', 'results.csv')).at(-1)).toEqual(['Total', '3', '1', '1', '2']);
    // In a CSV, the formula guard.
    expect(py(join(a.tmp.dir, 'csv', 'results-wins.csv')).some((row) => row.includes("'=cmd|x; best"))).toBe(true);
    // Both kept in the user's record of exports made, by file name.
    expect(
      a.s.cache.exports
        .list()
        .filter((x) => x.preset === 'results')
        .map((x) => x.file_name),
    ).toEqual(['results.csv, results-wins.csv, results-outlets.csv, results-timing.csv', 'results.xlsx']);
    // Another file where a table would go beside the name confirmed is never replaced: refused, naming it, nothing written.
    execFileSync('mkdir', ['-p', join(a.tmp.dir, 'taken')]);
    writeFileSync(join(a.tmp.dir, 'taken', 'q4-outlets.csv'), 'my own notes\n');
    a.platform.saveAs = join(a.tmp.dir, 'taken', 'q4.csv');
    file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'q4.csv' })).file!.handle;
    await expect(a.call('results:export', { brandId: a.brand, period: 'custom', from: '2026-11-01', to: TO, format: 'csv', file })).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining('q4-outlets.csv is already in'),
    });
    expect(readdirSync(join(a.tmp.dir, 'taken'))).toEqual(['q4-outlets.csv']);
    expect(readFileSync(join(a.tmp.dir, 'taken', 'q4-outlets.csv'), 'utf8')).toBe('my own notes\n');

    // The report as HTML: the window's markup and styles, a policy that runs nothing, active tags made text.
    a.platform.saveAs = join(a.tmp.dir, 'report.html');
    file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'report.html' })).file!.handle;
    await a.call('results:save-report', {
      format: 'html',
      file,
      title: 'Results <November>',
      html: '<main class="report-page"><h1>Results</h1><p title="<script>x</script>">3 pitched</p><script>alert(1)</script></main>',
      css: '.report-page { color: #111 } </style><script>',
    });
    const html = readFileSync(a.platform.saveAs, 'utf8');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    expect(html).toContain('<title>Results &lt;November&gt;</title>');
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<\/style/gi)).toHaveLength(1);
    expect(html).toContain('<p title="&lt;script>x&lt;/script>">3 pitched</p>');

    // The PDF main printed is written as it came; anything else is refused and nothing is left.
    a.platform.saveAs = join(a.tmp.dir, 'report.pdf');
    a.platform.pdf = new Uint8Array(Buffer.from('not a pdf'));
    file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'report.pdf' })).file!.handle;
    await expect(a.call('results:save-report', { format: 'pdf', file })).rejects.toMatchObject({ kind: 'internal' });
    expect(existsSync(a.platform.saveAs)).toBe(false);
    a.platform.pdf = new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'));
    file = (await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'report.pdf' })).file!.handle;
    expect(await a.call('results:save-report', { format: 'pdf', file })).toEqual({ name: 'report.pdf', bytes: 15 });
    expect(readFileSync(a.platform.saveAs, 'latin1')).toBe('%PDF-1.4\n%%EOF\n');
    await a.s.close();
    a.tmp.cleanup();
  });
});

describe('demo mode shows it working', () => {
  it("the demo's pitches are in a fresh demo record; their outlets' citations are evidence; the page that begins to mention the brand shows at the next sync", async () => {
    const tmp = tempDir();
    const { s, platform } = await openApp({ keychain: new FakeKeychain('unavailable'), dir: tmp, demo: true, demoOpportunities: 600 });
    const demo = (
      s as unknown as {
        parts: { life: { demo: { pitches(): { brandId: string; pitches: { opportunityId: string; cited: string | null; pitchedOn: string }[] }[] } } };
      }
    ).parts.life.demo;
    const all = demo.pitches();
    const call = looseCaller(s);
    expect(
      allTriage(s.cache.readable)
        .map((t) => t.opportunity_id)
        .sort(),
    ).toEqual(all.flatMap((b) => b.pitches.map((p) => p.opportunityId)).sort());
    let done = platform.waitFor('sync:done');
    await s.launch();
    expect((await done).summary.error).toBeNull();
    const first = all[0]!;
    const evidence = (id: string) => call<Evidence | null>('results:evidence', { brandId: first.brandId, id });
    for (const p of first.pitches.filter((x) => x.cited === 'outlet-new' || x.cited === 'page-new'))
      expect(await evidence(p.opportunityId)).toMatchObject({ strength: 'new', pitched_on: p.pitchedOn });
    const flip = first.pitches.find((p) => p.cited === 'page-flip')!;
    expect((await evidence(flip.opportunityId))?.strength).not.toBe('flip');
    const today = s.today();
    const report = await call<ResultsReport>('results:get', { brandId: first.brandId, period: 'custom', from: addDays(today, -60), to: today });
    expect(report.totals.pitched).toBe(first.pitches.length);
    expect(report.totals.cited).toBeGreaterThanOrEqual(first.pitches.filter((x) => x.cited === 'outlet-new' || x.cited === 'page-new').length);

    done = platform.waitFor('sync:done');
    s.parts.sync.start({});
    const second = (await done).summary;
    expect(await evidence(flip.opportunityId)).toMatchObject({ match: 'page', strength: 'flip' });
    expect(second.brands.find((b) => b.brandId === first.brandId)!.cited).toBeGreaterThanOrEqual(1);

    // Reset: a fresh demo record with the same pitches.
    setTriage(s.cache, first.brandId, flip.opportunityId, { stage: 'Won' });
    done = platform.waitFor('sync:done');
    await s.parts.life.resetDemo();
    await done;
    expect(triageOf(s.cache, first.brandId, flip.opportunityId).stage).not.toBe('Won');
    expect(allTriage(s.cache.readable)).toHaveLength(all.flatMap((b) => b.pitches).length);
    await s.close();
    tmp.cleanup();
  });
});
