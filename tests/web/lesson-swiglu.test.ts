// The SwiGLU lesson's worker ops against independent references: silu and its
// slope against the closed forms in plain JS (float64), silu's minimum against
// a dense grid, and the model's own feed-forward branch (its snapshot, and the
// hidden values the widget shows) against plain float64 loops over the weights,
// for every block.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { evaluate, runCode } from '../../web/src/worker/lessonOps/code';
import { modelSwiglu, siluGate, siluMinimum } from '../../web/src/worker/lessonOps/swiglu';
import { parseLesson } from '../../web/src/lessons/parse';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

const TEXT = 'In the beginning God created the heaven and the earth.';
const sigma = (z: number) => 1 / (1 + Math.exp(-z));

let w: WorkerState;
let glass: Glass;
withShippedModel((s) => ((w = s), (glass = s.glass)));

describe('silu-gate', () => {
  it('silu, silu·u and both derivatives match the closed forms', () => {
    for (const [z, u] of [[-1.2785, 2], [0, -3], [2.4, 0.5], [-7, 1]]) {
      const r = siluGate(glass, { z, u, lo: -6, hi: 4, points: 11 });
      const s = sigma(z);
      const grad = s * (1 + z * (1 - s));
      expect(r.sigmoid).toBeCloseTo(s, 14);
      expect(r.silu).toBeCloseTo(z * s, 14);
      expect(r.gated).toBeCloseTo(z * s * u, 13);
      expect(r.grad).toBeCloseTo(grad, 13);
      expect(r.gradFormula).toBeCloseTo(grad, 13);
    }
  });
  it('the curve: the grid, silu on it and its autograd slope', () => {
    const r = siluGate(glass, { z: 1, u: 1, lo: -6, hi: 4, points: 11 });
    expect(r.curve.z).toHaveLength(11);
    r.curve.z.forEach((z, i) => {
      expect(z).toBeCloseTo(-6 + i, 12);
      expect(r.curve.silu[i]).toBeCloseTo(z * sigma(z), 13);
      expect(r.curve.grad[i]).toBeCloseTo(sigma(z) * (1 + z * (1 - sigma(z))), 13);
    });
  });
  it("silu's minimum: about −0.2785 at z ≈ −1.2785, below every point of a dense grid", () => {
    const { z, value } = siluMinimum(glass);
    expect(z).toBeCloseTo(-1.278464542761074, 9);
    expect(value).toBeCloseTo(-0.2784645427610738, 12);
    let gridMin = Infinity;
    for (let i = 0; i <= 20000; i++) gridMin = Math.min(gridMin, (-6 + i * 0.0005) * sigma(-6 + i * 0.0005));
    expect(value).toBeLessThanOrEqual(gridMin + 1e-15);
    expect(gridMin - value).toBeLessThan(1e-7);
  });
  it('bad input is refused with a message', () => {
    expect(() => siluGate(glass, { z: NaN, u: 1, lo: -6, hi: 4, points: 11 })).toThrow(/z must be a number/);
    expect(() => siluGate(glass, { z: 1, u: Infinity, lo: -6, hi: 4, points: 11 })).toThrow(/u must be a number/);
    expect(() => siluGate(glass, { z: 1e9, u: 1, lo: -6, hi: 4, points: 11 })).toThrow(/z must be/);
    expect(() => siluGate(glass, { z: 1, u: 1, lo: 4, hi: -6, points: 11 })).toThrow(/lo < hi/);
    expect(() => siluGate(glass, { z: 1, u: 1, lo: -6, hi: 4, points: 1e6 })).toThrow(/points/);
  });
});

describe('model-swiglu', () => {
  it("recomputing ffn from blocks.i.norm.ffn and the three weights gives the model's blocks.i.ffn (every block, every position)", () => {
    // an independent recomputation in plain float64 JS loops, not core ops
    const info = evaluate(w, ['model.info()'])[0];
    expect(info.ok).toBe(true);
    const [run] = evaluate(w, [`model.run(${JSON.stringify(TEXT)}, { backward: false }).snapshots`]);
    if (!run.ok) throw new Error(run.error.message);
    const snaps = run.value as Record<string, { shape: number[]; data: Record<string, number> | number[] }>;
    const arr = (t: { data: Record<string, number> | number[] }) => Object.values(t.data) as number[];
    for (let b = 0; b < 4; b++) {
      const [params] = evaluate(w, [
        `['w_gate', 'w_up', 'w_down'].map((k) => Array.from(model.param('blocks.${b}.ffn.' + k + '.weight').data()))`,
      ]);
      if (!params.ok) throw new Error(params.error.message);
      const [wg, wu, wd] = params.value as number[][];
      const x = arr(snaps[`blocks.${b}.norm.ffn`]);
      const ref = arr(snaps[`blocks.${b}.ffn`]);
      const [n, d] = snaps[`blocks.${b}.norm.ffn`].shape;
      const H = wg.length / d;
      expect(H).toBe(384);
      let num = 0;
      let den = 0;
      const hs: Float64Array[] = [];
      for (let i = 0; i < n; i++) {
        const h = new Float64Array(H);
        for (let j = 0; j < H; j++) {
          let g = 0;
          let u = 0;
          for (let k = 0; k < d; k++) {
            g += wg[j * d + k] * x[i * d + k];
            u += wu[j * d + k] * x[i * d + k];
          }
          h[j] = g * sigma(g) * u;
        }
        hs.push(h);
        for (let o = 0; o < d; o++) {
          let y = 0;
          for (let j = 0; j < H; j++) y += wd[o * H + j] * h[j];
          num += (y - ref[i * d + o]) ** 2;
          den += ref[i * d + o] ** 2;
        }
      }
      expect(Math.sqrt(num / den), `block ${b}`).toBeLessThan(1e-4);
      // what the widget shows (the model's own SwiGLU parts, float32) against these loops, first and last positions
      for (const position of [0, n - 1]) {
        const r = modelSwiglu(w, { text: TEXT, block: b, position });
        expect(r.position).toBe(position);
        expect(r.hidden).toBe(384);
        expect(r.h).toHaveLength(384);
        const want = hs[position];
        const scale = Math.max(...want.map(Math.abs));
        expect(Math.max(...r.h.map((v, j) => Math.abs(v - want[j]))) / scale, `block ${b}, position ${position}`).toBeLessThan(1e-4);
      }
    }
  });

  it('counts and ranking agree with the hidden values it returns', () => {
    const r = modelSwiglu(w, { text: TEXT, block: 2, position: 10 });
    expect(r.label).toBe(TEXT[10]); // 'i', an ASCII byte labels as itself
    const neg = r.gateNegative.filter((v) => v === 1).length;
    expect(r.counts.negative).toBe(neg);
    expect(r.negativeFraction).toBeCloseTo(neg / 384, 6); // a float32 division in the core
    expect(r.counts.flipped + r.counts.blocked + r.counts.passed).toBe(384);
    const byMagnitude = [...r.h].map(Math.abs).sort((a, b) => b - a);
    expect(r.top.map((t) => Math.abs(t.h))).toEqual(byMagnitude.slice(0, 8));
    for (const t of r.top) {
      expect(t.silu).toBeCloseTo(t.gate * sigma(t.gate), 5);
      expect(t.h).toBeCloseTo(t.silu * t.up, 5);
      expect(t.gate < 0).toBe(r.gateNegative[t.unit] === 1);
    }
    // a position past the end shows the last byte
    expect(modelSwiglu(w, { text: TEXT, block: 0, position: 1e6 }).position).toBe(TEXT.length - 1);
  });

  it('bad input is refused with a message', () => {
    expect(() => modelSwiglu(w, { text: '', block: 0, position: 0 })).toThrow(/at least one character/);
    expect(() => modelSwiglu(w, { text: 'x'.repeat(129), block: 0, position: 0 })).toThrow(/129 bytes.*at most 128/);
    expect(() => modelSwiglu(w, { text: 'ab', block: 4, position: 0 })).toThrow(/block must be 0 to 3/);
    expect(() => modelSwiglu(w, { text: 'ab', block: 0, position: -1 })).toThrow(/position/);
    expect(() => modelSwiglu(w, { text: 'ab', block: 0, position: 0.5 })).toThrow(/position/);
  });
});

describe('the lesson file', () => {
  const lesson = parseLesson('swiglu', readFileSync(new URL('../../web/src/lessons/swiglu.md', import.meta.url), 'utf8'));
  // the opening question and the recap (lessonContent.test.ts) are prose and checks; the steps between teach with a widget or a cell
  const teaching = lesson.steps.slice(1, -1);
  it('order 4; every teaching step has a widget or a code cell; every step at least two checks; two live widgets', () => {
    expect(lesson.order).toBe(4);
    expect(teaching.length).toBeGreaterThanOrEqual(4);
    for (const s of lesson.steps) {
      if (teaching.includes(s)) expect(s.blocks.some((b) => b.kind === 'widget' || b.kind === 'code'), s.title).toBe(true);
      expect(s.blocks.filter((b) => b.kind === 'check').length, s.title).toBeGreaterThanOrEqual(2);
    }
    const widgets = lesson.steps.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'widget' ? [b.name] : [])));
    expect(widgets).toEqual(['silu-gate', 'model-swiglu']);
  });
  it('every code cell runs; the last one: nudging row 3 moves only row 3', () => {
    for (const s of lesson.steps)
      for (const b of s.blocks) if (b.kind === 'code') expect(runCode(w, b.code).error, s.title).toBeNull();
    const cell = teaching.at(-1)!.blocks.find((b) => b.kind === 'code') as { code: string };
    const rows = runCode(w, cell.code).output.replace(/[[\]]/g, '').split(',').map(Number);
    expect(rows).toHaveLength(6);
    expect(rows.map((v, i) => (v !== 0 ? i : -1)).filter((i) => i >= 0)).toEqual([3]);
  });
  it('no code cell needs the loaded model (cells run as soon as a step opens, before the weights arrive)', () => {
    for (const s of lesson.steps) for (const b of s.blocks) if (b.kind === 'code') expect(b.code, s.title).not.toMatch(/\bmodel\./);
  });
});
