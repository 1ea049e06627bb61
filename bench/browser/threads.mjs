// Browser benchmark of the threaded core (issue 14): the same work on 1 thread
// and on 2, in the production build in headless Chromium, served with the
// cross-origin isolation headers (`vite preview`, security.config.ts), so the
// page loads the threaded build of the core.
//   - the model on 128 bytes in the core worker, forward + backward, float32
//     (glass.model.bench; median of N)
//   - a training step of the default model, batch 16 x 128 bytes, in a trainer
//     worker (glass.train.run; each step timed by the core; median of N after W)
// The thread count is the page's own setting (the footer's "Core" line, kept in
// localStorage): the core worker reads it when the page loads, each training
// run when it starts. Each figure is printed with the threads the page reports.
//
// Each page is left to settle before it is timed: for its first seconds V8 is
// still compiling the core's hot functions in the background (and the page
// loads its console core when idle), which takes a core from whichever run is
// timed then, most of all from a 2-thread run on a 2-core machine. The counts
// alternate (1, 2, 1, 2, ...: ROUNDS rounds, a fresh page each) and each
// median is over all of a count's runs, so a slow spell of the host falls on
// both counts alike.
//
//   npx vite build && node bench/browser/threads.mjs [N] [W] [ROUNDS]
// Serves dist/ on port 4177 (BENCH_PORT, BENCH_DIST to change).
import { loadavg } from 'node:os';
import { cpuName, median, withPreview } from './serve.mjs';

const N = Number(process.argv[2] ?? 10);
const W = Number(process.argv[3] ?? 3);
const ROUNDS = Number(process.argv[4] ?? 2);
const SETTLE_MS = 3000;
const PORT = Number(process.env.BENCH_PORT ?? 4177);
const DIST = process.env.BENCH_DIST;
const COUNTS = [1, 2];
const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
const ms = (x) => `${x.toFixed(1)} ms`;
const TEXT = 'In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face'.padEnd(128, '.').slice(0, 128);

async function measure(page, url, threads) {
  await page.evaluate((n) => localStorage.setItem('glassllm.threads', String(n)), threads);
  await page.goto(url);
  const line = await page.locator('[data-testid=threads-line] summary').textContent({ timeout: 30_000 });
  const isolated = await page.evaluate(() => crossOriginIsolated);
  const build = await page.evaluate(async () => (await globalThis.glass.ready).build);
  await page.evaluate(({ text }) => globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: 20 }), { text: TEXT });
  await page.waitForTimeout(SETTLE_MS);
  const model = await page.evaluate(({ text, N }) => globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: N }), { text: TEXT, N });
  const base = { heads: 4, norm: 'pre', normKind: 'rms', residual: true, eps: 1e-6, initScale: 'depth', dtype: 'float32', blocks: 4, d: 128, ctx: 128 };
  const run = await page.evaluate(({ config, steps }) => globalThis.glass.train.run({ config, steps, batch: 16, lr: 2e-3, warmup: 1, seed: 1 }), { config: base, steps: N + W });
  return { line, isolated, build, model, step: run.seconds.slice(W).map((s) => s * 1000), losses: run.losses };
}

async function main() {
  console.log(`threads in the browser: ${cpuName()}; wasm simd128; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const r = await withPreview({ dist: DIST, port: PORT }, async (url, browser) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    const out = Object.fromEntries(COUNTS.map((n) => [n, null]));
    for (let round = 0; round < ROUNDS; round++)
      for (const n of COUNTS) {
        const m = await measure(page, url, n);
        const o = out[n];
        out[n] = o ? { ...m, model: [...o.model, ...m.model], step: [...o.step, ...m.step], losses: o.losses } : m;
        if (o && !same(o.losses, m.losses)) out[n].losses = [NaN];
      }
    return { version: browser.version(), out };
  });
  for (const n of COUNTS) {
    const m = r.out[n];
    console.log(`  ${n} thread${n === 1 ? '' : 's'} (the page says "${m.line.trim()}"; crossOriginIsolated ${m.isolated}; Chromium ${r.version}, the ${m.build} build):`);
    console.log(`    forward + backward, 128 bytes, float32: median ${ms(median(m.model))} of ${m.model.length} (${ROUNDS} pages; min ${ms(Math.min(...m.model))})`);
    console.log(`    training step 16 x 128, default model:  median ${ms(median(m.step))} of ${m.step.length} (${ROUNDS} pages, ${W} warm-up steps each; min ${ms(Math.min(...m.step))})`);
  }
  const [a, b] = COUNTS.map((n) => r.out[n]);
  const ok = same(a.losses, b.losses);
  console.log(`  speed-up ${COUNTS[1]} threads vs ${COUNTS[0]}: forward + backward ${(median(a.model) / median(b.model)).toFixed(2)}x, training step ${(median(a.step) / median(b.step)).toFixed(2)}x (target: at least 1.6x each)`);
  console.log(`  the ${a.losses.length} training losses are ${ok ? 'bit-identical' : 'DIFFERENT'} on ${COUNTS.join(' and ')} threads`);
  console.log(`  load average now ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (!ok) process.exitCode = 1;
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
