// The trainer worker's entry: one per run (A, B, a console run), each with a
// core of its own, so two runs train at once (each on the page's share of the
// threads: app/threadShare.ts) while the core worker keeps the lab, lessons and
// inspector responsive. The page's side is
// app/trainClient.ts; the loop is runner.ts. A wasm trap leaves the module
// unusable: reported as fatal, and the worker closes itself (the client
// replaces it).
/// <reference lib="webworker" />
import { loadGlass } from '../../core';
import { threadsFromWorkerName } from '../../protocol/threads';
import { indexedDbRunStore } from '../../common/trainStore';
import { errorData } from '../../protocol/base';
import type { TrainEvent } from '../../protocol/train';
import { TrainerRunner } from './runner';

declare const self: DedicatedWorkerGlobalScope;

const post = (event: TrainEvent, transfer: Transferable[] = []) => self.postMessage(event, transfer);

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
  return response.arrayBuffer();
}

// a macrotask: lets the page's queued commands (pause, stop) run between slices
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// the threaded build where the page is cross-origin isolated, on the threads the page's name for this worker carries
const ready: Promise<TrainerRunner | null> = loadGlass({ threads: threadsFromWorkerName(self.name) }).then(
  (glass) => {
    post({ type: 'ready' });
    return new TrainerRunner({
      glass,
      post: (event, transfer) => {
        post(event, transfer);
        if (event.type === 'error' && event.fatal) self.close();
      },
      store: typeof indexedDB === 'undefined' ? null : indexedDbRunStore,
      fetchBytes,
      yieldToEvents,
      now: () => performance.now(),
    });
  },
  (e: unknown) => {
    post({ type: 'error', error: errorData(e), fatal: true });
    return null;
  },
);

self.onmessage = async (event: MessageEvent<unknown>) => {
  const runner = await ready;
  if (runner !== null) void runner.receive(event.data);
};
