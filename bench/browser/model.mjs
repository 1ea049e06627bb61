// Browser benchmark of the production build in Debian's Chromium (headless):
//   - the model on 128 bytes in the worker: forward, and forward + backward (median of N)
//   - cold load to the first computed result (the lab, the default view) and to the
//     first inspector result (includes downloading and reading the weights)
//   - page weight: wasm + js + css (gzip) and the weights, from dist/
//
//   npx vite build && node bench/browser/model.mjs [N]
// Serves dist/ itself with `vite preview` on port 4175.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cpuName, median, withPreview } from './serve.mjs';

const N = Number(process.argv[2] ?? 30);
const PORT = 4175;
const fmt = (x) => x.toFixed(2);
const text = 'In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face'.padEnd(128, '.').slice(0, 128);

// The Lessons view (its code and KaTeX) is a chunk of its own, fetched only when a
// learner opens it: counted apart. The lesson texts and the start page are counted
// with every load (the start page, `/`, fetches them). KaTeX's fonts load on
// demand and are not counted.
const LAZY = /^LessonsPage-/;

// dist/ holds four builds of the core (glue + wasm, and the threaded ones' thread
// script); a browser fetches one: relaxed-fma or simd128, threaded where the page
// is cross-origin isolated (as `vite preview` serves it).
const coreFile = /^glass_core(_fma)?(_mt)?[-.]/;
function otherBuild(f, build, threaded) {
  const m = coreFile.exec(f);
  return m !== null && (Boolean(m[1]) !== (build === 'relaxed-fma') || Boolean(m[2]) !== threaded);
}

function pageWeight(build, threaded) {
  const dir = 'dist/assets';
  const rows = { wasm: 0, js: 0, css: 0, lazy: 0 };
  for (const f of readdirSync(dir)) {
    const ext = f.split('.').pop();
    if (!(ext in rows) || otherBuild(f, build, threaded)) continue;
    const bytes = gzipSync(readFileSync(join(dir, f)), { level: 9 }).length;
    if (LAZY.test(f)) rows.lazy += bytes;
    else rows[ext] += bytes;
  }
  rows.html = gzipSync(readFileSync('dist/index.html')).length;
  const weights = statSync('dist/weights/glass-kjv.safetensors').size;
  return { ...rows, weights, weightsGzip: gzipSync(readFileSync('dist/weights/glass-kjv.safetensors')).length };
}

async function main() {
  const run = await withPreview({ port: PORT }, async (URL_, browser) => {
    // cold loads: a fresh context each time (empty cache)
    const labLoads = [];
    const inspectorLoads = [];
    for (let k = 0; k < 5; k++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(`${URL_}?view=lab`);
      labLoads.push(await page.waitForFunction(() => document.querySelector('[data-testid=rms-readout]') && performance.now(), null, { polling: 'raf' }).then((h) => h.jsonValue()));
      await ctx.close();
      const ctx2 = await browser.newContext();
      const page2 = await ctx2.newPage();
      await page2.goto(`${URL_}?view=inspector`);
      inspectorLoads.push(await page2.waitForFunction(() => globalThis.glassTimings?.firstInspectMs, null, { polling: 100, timeout: 30_000 }).then((h) => h.jsonValue()));
      await ctx2.close();
    }

    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(URL_);
    const build = await page.evaluate(async () => (await globalThis.glass.ready).build);
    const threaded = await page.evaluate(() => crossOriginIsolated);
    const line = (await page.getByTestId('threads-line').locator('summary').textContent()).trim();
    const results = await page.evaluate(
      async ({ text, N }) => {
        const g = globalThis.glass;
        const out = {};
        for (const dtype of ['float32', 'float64'])
          for (const backward of [false, true]) out[`${dtype} ${backward ? 'forward + backward' : 'forward'}`] = await g.model.bench(text, { dtype, backward, repeat: N });
        const t0 = performance.now();
        await g.model.run(text, { backward: true });
        out['glass.model.run (forward + backward + copying all 54 tensors out), one call'] = [performance.now() - t0];
        return out;
      },
      { text, N },
    );
    return { labLoads, inspectorLoads, build, threaded, line, results, version: browser.version() };
  });
  {
    const { labLoads, inspectorLoads, build, threaded, line, results, version } = run;
    console.log(`${cpuName()}`);
    console.log(`model on ${new TextEncoder().encode(text).length} bytes in the worker (Chromium ${version}, the ${build} build of the core; the page says "${line}"), median of ${N} (min, max):`);
    for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(40)} ${fmt(median(v))} ms  (${fmt(Math.min(...v))}, ${fmt(Math.max(...v))})`);
    console.log(`cold load to the first lab result:        median ${fmt(median(labLoads))} ms of ${labLoads.map(fmt).join(', ')}`);
    console.log(`cold load to the first inspector result:  median ${fmt(median(inspectorLoads))} ms of ${inspectorLoads.map(fmt).join(', ')}`);
    const w = pageWeight(build, threaded);
    const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
    const first = w.wasm + w.js + w.css + w.html;
    console.log(`page weight (gzip -9): wasm ${kb(w.wasm)} + js ${kb(w.js)} + css ${kb(w.css)} + html ${kb(w.html)} = ${kb(first)} on every load`);
    console.log(`  + the Lessons view's chunk (js + css: KaTeX and the lesson view; fetched when Lessons opens): ${kb(w.lazy)} = ${kb(first + w.lazy)} in all`);
    console.log(`weights: ${kb(w.weights)} (${kb(w.weightsGzip)} gzip), loaded separately`);
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
