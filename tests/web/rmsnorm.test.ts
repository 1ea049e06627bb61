// The seed lesson's RMSNorm numbers, gradients and graph, computed by the real
// wasm core through the TypeScript facade.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});
afterEach(() => {
  expect(glass.liveHandles()).toBe(0); // every test frees what it makes
});

const round6 = (xs: ArrayLike<number>) => Array.from(xs, (v) => Math.round(v * 1e6) / 1e6);

describe('seed example: RMSNorm(d=2, eps=1e-6, float64)', () => {
  it('maps [[3, 4]] to [[0.848528, 1.131371]] at 6 decimals', () => {
    const out = glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' });
      const a = norm.call(glass.tensor([[3, 4]], { dtype: 'float64' }));
      expect(a.shape).toEqual([1, 2]);
      expect(a.dtype).toBe('float64');
      return a.data();
    });
    expect(out).toBeInstanceOf(Float64Array);
    expect(round6(out)).toEqual([0.848528, 1.131371]);
  });

  it('RMSNorm([[6, 8]]) - RMSNorm([[3, 4]]) is [[2.54558422e-08, 3.39411230e-08]] to relative 1e-6', () => {
    const diff = glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' });
      const a = norm.call(glass.tensor([[3, 4]], { dtype: 'float64' }));
      const b = norm.call(glass.tensor([[6, 8]], { dtype: 'float64' }));
      const d = b.sub(a);
      expect(d.shape).toEqual([1, 2]);
      return d.data();
    });
    const expected = [2.54558422e-8, 3.3941123e-8];
    expected.forEach((e, i) => expect(Math.abs(diff[i] - e) / e).toBeLessThan(1e-6));
  });

  it('float32 gives the same rounded output, as a Float32Array', () => {
    const out = glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float32' });
      return norm.call(glass.tensor([[3, 4]], { dtype: 'float32' })).data();
    });
    expect(out).toBeInstanceOf(Float32Array);
    expect(Math.abs(out[0] - 0.848528)).toBeLessThan(1e-6);
    expect(Math.abs(out[1] - 1.131371)).toBeLessThan(1e-6);
  });
});

describe('RMSNorm backward', () => {
  // loss = sum(RMSNorm(x) * w): w fixed so that no gradient is trivially zero.
  const xValues = [
    [3, 4, -1.5],
    [0.2, -2, 5],
  ];
  const gammaValues = [0.5, -1.25, 2];
  const w = [
    [0.3, -0.7, 1.1],
    [-0.4, 0.9, 0.25],
  ];

  function loss(xs: number[][], gamma: number[]): number {
    return glass.scope(() => {
      const norm = glass.rmsnorm(3, { eps: 1e-6, dtype: 'float64' });
      norm.setGamma(glass.tensor(gamma, { dtype: 'float64' }));
      const y = norm.call(glass.tensor(xs, { dtype: 'float64' }));
      return y.mul(glass.tensor(w, { dtype: 'float64' })).sum().item();
    });
  }

  function centralDifference(f: (h: number) => number, h = 1e-6): number {
    return (f(h) - f(-h)) / (2 * h);
  }

  it('gives x and gamma gradients that match central finite differences', () => {
    const { dx, dgamma } = glass.scope(() => {
      const norm = glass.rmsnorm(3, { eps: 1e-6, dtype: 'float64' });
      norm.setGamma(glass.tensor(gammaValues, { dtype: 'float64' }));
      const x = glass.tensor(xValues, { dtype: 'float64', requiresGrad: true });
      const l = norm.call(x).mul(glass.tensor(w, { dtype: 'float64' })).sum();
      expect(l.shape).toEqual([]);
      l.backward();
      const gx = x.grad;
      const gg = norm.gamma.grad;
      expect(gx).not.toBeNull();
      expect(gg).not.toBeNull();
      expect(gx!.shape).toEqual([2, 3]);
      expect(gg!.shape).toEqual([3]);
      return { dx: Array.from(gx!.data()), dgamma: Array.from(gg!.data()) };
    });

    const close = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(1e-7 + 1e-6 * Math.abs(want));
    xValues.forEach((row, i) =>
      row.forEach((_, j) => {
        const fd = centralDifference((h) => loss(xValues.map((r, a) => r.map((v, b) => (a === i && b === j ? v + h : v))), gammaValues));
        close(dx[i * 3 + j], fd);
      }),
    );
    gammaValues.forEach((_, k) => {
      const fd = centralDifference((h) => loss(xValues, gammaValues.map((v, b) => (b === k ? v + h : v))));
      close(dgamma[k], fd);
    });
    // Not vacuous: the gradient really depends on the input.
    expect(Math.max(...dx.map(Math.abs))).toBeGreaterThan(1e-3);
  });

  it('accumulates over two backward passes and zeroGrad clears it', () => {
    glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' });
      const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true });
      norm.call(x).sum().backward();
      const once = Array.from(x.grad!.data());
      norm.call(x).sum().backward();
      const twice = Array.from(x.grad!.data());
      twice.forEach((v, i) => expect(v).toBeCloseTo(2 * once[i], 12));
      x.zeroGrad();
      expect(x.grad).toBeNull();
    });
  });
});

describe('RMSNorm graph trace', () => {
  it('is square -> mean -> add_scalar -> sqrt -> div -> mul, with values and gradients', () => {
    glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' });
      const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true }).named('x');
      const y = norm.call(x);
      y.backward(glass.ones([1, 2], 'float64'), { retainGraph: true, retainGrads: true });
      const nodes = glass.traceGraph(y);

      const ops = nodes.filter((n) => n.op !== 'leaf').map((n) => n.op);
      expect(ops).toEqual(['square', 'mean', 'add_scalar', 'sqrt', 'div', 'mul']);
      const byOp = (op: string) => nodes.find((n) => n.op === op)!;
      const leafNamed = (name: string) => nodes.find((n) => n.op === 'leaf' && n.name === name)!;
      expect(nodes.at(-1)!.op).toBe('mul');
      expect(byOp('mean').detail).toMatch(/axis=-1/);
      expect(byOp('mean').shape).toEqual([1, 1]);
      // wiring: div(x, sqrt(...)) then mul(div, gamma)
      expect(byOp('square').inputs).toEqual([leafNamed('x').id]);
      expect(byOp('div').inputs).toEqual([leafNamed('x').id, byOp('sqrt').id]);
      expect(byOp('mul').inputs).toEqual([byOp('div').id, leafNamed('gamma').id]);
      nodes.forEach((n) => n.inputs.forEach((i) => expect(i).toBeLessThan(n.id)));
      // values and gradients after backward
      expect(Array.from(byOp('mean').value!.data())).toEqual([12.5]);
      for (const n of nodes) {
        expect(n.value, `${n.op} value`).not.toBeNull();
        expect(n.grad, `${n.op} grad`).not.toBeNull();
        expect(n.grad!.shape).toEqual(n.shape);
      }
      expect(Array.from(leafNamed('x').grad!.data())).toEqual(Array.from(x.grad!.data()));
    });
  });
});
