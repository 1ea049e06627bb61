// The two builds of the core (web/src/core/wasmBuild.ts): the relaxed-SIMD one
// swaps the matrix-product kernel for fused multiply-adds. Its products must
// agree with float64 on every path of the kernel: ragged edge tiles, k longer
// than one packed block (256), and transposed (strided) operands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { loadTestGlass } from './load';

describe.each(['simd128', 'relaxed-fma'] as const)('matmul in the %s build', (build) => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await loadTestGlass(build);
  });
  afterAll(() => expect(glass.liveHandles()).toBe(0));

  for (const [m, k, n, transposed] of [
    [37, 300, 45, false],
    [128, 128, 384, false],
    [5, 7, 3, true],
    [130, 33, 129, true],
  ] as const)
    it(`(${m}, ${k}) @ (${k}, ${n})${transposed ? ', B a transposed view' : ''}: float32 within 1e-5 of float64`, () => {
      glass.scope(() => {
        const a = glass.randn([m, k], { seed: 1 }); // (m, k)
        const b = transposed ? glass.randn([n, k], { seed: 2 }).transpose() : glass.randn([k, n], { seed: 2 }); // (k, n)
        const got = a.matmul(b).data(); // (m, n) float32
        const want = a.to('float64').matmul(b.to('float64')).data(); // (m, n)
        let diff = 0;
        let scale = 0;
        for (let i = 0; i < want.length; i++) {
          diff = Math.max(diff, Math.abs(got[i] - want[i]));
          scale = Math.max(scale, Math.abs(want[i]));
        }
        expect(diff / scale).toBeLessThan(1e-5);
      });
    });
});
