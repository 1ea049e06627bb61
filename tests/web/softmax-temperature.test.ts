// The softmax-temperature widget's request against the real core and the
// shipped weights: the distribution at T against softmax(z / T) in plain
// float64 JavaScript from the model's own logits, its entropy, what T does to
// it, its refusals, and its place in the logits-and-loss lesson.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLesson } from '../../web/src/lessons/parse';
import { isWidgetName } from '../../web/src/lessons/widgets';
import { handlers } from '../../web/src/worker/handlers';
import { softmaxTemperature } from '../../web/src/worker/lessonOps/loss';
import { needModel, type WorkerState } from '../../web/src/worker/state';
import { withShippedModel } from './load';

const TEXT = 'And God said, ';

let w: WorkerState;
withShippedModel((s) => (w = s));

/** softmax(z / t) of the last row of the model's logits and its entropy in bits, in plain float64. */
function reference(t: number): { p: number[]; bits: number } {
  const run = needModel(w).model.run(TEXT, { backward: false, dtype: 'float64', eps: needModel(w).info.eps });
  const [n, V] = run.snapshots.logits.shape;
  const z = Array.from(run.snapshots.logits.data.slice((n - 1) * V, n * V), (v) => v / t);
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  const p = e.map((v) => v / sum);
  return { p, bits: -p.reduce((a, q) => a + (q > 0 ? q * Math.log2(q) : 0), 0) };
}

describe('softmaxTemperature', () => {
  it.each([0.5, 1, 2])('at T = %s: the likeliest bytes and the entropy are softmax(z / T) of the model’s logits', (t) => {
    const r = softmaxTemperature(w, { text: TEXT, temperature: t });
    const ref = reference(t);
    const one = reference(1);
    expect(r.after).toBe('␣');
    expect(r.top).toHaveLength(8);
    const order = ref.p.map((_, v) => v).sort((a, b) => ref.p[b] - ref.p[a]);
    expect(r.top.map((g) => g.byte)).toEqual(order.slice(0, 8));
    for (const g of r.top) {
      expect(Math.abs(g.prob - ref.p[g.byte])).toBeLessThan(1e-12);
      expect(Math.abs(g.probAtOne - one.p[g.byte])).toBeLessThan(1e-12);
    }
    expect(Math.abs(r.bits - ref.bits)).toBeLessThan(1e-9);
    expect(Math.abs(r.bitsAtOne - one.bits)).toBeLessThan(1e-9);
    expect(r.maxBits).toBeCloseTo(8, 12);
    expect(r.choices).toBeCloseTo(2 ** r.bits, 9);
  });

  it('a lower T sharpens, a higher T flattens, and the order of the bytes stays', () => {
    const [cold, plain, hot] = [0.5, 1, 2].map((t) => softmaxTemperature(w, { text: TEXT, temperature: t }));
    expect(cold.bits).toBeLessThan(plain.bits);
    expect(plain.bits).toBeLessThan(hot.bits);
    expect(hot.bits).toBeLessThan(8);
    expect(cold.top[0].prob).toBeGreaterThan(plain.top[0].prob);
    expect(hot.top[0].prob).toBeLessThan(plain.top[0].prob);
    expect(cold.top.map((g) => g.byte)).toEqual(plain.top.map((g) => g.byte));
    expect(softmaxTemperature(w, { text: TEXT, temperature: 20 }).bits).toBeGreaterThan(7);
  });

  it('refuses a temperature out of range, an empty text and one longer than the context, with a message', () => {
    for (const t of [0, 0.01, 21, NaN, Infinity]) expect(() => softmaxTemperature(w, { text: TEXT, temperature: t })).toThrow(/temperature must be a number from 0.05 to 20/);
    expect(() => softmaxTemperature(w, { text: '', temperature: 1 })).toThrow(/type a text/);
    expect(() => softmaxTemperature(w, { text: 'x'.repeat(129), temperature: 1 })).toThrow(/context holds 128/);
  });

  it("is the worker's 'softmaxTemperature' request, and step 1 of the logits-and-loss lesson places the widget", () => {
    expect(handlers.softmaxTemperature(w, { text: 'ab', temperature: 1 }).after).toBe('b');
    expect(isWidgetName('softmax-temperature')).toBe(true);
    const lesson = parseLesson('logits-loss', readFileSync(new URL('../../web/src/lessons/logits-loss.md', import.meta.url), 'utf8'));
    expect(lesson.steps.find((s) => s.title === 'A probability for every next byte')!.blocks.some((b) => b.kind === 'widget' && b.name === 'softmax-temperature')).toBe(true);
  });
});
