// The lab's worker-side computations (web/src/worker/lab.ts) against the real
// wasm core: the numbers the page shows, checked against the formulas.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { CURVE_POINTS, computeLab, computeSeed, randomVector } from '../../web/src/worker/lab';
import { DEFAULT_LAB } from '../../web/src/app/labSettings';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe('computeLab', () => {
  it('the seed settings: r, output, graph chain, gradients, and no leaked handles', () => {
    const before = glass.liveHandles();
    const r = computeLab(glass, DEFAULT_LAB);
    expect(glass.liveHandles()).toBe(before);
    expect(r.meanSquare).toBe(12.5);
    expect(rel(r.r, Math.sqrt(12.5 + 1e-6))).toBeLessThan(1e-15);
    expect(r.output.map((v) => Number(v.toFixed(6)))).toEqual([0.848528, 1.131371]);
    expect(r.graph.map((n) => n.op)).toEqual(['leaf', 'square', 'mean', 'add_scalar', 'sqrt', 'div', 'leaf', 'mul']);
    // every node has a gradient after backward of sum(y)
    for (const n of r.graph) expect(n.grad, `${n.op} grad`).not.toBeNull();
    expect(r.curve.c).toHaveLength(CURVE_POINTS);
    expect(r.curve.distance).toHaveLength(CURVE_POINTS);
    expect(r.distance).toBe(0);
    expect(r.effectiveEps).toBe(1e-6);
  });

  it('follows gamma * x / sqrt(mean(x^2) + eps / c^2) as eps and c move', () => {
    const x = [0.5, -1, 2, 3];
    const gamma = [1, 0.5, -2, 1.5];
    for (const [eps, c] of [
      [1e-2, 1e-3],
      [1, 10],
      [0, 1e5],
      [100, 1e-8],
    ]) {
      const r = computeLab(glass, { x, gamma, eps, c, dtype: 'float64', grad: 2 });
      const ms = x.reduce((s, v) => s + v * v, 0) / x.length;
      x.forEach((v, i) => {
        const expected = (gamma[i] * v) / Math.sqrt(ms + eps / (c * c));
        expect(rel(r.output[i], expected), `eps=${eps} c=${c} i=${i}`).toBeLessThan(1e-12);
      });
      expect(rel(r.effectiveEps, eps / (c * c)) || 0).toBeLessThan(1e-15);
    }
  });

  it('a constant vector: LayerNorm gives zeros, RMSNorm stays uncentred', () => {
    const r = computeLab(glass, { ...DEFAULT_LAB, x: [2, 2, 2, 2] });
    expect(r.layerNorm.output).toEqual([0, 0, 0, 0]);
    expect(r.layerNorm.variance).toBe(0);
    r.output.forEach((v) => expect(Math.abs(v - 1)).toBeLessThan(1e-6));
  });

  it('the zero vector: 0 with eps > 0, NaN (0/0) with eps = 0', () => {
    expect(computeLab(glass, { ...DEFAULT_LAB, x: [0, 0, 0] }).output).toEqual([0, 0, 0]);
    const r = computeLab(glass, { ...DEFAULT_LAB, x: [0, 0, 0], eps: 0 });
    expect(r.r).toBe(0);
    r.output.forEach((v) => expect(v).toBeNaN());
  });

  it('huge inputs overflow in the mean of squares; float32 cannot even hold 1e200', () => {
    const r64 = computeLab(glass, { ...DEFAULT_LAB, x: [1e200, -2e200] });
    expect(r64.meanSquare).toBe(Infinity);
    expect(r64.r).toBe(Infinity);
    expect(r64.output.map(Math.abs)).toEqual([0, 0]);
    const r32 = computeLab(glass, { ...DEFAULT_LAB, x: [1e200, -2e200], dtype: 'float32' });
    expect(r32.x).toEqual([Infinity, -Infinity]);
    r32.output.forEach((v) => expect(v).toBeNaN());
  });
});

describe('computeSeed and randomVector', () => {
  it('float64 gives the verified digits; float32 differs in the difference', () => {
    const [f64, f32] = computeSeed(glass);
    expect(f64.a.map((v) => Number(v.toFixed(6)))).toEqual([0.848528, 1.131371]);
    [2.54558422e-8, 3.3941123e-8].forEach((e, i) => expect(rel(f64.diff[i], e)).toBeLessThan(1e-6));
    expect(f32.dtype).toBe('float32');
    expect(f32.diff).not.toEqual(f64.diff);
  });

  it('randomVector is seeded', () => {
    expect(randomVector(glass, { d: 5, seed: 3 })).toEqual(randomVector(glass, { d: 5, seed: 3 }));
    expect(randomVector(glass, { d: 5, seed: 3 })).not.toEqual(randomVector(glass, { d: 5, seed: 4 }));
  });
});
