// The console's benchmark, one short chunk at a time: glass.model.bench
// (app/consoleApi.ts) asks for a few timed runs per request, so it can report
// progress between chunks and be cancelled, and no request holds the worker
// (and the lab, lessons and inspector behind it) for long.
import { GlassError } from '../core';
import type { BenchChunkInput } from '../protocol/model';
import { computeModel, needModel, type WorkerState } from './state';

/** Most timed runs and warm-up runs one request may ask for (a chunk stays well under a second). */
export const BENCH_CHUNK_MAX = 20;

/** `repeat` timed runs after `warmUp` untimed ones (compute only: nothing copied out). */
export function benchChunk(s: WorkerState, r: BenchChunkInput): number[] {
  for (const [name, v] of [['repeat', r.repeat], ['warmUp', r.warmUp]] as const)
    if (!Number.isInteger(v) || v < 0 || v > BENCH_CHUNK_MAX) throw new GlassError(`benchChunk: ${name} must be a whole number from 0 to ${BENCH_CHUNK_MAX}, got ${v}`);
  const { model: m } = needModel(s);
  // Another thread count for this chunk only: a benchmark can then alternate
  // counts in one page, so both see the same host, page and compiled code
  // (bench/browser/threads.mjs). setThreads refuses a count past the core's limit.
  const own = s.glass.threads();
  if (r.threads !== undefined) s.glass.setThreads(r.threads);
  try {
    // The first run sets eps and dtype; the timed ones repeat that same run. Warm-up:
    // V8 first runs wasm from its baseline compiler and swaps in optimised code as a
    // background compile finishes, so the first runs measure the baseline tier.
    computeModel(s, r, r.backward);
    for (let k = 0; k < r.warmUp; k++) m.compute(r.text, { backward: r.backward });
    const times: number[] = [];
    for (let k = 0; k < r.repeat; k++) {
      const t0 = performance.now();
      m.compute(r.text, { backward: r.backward });
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    if (r.threads !== undefined) s.glass.setThreads(own);
  }
}

export const benchHandlers = { benchChunk };
