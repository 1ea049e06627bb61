// How many threads the core computes on: the learner's choice (ThreadsLine.tsx),
// kept in localStorage, and what the core worker reported when it loaded.
// Workers cannot read localStorage, so the choice travels in each worker's
// name (protocol/threads.ts):
// the core worker starts its Web Workers with the module, so a new choice
// applies to it after a reload, and to each Train view run from its start.
import { signal } from '@preact/signals';
import { isThreadCount, workerNameWithThreads } from '../protocol/threads';
import type { CoreThreads } from '../protocol/api';

const KEY = 'glassllm.threads';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled: every core uses all the threads it can
  }
}

/** The learner's choice, or null: as many as the machine has cores. */
export function chosenThreads(): number | null {
  const raw = storage()?.getItem(KEY) ?? null;
  const n = raw === null ? NaN : Number(raw);
  return isThreadCount(n) ? n : null;
}

/** Keeps the choice (null: back to every core). */
export function chooseThreads(n: number | null): void {
  const s = storage();
  if (s === null) return;
  try {
    if (n === null) s.removeItem(KEY);
    else s.setItem(KEY, String(n));
  } catch {
    // quota: the choice lasts until the page is closed
  }
  chosen.value = chosenThreads();
}

/** The machine's cores as the browser reports them (at least 1). */
export function machineCores(): number {
  const n = typeof navigator === 'object' ? navigator.hardwareConcurrency : 1;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** The choice as the page shows it (chosenThreads, kept in step). */
export const chosen = signal<number | null>(chosenThreads());

/** What the core worker said when it loaded (null until then). */
export const coreThreads = signal<CoreThreads | null>(null);

/** A worker's name that carries the chosen thread count. */
export function workerName(base: string): string {
  return workerNameWithThreads(base, chosenThreads());
}
