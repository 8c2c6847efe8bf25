// The UI benchmark: the built renderer in Chromium (through the test host) on
// a synced 100,000-opportunity cache: first render, search as you type, moving
// the selection, a stage key (key to its row painted: ui.stage_key_ms, p95),
// scrolling, and the round trip of a one-row read from the page through
// window.workbench. Prints one JSON line.
// Usage: ui.ts <sim-url> <data-dir containing workbench.db>
import { performance } from 'node:perf_hooks';
import { startHost } from '../host/server';
import { DEMO_KEY } from '../../electron/simulator/server';
import { context, launch } from '../e2e/browser';

const [simUrl, dataDir] = process.argv.slice(2) as [string, string];
const host = await startHost({ dataDir, baseUrl: simUrl });
await host.call('keys:set', { key: DEMO_KEY });
await host.call('settings:set', { syncOnLaunch: false });
const brandId = (await host.call('brands:list'))[0]!.id;
const browser = await launch();
const pct = (xs: number[], p: number, decimals = 1) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10 ** decimals) / 10 ** decimals;
};
try {
  const page = await (await context(browser)).newPage();
  // tsx names functions with a __name helper; functions sent to the page need it defined there.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  const t0 = performance.now();
  await page.goto(host.url);
  await page.locator('[role="option"] .title').first().waitFor({ timeout: 60_000 });
  const firstRender = performance.now() - t0;
  await page.getByLabel('Brand').selectOption(brandId);
  await page.locator('[role="option"] .title').first().waitFor();

  // Instrumentation added by the benchmark only: when did the list or the cursor last change?
  await page.evaluate(() => {
    const w = window as unknown as { __changes: number[]; __long: number[] };
    w.__changes = [];
    w.__long = [];
    new MutationObserver(() => w.__changes.push(performance.now())).observe(document.querySelector('.list-pane')!, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-selected'],
    });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask', buffered: false });
  });
  /** Until `p`'s list has been still for 60 ms after changing (or 2 s): the time of its last change. */
  const settleOn = (p: typeof page) =>
    p.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const w = window as unknown as { __changes: number[] };
          const start = performance.now();
          const tick = () => {
            const last = w.__changes.at(-1) ?? 0;
            const now = performance.now();
            if ((last > start - 5 && now - last > 60) || now - start > 2000) resolve(last);
            else setTimeout(tick, 10);
          };
          tick();
        }),
    );
  const settle = () => settleOn(page);

  // Moving with j: key press to the cursor row changing, in the page's own clock.
  await page.locator('[role="listbox"]').focus();
  const moves: number[] = [];
  for (let i = 0; i < 60; i++) {
    const dt = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const w = window as unknown as { __changes: number[] };
          const before = w.__changes.length;
          const t = performance.now();
          document.querySelector('[role="listbox"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
          const check = () => (w.__changes.length > before ? resolve(w.__changes[before]! - t) : requestAnimationFrame(check));
          check();
        }),
    );
    moves.push(dt);
  }

  // A stage key: key press to the row under the cursor painted with its new stage (one round trip to the core's
  // owner of the record, which answers with the row, the detail and the chips), then the next frame. r and 0 in turn.
  const stageKeys: number[] = [];
  await settle();
  for (let i = 0; i < 40; i++) {
    const [key, want] = i % 2 === 0 ? ['r', 'Replied'] : ['0', 'New'];
    const dt = await page.evaluate(
      ({ key, want }) =>
        new Promise<number>((resolve, reject) => {
          const badge = () => document.querySelector('[role="option"][aria-selected="true"] .badge.stage')?.textContent;
          const t = performance.now();
          const done = new MutationObserver(() => {
            if (badge() !== want) return;
            done.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - t));
          });
          done.observe(document.querySelector('.list-pane')!, { subtree: true, childList: true, characterData: true });
          setTimeout(() => reject(new Error(`the stage key ${key} was not painted in 10 s`)), 10_000);
          document.querySelector('[role="listbox"]')!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        }),
      { key, want },
    );
    stageKeys.push(dt);
    await settle();
  }

  // The keystroke's floor: a minimal page on the same core path (the same shim, host and core, in the same
  // browser), an input whose every keystroke asks for the first page of the search and paints its titles.
  const floorPage = await page.context().newPage();
  await floorPage.addInitScript({ content: 'window.__name = (f) => f;' });
  const floorUrl = new URL('/__bench_floor', host.url).toString();
  await floorPage.route(floorUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><head><script src="/__host/shim.js"></script></head><body><input aria-label="Search"><ol class="list-pane"></ol></body></html>',
    }),
  );
  await floorPage.goto(floorUrl);
  await floorPage.evaluate((brandId) => {
    type Call = (a: unknown) => Promise<{ ok: boolean; value?: { items: { title: string }[] } }>;
    const w = window as unknown as { __changes: number[]; workbench: Record<string, Call> };
    w.__changes = [];
    const input = document.querySelector('input')!;
    const list = document.querySelector('ol')!;
    new MutationObserver(() => w.__changes.push(performance.now())).observe(list, { subtree: true, childList: true, characterData: true });
    let seq = 0;
    input.addEventListener('input', async () => {
      const mine = ++seq;
      const r = await w.workbench['opportunities:list']!({ filter: { brandId, search: input.value }, offset: 0, limit: 200 });
      if (mine !== seq || !r.ok) return;
      list.replaceChildren(
        ...r.value!.items.map((i) => {
          const li = document.createElement('li');
          li.textContent = i.title;
          return li;
        }),
      );
    });
  }, brandId);
  /** One keystroke on `p`: the time from the input's change to the list's first change after it, in the page's clock. */
  const keystroke = async (p: typeof page, text: string): Promise<number | null> => {
    const before = await p.evaluate(() => (window as unknown as { __changes: number[] }).__changes.length);
    const t = await p.evaluate(() => performance.now());
    await p.getByLabel(/^Search/).fill(text);
    await settleOn(p);
    const first = await p.evaluate((b) => (window as unknown as { __changes: number[] }).__changes[b] ?? null, before);
    return first === null ? null : first - t;
  };

  // Search as you type: each keystroke to the list showing its results, the app's window and the floor's page
  // interleaved keystroke by keystroke, three rounds.
  const search: number[] = [];
  const searchFloor: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const q of ['coffee', 'privacy guide', 'cold brew', 'onboarding', 'tested']) {
      for (const p of [page, floorPage]) {
        await p.getByLabel(/^Search/).fill('');
        await settleOn(p);
      }
      for (let k = 1; k <= q.length; k++) {
        const a = await keystroke(page, q.slice(0, k));
        if (a !== null) search.push(a);
        const b = await keystroke(floorPage, q.slice(0, k));
        if (b !== null) searchFloor.push(b);
      }
    }
  await floorPage.close();
  await page.getByLabel(/^Search/).fill('');
  await settle();

  // Scrolling: 3 seconds of steady scrolling through the list; long tasks over 50 ms counted.
  await page.evaluate(() => ((window as unknown as { __long: number[] }).__long = []));
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const v = document.querySelector('[role="listbox"]') as HTMLElement;
        const start = performance.now();
        const step = () => {
          v.scrollTop += 400;
          if (performance.now() - start < 3000) requestAnimationFrame(step);
          else resolve();
        };
        step();
      }),
  );
  const longTasks = await page.evaluate(() => (window as unknown as { __long: number[] }).__long.filter((d) => d > 50));

  // One-row reads from the page through window.workbench, as the renderer makes them: the shim (structured
  // clone), HTTP to the host (main's stand-in), the core's process and back, timed in the page's own clock.
  // Every hop the app has, the renderer's over HTTP instead of Electron's IPC: an upper bound of the real path.
  const id = (await host.call('opportunities:list', { filter: { brandId }, offset: 0, limit: 1 })).items[0]!.id;
  const trips = await page.evaluate(
    async ({ brandId, id }) => {
      type Get = (a: { brandId: string; id: string }) => Promise<{ ok: boolean; error?: { message: string } }>;
      const get = (window as unknown as { workbench: Record<string, Get> }).workbench['opportunities:get']!;
      const read = async () => {
        const r = await get({ brandId, id });
        if (!r.ok) throw new Error(`opportunities:get: ${r.error?.message}`);
      };
      for (let i = 0; i < 50; i++) await read();
      const out: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const t = performance.now();
        await read();
        out.push(performance.now() - t);
      }
      return out;
    },
    { brandId, id },
  );
  process.stdout.write(
    JSON.stringify({
      rows: (await host.call('opportunities:list', { filter: { brandId, includeArchived: true }, offset: 0, limit: 1 })).total,
      first_render_ms: Math.round(firstRender),
      search_p50_ms: pct(search, 50),
      search_p95_ms: pct(search, 95),
      search_p95_ms_floor: pct(searchFloor, 95),
      search_p95_ms_ratio: Math.round((pct(search, 95) / Math.max(0.1, pct(searchFloor, 95))) * 100) / 100,
      j_p50_ms: pct(moves, 50),
      j_p95_ms: pct(moves, 95),
      stage_key_p50_ms: pct(stageKeys, 50),
      stage_key_ms: pct(stageKeys, 95),
      scroll_long_tasks_over_50ms: longTasks.length,
      scroll_longest_task_ms: Math.round(Math.max(0, ...longTasks)),
      roundtrip_p50_ms: pct(trips, 50, 2),
      roundtrip_p95_ms: pct(trips, 95, 2),
      samples: { search: search.length, search_floor: searchFloor.length, j: moves.length, stage_key: stageKeys.length, roundtrip: trips.length },
    }) + '\n',
  );
} finally {
  await browser.close();
  await host.close();
}
