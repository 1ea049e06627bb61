// Handle ownership: scopes free what they made, keep what they return.
import { beforeAll, describe, expect, it } from 'vitest';
import { GlassError, type Glass, type Tensor } from '../../web/src/core';
import type { RawTensor } from '../../web/src/core/raw';
import { loadTestGlass } from './load';

let glass: Glass;
beforeAll(async () => {
  glass = await loadTestGlass();
});

describe('glass.scope', () => {
  it('deletes every handle made inside except the returned one', () => {
    const before = glass.liveHandles();
    let inner: Tensor[] = [];
    let innerRaw: RawTensor[] = [];
    const y = glass.scope(() => {
      const x = glass.tensor([[1, 2], [3, 4]]);
      const t = x.transpose();
      const m = x.matmul(t);
      inner = [x, t];
      innerRaw = [x.raw, t.raw];
      expect(glass.liveHandles()).toBe(before + 3);
      return m;
    });
    expect(inner.every((t) => t.isDisposed)).toBe(true);
    expect(innerRaw.every((r) => r.isDeleted())).toBe(true); // really freed in Embind
    expect(y.isDisposed).toBe(false);
    expect(Array.from(y.data())).toEqual([5, 11, 11, 25]); // its data outlives the inputs' handles
    expect(glass.liveHandles()).toBe(before + 1);
    y.dispose();
    expect(y.isDisposed).toBe(true);
    expect(glass.liveHandles()).toBe(before);
    y.dispose(); // harmless twice
  });

  it('keeps handles inside returned arrays and objects; nested scopes hand them outward', () => {
    const before = glass.liveHandles();
    const outer = glass.scope(() => {
      const { a, list } = glass.scope(() => {
        glass.ones([3]);
        return { a: glass.zeros([2]), list: [glass.ones([1]), glass.full([1], 7)] };
      });
      expect(glass.liveHandles()).toBe(before + 3);
      expect(list[1].item()).toBe(7);
      return a;
    });
    expect(glass.liveHandles()).toBe(before + 1);
    outer.dispose();
    expect(glass.liveHandles()).toBe(before);
  });

  it('frees everything when fn throws, and rethrows', () => {
    const before = glass.liveHandles();
    expect(() =>
      glass.scope(() => {
        glass.zeros([4]);
        glass.zeros([2, 2]).add(glass.zeros([3]));
      }),
    ).toThrow(GlassError);
    expect(glass.liveHandles()).toBe(before);
  });

  it('keep() lets a handle escape every scope', () => {
    const before = glass.liveHandles();
    let escaped: Tensor | undefined;
    const returned = glass.scope(() => {
      glass.scope(() => {
        escaped = glass.keep(glass.ones([2]));
        glass.ones([3]);
      });
      return glass.zeros([1]);
    });
    expect(glass.liveHandles()).toBe(before + 2);
    expect(escaped!.isDisposed).toBe(false);
    expect(returned.isDisposed).toBe(false);
    escaped!.dispose();
    returned.dispose();
    expect(glass.liveHandles()).toBe(before);
  });

  it('grad, gamma and graph nodes are tracked handles too', () => {
    const before = glass.liveHandles();
    glass.scope(() => {
      const norm = glass.rmsnorm(2, { dtype: 'float64' });
      const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true });
      norm.call(x).sum().backward({ retainGraph: true });
      expect(x.grad).not.toBeNull();
      expect(norm.gamma.grad).not.toBeNull();
    });
    expect(glass.liveHandles()).toBe(before);
  });

  it('using a disposed tensor is a GlassError, not a crash', () => {
    const t = glass.ones([2]);
    t.dispose();
    expect(() => t.data()).toThrow(GlassError);
    expect(() => t.data()).toThrow(/disposed/);
    expect(() => glass.scope(() => glass.ones([2]).add(t))).toThrow(/disposed/);
  });

  it('refuses async functions (handles would be freed before the awaits)', () => {
    const before = glass.liveHandles();
    expect(() => glass.scope(async () => glass.ones([1]))).toThrow(/synchronous/);
    expect(glass.liveHandles()).toBe(before);
  });

  it('noGrad records no graph and restores grad mode even on error', () => {
    glass.scope(() => {
      const x = glass.tensor([1, 2], { requiresGrad: true });
      const y = glass.noGrad(() => x.mul(2));
      expect(y.requiresGrad).toBe(false);
      expect(glass.gradEnabled()).toBe(true);
      expect(() => glass.noGrad(() => x.add(glass.zeros([3])))).toThrow(GlassError);
      expect(glass.gradEnabled()).toBe(true);
      expect(x.mul(2).requiresGrad).toBe(true);
    });
  });
});
