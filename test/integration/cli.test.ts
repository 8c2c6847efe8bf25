// The `workbench` CLI end to end against the simulator: the same core, real
// SQLite file, exit codes, plain errors, and the key never in the output.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { run, type Io } from '../../electron/cli/main';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { MemorySecretStore } from '../../electron/core/seams';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
let db: string;
let brand: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 21, opportunities: 700, otherBrandOpportunities: 20, citationsPerBrand: 50 });
  brand = sim.brands[0]!.id;
  db = join(tmp.dir, 'cli.db');
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

async function cli(args: string[], opts: { key?: string | null; stdin?: string; secrets?: MemorySecretStore; env?: NodeJS.ProcessEnv } = {}) {
  let out = '';
  let err = '';
  const env: NodeJS.ProcessEnv = { TRAKKR_BASE_URL: sim.url, WORKBENCH_DB: db, WORKBENCH_RATE: '0', ...opts.env };
  if (opts.key !== null) env.TRAKKR_API_KEY = opts.key ?? DEMO_KEY;
  const io: Io = {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    readStdin: async () => opts.stdin ?? '',
    env,
    secrets: opts.secrets ?? new MemorySecretStore(),
  };
  const code = await run(args, io);
  return { code, out, err };
}

describe('workbench CLI', () => {
  it('brands --json gives [{id, name}]', async () => {
    const r = await cli(['brands', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(sim.brands);
  });

  it('sync, then list offline with filters, then triage', async () => {
    const s = await cli(['sync', '--no-citations']);
    expect(s.code).toBe(0);
    expect(s.out).toContain('Northwind Coffee: 700 opportunities checked; 700 added, 0 changed, 0 removed');
    expect(s.err).toContain('Syncing Northwind Coffee');

    await sim.close(); // offline from here on: list reads the cache
    const l = await cli(['list', '--brand', brand, '--json']);
    expect(l.code).toBe(0);
    const items = JSON.parse(l.out) as Record<string, any>[];
    expect(items.length).toBeGreaterThan(400);
    expect(items.every((o) => !o.archived && !o.removed_on_server)).toBe(true);
    for (const k of [
      'id',
      'unique_key',
      'title',
      'domain',
      'url',
      'opportunity_type',
      'stage',
      'server_status',
      'archived',
      'removed_on_server',
      'priority_score',
      'fit_score',
      'difficulty',
      'note',
      'contacts',
    ]) {
      expect(items[0]).toHaveProperty(k);
    }
    const withCatch = items.find((o) => o.contacts.some((c: any) => c.catch_all))!;
    expect(withCatch.contacts.every((c: any) => !c.email.endsWith('CATCH'))).toBe(true);

    const f = JSON.parse(
      (await cli(['list', '--brand', brand, '--json', '--status', 'in progress', '--type', 'publication-gap', '--sort', 'fit_score'])).out,
    ) as Record<string, any>[];
    expect(f.length).toBeGreaterThan(0);
    // --status is Trakkr's own status (the service's data).
    expect(f.every((o) => o.server_status === 'In Progress' && o.opportunity_type === 'publication-gap')).toBe(true);
    for (let i = 1; i < f.length; i++) expect(f[i - 1]!.fit_score).toBeGreaterThanOrEqual(f[i]!.fit_score);

    const target = items[0]!;
    // triage --status still works, deprecated: carried onto the stage it stands for, and said on stderr.
    const t = await cli(['triage', '--brand', brand, '--id', target.id, '--status', 'Done', '--note', 'Pitched by phone']);
    expect(t.code).toBe(0);
    expect(t.err).toMatch(/`triage --status` is deprecated: .* --status Done was taken as the stage Won; next time run `workbench stage/);
    const after = (JSON.parse((await cli(['list', '--brand', brand, '--json', '--stage', 'Won'])).out) as Record<string, any>[]).find(
      (o) => o.id === target.id,
    )!;
    expect(after).toMatchObject({ stage: 'Won', note: 'Pitched by phone', server_status: target.server_status });

    const text = await cli(['list', '--brand', brand, '--limit', '3']);
    expect(text.out.split('\n')[0]).toMatch(/^PRIO\s+FIT\s+STAGE\s+TRAKKR/);

    sim = await startSimulator({
      seed: 21,
      opportunities: 700,
      otherBrandOpportunities: 20,
      citationsPerBrand: 50,
      port: new URL(sim.url).port ? Number(new URL(sim.url).port) : 0,
    });
  });

  it('scores and citations, as the API sent them with --json', async () => {
    const s = await cli(['scores', '--brand', brand, '--breakdown', 'model', '--json']);
    expect(s.code).toBe(0);
    const body = JSON.parse(s.out);
    expect(body).toHaveProperty('brand_name');
    expect(body.data[0]).toHaveProperty('model');
    const c = await cli(['citations', '--brand', brand, '--json']);
    expect(JSON.parse(c.out).items).toHaveLength(50);
    const txt = await cli(['scores', '--brand', brand]);
    expect(txt.out).toMatch(/DATE\s+VISIBILITY\s+PRESENCE/);
  });

  it('bad input exits 2 and sends nothing', async () => {
    const before = sim.requests;
    for (const args of [
      ['list', '--brand', 'nope'],
      ['scores', '--brand', brand, '--start', '2026-01-01', '--end', '2026-06-01'],
      ['scores', '--brand', brand, '--breakdown', 'country'],
      ['triage', '--brand', brand, '--id', 'x', '--status', 'Closed'],
      ['list', '--brand', brand, '--sort', 'random'],
      ['frobnicate'],
      ['list', '--wat'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^workbench: /);
      expect(r.err.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
      expect(r.err).not.toContain('    at ');
    }
    expect(sim.requests).toBe(before);
  });

  it('no key or a rejected key exits 3; the key is never printed', async () => {
    // An empty cache: with brands cached, `brands` with no key gives them (cli-first-use.test.ts).
    const none = await cli(['brands'], { key: null, env: { WORKBENCH_DB: join(tmp.dir, 'no-key.db') } });
    expect(none.code).toBe(3);
    expect(none.err).toContain('No API key is stored');
    const bad = 'sk_live_' + 'B'.repeat(32);
    const r = await cli(['sync', '--debug'], { key: bad });
    expect(r.code).toBe(3);
    expect(r.err).toContain(
      'The API key was rejected (403): No accounts found for this API key. Check the key in your Trakkr account settings and paste it again.',
    );
    expect(r.out + r.err).not.toContain('B'.repeat(32));
  });

  it('an unreachable service exits 4', async () => {
    // An empty cache: with brands cached, `brands` offline gives them (cli-first-use.test.ts).
    const r = await cli(['brands', '--base-url', 'http://127.0.0.1:1', '--db', join(tmp.dir, 'unreachable.db')]);
    expect([4]).toContain(r.code);
    expect(r.err).toContain('Could not reach the service');
  });

  it('key set checks the key against the API before storing it; status and clear', async () => {
    const secrets = new MemorySecretStore();
    const badShape = await cli(['key', 'set'], { key: null, stdin: 'sk_live_short\n', secrets });
    expect(badShape.code).toBe(2);
    const rejected = await cli(['key', 'set'], { key: null, stdin: 'sk_live_' + 'R'.repeat(32) + '\n', secrets });
    expect(rejected.code).toBe(3);
    expect(await secrets.get()).toBeNull();
    const ok = await cli(['key', 'set'], { key: null, stdin: DEMO_KEY + '\n', secrets });
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('ending in …demo');
    expect(ok.out).not.toContain(DEMO_KEY);
    expect(await secrets.get()).toBe(DEMO_KEY);
    const st = await cli(['key', 'status'], { key: null, secrets });
    expect(st.out).toContain('last check OK (3 brands)');
    expect((await cli(['brands'], { key: null, secrets })).code).toBe(0);
    await cli(['key', 'clear'], { key: null, secrets });
    expect(await secrets.get()).toBeNull();
  });

  it('the bin runs without a build step and says --help', () => {
    const r = spawnSync(process.execPath, ['electron/cli/bin.mjs', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: workbench <command>');
    const bad = spawnSync(process.execPath, ['electron/cli/bin.mjs', 'list', '--brand', '1702431364613x0'], {
      encoding: 'utf8',
      env: { ...process.env, WORKBENCH_DB: join(tmp.dir, 'bin.db') },
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('workbench: A brand id has exactly 32 characters; this one has 15.');
  });
});

describe('the key goes only where it should', () => {
  const RULE =
    'http:// sends the key unencrypted, so it is allowed only for this computer (localhost, 127.x.x.x or [::1]), for the simulator. Use https://example.com instead.';

  it('--base-url http://example.com exits 2, names the rule, and sends nothing', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      const r = await cli(['brands', '--base-url', 'http://example.com']);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`workbench: --base-url: ${RULE} Nothing was sent.\n`);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('TRAKKR_BASE_URL=http://example.com exits 2 the same way, naming the variable', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      const r = await cli(['sync'], { env: { TRAKKR_BASE_URL: 'http://example.com' } });
      expect(r.code).toBe(2);
      expect(r.err).toBe(`workbench: TRAKKR_BASE_URL: ${RULE} Nothing was sent.\n`);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('other hostile addresses exit 2 too, from either place, without repeating a password', async () => {
    const before = sim.requests;
    for (const bad of [
      'ftp://api.trakkr.ai',
      'https://user:pw@api.trakkr.ai',
      'http://127.0.0.1.evil.com',
      'http://localhost.evil.com',
      'http://0x7f000001:8787',
      'https://api.trakkr.ai/?key=x',
      '',
      'javascript:alert(1)',
    ]) {
      for (const r of [await cli(['brands', '--base-url', bad]), await cli(['brands'], { env: { TRAKKR_BASE_URL: bad || 'ws://x' } })]) {
        expect(r.code, bad).toBe(2);
        expect(r.err).toMatch(/^workbench: (--base-url|TRAKKR_BASE_URL): .+ Nothing was sent\.\n$/);
        expect(r.err).not.toContain(':pw');
      }
    }
    expect(sim.requests).toBe(before);
  });

  it('a loopback API that is not the default is named once on stderr, before the first request', async () => {
    const r = await cli(['sync', '--no-citations']);
    expect(r.code).toBe(0);
    const notice = `Using the API at ${sim.url} (not the default).`;
    expect(r.err.split('\n')[0]).toBe(notice);
    expect(r.err.split(notice).length - 1).toBe(1);
    // Offline commands send nothing and say nothing about it.
    expect((await cli(['list', '--brand', brand, '--limit', '1'])).err).toBe('');
  });

  it('the default API gets no notice', async () => {
    const seen: string[] = [];
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      seen.push(String(url));
      return new Response(JSON.stringify({ brands: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    try {
      const r = await cli(['brands', '--base-url', 'HTTPS://api.trakkr.ai/']);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(seen).toEqual(['https://api.trakkr.ai/get-brands']);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('workbench export and dnc', () => {
  it('exports the synced cache end to end, honours do-not-contact, and --check reports without writing', async () => {
    await cli(['sync', '--no-citations', '--no-scores']);
    const check = await cli(['export', '--brand', brand, '--preset', 'contacts', '--check']);
    expect(check.code).toBe(0);
    const n = Number(/^([\d,]+) rows? would be exported/.exec(check.out)![1]!.replace(/,/g, ''));
    expect(n).toBeGreaterThan(100);
    expect(check.err).toContain('catch-all');

    const out = join(tmp.dir, 'cli-export.csv');
    const r = await cli(['export', '--brand', brand, '--preset', 'contacts', '--out', out, '--exclude-catch-all', '--mark-exported', '--unfilled', 'keep']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Exported [\d,]+ rows to .*cli-export\.csv; \d+ opportunities marked exported\.$/m);
    const { parse } = await import('csv-parse/sync');
    const rows = parse((await import('node:fs')).readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.every((x) => x.catch_all === 'false' && !x.email!.endsWith('CATCH'))).toBe(true);
    const domain = rows[0]!.email!.split('@')[1]!;

    expect((await cli(['dnc', 'add', domain])).out).toContain(`Added domain ${domain}`);
    expect((await cli(['dnc', 'list'])).out).toContain(domain);
    const again = join(tmp.dir, 'cli-export-2.csv');
    await cli(['export', '--brand', brand, '--out', again, '--unfilled', 'keep']);
    const rows2 = parse((await import('node:fs')).readFileSync(again, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows2.some((x) => x.email!.toLowerCase().endsWith('@' + domain))).toBe(false);
    expect((await cli(['dnc', 'remove', domain])).out).toContain('Removed');
    expect((await cli(['dnc', 'add', 'not a thing'])).code).toBe(2);

    const listed = JSON.parse((await cli(['list', '--brand', brand, '--json', '--limit', '5'])).out) as Record<string, any>[];
    expect(listed.some((o) => o.exported_at !== null)).toBe(true);
    expect((await cli(['export', '--brand', brand, '--out', again, '--split'])).code).toBe(2);
    expect((await cli(['export', '--brand', brand, '--out', again, '--delimiter', '|'])).code).toBe(2);
  });
});
