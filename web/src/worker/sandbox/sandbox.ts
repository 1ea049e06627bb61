// A code-cell sandbox: a worker with a core of its own that runs one learner
// code cell and is then terminated by the page (app/sandboxClient.ts). Nothing
// here is trusted to survive the learner's code: the page checks every message
// it sends, keeps a time limit on it, and never reuses it. In the built site it
// runs inside a frame of its own (public/sandbox.html, app/sandboxFrame.ts),
// started from a blob: URL that cannot fetch anything: its first message is then
// the core's .wasm ('boot'). Started directly by URL (`npm start`), it loads the
// core the usual way.
/// <reference lib="webworker" />
import { loadGlass } from '../../core';
// Both glues in this worker's one file: from a blob: URL it cannot import a chunk.
import createSimd128 from '../../core/wasm/glass_core.js';
import createRelaxedFma from '../../core/wasm/glass_core_fma.js';
import { errorData } from '../../protocol/base';
import type { SandboxBoot, SandboxMessage, SandboxRun } from '../../protocol/sandbox';
import { runCode } from '../lessonOps/code';
import { createWorkerState, loadModel, type WorkerState } from '../state';

declare const self: DedicatedWorkerGlobalScope;

// Taken before any learner code runs, so replacing self.postMessage cannot change what this worker says.
const postMessage = self.postMessage.bind(self);
const post = (message: SandboxMessage) => postMessage(message);

let boot: (message: SandboxBoot) => void = () => {};
const framed = self.location.protocol === 'blob:';
const options = framed
  ? new Promise<SandboxBoot>((resolve) => (boot = resolve)).then(({ build, wasm }) => ({
      build,
      wasmBinary: wasm,
      locateFile: (file: string) => file, // never fetched: the bytes are here
      createCore: build === 'relaxed-fma' ? createRelaxedFma : createSimd128,
    }))
  : Promise.resolve({});

const ready: Promise<WorkerState | null> = options.then(loadGlass).then(
  (glass) => {
    post({ type: 'ready' });
    return createWorkerState(glass);
  },
  (e: unknown) => {
    post({ type: 'loadFailed', error: errorData(e) });
    return null;
  },
);

let ran = false;
self.onmessage = async (event: MessageEvent<SandboxRun | SandboxBoot>) => {
  const run = event.data;
  if (run.type === 'boot') return boot(run);
  if (ran) return; // one run per sandbox
  ran = true;
  const state = await ready;
  if (state === null) return;
  try {
    if (run.weights !== null) loadModel(state, new Uint8Array(run.weights));
    post({ type: 'started', id: run.id });
    const t0 = performance.now();
    const value = runCode(state, run.code);
    post({ type: 'result', id: run.id, ok: true, value, computeMs: performance.now() - t0 });
  } catch (e) {
    // A trap (WebAssembly.RuntimeError) is the only thing runCode lets through; the page stops this worker anyway.
    post({ type: 'result', id: run.id, ok: false, error: errorData(e), fatal: e instanceof WebAssembly.RuntimeError });
  }
};
