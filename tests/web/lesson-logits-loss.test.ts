// The "Logits, loss and the backward pass" lesson's worker op (lessonOps/loss.ts)
// against independent recomputations: the model's own loss, the core's
// cross-entropy differentiated by autograd from a leaf copy of the logits, the
// logits rebuilt from norm.final and head.weight, and plain JS for the
// conversions. Bad input is refused with a message.
import { describe, expect, it } from 'vitest';
import type { Glass, Tensor } from '../../web/src/core';
import { needModel } from '../../web/src/worker/state';
import { nextByteLoss } from '../../web/src/worker/lessonOps/loss';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

const VERSE = 'In the beginning God created the heaven and the earth.';

let w: WorkerState;
let glass: Glass;
withShippedModel((s) => ((w = s), (glass = s.glass)));

const model = () => needModel(w).model;
const f64 = (t: { shape: number[]; data: Float32Array | Float64Array }): Tensor => glass.tensor(t.data, { shape: t.shape, dtype: 'float64' });
const maxGap = (a: Tensor, b: Tensor) => a.sub(b).square().max().sqrt().item();

describe('next-byte-loss: the loss', () => {
  it('the mean of the per-position surprises is the model’s own loss (float64 run, and the float32 run)', () => {
    for (const text of [VERSE, 'Im Anfang schuf Gott Himmel und Erde.', 'qx7#Zp!0vK2@mW9', 'ab']) {
      const r = nextByteLoss(w, { text, position: null });
      const n = new TextEncoder().encode(text).length;
      expect(r.surprise).toHaveLength(n - 1);
      const mean = r.surprise.reduce((s, v) => s + v, 0) / r.surprise.length;
      const own = model().run(text, { dtype: 'float64', backward: false }).loss!;
      expect(Math.abs(mean - own)).toBeLessThanOrEqual(1e-12 * Math.max(1, own));
      expect(Math.abs(r.loss - own)).toBeLessThanOrEqual(1e-12 * Math.max(1, own));
      expect(r.modelLoss).toBe(own);
      const single = model().run(text, { dtype: 'float32', backward: false }).loss!;
      expect(Math.abs(mean - single) / own).toBeLessThan(1e-5);
    }
  });

  it('the loss rebuilt from norm.final and head.weight with the core’s cross-entropy agrees', () => {
    const r = nextByteLoss(w, { text: VERSE, position: 3 });
    glass.scope(() => {
      const run = model().run(VERSE, { dtype: 'float64', backward: false });
      const n = run.ids.length;
      const logits = f64(run.snapshots['norm.final']).matmul(f64(model().param('head.weight')).transpose()); // (n, 256)
      const loss = glass.crossEntropy(logits.slice(0, 0, n - 1), run.ids.slice(1)).item();
      expect(Math.abs(loss - r.loss)).toBeLessThan(1e-10);
    });
  });

  it('conversions and the chosen position, against plain arithmetic', () => {
    const r = nextByteLoss(w, { text: VERSE, position: 7 });
    expect(r.uniform).toBeCloseTo(Math.log(256), 12);
    expect(r.bitsPerByte).toBeCloseTo(r.loss / Math.LN2, 12);
    expect(r.perplexity).toBeCloseTo(Math.exp(r.loss), 10);
    expect(r.position).toBe(7);
    expect(r.target.byte).toBe(VERSE.charCodeAt(8));
    expect(r.surprise[7]).toBeCloseTo(-Math.log(r.target.prob), 10);
    // the verse is far cheaper than knowing nothing
    expect(r.loss).toBeLessThan(r.uniform / 2);
    // top 5: descending, and no byte outside them is more likely than the fifth
    const probs = r.top.map((g) => g.prob);
    expect(probs).toEqual([...probs].sort((a, b) => b - a));
    const fifth = probs[4];
    glass.scope(() => {
      const run = model().run(VERSE, { dtype: 'float64', backward: false });
      const row = f64(run.snapshots.logits).slice(0, 7, 8).softmax(-1).data();
      const outside = Array.from(row).filter((_, v) => !r.top.some((g) => g.byte === v));
      expect(Math.max(...outside)).toBeLessThanOrEqual(fifth);
      for (const g of r.top) expect(g.prob).toBe(row[g.byte]);
    });
    expect(r.bytes.map((b) => b.byte)).toEqual(Array.from(new TextEncoder().encode(VERSE)));
    expect(r.bytes[2].label).toBe('␣');
  });

  it('null opens the last prediction, t = n − 2', () => {
    const r = nextByteLoss(w, { text: VERSE, position: null });
    expect(r.position).toBe(VERSE.length - 2);
    expect(r.target.label).toBe('.');
  });
});

describe('next-byte-loss: the gradient at the logits', () => {
  it('equals (softmax − one-hot)/(n − 1), last row 0, computed independently (float64, ≤ 1e-10)', () => {
    for (const text of [VERSE, 'qx7#Zp!0vK2@mW9', 'In']) {
      const r = nextByteLoss(w, { text, position: 0 });
      expect(r.formulaGap).toBeLessThanOrEqual(1e-10);
      expect(r.lastRowNorm).toBe(0);
      expect(Math.abs(r.gradRowSum)).toBeLessThan(1e-12);
      expect(r.target.grad).toBeLessThan(0);
      expect(r.gradRow.filter((g, v) => v !== r.target.byte).every((g) => g > 0)).toBe(true);
      glass.scope(() => {
        const run = model().run(text, { dtype: 'float64', backward: true });
        const n = run.ids.length;
        const grad = f64(run.grads!.logits); // (n, 256)
        // 1. autograd through the core's cross-entropy, from a leaf copy of the logits
        const leaf = glass.tensor(run.snapshots.logits.data, { shape: run.snapshots.logits.shape, dtype: 'float64', requiresGrad: true });
        glass.crossEntropy(leaf.slice(0, 0, n - 1), run.ids.slice(1)).backward();
        expect(maxGap(grad, leaf.grad!)).toBeLessThanOrEqual(1e-10);
        // 2. softmax written out as exp(z − max) / Σ, one-hot from the ids
        const z = f64(run.snapshots.logits).slice(0, 0, n - 1); // (n−1, 256)
        const e = z.sub(z.max(-1, true)).exp();
        const p = e.div(e.sum(-1, true));
        const formula = p.sub(glass.oneHot(run.ids.slice(1), 256, { dtype: 'float64' })).div(n - 1);
        expect(maxGap(grad.slice(0, 0, n - 1), formula)).toBeLessThanOrEqual(1e-10);
        expect(grad.slice(0, n - 1, n).square().sum().item()).toBe(0);
        // the widget's row is the model's row
        expect(maxGap(glass.tensor(r.gradRow, { dtype: 'float64' }), grad.slice(0, 0, 1).reshape([256]))).toBe(0);
      });
    }
  });
});

describe('next-byte-loss: bad input', () => {
  it('a 1-byte text has no next byte to predict: refused with a message', () => {
    expect(() => nextByteLoss(w, { text: 'I', position: null })).toThrow(/no next byte to predict/);
  });
  it('empty, too long, and positions out of range or not whole are refused with a message', () => {
    expect(() => nextByteLoss(w, { text: '', position: null })).toThrow(/at least two bytes/);
    expect(() => nextByteLoss(w, { text: 'x'.repeat(129), position: null })).toThrow(/context holds 128/);
    expect(() => nextByteLoss(w, { text: VERSE, position: VERSE.length - 1 })).toThrow(/from 0 to 52/);
    expect(() => nextByteLoss(w, { text: VERSE, position: -1 })).toThrow(/whole number/);
    expect(() => nextByteLoss(w, { text: VERSE, position: NaN })).toThrow(/whole number/);
    expect(() => nextByteLoss(w, { text: VERSE, position: 1.5 })).toThrow(/whole number/);
    // and the op still works afterwards
    expect(nextByteLoss(w, { text: 'ab', position: 0 }).surprise).toHaveLength(1);
  });
});
