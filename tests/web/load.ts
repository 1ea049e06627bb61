// Loads the real wasm core built by `cmake --build --preset wasm`.
// The glue is built for web,worker (see docs/toolchain.md), so in Node we hand it
// the bytes ourselves instead of letting it fetch a file path.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadGlass, type Glass, type WasmBuild } from '../../web/src/core';
import { createWorkerState, loadModel, type WorkerState } from '../../web/src/worker/state';

export const wasmUrl = new URL('../../web/src/core/wasm/glass_core.wasm', import.meta.url);
/** The relaxed-SIMD build (vitest.config.ts enables relaxed SIMD in Node's workers so it can run here). */
export const fmaWasmUrl = new URL('../../web/src/core/wasm/glass_core_fma.wasm', import.meta.url);
/** The weights the app ships (public/weights/), trained by `npm run train`. */
export const shippedWeightsUrl = new URL('../../public/weights/glass-kjv.safetensors', import.meta.url);

export function loadTestGlass(build: WasmBuild = 'simd128'): Promise<Glass> {
  return loadGlass({ build, wasmBinary: readFileSync(build === 'relaxed-fma' ? fmaWasmUrl : wasmUrl) });
}

/** The worker's state on the real core, as the worker makes it (no weights yet). */
export async function loadTestWorker(): Promise<WorkerState> {
  return createWorkerState(await loadTestGlass());
}

/** The worker's state with the shipped weights loaded, as the page has it after ensureWeights(). */
export async function loadTestWorkerWithModel(): Promise<WorkerState> {
  if (!existsSync(shippedWeightsUrl)) throw new Error('public/weights/glass-kjv.safetensors is missing: run npm run train (or glassllm init for random weights)');
  const w = await loadTestWorker();
  loadModel(w, readFileSync(shippedWeightsUrl));
  return w;
}

/**
 * The setup of a file (or a describe block) that tests against the shipped model:
 * the worker's state before its tests (handed to `use`), and no core handle left
 * alive after them.
 */
export function withShippedModel(use: (w: WorkerState) => void): void {
  let state: WorkerState | undefined;
  beforeAll(async () => {
    state = await loadTestWorkerWithModel();
    use(state);
  });
  afterAll(() => expect(state?.glass.liveHandles()).toBe(0));
}
