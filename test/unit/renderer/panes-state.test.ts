// The panes beside the list (insights, an opportunity's history, the
// do-not-contact list, the user's record and its backups) and the frame's
// notices, run against the real contract handlers and core in this process
// through an in-process window.workbench (support/window.ts).
// Each test opens its own window on a copy of one synced cache, and lets go of
// it in afterEach: no test depends on another, or on their order.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { DoNotContactList } from '../../../renderer/src/state/do-not-contact.svelte';
import { OpportunityHistory } from '../../../renderer/src/state/history.svelte';
import { InsightsStore } from '../../../renderer/src/state/insights.svelte';
import { RecordStore } from '../../../renderer/src/state/record.svelte';
import { frameOf } from '../../../renderer/src/state/workbench';
import { perFile, until, type TestWindow } from './support/window';

const fixture = perFile();

/** A window with the insights of its frame (not loaded: the frame's brand plays no part). */
async function insightsPane() {
  const win = await fixture.window();
  const app = fixture.frame();
  const insights = new InsightsStore(frameOf(app));
  fixture.cleanup(() => insights.dispose());
  return { win, app, insights };
}

/** A window with its frame loaded and the record store following main's menu. */
async function recordPane() {
  const win = await fixture.window();
  const app = fixture.frame();
  const record = new RecordStore({ frame: frameOf(app), show: (v) => app.show(v), dataChanged: () => app.dataChanged() });
  fixture.cleanup(() => record.dispose());
  await app.load();
  record.start();
  const lastToast = () => app.toasts.at(-1)?.text ?? '';
  return { win, app, record, lastToast };
}

/** The record exported to moved.json in the window's folder (as the first test does through the store). */
async function exported(win: TestWindow, record: RecordStore): Promise<void> {
  win.platform.saveAs = join(win.dir, 'moved.json');
  await record.exportRecord();
}

describe('InsightsStore', () => {
  it('a load superseded by a newer one (another brand) never overwrites it', async () => {
    const { win, insights } = await insightsPane();
    const [a, b] = [fixture.cache.sim.brands[0]!.id, fixture.cache.sim.brands[1]!.id];
    const expected = await win.direct('scores:get', { brandId: b, breakdown: '' });
    const held = win.hold('scores:get', ([x]) => x.brandId === a && x.breakdown === '');
    const stale = insights.load(a);
    await held.reached;
    await insights.load(b);
    expect(insights.loadedFor).toBe(b);
    expect(insights.scores).toEqual(expected.rows);
    const citations = insights.allCitations;
    held.release();
    await stale;
    expect(insights.loadedFor).toBe(b);
    expect(insights.scores).toEqual(expected.rows);
    expect(insights.allCitations).toBe(citations);
  });
  it('a citation filter superseded by a newer one never overwrites it; a failed load says why', async () => {
    const { win, app, insights } = await insightsPane();
    await insights.load(fixture.cache.sim.brands[1]!.id);
    const b = fixture.cache.sim.brands[1]!.id;
    const domain = String(insights.allCitations[0]!.domain);
    const all = (await win.direct('citations:get', { brandId: b, mode: 'citations' })).items.length;
    expect((await win.direct('citations:get', { brandId: b, mode: 'citations', domain })).items.length).toBeLessThan(all);
    const held = win.hold('citations:get', ([x]) => x.domain === domain);
    const stale = insights.filterCitations(b, 'citations', { domain });
    await held.reached;
    await insights.filterCitations(b, 'citations', {});
    expect(insights.citations!.items.length).toBe(all);
    held.release();
    await stale;
    expect(insights.citations!.items.length).toBe(all);

    win.failNext('scores:get', 'The cache could not be read.');
    await expect(insights.load(b)).resolves.toBeUndefined();
    expect(app.toasts.at(-1)).toMatchObject({ kind: 'error', text: 'Insights could not be read: The cache could not be read.' });
  });
  it('gap domains count their opportunities; an older count never overwrites a newer one', async () => {
    const { win, insights } = await insightsPane();
    const b = fixture.cache.sim.brands[1]!.id;
    await insights.load(b);
    const gaps = insights.gaps;
    expect(gaps.length).toBeGreaterThan(1);
    const held = win.hold('opportunities:list', ([x]) => x.filter.domain === gaps[0]!.domain);
    const stale = insights.countGapOpportunities(b, gaps);
    await held.reached;
    await insights.countGapOpportunities(b, gaps.slice(1));
    const newer = insights.gapOpportunities;
    expect(Object.keys(newer).sort()).toEqual(
      gaps
        .slice(1)
        .map((g) => g.domain)
        .sort(),
    );
    const one = gaps[1]!.domain;
    expect(newer[one]).toBe((await win.direct('opportunities:list', { filter: { brandId: b, domain: one }, offset: 0, limit: 1 })).total);
    held.release();
    await stale;
    expect(insights.gapOpportunities).toBe(newer);
  });
});

describe('DoNotContactList', () => {
  it('adds, refuses in plain words, and removes', async () => {
    await fixture.window();
    const dnc = new DoNotContactList();
    await dnc.load();
    expect(await dnc.add('not an address at all')).toBe(false);
    expect(dnc.error).toMatch(/neither an e-mail address nor a domain/);
    expect(await dnc.add('Press@Evil.Example')).toBe(true);
    expect(dnc.error).toBeNull();
    expect(dnc.entries.map((d) => d.value)).toEqual(['press@evil.example']);
    expect(await dnc.remove('press@evil.example')).toBe(true);
    expect(dnc.entries).toEqual([]);
    dnc.dispose();
  });
});

describe('OpportunityHistory', () => {
  it('shows what was done to an opportunity, newest first, and what was done at its outlet', async () => {
    const win = await fixture.window();
    const brandId = fixture.cache.sim.brands[0]!.id;
    const { items } = await win.direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 1000 });
    const byDomain = new Map<string, string[]>();
    for (const it of items as { id: string; domain: string }[]) if (it.domain) byDomain.set(it.domain, [...(byDomain.get(it.domain) ?? []), it.id]);
    const [a, b] = [...byDomain.values()].find((ids) => ids.length >= 2)!;
    await win.direct('triage:apply', { brandId, ids: [a], action: { do: 'stage', stage: 'Drafted' } });
    await win.direct('triage:apply', { brandId, ids: [b], action: { do: 'contacted', on: '2026-11-20', addresses: [] } });
    const history = new OpportunityHistory();
    await history.load(brandId, a!);
    expect(history.isOf(brandId, a!)).toBe(true);
    expect(history.entries[0]).toMatchObject({ kind: 'stage', label: 'Stage', detail: 'Drafted' });
    expect(history.sameOutlet.map((e) => [e.opportunity_id, e.kind])).toContainEqual([b, 'contacted']);
    history.dispose();
  });
  it('an answer for the opportunity the selection has left never shows under the next one', async () => {
    const win = await fixture.window();
    const brandId = fixture.cache.sim.brands[0]!.id;
    const { items } = await win.direct('opportunities:list', { filter: { brandId, sort: 'priority' }, offset: 0, limit: 3 });
    const [x, y] = items as { id: string }[];
    await win.direct('triage:apply', { brandId, ids: [x!.id], action: { do: 'star', on: true } });
    const history = new OpportunityHistory();
    const gate = win.hold('history:get', (args) => args[0].id === x!.id);
    const first = history.load(brandId, x!.id);
    await gate.reached;
    await history.load(brandId, y!.id);
    gate.release();
    await first;
    expect(history.isOf(brandId, y!.id)).toBe(true);
    expect(history.entries.every((e) => e.opportunity_id === y!.id)).toBe(true);
    win.failNext('history:get', 'The engine is busy');
    await history.load(brandId, y!.id);
    expect(history.error).toMatch(/The history could not be read: The engine is busy/);
    history.dispose();
  });
});

describe('RecordStore', () => {
  it('exports the record to the chosen file; a cancelled dialog does nothing', async () => {
    const { win, app, record, lastToast } = await recordPane();
    const toasts = app.toasts.length;
    win.platform.saveAs = null;
    await record.exportRecord();
    expect(app.toasts.length).toBe(toasts);
    win.platform.saveAs = join(win.dir, 'moved.json');
    await record.exportRecord();
    expect(lastToast()).toMatch(/^Your record is saved in moved\.json: \d+ triaged, /);
    const file = JSON.parse(readFileSync(win.platform.saveAs, 'utf8'));
    expect(file).toMatchObject({ format: 'outreach-workbench-record', version: 3 });
    expect(record.busy).toBeNull();
  });
  it('imports a record after a preview with its conflict; the data reloads and a backup is listed', async () => {
    const { win, app, record, lastToast } = await recordPane();
    // A record with a stage in it, exported (as the export test does).
    const first = (await win.direct('opportunities:list', { filter: { brandId: fixture.cache.sim.brands[0]!.id }, offset: 0, limit: 1 })).items[0];
    await win.direct('triage:apply', { brandId: fixture.cache.sim.brands[0]!.id, ids: [first.id], action: { do: 'stage', stage: 'Drafted' } });
    await exported(win, record);
    const brandId = fixture.cache.sim.brands[0]!.id;
    const file = JSON.parse(readFileSync(join(win.dir, 'moved.json'), 'utf8'));
    const row = file.triage.find((t: { stage: string | null }) => t.stage !== null);
    // The same opportunity changed in the file later than here: a conflict the file wins.
    await win.direct('triage:apply', { brandId: row.brand_id, ids: [row.opportunity_id], action: { do: 'won' } });
    row.stage = 'Not a fit';
    row.stage_changed_at = new Date(Date.now() + 60_000).toISOString();
    writeFileSync(join(win.dir, 'incoming.json'), JSON.stringify(file));
    win.platform.openFrom = join(win.dir, 'incoming.json');
    await record.chooseImport();
    const p = record.importing!.preview;
    expect(p.conflictCount).toBe(1);
    expect(p.conflicts[0]).toMatchObject({ field: 'stage', local: 'Won', incoming: 'Not a fit', kept: 'incoming' });
    expect(p.triage.updated).toBe(1);
    const version = app.dataVersion;
    await record.confirmImport();
    expect(record.importing).toBeNull();
    expect(lastToast()).toMatch(/^Imported incoming\.json: .*1 conflict settled by the later change/);
    expect(app.dataVersion).toBe(version + 1);
    expect((await win.direct('opportunities:get', { brandId, id: row.opportunity_id })).triage.stage).toBe('Not a fit');
    expect(record.backups[0]!.reason).toBe('before-import');
  });
  it('a file that is not a record is refused in plain words beside the button; nothing changes', async () => {
    const { win, record } = await recordPane();
    writeFileSync(join(win.dir, 'cut.json'), '{"format": "outreach-workbench-record", "version": 1, "triage": [');
    win.platform.openFrom = join(win.dir, 'cut.json');
    await record.chooseImport();
    expect(record.importing).toBeNull();
    expect(record.importError).toMatch(/^cut\.json: Nothing was imported\. The file is not a complete JSON document/);
    record.cancelImport();
    expect(record.importError).toBeNull();
  });
  it('restores a backup after the confirmation; the record as it was is backed up first', async () => {
    const { record, lastToast } = await recordPane();
    await record.loadBackups();
    const target = record.backups[0]!;
    record.askRestore(target);
    expect(record.restoring).toBe(target);
    await record.confirmRestore();
    expect(record.restoring).toBeNull();
    expect(lastToast()).toMatch(/^Restored the backup of .*: \d+ triaged, .*Your record as it was is kept as a backup too\.$/);
    expect(record.backups[0]!.reason).toBe('before-restore');
  });
  it('a do-not-contact CSV of several columns asks for the column, previews, then imports', async () => {
    const { win, record, lastToast } = await recordPane();
    writeFileSync(
      join(win.dir, 'dnc.csv'),
      'Name,Work mail,Site\nAna,ana@paper.example,paper.example\nBo,not-an-address,\nCy,cy@mag.example,mag.example\nDee,ana@paper.example,\n',
    );
    win.platform.openFrom = join(win.dir, 'dnc.csv');
    const version = record.version;
    await record.chooseDncImport();
    expect(record.dncImport!.preview).toBeNull();
    expect(record.dncImport!.columns).toEqual(['Name', 'Work mail', 'Site']);
    expect(record.dncError).toMatch(/Pick the column/);
    await record.previewDnc('Work mail');
    const p = record.dncImport!.preview!;
    expect(p).toMatchObject({ column: 'Work mail', rows: 4, toAdd: 2, skipped: 2 });
    expect(p.skippedReasons).toEqual({ 'not an e-mail address or domain': 1, 'repeated in the file': 1 });
    expect(record.dncError).toBeNull();
    await record.confirmDncImport();
    expect(record.dncImport).toBeNull();
    expect(lastToast()).toMatch(/^Added 2 entries to the do-not-contact list from dnc\.csv; 2 lines skipped\.$/);
    expect(record.version).toBe(version + 1);
    expect((await win.direct('dnc:list')).map((d: { value: string }) => d.value)).toEqual(expect.arrayContaining(['ana@paper.example', 'cy@mag.example']));
    win.platform.saveAs = join(win.dir, 'dnc-out.csv');
    await record.exportDnc();
    expect(lastToast()).toMatch(/^The do-not-contact list is saved in dnc-out\.csv: \d+ entries\.$/);
    expect(readFileSync(win.platform.saveAs, 'utf8')).toContain('cy@mag.example');
  });
  it('a menu command opens Settings at its part and starts the flow', async () => {
    const { win, app, record } = await recordPane();
    app.show('opportunities');
    win.platform.saveAs = null;
    await record.command('export-record');
    expect(app.view).toBe('settings');
    expect(record.focus?.part).toBe('move');
    win.listeners('app:command').forEach((l) => l({ command: 'restore-backup' }));
    // The command's flow ends once its backups are read.
    await until(() => record.focus?.part === 'backups' && win.inflight() === 0);
    expect(record.backups.length).toBeGreaterThan(0);
  });
});

describe('AppStore: the notices', () => {
  it('a recovery found while open is shown and the data reloads; dismissed, it stays dismissed', async () => {
    const win = await fixture.window();
    const app = fixture.frame();
    await app.load();
    expect(app.recovery).toBeNull();
    const version = app.dataVersion;
    win.platform.emit('cache:recovered', { message: 'The cache file was damaged. It was kept aside.' });
    expect(app.recovery?.message).toBe('The cache file was damaged. It was kept aside.');
    expect(app.dataVersion).toBe(version + 1);
    await app.dismissRecovery();
    expect(app.recovery).toBeNull();
    await app.load();
    expect(app.recovery).toBeNull();
  });
  it('the core’s word that a write waits (whom for, how long at most) is shown', async () => {
    const win = await fixture.window();
    const app = fixture.frame();
    await app.load();
    win.platform.emit('cache:waiting', { message: 'Waiting for sqlite3 (process 4242), which is writing to the cache (/d/workbench.db); up to 30 s…' });
    expect(app.toasts.at(-1)?.text).toBe('Waiting for sqlite3 (process 4242), which is writing to the cache (/d/workbench.db); up to 30 s…');
  });
});
