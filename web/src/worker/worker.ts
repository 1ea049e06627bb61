// The one Web Worker that owns the wasm core. It loads the module once, then
// answers each Request in arrival order; a handler is plain synchronous core
// work (see lab.ts). Errors are returned as data. A wasm trap
// (WebAssembly.RuntimeError) leaves the module unusable: the worker reports it
// as fatal and closes itself, and the page starts a fresh one (coreClient.ts).
// A request with a time limit (a lesson's code cell) is announced with
// 'started' when its work begins; if it runs too long (an endless loop) the page
// terminates this worker and starts a fresh one.
/// <reference lib="webworker" />
import { loadGlass, type Glass } from '../core';
import { errorData, type CoreApi, type Kind, type Request, type Response } from '../app/protocol';
import { benchRun, inspect, loadWeights, modelRun } from './inspector';
import { computeLab, computeSeed, randomVector } from './lab';
import { lesson } from './lessons';

declare const self: DedicatedWorkerGlobalScope;

type Handlers = { [K in Kind]: (glass: Glass, payload: CoreApi[K]['request']) => CoreApi[K]['response'] };

const handlers: Handlers = {
  lab: computeLab,
  seed: (glass) => computeSeed(glass),
  randomVector,
  loadWeights,
  inspect,
  modelRun,
  benchRun,
  lesson,
  debugTrap: (glass) => glass.debugTrap(),
};

const post = (message: Response) => self.postMessage(message);

const ready: Promise<Glass | null> = loadGlass().then(
  (glass) => {
    post({ type: 'ready' });
    return glass;
  },
  (e: unknown) => {
    post({ type: 'loadFailed', error: errorData(e) });
    return null;
  },
);

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, kind, payload, watch } = event.data;
  const glass = await ready;
  if (glass === null) return; // loadFailed was already reported
  if (watch) post({ type: 'started', id });
  try {
    const handler = handlers[kind] as (g: Glass, p: unknown) => unknown;
    const t0 = performance.now();
    const value = handler(glass, payload);
    post({ type: 'result', id, ok: true, value, computeMs: performance.now() - t0 });
  } catch (e) {
    const fatal = e instanceof WebAssembly.RuntimeError;
    post({ type: 'result', id, ok: false, error: errorData(e), fatal });
    if (fatal) self.close();
  }
};
