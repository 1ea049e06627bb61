// One chunk of glass.model.bench in the worker: bounded, so no request holds the
// core worker for long; the console splits a long benchmark into these.
import { describe, expect, it } from 'vitest';
import { benchProblem } from '../../web/src/app/consoleApi';
import { BENCH_CHUNK_MAX, benchChunk } from '../../web/src/worker/bench';
import { loadTestWorkerWithModel } from './load';

describe('benchChunk', () => {
  it('times `repeat` runs after `warmUp` untimed ones', async () => {
    const w = await loadTestWorkerWithModel();
    const times = benchChunk(w, { text: 'In the beginning', eps: 1e-6, dtype: 'float32', backward: true, repeat: 3, warmUp: 1 });
    expect(times).toHaveLength(3);
    for (const t of times) expect(t).toBeGreaterThan(0);
  });

  it('runs a chunk on another thread count and restores the setting; a count past the core\'s limit is refused with the reason', async () => {
    const w = await loadTestWorkerWithModel();
    const run = { text: 'ab', eps: 1e-6, dtype: 'float32' as const, backward: true, repeat: 1, warmUp: 0 };
    expect(benchChunk(w, { ...run, threads: 1 })).toHaveLength(1);
    expect(w.glass.threads()).toBe(1);
    for (const bad of [2, 0, 1.5, Number.NaN])
      expect(() => benchChunk(w, { ...run, threads: bad })).toThrow(/^setThreads: the thread count must be a whole number from 1 to 1; this is the single-threaded build/);
    expect(w.glass.threads()).toBe(1); // still usable, setting unchanged
    expect(benchChunk(w, run)).toHaveLength(1);
  });

  it('refuses chunks that would hold the worker for long, naming the field', async () => {
    const w = await loadTestWorkerWithModel();
    const run = { text: 'ab', eps: 1e-6, dtype: 'float32' as const, backward: false };
    for (const [repeat, warmUp] of [[BENCH_CHUNK_MAX + 1, 0], [1e9, 0], [-1, 0], [1.5, 0], [NaN, 0], [1, 1e6]])
      expect(() => benchChunk(w, { ...run, repeat, warmUp })).toThrow(/must be a whole number from 0 to 20/);
  });
});

describe('glass.model.bench arguments', () => {
  it('accepts 1 to 1000 runs on a text the model can read', () => {
    expect(benchProblem('ab', 1)).toBeNull();
    expect(benchProblem('x'.repeat(128), 1000)).toBeNull();
    expect(benchProblem('ab', 1001)).toMatch(/from 1 to 1000, got 1001/);
    expect(benchProblem('é'.repeat(65), 1)).toMatch(/130 bytes/);
    expect(benchProblem(undefined, 1)).toMatch(/got undefined/);
  });
});
