// Soak: many forward + backward runs through the worker's own handler
// (modelRun: the run, then every snapshot and gradient copied out), cycling
// dtypes and prompt lengths, on the real wasm core with the shipped weights.
// Nothing may leak: no core handle stays alive, and the wasm heap stops growing
// once every path has been taken (wasm memory never shrinks, so growth after
// the warm-up is the leak). `npm test` runs the short form (SOAK_RUNS, default
// 100); `npm run soak` runs 10,000 and prints the figures.
import { describe, expect, it } from 'vitest';
import type { ModelRunInput } from '../../web/src/protocol/model';
import { handlers } from '../../web/src/worker/handlers';
import type { WorkerState } from '../../web/src/worker/state';
import { withShippedModel } from './load';

const RUNS = Number(process.env.SOAK_RUNS ?? 100);
const WARM_UP = 20; // every setting below, several times over
const TEXTS = ['In the beginning', 'And God said, Let there be light: and there was light.', 'x'.repeat(128), 'ab'];
const DTYPES = ['float32', 'float64'] as const;

let w: WorkerState;
withShippedModel((s) => (w = s));

/** The wasm heap's size in bytes (the module's memory, as Emscripten grows it). */
const heapBytes = () => (w.glass.raw as unknown as { HEAPU8: Uint8Array }).HEAPU8.length;

describe(`soak: ${RUNS} forward + backward runs in the worker`, () => {
  it('leaves no handle alive and does not grow the wasm heap after the warm-up', () => {
    expect(Number.isInteger(RUNS) && RUNS > WARM_UP).toBe(true);
    const run = (k: number): ModelRunInput => ({
      text: TEXTS[k % TEXTS.length],
      dtype: DTYPES[Math.floor(k / TEXTS.length) % DTYPES.length],
      eps: 1e-6,
      backward: true,
    });
    const t0 = performance.now();
    for (let k = 0; k < WARM_UP; k++) handlers.modelRun(w, run(k) as Parameters<typeof handlers.modelRun>[1]);
    const afterWarmUp = heapBytes();
    const handlesAfterWarmUp = w.glass.liveHandles();
    let losses = 0;
    for (let k = WARM_UP; k < RUNS; k++) {
      const r = handlers.modelRun(w, run(k) as Parameters<typeof handlers.modelRun>[1]);
      if (r.loss !== null && Number.isFinite(r.loss)) losses += 1;
    }
    const end = heapBytes();
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `soak: ${RUNS} runs in ${seconds.toFixed(1)} s; wasm heap ${afterWarmUp} bytes after ${WARM_UP} warm-up runs, ` +
        `${end} at the end (growth ${end - afterWarmUp} bytes); live handles ${w.glass.liveHandles()}`,
    );
    expect(losses).toBe(RUNS - WARM_UP); // every run computed a finite loss
    expect(w.glass.liveHandles()).toBe(handlesAfterWarmUp);
    expect(end - afterWarmUp).toBe(0);
  }, Math.max(60_000, RUNS * 1_000)); // about 0.1-0.3 s a run: a slow machine must not time out
});
