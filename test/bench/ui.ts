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
  const settle = () =>
    page.evaluate(
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

  // Search as you type: each keystroke to the list showing its results.
  const search: number[] = [];
  for (const q of ['coffee', 'privacy guide', 'cold brew', 'onboarding', 'tested']) {
    await page.getByLabel(/^Search/).fill('');
    await settle();
    for (let k = 1; k <= q.length; k++) {
      const before = await page.evaluate(() => (window as unknown as { __changes: number[] }).__changes.length);
      const t = await page.evaluate(() => performance.now());
      await page.getByLabel(/^Search/).fill(q.slice(0, k));
      await settle();
      const first = await page.evaluate((b) => (window as unknown as { __changes: number[] }).__changes[b] ?? null, before);
      if (first !== null) search.push(first - t);
    }
  }
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
      j_p50_ms: pct(moves, 50),
      j_p95_ms: pct(moves, 95),
      stage_key_p50_ms: pct(stageKeys, 50),
      stage_key_ms: pct(stageKeys, 95),
      scroll_long_tasks_over_50ms: longTasks.length,
      scroll_longest_task_ms: Math.round(Math.max(0, ...longTasks)),
      roundtrip_p50_ms: pct(trips, 50, 2),
      roundtrip_p95_ms: pct(trips, 95, 2),
      samples: { search: search.length, j: moves.length, stage_key: stageKeys.length, roundtrip: trips.length },
    }) + '\n',
  );
} finally {
  await browser.close();
  await host.close();
}
