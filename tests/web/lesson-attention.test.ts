// The attention lesson's worker ops against the real core and the shipped
// weights: the layer rebuilt from core ops (heads split by columns, RoPE,
// q·k/√32, causal mask, softmax, concat, wo) must reproduce the C++ model's own
// blocks.i.attn snapshot in float32 and float64; the pattern's upper triangle
// is exactly 0 and rows sum to 1; RoPE's dot product depends on the offset
// only; bad input is refused with a message.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DTypeName, Glass } from '../../web/src/core';
import { needModel } from '../../web/src/worker/state';
import { attentionLayer, attentionPattern, blockWeights, ropeOffset, ropeTables, rope } from '../../web/src/worker/lessonOps/attention';
import { lessonChecks, parseLesson } from '../../web/src/lessons/parse';
import { evaluate, runCode } from '../../web/src/worker/lessonOps/code';
import { handlers } from '../../web/src/worker/handlers';
import { loadTestWorkerWithModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

const TEXT = 'In the beginning God created the heaven and the earth.';

let w: WorkerState;

let glass: Glass;
beforeAll(async () => {
  w = await loadTestWorkerWithModel();
    glass = w.glass;
});
afterAll(() => expect(glass.liveHandles()).toBe(0));

/** Largest |rebuilt − model| relative to the largest |model| value, for one block. */
function layerError(block: number, dtype: DTypeName): number {
  const { model, info } = needModel(w);
  const run = model.run(TEXT, { backward: false, eps: info.eps, dtype });
  try {
    return glass.scope(() => {
      const s = run.snapshots[`blocks.${block}.norm.attn`];
      expect(s.data).toBeInstanceOf(dtype === 'float64' ? Float64Array : Float32Array);
      const x = glass.tensor(s.data, { shape: s.shape, dtype }); // (n, d)
      const { out, weights } = attentionLayer(glass, x, blockWeights(glass, model, block, dtype), info.heads, info.ropeBase);
      expect(weights.shape).toEqual([4, s.shape[0], s.shape[0]]);
      const a = run.snapshots[`blocks.${block}.attn`];
      const own = glass.tensor(a.data, { shape: a.shape, dtype }); // (n, d)
      return out.sub(own).square().max().sqrt().item() / own.square().max().sqrt().item();
    });
  } finally {
    model.run(TEXT, { backward: false, eps: info.eps, dtype: 'float32' }); // leave the model in float32
  }
}

describe('attention rebuilt from core ops matches the C++ model', () => {
  it('every block, float32: within 1e-4 relative (it is about 1e-6)', () => {
    for (let b = 0; b < 4; b++) expect(layerError(b, 'float32'), `block ${b}`).toBeLessThan(1e-4);
  });
  it('every block, float64: within 1e-12 relative (it is about 1e-15)', () => {
    for (let b = 0; b < 4; b++) expect(layerError(b, 'float64'), `block ${b}`).toBeLessThan(1e-12);
  });
});

describe('the attention-pattern widget', () => {
  it('a causal, row-stochastic (n, n) pattern with byte labels, and the rebuilt layer agrees with the model', () => {
    const r = attentionPattern(w, { text: 'Hello, world', block: 2, head: 3 });
    const n = 12;
    expect(r.labels).toHaveLength(n);
    expect(r.labels[5]).toBe(',');
    expect(r.labels[6]).toBe('␣');
    expect(r.weights).toHaveLength(n);
    for (let i = 0; i < n; i++) {
      expect(r.weights[i]).toHaveLength(n);
      for (let j = i + 1; j < n; j++) expect(r.weights[i][j]).toBe(0);
      for (let j = 0; j <= i; j++) expect(r.weights[i][j]).toBeGreaterThan(0);
      // an independent sum in double precision
      expect(Math.abs(r.weights[i].reduce((s, v) => s + v, 0) - 1)).toBeLessThan(1e-5);
      expect(Math.abs(r.rowSums[i] - 1)).toBeLessThan(1e-5);
    }
    expect(r.weights[0][0]).toBe(1); // the first byte can only look at itself
    expect(r.maxAbove).toBe(0);
    expect(r.rowSumDev).toBeLessThan(1e-5);
    expect(r.columns).toEqual([96, 127]);
    expect(r.maxDiff / r.maxAbs).toBeLessThan(1e-4);
  });
  it('different heads of one block have different patterns', () => {
    const a = attentionPattern(w, { text: TEXT, block: 0, head: 0 }).weights;
    const b = attentionPattern(w, { text: TEXT, block: 0, head: 1 }).weights;
    const diff = a.flat().reduce((m, v, i) => Math.max(m, Math.abs(v - b.flat()[i])), 0);
    expect(diff).toBeGreaterThan(0.01);
  });
  it("is the worker's 'attentionPattern' request", () => {
    expect(handlers.attentionPattern(w, { text: 'ab', block: 0, head: 0 }).labels).toEqual(['a', 'b']);
  });
  it('refuses long prompts, empty prompts, and blocks or heads out of range, with a message', () => {
    expect(() => attentionPattern(w, { text: 'x'.repeat(129), block: 0, head: 0 })).toThrow(/129 bytes.*at most 128/);
    expect(() => attentionPattern(w, { text: 'é'.repeat(65), block: 0, head: 0 })).toThrow(/130 bytes/);
    expect(() => attentionPattern(w, { text: '', block: 0, head: 0 })).toThrow(/at least one byte/);
    expect(() => attentionPattern(w, { text: 'ab', block: 4, head: 0 })).toThrow(/block must be a whole number from 0 to 3/);
    expect(() => attentionPattern(w, { text: 'ab', block: -1, head: 0 })).toThrow(/block/);
    expect(() => attentionPattern(w, { text: 'ab', block: 0, head: 4 })).toThrow(/head must be a whole number from 0 to 3/);
    expect(() => attentionPattern(w, { text: 'ab', block: 0, head: NaN })).toThrow(/head/);
    expect(() => attentionPattern(w, { text: 'ab', block: 1.5, head: 0 })).toThrow(/block/);
    // a 128-byte prompt is fine
    expect(attentionPattern(w, { text: 'x'.repeat(128), block: 3, head: 3 }).weights).toHaveLength(128);
  });
});

describe('RoPE', () => {
  it('rotates each pair (j, j+16) by pos · 10000^(−2j/32): checked against a hand rotation', () => {
    glass.scope(() => {
      const x = glass.tensor([Array.from({ length: 32 }, (_, j) => j + 1)], { dtype: 'float64' }); // (1, 32)
      const { cos, sin } = ropeTables(glass, [7], 32, 10000, 'float64');
      const y = rope(glass, x, cos, sin).data();
      for (const j of [0, 3, 15]) {
        const a = 7 * 10000 ** (-2 * j / 32);
        expect(y[j]).toBeCloseTo((j + 1) * Math.cos(a) - (j + 17) * Math.sin(a), 12);
        expect(y[j + 16]).toBeCloseTo((j + 17) * Math.cos(a) + (j + 1) * Math.sin(a), 12);
      }
      // position 0 is no rotation at all
      const z = ropeTables(glass, [0], 32, 10000, 'float64');
      expect(Array.from(rope(glass, x, z.cos, z.sin).data())).toEqual(Array.from(x.data()));
    });
  });
  it('the dot product depends on the offset only', () => {
    const r = ropeOffset(w, { query: 5, key: 2 });
    expect(r.shifted[0]).toMatchObject({ query: 5, key: 2 });
    expect(r.shifted.map((x) => x.query - x.key)).toEqual(r.shifted.map(() => 3));
    for (const x of r.shifted) expect(Math.abs(x.dot - r.shifted[0].dot)).toBeLessThan(1e-12);
    expect(r.offsets[0]).toMatchObject({ query: 5, key: 5 });
    expect(Math.abs(r.offsets[0].dot - r.plain)).toBeLessThan(1e-12); // offset 0: as if unrotated
    expect(Math.abs(r.offsets[1].dot - r.shifted[0].dot)).toBeGreaterThan(1e-3);
    expect(ropeOffset(w, { query: 127, key: 0 }).shifted).toHaveLength(1);
  });
  it('refuses positions out of range or a key after the query', () => {
    expect(() => ropeOffset(w, { query: 128, key: 0 })).toThrow(/0 to 127/);
    expect(() => ropeOffset(w, { query: 3, key: 4 })).toThrow(/never sees a later key/);
    expect(() => ropeOffset(w, { query: NaN, key: 0 })).toThrow(/query position/);
  });
});

describe("the lesson's code cells", () => {
  const source = readFileSync(new URL('../../web/src/lessons/attention.md', import.meta.url), 'utf8');
  const lessonFile = parseLesson('attention', source);
  const cells = lessonFile.steps.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'code' ? [b.code] : [])));
  it('the RoPE cell prints the same dot product for offsets 3 and 3, another for 4', () => {
    const out = runCode(w, cells.find((c) => c.includes('query 13, key 10'))!);
    expect(out.error).toBeNull();
    const [a, b, c] = out.output.split('\n').map((l) => Number(l.split(':')[1]));
    expect(Math.abs(a - b)).toBeLessThan(1e-12 * Math.abs(a));
    expect(Math.abs(a - c)).toBeGreaterThan(1e-3);
  });
  it('the rebuild cell finds the model within float64 rounding', () => {
    const out = runCode(w, cells.at(-1)!);
    expect(out.error).toBeNull();
    const [scale, diff] = out.output.split('\n').map((l) => Number(l.split(':')[1]));
    expect(scale).toBeGreaterThan(0.01);
    expect(diff / scale).toBeLessThan(1e-12);
  });
  it('the checks of the lesson come out as the text says', () => {
    const [zeros, heads, params, perLayer] = evaluate(w, [
      lessonChecks(lessonFile).find((c) => c.id === 'zero-count')!.answer,
      'model.info().heads',
      "model.info().parameterTable.find((g) => g.kind === 'attention').params",
      lessonChecks(lessonFile).find((c) => c.id === 'attn-params-layer')!.answer,
    ]);
    expect(zeros).toEqual({ ok: true, value: 190 });
    expect(heads).toEqual({ ok: true, value: 4 });
    expect(params).toEqual({ ok: true, value: 262144 });
    expect(perLayer).toEqual({ ok: true, value: 4 * 128 * 128 });
  });
});
