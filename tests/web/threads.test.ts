// The facade's thread setting on the single-threaded build (what Node runs:
// the threaded build's glue is for browsers, and its bits are compared in the
// wasm-threads ctest stage and in tests/e2e/threads.spec.ts), the worker-name
// channel that carries the learner's choice, and the page's kept choice.
import { afterEach, describe, expect, test } from 'vitest';
import { loadGlass } from '../../web/src/core';
import { threadsFromWorkerName, workerNameWithThreads } from '../../web/src/protocol/threads';
import { chooseThreads, chosen, chosenThreads, workerName } from '../../web/src/app/threadSetting';
import { errorOf } from './errorOf';
import { loadTestGlass } from './load';

describe('setThreads on the single-threaded build', () => {
  test('1 thread, and only 1: more is refused with the reason', async () => {
    const glass = await loadTestGlass();
    expect(glass.threaded).toBe(false);
    expect(glass.threads()).toBe(1);
    expect(glass.maxThreads()).toBe(1);
    glass.setThreads(1);
    expect(glass.threads()).toBe(1);
    expect(errorOf(() => glass.setThreads(2))).toBe(
      'setThreads: the thread count must be a whole number from 1 to 1; this is the single-threaded build of the core: the page is not cross-origin isolated, so it cannot share memory with workers; got the number 2',
    );
    for (const bad of [0, 1.5, -1, Number.NaN, 1e9]) expect(errorOf(() => glass.setThreads(bad))).toMatch(/^setThreads: the thread count must be a whole number from 1 to 1;/);
    expect(errorOf(() => glass.setThreads('2' as unknown as number))).toMatch(/^setThreads n/);
    expect(glass.threads()).toBe(1);
  });

  test('the core itself refuses a count past its limit, by name (the binding under the facade)', async () => {
    const glass = await loadTestGlass();
    expect(errorOf(() => glass.raw.setThreads(2))).toMatch(/set_threads: this build of the core has no threads .*got 2, only 1 is possible/);
    expect(errorOf(() => glass.raw.setThreads(0.5))).toMatch(/setThreads: the thread count must be a whole number between 1 and 1/);
  });

  test('loadGlass refuses a thread count that is not a whole number of at least 1', async () => {
    await expect(loadGlass({ threads: 0 })).rejects.toThrow('loadGlass: threads must be a whole number of at least 1, got the number 0');
    await expect(loadGlass({ threads: 2.5 })).rejects.toThrow(/got the number 2.5/);
  });
});

describe("the learner's choice travels in the worker's name", () => {
  test('round trip, and names that carry no count', () => {
    expect(workerNameWithThreads('glass-core', null)).toBe('glass-core');
    expect(workerNameWithThreads('glass-trainer', 3)).toBe('glass-trainer threads=3');
    for (const n of [1, 2, 7, 256]) expect(threadsFromWorkerName(workerNameWithThreads('glass-core', n))).toBe(n);
    for (const name of ['glass-core', '', 'glass-core threads=0', 'glass-core threads=257', 'glass-core threads=2x', 'glass-core threads=-1', 'threads=2 glass-core'])
      expect(threadsFromWorkerName(name)).toBeUndefined();
  });
});

describe('the kept choice (localStorage)', () => {
  const store = new Map<string, string>();
  const fake = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
  afterEach(() => {
    store.clear();
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  test('kept, read back, put in the workers\' names, and forgotten', () => {
    Object.defineProperty(globalThis, 'localStorage', { value: fake, configurable: true });
    expect(chosenThreads()).toBeNull();
    chooseThreads(2);
    expect(store.get('glassllm.threads')).toBe('2');
    expect(chosen.value).toBe(2);
    expect(workerName('glass-core')).toBe('glass-core threads=2');
    chooseThreads(null);
    expect(store.has('glassllm.threads')).toBe(false);
    expect(chosen.value).toBeNull();
    expect(workerName('glass-trainer')).toBe('glass-trainer');
    store.set('glassllm.threads', 'many');
    expect(chosenThreads()).toBeNull(); // a value the page did not write: every core
  });
});
