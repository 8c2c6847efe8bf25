// One benchmark phase in its own process, so its peak memory is its own.
// Prints one JSON line with the figures. Usage: phase.ts <phase> <sim-url> <db> [pages-file]
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Cache } from '../../electron/core/store/cache';
import { TrakkrClient } from '../../electron/core/api/client';
import { runSync } from '../../electron/core/sync';
import { writeExportFile } from '../../electron/core/export/csv-export';
import { packBlock } from '../../electron/core/store/opportunity-codec';
import { DEMO_KEY } from '../../electron/simulator/server';
import { DIFFICULTIES, STATUSES } from '../../shared/domain';
import { LIST_SORTS, type ListFilter } from '../../shared/model';
import type { TriagePatch } from '../../shared/triage-fields';
import { localToday, type After, type ListPage } from '../../electron/core/store/opportunity-list';
import { filterSql, ftsQuery } from '../../electron/core/store/opportunity-filter';
import { compactFloor, exportFloor, queryFloors } from './floors';
import { view } from '../../electron/core/app/opportunities';
import { ensureBrandKey } from '../../electron/core/store/brand-keys';
import { count, counts, detail, page, setTriage, setTriageMany } from '../support/store';
import { matchBrand } from '../../electron/core/results/match';
import { resultsOf } from '../../electron/core/results/report';
import { observeCitations } from '../../electron/core/store/citation-facts';
import { addDays } from '../../shared/calendar';
import { periodOf } from '../../shared/results';

const [phase, url, dbPath, pagesFile] = process.argv.slice(2) as [string, string, string, string | undefined];
const peakMb = () => Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
const out = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');

async function brandId(): Promise<string> {
  const c = new TrakkrClient({ baseUrl: url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
  return (await c.brands()).brands[0]!.id;
}

if (phase === 'sync') {
  const cache = await Cache.open(dbPath);
  const client = new TrakkrClient({ baseUrl: url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
  const t0 = performance.now();
  const s = await runSync(cache, client, { scores: false, citations: false, pageSize: 500 });
  const seconds = (performance.now() - t0) / 1000;
  const n = count(cache, { brandId: s.brands[0]!.brandId, includeArchived: true });
  cache.close();
  out({ opportunities: n, seconds, peak_rss_mb: peakMb(), error: s.error, failures: s.brands.flatMap((b) => b.failures) });
} else if (phase === 'fetch-pages') {
  // Not timed: the raw pages the floor replays.
  const brand = await brandId();
  const file = createWriteStream(pagesFile!);
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await fetch(`${url}/get-outreach?brand=${brand}&archived=true&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: { Authorization: `Bearer ${DEMO_KEY}` },
    });
    const text = await res.text();
    file.write(text.replace(/\n/g, '\\n') + '\n');
    cursor = (JSON.parse(text) as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
    pages++;
  } while (cursor);
  await new Promise((r) => file.end(r));
  out({ pages, brand });
} else if (phase === 'floor') {
  // The least any sync could cost: JSON.parse and a bare prepared INSERT (with the same FTS), no HTTP, no checks.
  const cache = await Cache.open(dbPath);
  const db = cache.db;
  const ins = db.prepare(
    `INSERT INTO opportunities (brand_key, id, unique_key, opportunity_type, status, archived, difficulty, domain, url, title, priority_score, fit_score, last_seen, author_name, raw_hash, first_synced_at, changed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', 'now', 'now')`,
  );
  // The records 32 to a block, as the app keeps them (version 12): each block written once it is full, or at the page's end.
  const blockIns = db.prepare('INSERT OR REPLACE INTO opportunity_blocks (block, packed) VALUES (?, ?)');
  let block = -1;
  let slots: (string | null)[] = [];
  const putRecord = (rowid: number, json: string) => {
    if (Math.floor(rowid / 32) !== block) {
      if (block >= 0) blockIns.run(block, packBlock(slots));
      block = Math.floor(rowid / 32);
      slots = new Array<null>(32).fill(null);
    }
    slots[rowid % 32] = json;
  };
  const fts = db.prepare(
    'INSERT INTO opportunity_search (rowid, title, domain, topics, pitch_subject, pitch_body, gap_analysis, brand_angle, author, contacts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const t0 = performance.now();
  let n = 0;
  let brandKey = -1;
  const lines = createInterface({ input: createReadStream(pagesFile!) });
  for await (const line of lines) {
    const page = JSON.parse(line) as { brand_id: string; opportunities: Record<string, any>[] };
    if (brandKey < 0) brandKey = ensureBrandKey(cache.writable, page.brand_id);
    db.transaction(() => {
      for (const o of page.opportunities) {
        const r = ins.run(
          brandKey,
          o._id,
          o.unique_key,
          o.opportunity_type,
          o.status,
          o.archived ? 1 : 0,
          o.difficulty,
          o.domain,
          o.url ?? null,
          o.title,
          o.priority_score,
          o.fit_score,
          o.last_seen_date,
          o.author_name,
        );
        putRecord(Number(r.lastInsertRowid), JSON.stringify(o));
        fts.run(
          r.lastInsertRowid,
          o.title,
          o.domain,
          (o.topics_covered ?? []).join(' '),
          o.pitch_subject,
          o.pitch_body,
          o.gap_analysis,
          o.brand_angle,
          o.author_name ?? '',
          (o.contact_emails ?? []).join(' '),
        );
        n++;
      }
      // The page's last block, part-filled: written now (the next page completes it and writes it again).
      if (block >= 0) blockIns.run(block, packBlock(slots));
    })();
  }
  const seconds = (performance.now() - t0) / 1000;
  cache.close();
  out({ opportunities: n, seconds, peak_rss_mb: peakMb() });
} else if (phase === 'triage') {
  // Not timed: the user's record a busy account has (a fifth of the opportunities triaged: stages, notes, stars;
  // and of those, an eighth each pitched long ago (Contacted, due for a follow-up), drafted, and snoozed).
  const cache = await Cache.open(dbPath);
  const brand = (cache.db.prepare('SELECT id FROM brand_keys LIMIT 1').get() as { id: string }).id;
  const ids = (cache.db.prepare('SELECT id FROM opportunities ORDER BY rowid').all() as { id: string }[]).map((r) => r.id).filter((_, i) => i % 5 === 0);
  const stages = ['Drafted', 'Won', 'Not a fit', null] as const;
  const PIPELINE: (TriagePatch | undefined)[] = [
    undefined,
    { stage: 'Contacted', contacted_at: '2026-01-05' },
    { stage: 'Drafted' },
    { snoozed_until: '2099-12-31' },
  ];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    setTriageMany(cache, brand, part, { stage: stages[(i / 500) % 4]!, starred: (i / 500) % 7 === 0 });
    const pipeline = PIPELINE[(i / 500) % 8];
    if (pipeline) setTriageMany(cache, brand, part, pipeline);
    cache.tx(() =>
      part.forEach(
        (id, k) => k % 3 === 0 && setTriage(cache, brand, id, { note: `Called about ${id}: ${'talked through the angle and the timing. '.repeat(2)}` }),
      ),
    );
  }
  cache.close();
  out({ triaged: ids.length });
} else if (phase === 'size') {
  // The cache file after a sync and the triage, closed cleanly (the WAL checkpointed into it).
  const { statSync } = await import('node:fs');
  out({ bytes: statSync(dbPath).size });
} else if (phase === 'backup') {
  // What a backup of the user's record costs (the app does it at most hourly and at quit, in the core process).
  const { Backups } = await import('../../electron/core/app/backups');
  const cache = await Cache.open(dbPath);
  const backups = new Backups({ dir: pagesFile!, cache: () => cache, appVersion: 'bench' });
  const ms: number[] = [];
  let last = null as Awaited<ReturnType<typeof backups.backupNow>>;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    last = await backups.backupNow('manual', { force: true });
    ms.push(performance.now() - t);
  }
  cache.close();
  out({
    ms: Math.round([...ms].sort((a, b) => a - b)[1]! * 10) / 10,
    samples_ms: ms.map((x) => Math.round(x)),
    triaged: last!.counts.triage,
    bytes: last!.bytes,
  });
} else if (phase === 'query') {
  // The app's reads and, interleaved call by call, their floors (floors.ts) on the same file in the same process;
  // three rounds of everything, so a busy moment of the machine falls on both.
  const cache = await Cache.open(dbPath);
  const brand = (cache.db.prepare('SELECT id FROM brand_keys LIMIT 1').get() as { id: string }).id;
  const bk = (cache.db.prepare('SELECT key FROM brand_keys WHERE id = ?').get(brand) as { key: number }).key;
  const rows = count(cache, { brandId: brand, includeArchived: true, includeRemoved: true });
  const floors = queryFloors(cache.db, bk, cache.days().today);
  const time = (fn: () => unknown) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
  };
  // Every sort with the filters a person combines; each list scrolled through ten pages of 200 as the UI asks
  // them (the first, then each after the last row of the one before).
  const filters: Omit<ListFilter, 'brandId'>[] = [
    {},
    { status: 'New' },
    { status: 'In Progress', difficulty: 'Hard' },
    { type: 'publication-gap' },
    { domain: 'tech' },
    { hasContacts: true, catchAll: 'exclude' },
    { includeArchived: true },
    { difficulty: DIFFICULTIES[0], status: STATUSES[2] },
    { starred: true },
    { alreadyPitched: false },
    // The pipeline as the UI asks it: a stage chip (New is "no stage set"), the follow-ups due, the snoozed ones.
    { stage: 'New' },
    { stage: 'Contacted' },
    { view: 'due' },
    { view: 'snoozed' },
  ];
  const words = [
    'coffee',
    'espresso',
    'analytics',
    'privacy',
    'guide',
    'tips',
    'best cold',
    'wired',
    'sleep',
    'onboarding',
    'Rivera',
    'tested ranked',
    'data study',
    'small teams',
    'cold brew',
  ];
  const samples = () => ({
    list: [] as number[],
    jump: [] as number[],
    end: [] as number[],
    search: [] as number[],
    counts: [] as number[],
    searchCounts: [] as number[],
    detail: [] as number[],
  });
  const m = samples();
  const f = samples();
  // The detail pane: 200 opportunities spread over the cache, each opened alone (its row, contacts, triage and record).
  const allIds = cache.db.prepare('SELECT id FROM opportunities ORDER BY rowid').pluck().all() as string[];
  const detailIds = Array.from({ length: 200 }, (_, i) => allIds[Math.floor((i * allIds.length) / 200)]!);
  /** The app's read, then the floor's on the same rows: each timed alone. */
  const pageAndFloor = (into: 'list' | 'jump' | 'end', read: () => ListPage): ListPage => {
    let got: ListPage | null = null;
    m[into].push(time(() => (got = read())));
    const rowids = floors.rowids(got!.items.map((i) => i.id));
    f[into].push(time(() => floors.page(rowids)));
    return got!;
  };
  for (let round = 0; round < 3; round++) {
    for (const sort of LIST_SORTS) {
      for (const fl of filters) {
        const filter = { brandId: brand, sort, ...fl };
        let after: After | undefined;
        for (let p = 0; p < 10; p++) {
          const next = pageAndFloor('list', () => page(cache, filter, { limit: 200, after })).next;
          if (!next) break;
          after = next;
        }
        // A jump (End, or the scroll bar dragged) asks by offset.
        pageAndFloor('jump', () => page(cache, filter, { limit: 200, offset: 3800 }));
        // End: the last page, counted from the list's end (as the window asks it).
        pageAndFloor('end', () => page(cache, filter, { limit: 200, offset: 0, fromEnd: true }));
      }
    }
    // Search as you type: every prefix of each query from two letters, as the window asks it (opportunities:view without
    // the chip counts, which follow): the first page and its total, counted up to SEARCH_TOTAL_CAP (the exact total comes
    // with the chip counts: search_counts below).
    for (const w of words)
      for (let k = 2; k <= w.length; k++) {
        const filter = { brandId: brand, search: w.slice(0, k) };
        m.search.push(time(() => view(cache, filter, 200, false)));
        const q = ftsQuery(filter.search);
        if (q) f.search.push(time(() => floors.search(q)));
      }
    for (const id of detailIds) {
      m.detail.push(time(() => detail(cache, brand, id)));
      f.detail.push(time(() => floors.detail(id)));
    }
    // Chip counts under every filter above (no search), and under every finished search.
    const chipWhere = (fl: Omit<ListFilter, 'brandId'>) =>
      filterSql({ brandId: brand, ...fl, status: undefined, type: undefined, difficulty: undefined }, bk, cache.days()).where;
    for (const fl of filters) {
      m.counts.push(time(() => counts(cache, { brandId: brand, ...fl })));
      const where = chipWhere(fl);
      f.counts.push(time(() => floors.counts({ text: where.text, params: where.params })));
    }
    for (const w of words) {
      m.searchCounts.push(time(() => counts(cache, { brandId: brand, search: w })));
      const where = chipWhere({ search: w });
      f.searchCounts.push(time(() => floors.counts({ text: where.text, params: where.params })));
    }
  }
  cache.close();
  const figure = (name: string, real: number[], floor: number[], p = 95) => {
    const v = pct(real, p);
    const fv = pct(floor, p);
    return { [name]: v, [`${name}_floor`]: fv, [`${name}_ratio`]: Math.round((v / Math.max(fv, 0.01)) * 100) / 100 };
  };
  out({
    rows,
    list_p50_ms: pct(m.list, 50),
    ...figure('list_p95_ms', m.list, f.list),
    ...figure('jump_p95_ms', m.jump, f.jump),
    ...figure('end_p95_ms', m.end, f.end),
    search_p50_ms: pct(m.search, 50),
    ...figure('search_p95_ms', m.search, f.search),
    counts_p50_ms: pct(m.counts, 50),
    ...figure('counts_p95_ms', m.counts, f.counts),
    ...figure('search_counts_p95_ms', m.searchCounts, f.searchCounts),
    detail_p50_ms: pct(m.detail, 50),
    ...figure('detail_p95_ms', m.detail, f.detail),
    samples: {
      detail: m.detail.length,
      list: m.list.length,
      jumps: m.jump.length,
      ends: m.end.length,
      search: m.search.length,
      counts: m.counts.length,
      search_counts: m.searchCounts.length,
    },
  });
} else if (phase === 'export') {
  // The contacts preset (one row per distinct address) and the opportunities preset of the whole cache.
  const cache = await Cache.open(dbPath);
  const brand = (cache.db.prepare('SELECT id FROM brand_keys LIMIT 1').get() as { id: string }).id;
  const t0 = performance.now();
  const contacts = await writeExportFile(cache, {
    brandId: brand,
    preset: 'contacts',
    unfilled: 'keep',
    out: pagesFile! + '.contacts.csv',
    filter: { includeArchived: true },
  });
  const contactsSeconds = (performance.now() - t0) / 1000;
  // Where the peak was reached (not used by run.ts): after the contacts preset, after the opportunities preset, or at the close.
  const afterContacts = peakMb();
  const t1 = performance.now();
  const opps = await writeExportFile(cache, {
    brandId: brand,
    preset: 'opportunities',
    out: pagesFile! + '.opportunities.csv',
    filter: { includeArchived: true },
  });
  const oppsSeconds = (performance.now() - t1) / 1000;
  const afterOpportunities = peakMb();
  cache.close();
  out({
    rows: contacts.rows,
    seconds: contactsSeconds,
    bytes: contacts.bytes,
    opportunities_rows: opps.rows,
    opportunities_seconds: oppsSeconds,
    opportunities_bytes: opps.bytes,
    peak_rss_mb: peakMb(),
    peak_rss_mb_after_contacts: afterContacts,
    peak_rss_mb_after_opportunities: afterOpportunities,
  });
} else if (phase === 'results') {
  // Citations matched to the outreach, as the app does after each sync and for the Results view, on the synced cache:
  // a fifth of the opportunities pitched over the last 120 days (not timed), the brand's citations (50,000 from this
  // phase's simulator) written as a sync writes them (the part kept between syncs timed on its own), then the match
  // of every pitch (the median of five) and a month's Results (the median of three).
  const cache = await Cache.open(dbPath);
  const brand = (cache.db.prepare('SELECT id FROM brand_keys LIMIT 1').get() as { id: string }).id;
  const ids = (cache.db.prepare('SELECT id FROM opportunities ORDER BY rowid').all() as { id: string }[]).map((r) => r.id).filter((_, i) => i % 5 === 2);
  const today = localToday();
  for (let i = 0; i < ids.length; i += 500)
    setTriageMany(cache, brand, ids.slice(i, i + 500), { stage: 'Contacted', contacted_at: addDays(today, -((i / 500) % 120)) });
  const client = new TrakkrClient({ baseUrl: url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
  let citations = 0;
  let observe = 0;
  let position = 0;
  for await (const page of client.citationsPages({ brand, mode: 'citations', limit: 500 })) {
    cache.tx(() => {
      cache.citations.upsertPage(brand, 'citations', page.items, 1, position);
      const t = performance.now();
      observeCitations(cache.writable, brand, page.items, new Date().toISOString());
      observe += performance.now() - t;
    });
    position += page.items.length;
    citations += page.items.length;
  }
  const median = (f: () => unknown, n: number) => {
    const ms: number[] = [];
    for (let k = 0; k < n; k++) {
      const t = performance.now();
      f();
      ms.push(performance.now() - t);
    }
    return Math.round(ms.sort((a, b) => a - b)[Math.floor(n / 2)]! * 10) / 10;
  };
  let evidence = 0;
  let pitched = 0;
  const matchMs = median(() => {
    const m = matchBrand(cache.readable, brand);
    evidence = m.evidence.size;
    pitched = m.rows.length;
  }, 5);
  const reportMs = median(() => resultsOf(cache, brand, periodOf('last-month', today), today), 3);
  cache.close();
  out({ citations, pitched, evidence, match_ms: matchMs, report_ms: reportMs, observe_ms: Math.round(observe), peak_rss_mb: peakMb() });
} else if (phase === 'export-floor') {
  // The export's floor (floors.ts), in a process of its own as the export is, so its peak memory is its own.
  // Usage: phase.ts export-floor <url> <db> <out> <bytes> <rows>
  const [bytes, rows] = process.argv.slice(6).map(Number) as [number, number];
  const cache = await Cache.open(dbPath);
  const bk = (cache.db.prepare('SELECT key FROM brand_keys LIMIT 1').get() as { key: number }).key;
  const t0 = performance.now();
  const done = exportFloor(cache.db, bk, pagesFile!, bytes, rows);
  const seconds = (performance.now() - t0) / 1000;
  cache.close();
  out({ ...done, seconds, peak_rss_mb: peakMb() });
} else if (phase === 'compact') {
  // The cache's compact floor (floors.ts): a copy of the synced file, records in blocks, vacuumed. Not timed.
  const Database = (await import('better-sqlite3')).default;
  const from = new Database(dbPath, { readonly: true });
  try {
    out({ bytes: compactFloor((p) => new Database(p), from, pagesFile!) });
  } finally {
    from.close();
  }
} else {
  process.stderr.write(`unknown phase ${phase}\n`);
  process.exit(2);
}
