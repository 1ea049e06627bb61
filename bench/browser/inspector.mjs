// Browser benchmark of what a learner's hand gets from the threads (issue 14):
// the inspector's eps slider moved step by step, in the production build in
// headless Chromium, on 1 thread and on 2 (the footer's setting, kept in
// localStorage; a fresh page for each, alternating 1, 2, 1, 2, ...).
//
// Each step clicks the slider's track with the mouse (bench/browser/slider.mjs)
// and waits until the inspector's result line changes, then reads two figures
// off the page:
//   - "core", the time the page shows beside the loss ("· core 21.4 ms"): the
//     core worker's forward + backward on 128 bytes for that eps;
//   - "screen", from the slider's input event to the new result painted (the
//     line changed, and one frame after it).
// Steps come in two kinds: after a pause (PAUSE_MS after the last result is on
// screen: a learner reading it, then moving the slider again), and one after
// another (the next step as soon as the result is painted). Then a drag across
// the slider's whole track in DRAG_MS with the mouse held down (an input at
// each new value, as the browser sends them): how many results showed per
// second while it lasted, and how long after it ended the last one came.
// Beside them, each page's forward + backward timed back to back
// (glass.model.bench), which is what bench/browser/threads.mjs measures.
//
// Why it exists: on a 2-core AMD EPYC (Zen 5) virtual machine, 2026-12-07, the
// core took 8.5-8.7 ms on 2 threads and 15.3-16.1 on 1 back to back, but a step
// after a pause took about 20 ms on either (medians; docs/threads.md, "What a
// slider step gets"). Since the results stopped dimming on every step (later
// the same day), a step takes 15-18 ms of core and 36-39 ms to the screen on
// either count, and a drag across the slider shows the result of each of its
// 57 values (18.7 a second) on either count. Each page is warmed up first
// (WARM_UP runs, as threads.mjs does: V8 moves the core's functions to its
// optimising tier only after tens of runs), so the steps measure the page in
// use, not its first seconds.
//
//   npx vite build && node bench/browser/inspector.mjs [STEPS] [ROUNDS] [PAUSE_MS]
// Serves dist/ on port 4178 (BENCH_PORT, BENCH_DIST to change).
import { loadavg } from 'node:os';
import { describeHost, hostCheck } from '../host_check.mjs';
import { cpuName, median, withPreview } from './serve.mjs';
import { drag, inspectorAddress, slide } from './slider.mjs';

/** argv[i] as a whole number from `min`, or `fallback` when absent; anything else stops the benchmark with the reason. */
function count(i, name, fallback, min) {
  const raw = process.argv[i];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min) {
    console.error(`bench/browser/inspector.mjs: ${name} must be a whole number from ${min}, got '${raw}' (usage: [STEPS] [ROUNDS] [PAUSE_MS])`);
    process.exit(2);
  }
  return n;
}
const STEPS = count(2, 'STEPS', 20, 1);
const ROUNDS = count(3, 'ROUNDS', 3, 1);
const PAUSE_MS = count(4, 'PAUSE_MS', 250, 0);
const WARM_UP = 60;
const BACK_TO_BACK = 20; // runs of glass.model.bench per page
const DRAG_MS = 3000;
const SETTLE_MS = 3000;
const PORT = Number(process.env.BENCH_PORT ?? 4178);
const DIST = process.env.BENCH_DIST;
const COUNTS = [1, 2];
const ms = (x) => `${x.toFixed(1)} ms`;
const TEXT = 'In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face'.padEnd(128, '.').slice(0, 128);

async function measure(page, url, threads) {
  await page.evaluate((n) => localStorage.setItem('glassllm.threads', String(n)), threads);
  await page.goto(inspectorAddress(url, TEXT));
  const line = await page.locator('[data-testid=threads-line] summary').textContent({ timeout: 30_000 });
  await page.getByTestId('inspector-loss').waitFor({ timeout: 30_000 });
  const build = await page.evaluate(async () => (await globalThis.glass.ready).build);
  await page.evaluate(({ text, n }) => globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: n }), { text: TEXT, n: WARM_UP });
  const backToBack = await page.evaluate(({ text, n }) => globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: n }), { text: TEXT, n: BACK_TO_BACK });
  await page.waitForTimeout(SETTLE_MS);
  const paused = await slide(page, STEPS, PAUSE_MS);
  const inARow = await slide(page, STEPS, 0);
  const d = await drag(page, DRAG_MS);
  if (d.after.length === 0 && d.during.length === 0) throw new Error(`no result showed during a ${DRAG_MS} ms drag or after it`);
  const all = [...d.during, ...d.after];
  const gaps = d.during.slice(1).map((t, i) => t - d.during[i]);
  // (0: the last value's result was on screen before the drag ended)
  const dragStats = { inputs: d.inputs, perSecond: d.during.length / (d.ms / 1000), gap: gaps.length > 0 ? median(gaps) : NaN, lastAfter: Math.max(0, all.at(-1) - d.ms) };
  return { line: line.trim(), build, backToBack, paused, inARow, drag: dragStats };
}

const pick = (steps, key) => steps.map((s) => s[key]);

async function main() {
  console.log(
    `the inspector's slider in the browser: ${cpuName()}; ${STEPS} steps of each kind per page, ${PAUSE_MS} ms pauses; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const pages = [];
  const r = await withPreview({ dist: DIST, port: PORT }, async (url, browser) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    for (let round = 0; round < ROUNDS; round++)
      for (const n of COUNTS) {
        const host = await hostCheck(2, 3);
        const m = await measure(page, url, n);
        pages.push({ n, ...m });
        console.log(
          `  page ${pages.length}, ${n} thread${n === 1 ? '' : 's'}: after a pause core ${ms(median(pick(m.paused, 'core')))}, screen ${ms(median(pick(m.paused, 'screen')))}; ` +
            `one after another core ${ms(median(pick(m.inARow, 'core')))}, screen ${ms(median(pick(m.inARow, 'screen')))}; ` +
            `a drag over ${m.drag.inputs} values: ${m.drag.perSecond.toFixed(1)} results/s (median ${ms(m.drag.gap)} apart), the last ${ms(m.drag.lastAfter)} after it ended; ` +
            `back to back ${ms(median(m.backToBack))} (medians); ${describeHost(host, 'before it')}`,
        );
      }
    return { version: browser.version() };
  });
  const figures = COUNTS.map((n) => {
    const mine = pages.filter((p) => p.n === n);
    const all = (key) => mine.flatMap((p) => p[key]);
    return {
      n,
      line: mine[0].line,
      build: mine[0].build,
      pausedCore: median(pick(all('paused'), 'core')),
      pausedScreen: median(pick(all('paused'), 'screen')),
      inARowCore: median(pick(all('inARow'), 'core')),
      inARowScreen: median(pick(all('inARow'), 'screen')),
      backToBack: median(all('backToBack')),
      dragPerSecond: median(mine.map((p) => p.drag.perSecond)),
      dragGap: median(mine.map((p) => p.drag.gap)),
      dragLast: median(mine.map((p) => p.drag.lastAfter)),
      pages: mine.length,
    };
  });
  for (const f of figures)
    console.log(
      `  ${f.n} thread${f.n === 1 ? '' : 's'} (the page says "${f.line}"; Chromium ${r.version}, the ${f.build} build; medians over ${f.pages} pages): ` +
        `after a ${PAUSE_MS} ms pause, core ${ms(f.pausedCore)} and slider to screen ${ms(f.pausedScreen)}; ` +
        `one after another, core ${ms(f.inARowCore)} and slider to screen ${ms(f.inARowScreen)}; ` +
        `a ${DRAG_MS} ms drag across the slider, ${f.dragPerSecond.toFixed(1)} results/s (${ms(f.dragGap)} apart), the last ${ms(f.dragLast)} after it ended; back to back, ${ms(f.backToBack)}`,
    );
  const [a, b] = figures;
  const x = (p, q) => `${(p / q).toFixed(2)}x`;
  console.log(
    `  ${b.n} threads vs ${a.n}: after a pause, core ${x(a.pausedCore, b.pausedCore)}, screen ${x(a.pausedScreen, b.pausedScreen)}; ` +
      `one after another, core ${x(a.inARowCore, b.inARowCore)}, screen ${x(a.inARowScreen, b.inARowScreen)}; back to back ${x(a.backToBack, b.backToBack)}`,
  );
  console.log(`  load average now ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
