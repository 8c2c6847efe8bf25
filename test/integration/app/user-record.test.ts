// The user's record through the app's own handlers, on real files: history in
// the detail pane, backups (written after changes, kept a week, restored with
// what is there now backed up first), the record moved to another laptop and
// merged back (conflicts settled by the later write, twice changes nothing, a
// newer app's or a cut-short file refused with nothing changed), the
// do-not-contact list to and from CSV, and a cache damaged while open rebuilt
// with the record carried over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { uptime } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { triageRecord } from '../../../electron/core/store/triage';
import { count, list as storeList, setTriage } from '../../support/store';
import { tempDir } from '../../support/tmp';
import type { MethodName } from '../../../shared/contract';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 8, opportunities: 300, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 5 });
});
afterAll(() => sim.close());

async function app(dir?: string) {
  const tmp = tempDir();
  const userDataDir = dir ?? tmp.dir;
  const platform = new FakePlatform();
  const keychain = new FakeKeychain();
  keychain.value = DEMO_KEY;
  const s = await AppService.create({
    userDataDir,
    platform,
    keychain,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    integrityCheckDelayMs: 60_000,
  });
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  const h = createHandlers(s);
  const call = async <T = unknown>(m: MethodName, ...args: unknown[]): Promise<T> => {
    const r = await dispatch(h, m, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
    return r.value as T;
  };
  return { s, platform, call, dir: userDataDir, tmp };
}

async function synced(dir?: string) {
  const a = await app(dir);
  a.s.parts.sync.start({});
  await a.s.settle();
  const brand = a.s.cache.brands.list()[0]!.id;
  const ids = storeList(a.s.cache, { brandId: brand }, { limit: 50 }).map((o) => o.id);
  return { ...a, brand, ids };
}

/** Choose a file in "main's dialog": the next open or save dialog answers with this path. */
async function choose(a: Awaited<ReturnType<typeof app>>, purpose: string, path: string): Promise<string> {
  a.platform.openFrom = path;
  a.platform.saveAs = path;
  const { file } = await a.call<{ file: { handle: string; name: string } }>('files:choose', { purpose });
  expect(file.name).toBe(path.split('/').pop());
  return file.handle;
}

describe('history: what was done to an opportunity, and at its outlet', () => {
  it('stage, note (typing is one entry), star and an export each leave a line; other opportunities at the same outlet show their contacts', async () => {
    const a = await synced();
    // Two opportunities at one outlet.
    const pair = a.s.cache.db
      .prepare("SELECT min(id) AS id, max(id) AS twin FROM opportunities WHERE domain != '' GROUP BY domain HAVING count(*) > 1 LIMIT 1")
      .get() as { id: string; twin: string };
    expect(pair).toBeDefined();
    const id = pair.id;
    const act = (action: object) => a.call('triage:apply', { brandId: a.brand, ids: [id], action });
    await act({ do: 'stage', stage: 'Drafted' });
    for (const note of ['C', 'Ca', 'Called Ana']) await act({ do: 'note', text: note });
    await act({ do: 'star', on: true });
    await act({ do: 'contacted', on: '2026-11-20', addresses: [] });
    // Exported, marked as exported: the line names the file.
    a.platform.saveAs = join(a.dir, 'for-the-mail-tool.csv');
    const { file } = await a.call<{ file: { handle: string } }>('export:choose-file', { suggestedName: 'for-the-mail-tool.csv' });
    const done = a.platform.waitFor('export:done');
    await a.call('export:start', {
      options: { brandId: a.brand, preset: 'opportunities', filter: { includeArchived: true, ids: [id] }, markExported: true },
      file: file.handle,
    });
    expect((await done).error).toBeNull();
    const h = await a.call<{ entries: { kind: string; label: string; detail: string }[] }>('history:get', { brandId: a.brand, id });
    // (Marked contacted moves the stage on in the same write: its line and the stage's share a time, in the table's order.)
    expect(h.entries.map((e) => [e.label, e.detail])).toEqual([
      ['Exported', 'in for-the-mail-tool.csv'],
      ['Stage', 'Contacted'],
      ['Marked contacted', '2026-11-20'],
      ['Star', 'on'],
      ['Note edited', 'Called Ana'],
      ['Stage', 'Drafted'],
    ]);
    // The other opportunity at the same outlet: its history names this contact (not the note or the star).
    const o = await a.call<{ entries: unknown[]; sameOutlet: { opportunity_id: string; label: string }[] }>('history:get', { brandId: a.brand, id: pair.twin });
    expect(o.entries).toEqual([]);
    expect(o.sameOutlet.map((e) => [e.opportunity_id, e.label])).toEqual([
      [id, 'Exported'],
      [id, 'Marked contacted'],
    ]);
    await a.s.close();
    a.tmp.cleanup();
  });
});

describe('backups of the user record', () => {
  it('are written at quit when something changed, not when nothing did, and restore with date and counts, backing up what is there first', async () => {
    const a = await synced();
    await a.call('triage:apply', { brandId: a.brand, ids: [a.ids[0]], action: { do: 'note', text: 'Before the mistake' } });
    await a.s.close();
    const first = readdirSync(join(a.dir, 'backups')).filter((f) => f.endsWith('.json.gz'));
    expect(first).toHaveLength(1);
    // The backup holds only the user's record: no server data.
    const record = JSON.parse(gunzipSync(readFileSync(join(a.dir, 'backups', first[0]!))).toString('utf8'));
    expect(Object.keys(record).sort()).toEqual([
      'app_version',
      'created_at',
      'do_not_contact',
      'drafts',
      'exports',
      'format',
      'history',
      'snippets',
      'triage',
      'version',
    ]);
    expect(record.triage).toEqual([expect.objectContaining({ opportunity_id: a.ids[0], note: 'Before the mistake' })]);

    // Nothing changed: no new backup at the next quit.
    const b = await app(a.dir);
    await b.s.close();
    expect(readdirSync(join(a.dir, 'backups')).filter((f) => f.endsWith('.json.gz'))).toHaveLength(1);

    // A bulk mistake, then the restore.
    const c = await app(a.dir);
    await c.call('triage:apply', { brandId: a.brand, ids: a.ids.slice(0, 10), action: { do: 'note', text: 'oops' } });
    const { backups } = await c.call<{ backups: { id: string; created_at: string; counts: { triage: number; notes: number } }[] }>('backups:list');
    expect(backups[0]!.counts).toMatchObject({ triage: 1, notes: 1 });
    const r = await c.call<{ restored: { id: string }; safety: { counts: { triage: number } } }>('backups:restore', { id: backups[0]!.id });
    expect(r.safety.counts.triage).toBe(10);
    expect(triageRecord(c.s.cache.readable, a.brand, a.ids[0]!)?.note).toBe('Before the mistake');
    expect(triageRecord(c.s.cache.readable, a.brand, a.ids[5]!)).toBeUndefined();
    // A path is never a backup's name.
    await expect(c.call('backups:restore', { id: '../workbench.db' })).rejects.toMatchObject({ kind: 'invalid-input' });
    await c.s.close();
    a.tmp.cleanup();
  });
});

describe('the record moved to a new laptop', () => {
  it('exports to one versioned file, imports on a fresh app with nothing else, and a second import changes nothing', async () => {
    const a = await synced();
    for (const action of [{ do: 'won' }, { do: 'note', text: 'Won a mention' }, { do: 'star', on: true }])
      await a.call('triage:apply', { brandId: a.brand, ids: [a.ids[0]], action });
    await a.call('dnc:add', { value: 'nobody@outlet.example' });
    const file = join(a.dir, 'my-record.json');
    const counts = await a.call('record:export', { file: await choose(a, 'record-export', file) });
    expect(counts).toMatchObject({ triage: 1, notes: 1, do_not_contact: 1 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'outreach-workbench-record', version: 3 });

    const b = await synced();
    const handle = await choose(b, 'record-import', file);
    const preview = await b.call<{ triage: { added: number }; nothingChanged: boolean }>('record:import-preview', { file: handle });
    expect(preview).toMatchObject({ triage: { added: 1 }, nothingChanged: false });
    expect(triageRecord(b.s.cache.readable, a.brand, a.ids[0]!)).toBeUndefined(); // a preview changes nothing
    await b.call('record:import', { file: handle });
    expect(triageRecord(b.s.cache.readable, a.brand, a.ids[0]!)).toMatchObject({ stage: 'Won', note: 'Won a mention', starred: true });
    expect(b.s.cache.doNotContact.list().map((d) => d.value)).toEqual(['nobody@outlet.example']);
    const again = await b.call<{ nothingChanged: boolean; triage: { unchanged: number } }>('record:import', { file: await choose(b, 'record-import', file) });
    expect(again).toMatchObject({ nothingChanged: true, triage: { unchanged: 1 } });
    await a.s.close();
    await b.s.close();
    a.tmp.cleanup();
    b.tmp.cleanup();
  });

  it('both sides changed: reported as conflicts and settled field by field by the later write', async () => {
    const a = await synced();
    const id = a.ids[1]!;
    setTriage(a.s.cache, a.brand, id, { note: 'from the old laptop', stage: 'Drafted' }, '2026-11-20T10:00:00.000Z');
    setTriage(a.s.cache, a.brand, id, { stage: 'Won' }, '2026-11-22T10:00:00.000Z');
    const file = join(a.dir, 'old.json');
    await a.call('record:export', { file: await choose(a, 'record-export', file) });

    const b = await synced();
    setTriage(b.s.cache, b.brand, id, { note: 'written here later', stage: 'Not a fit' }, '2026-11-21T10:00:00.000Z');
    const r = await b.call<{ conflicts: { field: string; kept: string }[]; conflictCount: number }>('record:import', {
      file: await choose(b, 'record-import', file),
    });
    expect(r.conflictCount).toBe(2);
    expect(r.conflicts.map((c) => [c.field, c.kept]).sort()).toEqual([
      ['note', 'local'],
      ['stage', 'incoming'],
    ]);
    expect(triageRecord(b.s.cache.readable, b.brand, id)).toMatchObject({ note: 'written here later', stage: 'Won' });
    await a.s.close();
    await b.s.close();
    a.tmp.cleanup();
    b.tmp.cleanup();
  });

  it('one side changed is no conflict: an old export of this record imported again, and a file that had seen our write and changed it since', async () => {
    const a = await synced();
    const id = a.ids[2]!;
    setTriage(a.s.cache, a.brand, id, { note: 'first thoughts', stage: 'Drafted' }, '2026-11-20T10:00:00.000Z');
    const monday = join(a.dir, 'monday.json');
    await a.call('record:export', { file: await choose(a, 'record-export', monday) });
    setTriage(a.s.cache, a.brand, id, { note: 'pitched Ana, waiting', stage: 'Won' }, '2026-11-21T10:00:00.000Z');
    // Monday's file again, on the same laptop: it only carries an older state of ours.
    const again = await a.call<{ conflictCount: number; triage: { updated: number } }>('record:import', { file: await choose(a, 'record-import', monday) });
    expect(again.conflictCount).toBe(0);
    expect(again.triage.updated).toBe(0);
    expect(triageRecord(a.s.cache.readable, a.brand, id)).toMatchObject({ note: 'pitched Ana, waiting', stage: 'Won' });

    // A colleague imported our record, then changed the note: only their side changed since.
    const b = await synced();
    const ours = join(a.dir, 'ours.json');
    await a.call('record:export', { file: await choose(a, 'record-export', ours) });
    await b.call('record:import', { file: await choose(b, 'record-import', ours) });
    setTriage(b.s.cache, b.brand, id, { note: 'Ana replied: yes' }, '2026-11-22T10:00:00.000Z');
    const theirs = join(b.dir, 'theirs.json');
    await b.call('record:export', { file: await choose(b, 'record-export', theirs) });
    const back = await a.call<{ conflictCount: number; triage: { updated: number } }>('record:import', { file: await choose(a, 'record-import', theirs) });
    expect(back.conflictCount).toBe(0);
    expect(back.triage.updated).toBe(1);
    expect(triageRecord(a.s.cache.readable, a.brand, id)).toMatchObject({ note: 'Ana replied: yes', stage: 'Won' });
    await a.s.close();
    await b.s.close();
    a.tmp.cleanup();
    b.tmp.cleanup();
  });

  it('having seen the other write only after making its own is still a conflict (the later write wins and it is reported)', async () => {
    const a = await synced();
    const b = await synced();
    const id = a.ids[3]!;
    setTriage(a.s.cache, a.brand, id, { stage: 'Won' }, '2026-11-20T06:00:00.000Z');
    const fromA = join(a.dir, 'a.json');
    await a.call('record:export', { file: await choose(a, 'record-export', fromA) });
    // B changes the stage without having seen A's, then imports A's file (A's event enters B's history after B's own).
    setTriage(b.s.cache, b.brand, id, { stage: 'Not a fit' }, '2026-11-20T07:00:00.000Z');
    const atB = await b.call<{ conflictCount: number }>('record:import', { file: await choose(b, 'record-import', fromA) });
    expect(atB.conflictCount).toBe(1);
    const fromB = join(b.dir, 'b.json');
    await b.call('record:export', { file: await choose(b, 'record-export', fromB) });
    // Back at A: B's write is later and wins, and A is told its Done was replaced.
    const atA = await a.call<{ conflicts: { field: string; kept: string }[]; conflictCount: number }>('record:import', {
      file: await choose(a, 'record-import', fromB),
    });
    expect(atA.conflicts.map((c) => [c.field, c.kept])).toEqual([['stage', 'incoming']]);
    expect(triageRecord(a.s.cache.readable, a.brand, id)).toMatchObject({ stage: 'Not a fit' });
    await a.s.close();
    await b.s.close();
    a.tmp.cleanup();
    b.tmp.cleanup();
  });

  it("an older app's record (version 2, with a local status) still imports: each status carried onto the stage by the later word, and the record written again is version 3, without one", async () => {
    const a = await synced();
    const [p, q, r] = [a.ids[5]!, a.ids[6]!, a.ids[7]!];
    const at = (d: number) => `2026-11-0${d}T10:00:00.000Z`;
    const row = (id: string, fields: Record<string, unknown>) => ({
      brand_id: a.brand,
      opportunity_id: id,
      note: '',
      note_changed_at: null,
      starred: false,
      starred_changed_at: null,
      contacted_at: null,
      contacted_changed_at: null,
      exported_at: null,
      exported_changed_at: null,
      updated_at: at(5),
      ...fields,
    });
    const old = {
      format: 'outreach-workbench-record',
      version: 2,
      app_version: '0.0.9',
      created_at: at(6),
      triage: [
        // A status and no stage: In Progress is Drafted.
        row(p, { status: 'In Progress', status_changed_at: at(1) }),
        // Contacted, then Done later: Won.
        row(q, {
          status: 'Done',
          status_changed_at: at(3),
          stage: 'Contacted',
          stage_changed_at: at(2),
          contacted_at: '2026-11-02',
          contacted_changed_at: at(2),
        }),
        // Archived before the stage was set to Replied: the stage stays.
        row(r, { status: 'Archived', status_changed_at: at(1), stage: 'Replied', stage_changed_at: at(4) }),
      ],
      do_not_contact: [],
      exports: [],
      history: [],
      drafts: [],
      snippets: [],
    };
    const file = join(a.dir, 'older.json');
    writeFileSync(file, JSON.stringify(old));
    const done = await a.call<{ triage: { added: number } }>('record:import', { file: await choose(a, 'record-import', file) });
    expect(done.triage.added).toBe(3);
    expect([p, q, r].map((id) => triageRecord(a.s.cache.readable, a.brand, id)!.stage)).toEqual(['Drafted', 'Won', 'Replied']);
    expect(triageRecord(a.s.cache.readable, a.brand, q)).toMatchObject({ stage_changed_at: at(3), contacted_at: '2026-11-02' });
    const again = join(a.dir, 'again.json');
    await a.call('record:export', { file: await choose(a, 'record-export', again) });
    const written = JSON.parse(readFileSync(again, 'utf8')) as { version: number; triage: Record<string, unknown>[] };
    expect(written.version).toBe(3);
    expect(written.triage.every((t) => !('status' in t) && !('status_changed_at' in t))).toBe(true);
    await a.s.close();
    a.tmp.cleanup();
  });

  it("a file cut short, another program's JSON, or a newer app's record: refused in plain words, nothing changed", async () => {
    const a = await synced();
    setTriage(a.s.cache, a.brand, a.ids[0]!, { note: 'mine' });
    const good = join(a.dir, 'good.json');
    await a.call('record:export', { file: await choose(a, 'record-export', good) });
    const text = readFileSync(good, 'utf8');
    const cases: [string, string, RegExp][] = [
      ['cut.json', text.slice(0, Math.floor(text.length / 2)), /not a complete JSON document/],
      ['other.json', JSON.stringify({ name: 'package', version: '1.0.0' }), /not an Outreach Workbench record file/],
      ['newer.json', text.replace('"version": 3', '"version": 7'), /newer version of Outreach Workbench \(record version 7; this app reads up to 3\)/],
      ['wrong.json', text.replace('"note": "mine"', '"note": 42'), /The record file is damaged: triage\.0\.note/],
    ];
    const before = JSON.stringify(a.s.cache.record.read('x', new Date(0)));
    for (const [name, body, why] of cases) {
      const path = join(a.dir, name);
      writeFileSync(path, body);
      await expect(a.call('record:import', { file: await choose(a, 'record-import', path) }), name).rejects.toMatchObject({
        kind: 'invalid-input',
        message: expect.stringMatching(why),
      });
    }
    expect(JSON.stringify(a.s.cache.record.read('x', new Date(0)))).toBe(before);
    await a.s.close();
    a.tmp.cleanup();
  });
});

describe('the do-not-contact list as CSV', () => {
  it('imports one value a line or a column by name, with a preview that counts what is skipped and why; exports with the formula guard', async () => {
    const a = await app();
    await a.call('dnc:add', { value: 'already@list.example' });
    const lines = join(a.dir, 'list.csv');
    writeFileSync(lines, 'email\nana@outlet.example\nOUTLET2.example\nnot an address\nana@outlet.example\nalready@list.example\n\n@example.org\n');
    const handle = await choose(a, 'dnc-import', lines);
    const p = await a.call<Record<string, unknown>>('dnc:import-preview', { file: handle });
    expect(p).toMatchObject({ column: null, rows: 7, toAdd: 3, already: 1, skipped: 3 });
    expect(p.skippedReasons).toEqual({ 'a header, not an address or domain': 1, 'not an e-mail address or domain': 1, 'repeated in the file': 1 });
    expect(a.s.cache.doNotContact.list()).toHaveLength(1);
    await a.call('dnc:import', { file: handle });
    expect(
      a.s.cache.doNotContact
        .list()
        .map((d) => `${d.kind}:${d.value}`)
        .sort(),
    ).toEqual(['address:already@list.example', 'address:ana@outlet.example', 'domain:example.org', 'domain:outlet2.example']);

    const wide = join(a.dir, 'crm.csv');
    writeFileSync(wide, 'Name,Work Email,Company\nBo,bo@paper.example,Paper\nCy,=HYPERLINK("x"),Evil\n');
    await expect(a.call('dnc:import-preview', { file: await choose(a, 'dnc-import', wide) })).rejects.toMatchObject({
      message: "Pick the column to read. The file's columns: Name, Work Email, Company.",
    });
    const byName = await a.call<Record<string, unknown>>('dnc:import', { file: await choose(a, 'dnc-import', wide), column: 'work email' });
    expect(byName).toMatchObject({ column: 'Work Email', toAdd: 1, skipped: 1 });

    a.s.cache.doNotContact.add('cmd.example', '=1+1');
    const out = join(a.dir, 'out.csv');
    expect(await a.call('dnc:export', { file: await choose(a, 'dnc-export', out) })).toEqual({ entries: 6 });
    const csv = readFileSync(out, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('kind,value,note,added_at');
    expect(csv).toContain("'=1+1");
    await a.s.close();
    a.tmp.cleanup();
  });
});

describe('a cache damaged while the app is open', () => {
  it('the background check finds it; the cache is rebuilt with the record carried over, the window told, and a sync refills it', async () => {
    const a = await synced();
    setTriage(a.s.cache, a.brand, a.ids[0]!, { note: 'keep me', stage: 'Won' });
    const listed = count(a.s.cache, { brandId: a.brand });
    const path = a.s.cache.path;
    // Damage a page of the opportunities' records (server data) behind the open connection's back.
    const db = new Database(path, { readonly: true });
    const page = (
      db.prepare("SELECT pageno FROM dbstat WHERE name = 'opportunity_blocks' ORDER BY pageno LIMIT 1 OFFSET 3").get() as {
        pageno: number;
      }
    ).pageno;
    db.close();
    a.s.cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const fd = openSync(path, 'r+');
    const pageSize = a.s.cache.db.pragma('page_size', { simple: true }) as number;
    writeSync(fd, Buffer.alloc(2000, 0x5a), 0, 2000, (page - 1) * pageSize);
    closeSync(fd);
    expect(await a.s.checkIntegrity()).toEqual({ ok: false });
    const told = a.platform.events.find((e) => e.event === 'cache:recovered')!.payload as { message: string };
    expect(told.message).toMatch(
      /^The cache file was damaged\. It was kept aside as .+ and a fresh cache was built\. Recovered from it: 1 triaged opportunity \(1 note\)/,
    );
    expect(triageRecord(a.s.cache.readable, a.brand, a.ids[0]!)).toMatchObject({ note: 'keep me', stage: 'Won' });
    await a.s.settle();
    expect(count(a.s.cache, { brandId: a.brand })).toBe(listed);
    expect(a.s.cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(readdirSync(a.dir).some((f) => f.startsWith('workbench.db.damaged-'))).toBe(true);
    expect(existsSync(path)).toBe(true);
    await a.s.close();
    a.tmp.cleanup();
  });

  it('found while another window or terminal has the file open: not moved from under it; the cache stays open, the window is told why, no sync writes to it', async () => {
    const a = await synced();
    setTriage(a.s.cache, a.brand, a.ids[0]!, { note: 'keep me' });
    const path = a.s.cache.path;
    const db = new Database(path, { readonly: true });
    const page = (
      db.prepare("SELECT pageno FROM dbstat WHERE name = 'opportunity_blocks' ORDER BY pageno LIMIT 1 OFFSET 3").get() as {
        pageno: number;
      }
    ).pageno;
    db.close();
    a.s.cache.db.pragma('wal_checkpoint(TRUNCATE)');
    // Another process with the cache open: its marker beside the file, as a running `workbench` command leaves it.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const marker = `${path}.open-${other.pid}`;
    writeFileSync(
      marker,
      JSON.stringify({ pid: other.pid, at: new Date().toISOString(), bootedAt: new Date(Date.now() - uptime() * 1000).toISOString() }) + '\n',
    );
    try {
      const fd = openSync(path, 'r+');
      const pageSize = a.s.cache.db.pragma('page_size', { simple: true }) as number;
      writeSync(fd, Buffer.alloc(2000, 0x5a), 0, 2000, (page - 1) * pageSize);
      closeSync(fd);
      const syncsBefore = a.platform.events.filter((e) => e.event === 'sync:done').length;
      expect(await a.s.checkIntegrity()).toEqual({ ok: false });
      const told = a.platform.events.find((e) => e.event === 'cache:recovered')!.payload as { message: string };
      expect(told.message).toContain(`another window or terminal has it open (process ${other.pid}), so it was not repaired now`);
      expect(readdirSync(a.dir).some((f) => f.startsWith('workbench.db.damaged-'))).toBe(false);
      // Still open and answering; the user's record is where it was.
      expect(a.s.cache.db.open).toBe(true);
      expect(triageRecord(a.s.cache.readable, a.brand, a.ids[0]!)).toMatchObject({ note: 'keep me' });
      await a.s.settle();
      expect(a.platform.events.filter((e) => e.event === 'sync:done').length).toBe(syncsBefore);
    } finally {
      other.kill();
      rmSync(marker, { force: true });
    }
    await a.s.close();
    a.tmp.cleanup();
  });
});
