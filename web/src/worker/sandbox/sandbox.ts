// A code-cell sandbox: a worker with a core of its own that runs one learner
// code cell and is then terminated by the page (app/sandboxClient.ts). Nothing
// here is trusted to survive the learner's code: the page checks every message
// it sends, keeps a time limit on it, and never reuses it.
/// <reference lib="webworker" />
import { loadGlass } from '../../core';
import { errorData } from '../../protocol/base';
import type { SandboxMessage, SandboxRun } from '../../protocol/sandbox';
import { runCode } from '../lessonOps/code';
import { createWorkerState, loadModel, type WorkerState } from '../state';

declare const self: DedicatedWorkerGlobalScope;

// Taken before any learner code runs, so replacing self.postMessage cannot change what this worker says.
const postMessage = self.postMessage.bind(self);
const post = (message: SandboxMessage) => postMessage(message);

const ready: Promise<WorkerState | null> = loadGlass().then(
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
self.onmessage = async (event: MessageEvent<SandboxRun>) => {
  const run = event.data;
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
