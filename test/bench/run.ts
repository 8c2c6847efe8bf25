// `npm run bench`: against the simulator over loopback (its own process), with
// pacing off, on a fresh cache. Each phase runs in its own process so peak
// memory is measured per phase. Prints a table and writes bench-results.json.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const N = Number(process.env.BENCH_OPPORTUNITIES ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'workbench-bench-'));
const node = (args: string[]) => spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });

async function phase<T>(...args: string[]): Promise<T> {
  const child = node(['test/bench/phase.ts', ...args]);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`bench phase ${args[0]} failed (exit ${code}): ${out}`);
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

const sim = node(['electron/simulator/cli.ts', '--port', '0', '--quiet', '--brands', '1', '--opportunities', String(N), '--seed', '1']);
const url = await new Promise<string>((resolve, reject) => {
  let buf = '';
  sim.stdout.on('data', (c: Buffer) => {
    buf += c.toString();
    const m = /listening on (http:\/\/\S+)/.exec(buf);
    if (m) resolve(m[1]!);
  });
  sim.on('exit', (c) => reject(new Error(`simulator exited ${c}`)));
});

try {
  process.stderr.write(`Benchmarks: ${N.toLocaleString('en-US')} opportunities, simulator at ${url}\n`);
  // workbench.db: the name the app (and the UI host) opens in its data folder.
  const db = join(dir, 'workbench.db');
  const sync = await phase<{ opportunities: number; seconds: number; peak_rss_mb: number; error: unknown; failures: unknown[] }>('sync', url, db);
  if (sync.error || sync.failures.length) throw new Error(`sync failed: ${JSON.stringify(sync)}`);
  // Opening the synced cache after a clean close, each in a fresh process; the median of three.
  const opens: { cache_ms: number; since_process_start_ms: number; rows: number; markers_before: number }[] = [];
  for (let i = 0; i < 3; i++) opens.push(await phase<(typeof opens)[number]>('open', url, db));
  if (opens.some((o) => o.markers_before !== 0 || o.rows !== 200)) throw new Error(`open bench not after a clean close, or no first page: ${JSON.stringify(opens)}`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const open = { cache_ms: median(opens.map((o) => o.cache_ms)), since_process_start_ms: median(opens.map((o) => o.since_process_start_ms)), samples_ms: opens.map((o) => o.cache_ms) };
  const pages = join(dir, 'pages.jsonl');
  await phase('fetch-pages', url, db, pages);
  const floor = await phase<{ opportunities: number; seconds: number }>('floor', url, join(dir, 'floor.db'), pages);
  const query = await phase<Record<string, number>>('query', url, db);
  const exp = await phase<{ rows: number; seconds: number; bytes: number; opportunities_rows: number; opportunities_seconds: number; peak_rss_mb: number }>('export', url, db, join(dir, 'export'));

  process.stderr.write("Main's event loop while the core (its own process) syncs, counts and exports…\n");
  const mainLoop = await (async () => {
    const child = node(['test/bench/main-loop.ts', url, mkdtempSync(join(dir, 'main-'))]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`main-loop bench failed (exit ${code}): ${out}`);
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  })();

  process.stderr.write('UI: building the renderer and measuring it in Chromium…\n');
  await new Promise<void>((resolve, reject) => {
    const b = spawn('node_modules/.bin/electron-vite', ['build'], { stdio: 'ignore' });
    b.on('exit', (c) => (c === 0 ? resolve() : reject(new Error(`electron-vite build exited ${c}`))));
  });
  const ui = await (async () => {
    const child = node(['test/bench/ui.ts', url, dir]);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    if (code !== 0) throw new Error(`UI bench failed (exit ${code}): ${out}`);
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  })();

  const perSecond = Math.round(sync.opportunities / sync.seconds);
  const floorPerSecond = Math.round(floor.opportunities / floor.seconds);
  const results = {
    sync: {
      opportunities: sync.opportunities,
      seconds: Math.round(sync.seconds * 100) / 100,
      per_second: perSecond,
      floor_per_second: floorPerSecond,
      ratio_to_floor: Math.round((sync.seconds / floor.seconds) * 100) / 100,
      peak_rss_mb: sync.peak_rss_mb,
    },
    open,
    query,
    export: {
      rows: exp.rows,
      seconds: Math.round(exp.seconds * 100) / 100,
      peak_rss_mb: exp.peak_rss_mb,
      mb_written: Math.round(exp.bytes / 1e5) / 10,
      opportunities_rows: exp.opportunities_rows,
      opportunities_seconds: Math.round(exp.opportunities_seconds * 100) / 100,
    },
    ui,
    main: { loop_delay_p50_ms: mainLoop.loop_delay_p50_ms, loop_delay_p99_ms: mainLoop.loop_delay_p99_ms, loop_delay_max_ms: mainLoop.loop_delay_max_ms },
    ipc: { roundtrip_p50_ms: mainLoop.roundtrip_p50_ms, roundtrip_p95_ms: mainLoop.roundtrip_p95_ms },
    machine: { node: process.version, cpus: (await import('node:os')).cpus().length, date: new Date().toISOString() },
  };
  writeFileSync('bench-results.json', JSON.stringify(results, null, 2) + '\n');
  const goals: [string, string, boolean][] = [
    ['open the cache to first list page', `${open.cache_ms} ms (goal ≤ 150; median of ${opens.length} fresh processes; ${open.since_process_start_ms} ms from process start under tsx)`, open.cache_ms <= 150],
    ['sync opportunities/s', `${perSecond.toLocaleString('en-US')} (goal ≥ 10,000)`, perSecond >= 10_000],
    ['sync ratio to floor', `${results.sync.ratio_to_floor} (goal ≤ 2.5; floor ${floorPerSecond.toLocaleString('en-US')}/s)`, results.sync.ratio_to_floor <= 2.5],
    ['sync peak RSS', `${sync.peak_rss_mb} MB (goal ≤ 400)`, sync.peak_rss_mb <= 400],
    ['list p50 / p95', `${query.list_p50_ms} / ${query.list_p95_ms} ms (goal p95 ≤ 20)`, query.list_p95_ms! <= 20],
    ['search p50 / p95', `${query.search_p50_ms} / ${query.search_p95_ms} ms (goal p95 ≤ 50)`, query.search_p95_ms! <= 50],
    ['filter-chip counts p95', `${query.counts_p95_ms} ms`, true],
    ['export contacts', `${exp.rows.toLocaleString('en-US')} rows in ${results.export.seconds} s (goal ≤ 3 s)`, exp.seconds <= 3],
    ['export opportunities', `${exp.opportunities_rows.toLocaleString('en-US')} rows in ${results.export.opportunities_seconds} s`, true],
    ['UI first list render', `${ui.first_render_ms} ms`, true],
    ['UI search as you type p50 / p95', `${ui.search_p50_ms} / ${ui.search_p95_ms} ms (goal p95 ≤ 150)`, ui.search_p95_ms! <= 150],
    ['UI move with j p50 / p95', `${ui.j_p50_ms} / ${ui.j_p95_ms} ms (goal p95 ≤ 50)`, ui.j_p95_ms! <= 50],
    ['UI scroll long tasks > 50 ms', `${ui.scroll_long_tasks_over_50ms} (longest ${ui.scroll_longest_task_ms} ms; goal 0)`, ui.scroll_long_tasks_over_50ms === 0],
    ['main event loop delay p99 / max (core syncing, counting, exporting)', `${mainLoop.loop_delay_p99_ms} / ${mainLoop.loop_delay_max_ms} ms (goal ≤ 20 / ≤ 50)`, mainLoop.loop_delay_p99_ms! <= 20 && mainLoop.loop_delay_max_ms! <= 50],
    ['one-row read round trip p50 (message path)', `${mainLoop.roundtrip_p50_ms} ms (goal ≤ 2)`, mainLoop.roundtrip_p50_ms! <= 2],
    ['export peak RSS', `${exp.peak_rss_mb} MB (goal ≤ 400, not growing with rows)`, exp.peak_rss_mb <= 400],
  ];
  const w = Math.max(...goals.map((g) => g[0].length));
  process.stdout.write(`\n${'figure'.padEnd(w)}  result\n`);
  for (const [k, v, met] of goals) process.stdout.write(`${k.padEnd(w)}  ${v}${met ? '' : '  <- goal missed'}\n`);
  process.stdout.write(`\nSync: ${sync.opportunities.toLocaleString('en-US')} in ${results.sync.seconds} s. Written to bench-results.json.\n`);
} finally {
  sim.kill('SIGTERM');
  if (process.env.BENCH_KEEP) process.stderr.write(`Kept ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}
