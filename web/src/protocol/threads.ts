// The learner's thread count travels to each core in its worker's name
// ("glass-core threads=2"): a worker cannot read the page's localStorage
// (app/threadSetting.ts keeps the choice), and the core worker needs the count
// before it loads, since its Web Workers start with the module.
const THREADS_IN_NAME = / threads=(\d+)$/;

/** The most threads anything asks of a core (the native pool's limit, cpp/glass/tensor/thread_pool.h). */
export const MAX_THREADS = 256;

/** n is a thread count the page may ask for: a whole number from 1 to MAX_THREADS. */
export function isThreadCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_THREADS;
}

/** `base`, carrying `threads` if a count is chosen. */
export function workerNameWithThreads(base: string, threads: number | null): string {
  return threads === null ? base : `${base} threads=${threads}`;
}

/** The thread count a worker's name carries, if any. */
export function threadsFromWorkerName(name: string): number | undefined {
  const m = THREADS_IN_NAME.exec(name);
  const n = m === null ? NaN : Number(m[1]);
  return isThreadCount(n) ? n : undefined;
}
