// Types of bench/host_check.mjs, for the TypeScript tests that import it.
/** One loop's figures: per round, the work of `threads` threads together over one thread's. */
export interface SpeedUps {
  ratios: number[];
  median: number;
  low: number;
  /** How much one thread's rate moved between rounds: (highest - lowest) / highest. */
  spread: number;
  /** One thread's best rate over the rounds, in GFLOP/s for the vector loop. */
  one: number;
}
/** The plain loop's figures (SpeedUps), and the rest of the check. */
export interface HostCheck extends SpeedUps {
  threads: number;
  /** The same of the loop that fills a core's vector units (absent in a hand-made check). */
  vector?: SpeedUps;
  /** Nanoseconds per dependent random read over `mb` megabytes (absent in a hand-made check). */
  reads?: { mb: number; ns: number }[];
  /** Nanoseconds for a cache line's round trip between two threads (absent in a hand-made check). */
  roundTripNs?: number;
}
export function chaseBuffer(mb: number): Int32Array;
export function chase(mb: number): { ns: number; end: number };
export function roundTrip(tries?: number): Promise<number>;
export function hostCheck(threads?: number, rounds?: number): Promise<HostCheck>;
export function fullCores(c: HostCheck): boolean;
export const FAR_NS: number;
export function farApart(c: HostCheck): boolean;
export function describeHost(c: HostCheck, when?: string): string;
