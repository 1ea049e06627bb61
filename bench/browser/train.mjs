// Browser benchmark of a training step (issue 11): the default model (4 blocks,
// d 128, context 128), batch 16 x 128 bytes, forward + backward + clipping +
// AdamW, in a trainer worker of the production build in headless Chromium
// (glass.train.run on the shipped KJV excerpt; each step's time is measured
// by the core). Median of N steps after W warm-up steps; then the native
// trainer on the same machine in the same run (`glassllm bench`, one thread,
// its train_step_16x128 row) and the ratio.
//
//   npx vite build && node bench/browser/train.mjs [N] [W]
// Serves dist/ with `vite preview` on port 4176 (BENCH_PORT, BENCH_DIST to change).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuName, median, withPreview } from './serve.mjs';

const N = Number(process.argv[2] ?? 10);
const W = Number(process.argv[3] ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 4176);
const DIST = process.env.BENCH_DIST; // default: the build's dist/
const CLI = 'build/native/glassllm';
const ms = (x) => `${x.toFixed(1)} ms`;

function nativeStep(runs, warmup) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: bash scripts/build.sh native --target glassllm`);
  const out = execFileSync(CLI, ['bench', '--threads', '1', '--runs', String(runs), '--warmup', String(warmup)], { encoding: 'utf8' });
  const m = out.match(/^bench train_step_16x128\s+median_ms\s+([\d.]+)\s+min_ms\s+([\d.]+)/m);
  if (!m) throw new Error(`no train_step_16x128 row in:\n${out}`);
  return { median: Number(m[1]), min: Number(m[2]) };
}

async function browserSteps() {
  return withPreview({ dist: DIST, port: PORT }, async (URL_, browser) => {
    const version = browser.version();
    const page = await (await browser.newContext()).newPage();
    await page.goto(URL_);
    const build = await page.evaluate(async () => (await globalThis.glass.ready).build);
    const train = (config, steps) =>
      page.evaluate(({ config, steps }) => globalThis.glass.train.run({ config, steps, batch: 16, lr: 2e-3, warmup: 1, seed: 1 }), { config, steps });
    const base = { heads: 4, norm: 'pre', normKind: 'rms', residual: true, eps: 1e-6, initScale: 'depth', dtype: 'float32' };
    const r = await train({ ...base, blocks: 4, d: 128, ctx: 128 }, N + W);
    // the size of the Train view's experiments: 12 small blocks (what a 200-step preset run costs)
    const small = await train({ ...base, blocks: 12, d: 64, ctx: 64 }, N + W);
    const perStep = (x) => x.seconds.slice(W).map((s) => s * 1000);
    return { version, build, seconds: perStep(r), small: perStep(small) };
  });
}

async function main() {
  // the machine may be shared: the load says how much to trust the figures (the ratio is measured under the same load)
  console.log(`training step, default model (4 blocks, d 128, 918,656 parameters), batch 16 x 128 bytes, float32; ${cpuName()}; load average ${loadavg()[0].toFixed(2)}`);
  const b = await browserSteps();
  console.log(`  browser (Chromium ${b.version}, trainer worker, the ${b.build} build of the core): median ${ms(median(b.seconds))} of ${N} after ${W} warm-up (min ${ms(Math.min(...b.seconds))}, max ${ms(Math.max(...b.seconds))})`);
  const sm = median(b.small);
  console.log(`  12 blocks, d 64, context 64, batch 16 x 64 (the Train view's experiments' size): median ${ms(sm)} a step, so 200 steps take about ${(sm * 200 / 1000).toFixed(0)} s`);
  const nat = nativeStep(N, W);
  console.log(`  native (glassllm bench, 1 thread, train_step_16x128):  median ${ms(nat.median)} (min ${ms(nat.min)})`);
  console.log(`  load average now ${loadavg()[0].toFixed(2)}`);
  console.log(`  ratio browser / native: ${(median(b.seconds) / nat.median).toFixed(2)}x (medians), ${(Math.min(...b.seconds) / nat.min).toFixed(2)}x (minimums); target: at most 400 ms in the browser`);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
