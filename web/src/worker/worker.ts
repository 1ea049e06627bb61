// The one Web Worker that owns the wasm core. It loads the module once, makes
// the state every handler shares (state.ts), then answers each Request in
// arrival order with the handler of its kind (handlers.ts): plain synchronous
// core work. Errors are returned as data. A wasm trap (WebAssembly.RuntimeError)
// leaves the module unusable: the worker reports it as fatal and closes itself,
// and the page starts a fresh one (app/coreClient.ts). Each request is
// announced with 'started' when its work begins: the page's time limit counts
// from there, and a worker that never starts the next request has stopped
// answering. Either way the page terminates this worker and starts a fresh one.
// Learner code never runs here: code cells have a worker of their own
// (worker/sandbox/).
/// <reference lib="webworker" />
import { loadGlass } from '../core';
import { threadsFromWorkerName } from '../protocol/threads';
import type { Request, Response } from '../protocol/api';
import { errorData } from '../protocol/base';
import { handlers } from './handlers';
import { createWorkerState, type WorkerState } from './state';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: Response) => self.postMessage(message);

// the threaded build where the page is cross-origin isolated, on the threads the page's name for this worker carries
const ready: Promise<WorkerState | null> = loadGlass({ threads: threadsFromWorkerName(self.name) }).then(
  (glass) => {
    post({ type: 'ready', core: { threaded: glass.threaded, threads: glass.threads(), maxThreads: glass.maxThreads() } });
    return createWorkerState(glass);
  },
  (e: unknown) => {
    post({ type: 'loadFailed', error: errorData(e) });
    return null;
  },
);

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, kind, payload, model } = event.data;
  const state = await ready;
  if (state === null) return; // loadFailed was already reported
  post({ type: 'started', id });
  try {
    const handler = handlers[kind] as (s: WorkerState, p: unknown) => unknown;
    if (typeof handler !== 'function') throw new Error(`the core worker has no request kind '${String(kind)}'`);
    state.use = model ?? 'shown';
    const t0 = performance.now();
    const value = handler(state, payload);
    post({ type: 'result', id, ok: true, value, computeMs: performance.now() - t0 });
  } catch (e) {
    const fatal = e instanceof WebAssembly.RuntimeError;
    post({ type: 'result', id, ok: false, error: errorData(e), fatal });
    if (fatal) self.close();
  }
};
