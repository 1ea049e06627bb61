// The op table (cpp/glass/tensor/op_table.inc) against what TypeScript can
// call: every op it lists is a function of the loaded core (both builds), and
// every `method` / `function` op is on the facade, read from the table itself
// (scripts/gen_op_table.py --json), not from the generated files, so a table
// the wasm or the TypeScript lags behind fails here. Then the fused kernels,
// bound through the table, give the numbers of the compositions they replace.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Glass, Tensor } from '../../web/src/core';
import { loadTestGlass } from './load';

interface TableOp {
  name: string;
  facade: 'method' | 'function' | 'raw';
  params: { name: string; kind: string }[];
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const table: TableOp[] = JSON.parse(execFileSync('python3', ['scripts/gen_op_table.py', '--json'], { cwd: root, encoding: 'utf8' }));

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});
afterEach(() => {
  expect(glass.liveHandles()).toBe(0);
});

describe('the op table', () => {
  it('lists the ops the facade has always had, and the fused kernels', () => {
    const names = table.map((op) => op.name);
    for (const name of ['add', 'addScalar', 'sumAxis', 'reshape', 'softmax', 'crossEntropy', 'linear', 'causalScores', 'causalSoftmax', 'causalMix', 'rotateHalf', 'rope', 'swiglu', 'pick']) {
      expect(names).toContain(name);
    }
  });

  it.each(['simd128', 'relaxed-fma'] as const)('every op is a function of the %s core', async (build) => {
    const core = build === 'simd128' ? glass : await loadTestGlass(build);
    const raw = core.raw as unknown as Record<string, unknown>;
    const missing = table.filter((op) => typeof raw[op.name] !== 'function').map((op) => op.name);
    expect(missing, 'in the table but not in the wasm build: rebuild it (bash scripts/build.sh wasm --web)').toEqual([]);
  });

  it('every method op is a Tensor method and every function op a glass method', () => {
    const onTensor = (name: string) => typeof (Tensor.prototype as unknown as Record<string, unknown>)[name] === 'function';
    const onGlass = (name: string) => typeof (Glass.prototype as unknown as Record<string, unknown>)[name] === 'function';
    const missing = [
      ...table.filter((op) => op.facade === 'method' && !onTensor(op.name)).map((op) => `tensor.${op.name}`),
      ...table.filter((op) => op.facade === 'function' && !onGlass(op.name)).map((op) => `glass.${op.name}`),
    ];
    expect(missing, 'run python3 scripts/gen_op_table.py').toEqual([]);
  });

  it('a value the core type cannot hold names the op and the parameter', () => {
    glass.scope(() => {
      const x = glass.zeros([2, 3]);
      expect(() => x.reshape([1.5, 4])).toThrow('reshape shape: expected a whole number');
      expect(() => x.slice(0, 0.5, 1)).toThrow('slice start: expected a whole number');
      expect(() => x.pick([0.5, 1])).toThrow('pick ids: expected a whole number');
      expect(() => glass.oneHot([1], 2.5)).toThrow('oneHot classes: expected a whole number');
      expect(() => glass.oneHot([1], 3, { dtype: 'float16' as 'float32' })).toThrow(/float16/);
    });
  });
});

describe('fused kernels from TypeScript equal their compositions', () => {
  const f64 = (data: number[][] | number[][][], requiresGrad = false) => glass.tensor(data, { dtype: 'float64', requiresGrad });
  const randn = (shape: number[], seed: number) => glass.randn(shape, { seed, dtype: 'float64' });
  // (n, n): 1 where column > row
  const above = (n: number) => f64(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? 1 : 0))));
  function expectSame(a: Tensor, b: Tensor, tol = 1e-12) {
    expect(a.shape).toEqual(b.shape);
    const [x, y] = [Array.from(a.data()), Array.from(b.data())];
    x.forEach((v, i) => expect(Math.abs(v - y[i]), `element ${i}: ${v} vs ${y[i]}`).toBeLessThanOrEqual(tol));
  }

  it('linear = x @ weightᵀ', () => {
    glass.scope(() => {
      const x = randn([2, 3, 5], 1);
      const w = randn([4, 5], 2);
      expectSame(glass.linear(x, w), x.matmul(w.transpose()));
      const x32 = x.to('float32');
      const w32 = w.to('float32');
      expectSame(glass.linear(x32, w32), x32.matmul(w32.transpose()), 1e-5);
    });
  });

  it('causalScores, causalSoftmax and causalMix = the masked full products and softmax', () => {
    glass.scope(() => {
      const q = randn([2, 5, 3], 3);
      const k = randn([2, 5, 3], 4);
      const v = randn([2, 5, 3], 5);
      const mask = above(5);
      const scores = glass.causalScores(q, k);
      expectSame(scores, q.matmul(k.transpose()).maskedFill(mask, 0));
      const weights = scores.causalSoftmax();
      expectSame(weights, scores.maskedFill(mask, -Infinity).softmax(-1));
      expectSame(glass.causalMix(weights, v), weights.maskedFill(mask, 0).matmul(v));
      expect(Array.from(weights.slice(1, 0, 1).data())).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0]); // row 0 sees itself only
    });
  });

  it('rotateHalf = [−x2, x1] and its gradient is −rotateHalf(upstream)', () => {
    glass.scope(() => {
      const x = f64([[1, 2, 3, 4]], true);
      const y = x.rotateHalf();
      expect(Array.from(y.data())).toEqual([-3, -4, 1, 2]);
      y.backward(f64([[1, 10, 100, 1000]]));
      expect(Array.from(x.grad!.data())).toEqual([100, 1000, -1, -10]);
    });
  });

  it('rope = x · cos + rotateHalf(x) · sin, gradients to x and both tables included', () => {
    glass.scope(() => {
      // (2 heads, 3 positions, 4) and tables (3, 4); the tables need not be a real rotation here
      const [x1, c1, s1] = [randn([2, 3, 4], 11), randn([3, 4], 12), randn([3, 4], 13)];
      const [x2, c2, s2] = [x1, c1, s1].map((t) => t.detach().requireGrad());
      const fused = glass.rope(x1.requireGrad(), c1.requireGrad(), s1.requireGrad());
      const composed = x2.mul(c2).add(x2.rotateHalf().mul(s2));
      expectSame(fused, composed);
      const up = randn([2, 3, 4], 14);
      fused.backward(up);
      composed.backward(up);
      expectSame(x1.grad!, x2.grad!);
      expectSame(c1.grad!, c2.grad!);
      expectSame(s1.grad!, s2.grad!);
      expect(() => glass.rope(x1, c1.slice(0, 0, 2), s1)).toThrow(/rope: cos and sin must be \(n, k\)/);
    });
  });

  it('swiglu = silu(gate) · up, with both gradients', () => {
    glass.scope(() => {
      const [g1, u1] = [randn([3, 5], 15).mul(4).detach().requireGrad(), randn([3, 5], 16).requireGrad()];
      const [g2, u2] = [g1, u1].map((t) => t.detach().requireGrad());
      const fused = glass.swiglu(g1, u1);
      const composed = g2.silu().mul(u2);
      expectSame(fused, composed);
      const up = randn([3, 5], 17);
      fused.backward(up);
      composed.backward(up);
      expectSame(g1.grad!, g2.grad!);
      expectSame(u1.grad!, u2.grad!);
      expect(() => glass.swiglu(g1, u1.slice(0, 0, 2))).toThrow(/swiglu: gate and up must have the same shape/);
    });
  });

  it('pick = the entry of each row at its id, and its gradient lands there', () => {
    glass.scope(() => {
      const x = f64([[1, 2, 3], [4, 5, 6]], true);
      const picked = x.pick([2, 0]);
      expect(Array.from(picked.data())).toEqual([3, 4]);
      expectSame(picked, x.mul(glass.oneHot([2, 0], 3, { dtype: 'float64' })).sum(-1));
      picked.sum().backward();
      expect(Array.from(x.grad!.data())).toEqual([0, 0, 1, 1, 0, 0]);
    });
  });
});
