// The learner's thread count travels to each core in its worker's name
// ("glass-core threads=2"): a worker cannot read the page's localStorage
// (app/threadSetting.ts keeps the choice), and the core worker needs the count
// before it loads, since its Web Workers start with the module.
const THREADS_IN_NAME = / threads=(\d+)$/;

/** `base`, carrying `threads` if a count is chosen. */
export function workerNameWithThreads(base: string, threads: number | null): string {
  return threads === null ? base : `${base} threads=${threads}`;
}

/** The thread count a worker's name carries, if any. */
export function threadsFromWorkerName(name: string): number | undefined {
  const m = THREADS_IN_NAME.exec(name);
  const n = m === null ? NaN : Number(m[1]);
  return Number.isInteger(n) && n >= 1 && n <= 256 ? n : undefined;
}
