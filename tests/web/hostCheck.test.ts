// The benchmarks' host check (bench/host_check.mjs): its verdict, and one real
// short run (its figures depend on the machine, so only their form is checked),
// the random reads and the round trip between two threads included; and the
// loop that fills the vector units, against the same arithmetic in JavaScript.
import { describe, expect, test } from 'vitest';
import { FAR_NS, chase, chaseBuffer, describeHost, farApart, fullCores, hostCheck, roundTrip } from '../../bench/host_check.mjs';
import { ADD, CHAINS, FLOPS_PER_PASS, MUL, START, vectorLoop, vectorLoopBytes } from '../../bench/vector_loop.mjs';

const loop = (ratios: number[], spread = 0.02) => {
  const sorted = [...ratios].sort((a, b) => a - b);
  return { ratios, median: sorted[Math.floor(sorted.length / 2)], low: sorted[0], spread, one: 57.04 };
};
const check = (threads: number, ratios: number[], spread = 0.02) => ({ threads, ...loop(ratios, spread) });

describe('host check', () => {
  test('the pointer chase is one cycle through every cache line of its buffer', () => {
    const next = chaseBuffer(1);
    const lines = next.length / 16; // 16384 lines of 64 bytes
    const seen = new Set<number>();
    let p = 0;
    for (let i = 0; i < lines; i++) {
      expect(p % 16).toBe(0); // always the start of a line
      seen.add(p);
      p = next[p];
    }
    expect(p).toBe(0); // back at the start after exactly one lap
    expect(seen.size).toBe(lines);
    expect(chase(1).ns).toBeGreaterThan(0);
  });

  test('a core per thread: 90% of the ideal in the median round and a steady single thread; the line says which', () => {
    expect(fullCores(check(2, [1.95, 1.6, 1.99]))).toBe(true);
    expect(fullCores(check(2, [1.79, 1.9, 1.2]))).toBe(false);
    expect(fullCores(check(4, [3.6, 3.7, 3.5]))).toBe(true);
    expect(fullCores(check(4, [3.5, 3.4, 3.9]))).toBe(false);
    expect(fullCores(check(2, [1.95, 1.97, 1.99], 0.15))).toBe(true);
    expect(fullCores(check(2, [1.95, 1.97, 1.99], 0.4))).toBe(false);
    expect(describeHost(check(2, [1.95, 1.6, 1.99]), 'before')).toBe(
      'host check (before): 2 threads of plain arithmetic did 1.95x the work of 1 (median of 3 rounds, lowest 1.60x; ideal 2x), and 1 thread\'s rate moved 2% between rounds: each thread has a core of its own',
    );
    // the vector loop judged alike: a core whose units are shared is not a core of one's own
    const both = (plain: number[], vector: number[], spread = 0.02) => ({ ...check(2, plain), vector: loop(vector, spread) });
    expect(fullCores(both([1.95, 1.97, 1.99], [1.9, 1.96, 1.98]))).toBe(true);
    expect(fullCores(both([1.95, 1.97, 1.99], [1.1, 1.2, 1.9]))).toBe(false);
    expect(fullCores(both([1.95, 1.97, 1.99], [1.9, 1.96, 1.98], 0.3))).toBe(false);
    expect(fullCores(both([1.2, 1.1, 1.1], [1.9, 1.96, 1.98]))).toBe(false);
    expect(describeHost(both([1.95, 1.97, 1.99], [1.25, 1.16, 1.3], 0.01))).toBe(
      "host check: 2 threads of plain arithmetic did 1.97x the work of 1 (median of 3 rounds, lowest 1.95x; ideal 2x), and 1 thread's rate moved 2% between rounds; of multiply-adds that fill a core's vector units, 1.25x (lowest 1.16x; 1 thread 57 GFLOP/s, moved 1%): these cores are shared right now (by the host, or by another program here): thread speed-ups measured in this state understate the code",
    );
    expect(describeHost(check(2, [1.02]))).toMatch(/^host check: 2 threads .* did 1\.02x the work of 1 \(median of 1 round, .*: these cores are shared right now/);
  });

  test('far apart: a round trip of FAR_NS or more; a check without one is not', () => {
    expect(FAR_NS).toBe(300);
    expect(farApart({ ...check(2, [1.9]), roundTripNs: 504 })).toBe(true);
    expect(farApart({ ...check(2, [1.9]), roundTripNs: 300 })).toBe(true);
    expect(farApart({ ...check(2, [1.9]), roundTripNs: 299 })).toBe(false);
    expect(farApart({ ...check(2, [1.9]), roundTripNs: 152 })).toBe(false);
    expect(farApart(check(2, [1.9]))).toBe(false);
  });

  test('a real run: one ratio per round, each a positive finite number', async () => {
    const c = await hostCheck(2, 2);
    expect(c.threads).toBe(2);
    expect(c.ratios).toHaveLength(2);
    for (const r of c.ratios) expect(Number.isFinite(r) && r > 0).toBe(true);
    expect(c.low).toBeLessThanOrEqual(c.median);
    expect(c.vector!.ratios).toHaveLength(2);
    for (const r of c.vector!.ratios) expect(Number.isFinite(r) && r > 0).toBe(true);
    expect(c.vector!.low).toBeLessThanOrEqual(c.vector!.median);
    expect(c.vector!.spread >= 0 && c.vector!.spread < 1).toBe(true);
    expect(c.reads!.map((r) => r.mb)).toEqual([1, 2, 4, 8]);
    for (const r of c.reads!) expect(Number.isFinite(r.ns) && r.ns > 0).toBe(true);
    expect(Number.isFinite(c.roundTripNs) && c.roundTripNs! > 0).toBe(true);
    expect(describeHost(c)).toMatch(/ between rounds; of multiply-adds that fill a core's vector units, \d+\.\d\dx \(lowest \d+\.\d\dx; 1 thread \d+ GFLOP\/s, moved \d+%\): /);
    expect(c.vector!.one > 0 && Number.isFinite(c.vector!.one)).toBe(true);
    expect(describeHost(c)).toMatch(/; random reads over 1 \/ 2 \/ 4 \/ 8 MB took \d+ \/ \d+ \/ \d+ \/ \d+ ns each; a cache line went to another thread and back in \d+ ns$/);
    expect(c.spread >= 0 && c.spread < 1).toBe(true);
  });

  test('the round trip: every bounce done (the call returns), a time per round trip', async () => {
    // a lost bounce would leave both threads waiting for each other: the test's time limit says so
    const ns = await roundTrip(1);
    expect(Number.isFinite(ns) && ns > 0).toBe(true);
  });

  test('the vector loop: a valid module whose chains do in float32 what the same arithmetic does in JavaScript', async () => {
    expect(WebAssembly.validate(vectorLoopBytes())).toBe(true);
    expect(FLOPS_PER_PASS).toBe(CHAINS * 8);
    const run = await vectorLoop(0);
    const f = Math.fround;
    for (const passes of [1, 2, 7, 1000]) {
      let sum = 0;
      for (let i = 0; i < CHAINS; i++) {
        let x = f(START(i));
        for (let p = 0; p < passes; p++) x = f(f(x * f(MUL)) + f(ADD));
        sum = i === 0 ? x : f(sum + x);
      }
      expect(run(passes)).toBe(sum);
    }
  });
});
