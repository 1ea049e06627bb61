// Every binding reaches the right core function with its arguments in the
// right order: forward values computed by hand. (The core's own gradient
// checks live in tests/cpp; here the subject is the marshalling.)
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Glass, Tensor } from '../../web/src/core';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});
afterEach(() => {
  expect(glass.liveHandles()).toBe(0);
});

const values = (t: Tensor) => Array.from(t.data());
const f64 = (data: Parameters<Glass['tensor']>[0], requiresGrad = false) => glass.tensor(data, { dtype: 'float64', requiresGrad });
function expectClose(got: Tensor, want: number[], shape: number[], tol = 1e-12) {
  expect(got.shape).toEqual(shape);
  const v = values(got);
  expect(v.length).toBe(want.length);
  v.forEach((x, i) => expect(x === want[i] ? 0 : Math.abs(x - want[i]), `element ${i}: ${x} vs ${want[i]}`).toBeLessThanOrEqual(tol));
}

describe('construction and reading back', () => {
  it('builds from nested arrays, typed arrays and shapes', () => {
    glass.scope(() => {
      const a = glass.tensor([[1, 2, 3], [4, 5, 6]]);
      expect(a.shape).toEqual([2, 3]);
      expect(a.dtype).toBe('float32');
      expect(a.numel).toBe(6);
      expect(a.toNested()).toEqual([[1, 2, 3], [4, 5, 6]]);
      const b = glass.tensor(new Float64Array([1, 2, 3, 4]), { shape: [2, 2] });
      expect(b.dtype).toBe('float64');
      expect(b.toNested()).toEqual([[1, 2], [3, 4]]);
      expect(glass.tensor(new Float32Array([0.1])).data()).toEqual(new Float32Array([0.1]));
      expect(glass.tensor(5).shape).toEqual([]);
      expect(glass.tensor(5).item()).toBe(5);
      expect(glass.scalar(2.5, 'float64').item()).toBe(2.5);
      expect(values(glass.full([2], 7, 'float64'))).toEqual([7, 7]);
      expect(values(glass.zeros([2]))).toEqual([0, 0]);
      expect(values(glass.ones([1, 2]))).toEqual([1, 1]);
      expect(a.to('float64').dtype).toBe('float64');
      expect(a.named('a').name).toBe('a');
      expect(String(a)).toBe('Tensor(float32 (2, 3))');
    });
  });

  it('randn is seeded: same seed same values, a generator continues its stream', () => {
    glass.scope(() => {
      const a = values(glass.randn([5], { seed: 42, dtype: 'float64' }));
      const b = values(glass.randn([5], { seed: 42, dtype: 'float64' }));
      const c = values(glass.randn([5], { seed: 43, dtype: 'float64' }));
      expect(a).toEqual(b);
      expect(a).not.toEqual(c);
      const gen = glass.generator(42);
      const first = values(glass.randn([2], { generator: gen, dtype: 'float64' }));
      const next = values(glass.randn([3], { generator: gen, dtype: 'float64' }));
      expect(first.concat(next)).toEqual(a);
      const u = values(glass.uniform([100], -2, 3, { seed: 1 }));
      expect(Math.min(...u)).toBeGreaterThanOrEqual(-2);
      expect(Math.max(...u)).toBeLessThan(3);
    });
  });
});

describe('ops', () => {
  it('binary with tensors (broadcasting) and with scalars', () => {
    glass.scope(() => {
      const a = f64([[1, 2], [3, 4]]);
      const b = f64([10, 20]);
      expectClose(a.add(b), [11, 22, 13, 24], [2, 2]);
      expectClose(a.sub(b), [-9, -18, -7, -16], [2, 2]);
      expectClose(a.mul(b), [10, 40, 30, 80], [2, 2]);
      expectClose(a.div(b), [0.1, 0.1, 0.3, 0.2], [2, 2]);
      expectClose(a.add(1), [2, 3, 4, 5], [2, 2]);
      expectClose(a.sub(1), [0, 1, 2, 3], [2, 2]);
      expectClose(a.mul(3), [3, 6, 9, 12], [2, 2]);
      expectClose(a.div(4), [0.25, 0.5, 0.75, 1], [2, 2]);
      expectClose(glass.sub(b, a), [9, 18, 7, 16], [2, 2]);
    });
  });

  it('unary', () => {
    glass.scope(() => {
      const x = f64([-1, 0.5, 2]);
      expectClose(x.neg(), [1, -0.5, -2], [3]);
      expectClose(x.pow(3), [-1, 0.125, 8], [3]);
      expectClose(x.square(), [1, 0.25, 4], [3]);
      expectClose(f64([4, 9]).sqrt(), [2, 3], [2]);
      expectClose(x.exp(), [Math.exp(-1), Math.exp(0.5), Math.exp(2)], [3]);
      expectClose(f64([1, Math.E]).log(), [0, 1], [2]);
      const sig = (v: number) => 1 / (1 + Math.exp(-v));
      expectClose(x.sigmoid(), [-1, 0.5, 2].map(sig), [3], 1e-15);
      expectClose(x.silu(), [-1, 0.5, 2].map((v) => v * sig(v)), [3], 1e-15);
      expectClose(x.tanh(), [-1, 0.5, 2].map(Math.tanh), [3], 1e-15);
      expectClose(x.relu(), [0, 0.5, 2], [3]);
      expectClose(x.abs(), [1, 0.5, 2], [3]);
      const y = f64([-2, 0, 3], true);
      y.abs().sum().backward();
      expectClose(y.grad!, [-1, 0, 1], [3]); // sign(y), 0 at 0
    });
  });

  it('reductions over all and along an axis, with keepdim', () => {
    glass.scope(() => {
      const x = f64([[1, 5, 3], [4, 2, 6]]);
      expectClose(x.sum(), [21], []);
      expectClose(x.mean(), [3.5], []);
      expectClose(x.max(), [6], []);
      expectClose(x.sum(0), [5, 7, 9], [3]);
      expectClose(x.mean(-1, true), [3, 4], [2, 1]);
      expectClose(x.max(1), [5, 6], [2]);
      expectClose(x.sumTo([1, 3]), [5, 7, 9], [1, 3]);
    });
  });

  it('matmul (batch broadcast) and shape ops', () => {
    glass.scope(() => {
      const a = f64([[[1, 2], [3, 4]], [[0, 1], [1, 0]]]); // (2, 2, 2)
      const b = f64([[1, 0], [2, 1]]); // (2, 2)
      expectClose(a.matmul(b), [5, 2, 11, 4, 2, 1, 1, 0], [2, 2, 2]);
      const x = f64([[1, 2, 3], [4, 5, 6]]);
      expectClose(x.reshape([3, -1]), [1, 2, 3, 4, 5, 6], [3, 2]);
      expectClose(x.transpose(), [1, 4, 2, 5, 3, 6], [3, 2]);
      expect(x.transpose().isContiguous).toBe(false);
      expect(x.transpose().contiguous().isContiguous).toBe(true);
      expectClose(a.permute([2, 0, 1]), [1, 3, 0, 1, 2, 4, 1, 0], [2, 2, 2]);
      expectClose(x.slice(1, 1, 3), [2, 3, 5, 6], [2, 2]);
      expectClose(x.slice(-1, -1, 3), [3, 6], [2, 1]);
      expectClose(glass.concat([x.slice(1, 1, 3), x.slice(1, 0, 1)], 1), [2, 3, 1, 5, 6, 4], [2, 3]);
      expectClose(f64([1, 2]).broadcastTo([2, 2]), [1, 2, 1, 2], [2, 2]);
    });
  });

  it('where, masked_fill, embedding, one_hot', () => {
    glass.scope(() => {
      const cond = f64([1, 0, 1]);
      expectClose(glass.where(cond, f64([1, 2, 3]), f64(-1)), [1, -1, 3], [3]);
      const mask = f64([[0, 1], [0, 0]]);
      expectClose(f64([[1, 2], [3, 4]]).maskedFill(mask, -Infinity), [1, -Infinity, 3, 4], [2, 2], 0);
      const w = f64([[0, 0.5], [1, 1.5], [2, 2.5]]);
      expectClose(glass.embedding(w, [2, 0, 2, 1], [2, 2]), [2, 2.5, 0, 0.5, 2, 2.5, 1, 1.5], [2, 2, 2]);
      expectClose(glass.oneHot([1, 0], 3, { dtype: 'float64' }), [0, 1, 0, 1, 0, 0], [2, 3]);
    });
  });

  it('softmax, log_softmax, cross_entropy', () => {
    glass.scope(() => {
      const logits = f64([[1, 2, 3], [0, 0, 0]]);
      const z = Math.exp(1) + Math.exp(2) + Math.exp(3);
      const p = [Math.exp(1) / z, Math.exp(2) / z, Math.exp(3) / z, 1 / 3, 1 / 3, 1 / 3];
      expectClose(logits.softmax(), p, [2, 3], 1e-15);
      expectClose(logits.logSoftmax(-1), p.map(Math.log), [2, 3], 1e-14);
      // mean of -log p[target] over the two rows
      expectClose(glass.crossEntropy(logits, [2, 0]), [-(Math.log(p[2]) + Math.log(p[3])) / 2], [], 1e-14);
    });
  });

  it('autograd through the bindings: backward with upstream, retainGrad, detach', () => {
    glass.scope(() => {
      const x = f64([1, 2, 3], true);
      expect(x.isLeaf).toBe(true);
      const y = x.square().retainGrad();
      expect(y.isLeaf).toBe(false);
      y.backward(f64([1, 10, 100]));
      expectClose(x.grad!, [2, 40, 600], [3]);
      expectClose(y.grad!, [1, 10, 100], [3]);
      expect(x.detach().requiresGrad).toBe(false);
      x.requiresGrad = false;
      expect(x.requiresGrad).toBe(false);
    });
  });
});
