// Core errors cross the wasm boundary as JS Errors carrying the core's message,
// and leave the core usable and leak-free.
import { beforeAll, describe, expect, it } from 'vitest';
import { GlassError, type Glass } from '../../web/src/core';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});

/** Runs fn, expects it to throw, returns the error. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, none was thrown');
}

describe('errors from the core', () => {
  it('shape mismatch in add is a GlassError naming the op and both shapes', () => {
    const e = glass.scope(() => thrown(() => glass.zeros([2, 3]).add(glass.zeros([4]))));
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(GlassError);
    expect(e.name).toBe('GlassError');
    expect(e.message).toMatch(/^add: /);
    expect(e.message).toContain('(2, 3)');
    expect(e.message).toContain('(4,)');
  });

  it('the raw binding throws a plain Error with exactly the same message', () => {
    const viaFacade = glass.scope(() => thrown(() => glass.zeros([2, 3]).add(glass.zeros([4]))));
    const a = glass.raw.zeros([2, 3], 'float32');
    const b = glass.raw.zeros([4], 'float32');
    try {
      const raw = thrown(() => glass.raw.add(a, b));
      expect(raw.constructor).toBe(Error);
      expect(raw.message).toBe(viaFacade.message);
    } finally {
      a.delete();
      b.delete();
    }
  });

  it('negative eps is refused by the constructor and by the setter, which keeps the old eps', () => {
    const e = thrown(() => glass.rmsnorm(2, { eps: -1, dtype: 'float64' }));
    expect(e).toBeInstanceOf(GlassError);
    expect(e.message).toMatch(/RMSNorm.*eps must be finite and >= 0/);
    glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps: 1e-3, dtype: 'float64' });
      const e2 = thrown(() => {
        norm.eps = -0.5;
      });
      expect(e2).toBeInstanceOf(GlassError);
      expect(e2.message).toMatch(/eps/);
      expect(norm.eps).toBe(1e-3);
      expect(thrown(() => (norm.eps = Number.NaN)).message).toMatch(/NaN/);
    });
  });

  it('mixing float32 and float64 names both dtypes', () => {
    const e = glass.scope(() => thrown(() => glass.ones([2], 'float32').mul(glass.ones([2], 'float64'))));
    expect(e).toBeInstanceOf(GlassError);
    expect(e.message).toMatch(/^mul: dtypes differ/);
    expect(e.message).toContain('float32 (2,)');
    expect(e.message).toContain('float64 (2,)');
  });

  it('a float32 input to a float64 RMSNorm is refused', () => {
    const e = glass.scope(() => thrown(() => glass.rmsnorm(2, { dtype: 'float64' }).call(glass.tensor([[3, 4]]))));
    expect(e.message).toMatch(/RMSNorm: input is float32 \(1, 2\)/);
  });

  it('an unknown dtype name is quoted', () => {
    const e = thrown(() => glass.zeros([2], 'float16' as never));
    expect(e).toBeInstanceOf(GlassError);
    expect(e.message).toContain("'float16'");
  });

  it('wrong value count, bad axis and non-integer shapes have messages', () => {
    expect(thrown(() => glass.tensor([1, 2, 3], { shape: [2, 2] })).message).toMatch(/3 values cannot fill shape \(2, 2\)/);
    glass.scope(() => {
      expect(thrown(() => glass.zeros([2, 3]).sum(5)).message).toMatch(/axis 5 is out of range/);
      expect(thrown(() => glass.zeros([2, 3]).reshape([1.5, 4])).message).toMatch(/whole number/);
    });
    expect(thrown(() => glass.tensor([[1, 2], [3]])).message).toMatch(/ragged/);
  });

  it('leaves no handle behind and the core keeps working after an error', () => {
    const before = glass.liveHandles();
    glass.scope(() => {
      const a = glass.zeros([2, 3]);
      thrown(() => a.matmul(glass.zeros([2, 3])));
    });
    expect(glass.liveHandles()).toBe(before);
    const sum = glass.scope(() => glass.tensor([1, 2, 3]).sum().item());
    expect(sum).toBe(6);
  });
});
