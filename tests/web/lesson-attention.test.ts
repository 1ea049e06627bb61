// The attention lesson's worker ops against the real core and the shipped
// weights: the model's own attention parts (what the widget shows) agree with
// a layer rebuilt here from core primitives (heads split by columns, RoPE,
// q·k/√32, an explicit causal mask, softmax, concat, wo) in float32 and float64,
// and their output is the model's blocks.i.attn snapshot to the bit; the
// pattern's upper triangle is exactly 0 and rows sum to 1; the model's RoPE
// rotates as its formula says and its dot product depends on the offset only;
// bad input is refused with a message.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DTypeName, Glass, Tensor } from '../../web/src/core';
import { needModel } from '../../web/src/worker/state';
import { attentionPattern, ropeOffset } from '../../web/src/worker/lessonOps/attention';
import { lessonChecks, parseLesson } from '../../web/src/lessons/parse';
import { evaluate, runCode } from '../../web/src/worker/lessonOps/code';
import { handlers } from '../../web/src/worker/handlers';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

const TEXT = 'In the beginning God created the heaven and the earth.';

let w: WorkerState;
let glass: Glass;
withShippedModel((s) => ((w = s), (glass = s.glass)));

// ---- an independent rebuild of one attention layer from core primitives ----
// (heads split by columns, RoPE from its formula, q·k/√k, an explicit causal
// mask, softmax, concat, wo): the reference the model's own parts are checked
// against. Letters: n positions, d = 128, h = 4 heads, k = 32.

/** cos and sin of each position's angles, (n, k): column j turns by pos · base^(−2(j mod k/2)/k). */
function ropeTables(positions: readonly number[], k: number, base: number, dtype: DTypeName): { cos: Tensor; sin: Tensor } {
  const half = k / 2;
  const angle = (pos: number, j: number) => pos * Math.pow(base, (-2 * (j % half)) / k);
  const table = (f: (a: number) => number) => glass.tensor(positions.map((p) => Array.from({ length: k }, (_, j) => f(angle(p, j)))), { dtype });
  return { cos: table(Math.cos), sin: table(Math.sin) };
}

/** x·cos + rotate_half(x)·sin, rotate_half([x1, x2]) = [−x2, x1]. */
function rope(x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  const k = x.shape[x.shape.length - 1];
  return x.mul(cos).add(glass.concat([x.slice(-1, k / 2, k).neg(), x.slice(-1, 0, k / 2)], -1).mul(sin));
}

function rebuiltLayer(x: Tensor, block: number, dtype: DTypeName): { weights: Tensor; out: Tensor } {
  const { model, info } = needModel(w);
  const [n, d] = x.shape;
  const k = d / info.heads;
  const W = (name: string) => {
    const t = model.param(`blocks.${block}.attn.${name}.weight`);
    return glass.tensor(t.data, { shape: t.shape, dtype }).transpose(); // Linear: y = x Wᵀ
  };
  const split = (t: Tensor) => glass.concat(Array.from({ length: info.heads }, (_, h) => t.slice(1, h * k, (h + 1) * k).reshape([1, n, k])), 0); // (h, n, k)
  const { cos, sin } = ropeTables(Array.from({ length: n }, (_, p) => p), k, info.ropeBase, dtype);
  const q = rope(split(x.matmul(W('wq'))), cos, sin);
  const key = rope(split(x.matmul(W('wk'))), cos, sin);
  const v = split(x.matmul(W('wv')));
  const mask = glass.tensor(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? 1 : 0))), { dtype });
  const weights = q.matmul(key.transpose()).div(Math.sqrt(k)).maskedFill(mask, -Infinity).softmax(-1); // (h, n, n)
  const heads = weights.matmul(v); // (h, n, k)
  const concat = glass.concat(Array.from({ length: info.heads }, (_, h) => heads.slice(0, h, h + 1).reshape([n, k])), 1); // (n, d)
  return { weights, out: concat.matmul(W('wo')) };
}

const relGap = (a: Tensor, b: Tensor) => a.sub(b).square().max().sqrt().item() / b.square().max().sqrt().item();

/** The model's own parts of one block against the rebuild: [weights gap, output gap], relative. */
function partsAgainstRebuild(block: number, dtype: DTypeName): [number, number] {
  const { model, info } = needModel(w);
  const run = model.run(TEXT, { backward: false, eps: info.eps, dtype });
  try {
    const parts = model.attentionParts(block);
    // the parts are the forward pass's own: its output is the snapshot, bit for bit
    expect(Array.from(parts.out.data)).toEqual(Array.from(run.snapshots[`blocks.${block}.attn`].data));
    return glass.scope(() => {
      const s = run.snapshots[`blocks.${block}.norm.attn`];
      expect(s.data).toBeInstanceOf(dtype === 'float64' ? Float64Array : Float32Array);
      const rebuilt = rebuiltLayer(glass.tensor(s.data, { shape: s.shape, dtype }), block, dtype);
      const own = (t: { data: Float32Array | Float64Array; shape: number[] }) => glass.tensor(t.data, { shape: t.shape, dtype });
      expect(parts.weights.shape).toEqual([4, s.shape[0], s.shape[0]]);
      return [relGap(rebuilt.weights, own(parts.weights)), relGap(rebuilt.out, own(parts.out))];
    });
  } finally {
    model.run(TEXT, { backward: false, eps: info.eps, dtype: 'float32' }); // leave the model in float32
  }
}

describe("the model's own attention parts agree with a rebuild from core primitives", () => {
  it('every block, float32: within 1e-4 relative (it is about 1e-6)', () => {
    for (let b = 0; b < 4; b++) for (const gap of partsAgainstRebuild(b, 'float32')) expect(gap, `block ${b}`).toBeLessThan(1e-4);
  });
  it('every block, float64: within 1e-12 relative (it is about 1e-15)', () => {
    for (let b = 0; b < 4; b++) for (const gap of partsAgainstRebuild(b, 'float64')) expect(gap, `block ${b}`).toBeLessThan(1e-12);
  });
});

describe('the attention-pattern widget', () => {
  it('a causal, row-stochastic (n, n) pattern with byte labels', () => {
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
  it("the model's RoPE rotates each pair (j, j+16) by pos · 10000^(−2j/32): checked against a hand rotation", () => {
    const { model } = needModel(w);
    glass.scope(() => {
      const x = glass.tensor([Array.from({ length: 32 }, (_, j) => j + 1)], { dtype: 'float64' }); // (1, 32)
      const y = model.rope(x, 7).data;
      for (const j of [0, 3, 15]) {
        const a = 7 * 10000 ** (-2 * j / 32);
        expect(y[j]).toBeCloseTo((j + 1) * Math.cos(a) - (j + 17) * Math.sin(a), 12);
        expect(y[j + 16]).toBeCloseTo((j + 17) * Math.cos(a) + (j + 1) * Math.sin(a), 12);
      }
      // position 0 is no rotation at all, and the table ends at the context
      expect(Array.from(model.rope(x, 0).data)).toEqual(Array.from(x.data()));
      expect(() => model.rope(x, 128)).toThrow(/positions 0 to 127/);
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
