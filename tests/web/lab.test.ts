// The lab's worker-side computations (web/src/worker/lab.ts) against the real
// wasm core: the numbers the page shows, checked against the formulas.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { CURVE_POINTS, computeLab, computeSeed, randomVector } from '../../web/src/worker/lab';
import { DEFAULT_LAB, parseLabArgs } from '../../web/src/app/labSettings';
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

describe("the scale curve's right-hand level (the plot's caption)", () => {
  const lab = (patch: Partial<typeof DEFAULT_LAB>) => computeLab(glass, { ...DEFAULT_LAB, ...patch });
  const last = (r: ReturnType<typeof lab>) => r.curve.distance[r.curve.distance.length - 1];
  /** ‖x/rms(x) − x/sqrt(mean(x²) + eps)‖ for x = [3, 4] (gamma = 1), by the formula. */
  const level34 = (eps: number) => Math.SQRT2 * (1 - Math.sqrt(12.5 / (12.5 + eps)));

  it('the default eps in float64: the curve levels off at eps\'s own effect at c = 1, far above rounding', () => {
    const r = lab({});
    // c = 1 is a point of the curve, where the distance is exactly 0 (the plot marks it on its zero line)
    expect(r.curve.c[(CURVE_POINTS - 1) / 2]).toBe(1);
    expect(r.curve.distance[(CURVE_POINTS - 1) / 2]).toBe(0);
    expect(r.plateau.kind).toBe('eps');
    expect(rel(r.plateau.epsEffect!, level34(1e-6))).toBeLessThan(1e-6);
    expect(r.plateau.epsEffect!).toBeGreaterThan(4e-8);
    expect(rel(last(r), r.plateau.epsEffect!)).toBeLessThan(1e-6);
    expect(rel(r.plateau.rounding, 2 ** -53 * Math.SQRT2)).toBeLessThan(1e-6);
  });

  it('the default eps in float32: the same effect is below float32 rounding, and the caption says rounding', () => {
    const r = lab({ dtype: 'float32' });
    expect(r.plateau.kind).toBe('rounding');
    expect(rel(r.plateau.epsEffect!, level34(1e-6))).toBeLessThan(1e-6); // computed in float64 all the same
    expect(rel(r.plateau.rounding, 2 ** -24 * Math.SQRT2)).toBeLessThan(1e-6);
    expect(r.plateau.epsEffect!).toBeLessThan(r.plateau.rounding);
    // what the right-hand side shows is rounding: eps's effect alone is never 0 for c > 1, yet some points are
    const right = r.curve.distance.slice((CURVE_POINTS + 1) / 2);
    expect(right.some((v) => v === 0)).toBe(true);
  });

  it('eps = 1e2: the level is near 1 (not RMSNorm(x) up to rounding), in float64 and float32', () => {
    for (const dtype of ['float64', 'float32'] as const) {
      const r = lab({ eps: 1e2, dtype });
      expect(r.plateau.kind, dtype).toBe('eps');
      expect(rel(r.plateau.epsEffect!, level34(1e2)), dtype).toBeLessThan(1e-12);
      expect(r.plateau.epsEffect!).toBeGreaterThan(0.9);
      expect(rel(last(r), r.plateau.epsEffect!), dtype).toBeLessThan(1e-6);
    }
  });

  it('eps = 1e-12: visible in float64, below rounding in float32', () => {
    expect(lab({ eps: 1e-12 }).plateau.kind).toBe('eps');
    expect(lab({ eps: 1e-12, dtype: 'float32' }).plateau.kind).toBe('rounding');
  });

  it('eps = 0: exactly scale invariant, what remains is rounding (or exactly 0)', () => {
    for (const dtype of ['float64', 'float32'] as const) {
      const r = lab({ eps: 0, dtype });
      expect(r.plateau.kind, dtype).toBe('exact');
      expect(r.plateau.epsEffect, dtype).toBe(0);
      for (const v of r.curve.distance) expect(v, dtype).toBeLessThanOrEqual(4 * r.plateau.rounding);
    }
  });

  it('x = 0, and squares that overflow or underflow at c = 1: no level to speak of', () => {
    for (const x of [[0, 0], [1e200, -2e200], [1e-200, -2e-200]]) {
      for (const dtype of ['float64', 'float32'] as const) {
        const r = lab({ x, dtype });
        expect(r.plateau.kind, `${x} ${dtype}`).toBe('none');
        expect(r.plateau.epsEffect).toBeNull();
        expect(r.plateau.overflowFrom).toBeNull();
      }
    }
  });

  it('large x whose squares overflow at larger c: the distance jumps to ||RMSNorm(x)|| there, and the caption says from where', () => {
    const r = lab({ x: [1e150, 2e150] });
    // mean((c x)^2) passes the float64 maximum (~1.8e308) once c > ~8.5e3: the first curve point above is 1e4
    expect(r.plateau.overflowFrom).toBe(1e4);
    const from = r.curve.c.indexOf(1e4);
    for (const v of r.curve.distance.slice(from)) expect(rel(v, r.outputNorm)).toBeLessThan(1e-12);
    expect(r.plateau.kind).toBe('rounding'); // eps = 1e-6 next to mean(x^2) = 2.5e300
    const r32 = lab({ x: [1e15, 2e15], dtype: 'float32' });
    expect(r32.plateau.overflowFrom).not.toBeNull();
  });

  it('tiny x with a large eps: eps still counts at c = 1e8, the curve has not levelled off', () => {
    const r = lab({ x: [1e-8, 2e-8], eps: 1e2 });
    expect(r.plateau.kind).toBe('not-levelled');
    expect(last(r)).toBeLessThan(0.5 * r.plateau.epsEffect!);
    expect(lab({ x: [1e-6, 2e-6], eps: 1e2 }).plateau.kind).toBe('eps'); // c* = 6e6: levelled by 1e8
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

describe("parseLabArgs: a lesson widget's settings from its widget line", () => {
  it('no args: the lab defaults; args set what they name', () => {
    expect(parseLabArgs({})).toEqual({ ok: true, value: DEFAULT_LAB });
    expect(parseLabArgs({ x: '2,2,2,2', eps: '0', dtype: 'float32', grad: '3' })).toEqual({
      ok: true,
      value: { ...DEFAULT_LAB, x: [2, 2, 2, 2], eps: 0, dtype: 'float32', grad: 3 },
    });
  });

  it.each([
    [{ x: '2,two' }, /'two' is not a number/],
    [{ eps: '-1' }, /eps must be 0 or from 1e-12/],
    [{ c: '1e9' }, /c must be from 1e-8/],
    [{ dtype: 'float16' }, /dtype 'float16'/],
    [{ gamma: '1,2,3' }, /gamma has 3 numbers; it needs 2/],
    [{ grad: '5' }, /grad '5'/],
    [{ epsilon: '1' }, /unknown setting 'epsilon'/],
  ])('%j is refused with a message', (args, message) => {
    const r = parseLabArgs(args);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});
