// The Train view's axes and colour scale (drawing only: the values come from the core).
import { describe, expect, it } from 'vitest';
import { NON_FINITE_RGB, ZERO_RGB, finiteRange, linearAxis, logDecades, logRgb, niceTicks, stepAxis, thin } from '../../web/src/widgets/train/plotScale';

describe('axes', () => {
  it('round ticks that cover the data', () => {
    expect(niceTicks(2.13, 5.61, 5)).toEqual({ lo: 2, hi: 6, ticks: [2, 3, 4, 5, 6] });
    expect(niceTicks(0, 1, 5).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.0012, 0.0049, 4).ticks).toEqual([0.001, 0.002, 0.003, 0.004, 0.005]);
    // one value (a single step) still gets an axis around it
    const one = niceTicks(3, 3);
    expect(one.lo).toBeLessThan(3);
    expect(one.hi).toBeGreaterThan(3);
    // nothing finite: a default axis, no crash
    expect(niceTicks(Infinity, NaN).ticks).toEqual([0, 0.5, 1]);
  });

  it('maps the domain onto pixels, a y axis upside down', () => {
    const y = linearAxis(2.13, 5.61, 300, 10, 5); // domain widened to 2..6
    expect(y.at(2)).toBe(300);
    expect(y.at(6)).toBe(10);
    expect(y.at(4)).toBe(155);
  });

  it('ticks on whole steps only', () => {
    expect(stepAxis(200, 0, 100).ticks).toEqual([0, 50, 100, 150, 200]);
    expect(stepAxis(3, 0, 100).ticks.every(Number.isInteger)).toBe(true);
    expect(stepAxis(1, 0, 100).ticks).toEqual([0, 1]);
  });

  it('the finite range ignores NaN and Infinity (a diverged run)', () => {
    expect(finiteRange([[5.5, 4.1, NaN], [Infinity, 3.9]])).toEqual({ lo: 3.9, hi: 5.5 });
    expect(finiteRange([[NaN], []])).toBeNull();
  });

  it('thins long series evenly, keeping the first and last point', () => {
    expect(thin(5, 10)).toEqual([0, 1, 2, 3, 4]);
    const t = thin(20000, 800);
    expect(t).toHaveLength(800);
    expect([t[0], t.at(-1)]).toEqual([0, 19999]);
  });
});

describe('log colour scale', () => {
  it('spans whole decades around the finite positive values', () => {
    expect(logDecades([0.003, 0.2, 0, NaN, Infinity])).toEqual({ lo: -3, hi: 0 });
    expect(logDecades([1, 1])).toEqual({ lo: 0, hi: 1 });
    expect(logDecades([0, NaN])).toBeNull();
  });

  it('is monotone from light to dark, with zero and non-finite values set apart', () => {
    const lightness = (v: number) => logRgb(v, -3, 1).reduce((a, b) => a + b, 0);
    const vs = [1e-3, 1e-2, 0.1, 1, 10];
    for (let i = 1; i < vs.length; i++) expect(lightness(vs[i])).toBeLessThan(lightness(vs[i - 1]));
    expect(logRgb(1e-9, -3, 1)).toEqual(logRgb(1e-3, -3, 1)); // clamped at the ends
    expect(logRgb(0, -3, 1)).toEqual(ZERO_RGB);
    expect(logRgb(NaN, -3, 1)).toEqual(NON_FINITE_RGB);
    expect(logRgb(Infinity, -3, 1)).toEqual(NON_FINITE_RGB);
  });
});
