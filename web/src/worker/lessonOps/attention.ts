// The attention lesson's computations: one attention layer of the loaded model
// rebuilt from core Tensor ops (matmul, slice, concat, mul, maskedFill, softmax)
// out of the layer's input snapshot and its four weight matrices, so the page
// can show a head's real weights and check them against the C++ model's output.
// The C++ original is cpp/glass/nn/attention.cpp and rope.cpp.
//
// Letters: n positions, d = 128 width, h = 4 heads, k = 32 head width.
import { GlassError, type Glass, type Model, type Tensor } from '../../core';
import type { DTypeName } from '../../core';
import type { AttentionPatternInput, AttentionPatternResult, RopeOffsetInput, RopeOffsetResult, RopeOffsetRow } from '../../protocol/lessons/attention';
import { needModel, runModel, type WorkerState } from '../state';

/**
 * cos and sin of each position's angles, (n, k): column j belongs to frequency
 * j mod k/2, so coordinates j and j + k/2 turn by the same angle. Angles in
 * double, rounded once to the dtype, as the C++ Rope builds its tables.
 */
export function ropeTables(glass: Glass, positions: readonly number[], k: number, base: number, dtype: DTypeName): { cos: Tensor; sin: Tensor } {
  const half = k / 2;
  const angle = (pos: number, j: number) => pos * Math.pow(base, (-2 * (j % half)) / k);
  const table = (f: (a: number) => number) => glass.tensor(positions.map((p) => Array.from({ length: k }, (_, j) => f(angle(p, j)))), { dtype });
  return { cos: table(Math.cos), sin: table(Math.sin) };
}

/** RoPE in the half-split form: x·cos + rotate_half(x)·sin, rotate_half([x1, x2]) = [−x2, x1]. x (..., n, k). */
export function rope(glass: Glass, x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  const k = x.shape[x.shape.length - 1];
  const half = k / 2;
  const rotated = glass.concat([x.slice(-1, half, k).neg(), x.slice(-1, 0, half)], -1); // (..., n, k)
  return x.mul(cos).add(rotated.mul(sin));
}

/** (n, n): 1 above the diagonal, where query i would see a later key j. */
export function causalMask(glass: Glass, n: number, dtype: DTypeName): Tensor {
  return glass.tensor(
    Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? 1 : 0))),
    { dtype },
  );
}

export interface AttentionWeights {
  wq: Tensor; // (d, d), Linear layout (out, in): y = x Wᵀ
  wk: Tensor;
  wv: Tensor;
  wo: Tensor;
}

export interface AttentionParts {
  weights: Tensor; // (h, n, n) softmax rows
  out: Tensor; // (n, d) the attention branch output
}

/** One attention layer on x (n, d): every head, then concat in head order and wo. */
export function attentionLayer(glass: Glass, x: Tensor, w: AttentionWeights, heads: number, base: number): AttentionParts {
  const [n, d] = x.shape;
  const k = d / heads;
  const dtype = x.dtype;
  // head h reads columns h·k … h·k+k−1 of q, k and v
  const split = (t: Tensor) => glass.concat(Array.from({ length: heads }, (_, h) => t.slice(1, h * k, (h + 1) * k).reshape([1, n, k])), 0); // (h, n, k)
  const { cos, sin } = ropeTables(glass, Array.from({ length: n }, (_, p) => p), k, base, dtype); // (n, k), positions from 0
  const q = rope(glass, split(x.matmul(w.wq.transpose())), cos, sin); // (h, n, k)
  const key = rope(glass, split(x.matmul(w.wk.transpose())), cos, sin); // (h, n, k)
  const v = split(x.matmul(w.wv.transpose())); // (h, n, k)
  const scores = q.matmul(key.transpose()).div(Math.sqrt(k)); // (h, n, n)
  const weights = scores.maskedFill(causalMask(glass, n, dtype), -Infinity).softmax(-1); // (h, n, n)
  const perHead = weights.matmul(v); // (h, n, k)
  const concat = glass.concat(Array.from({ length: heads }, (_, h) => perHead.slice(0, h, h + 1).reshape([n, k])), 1); // (n, d)
  return { weights, out: concat.matmul(w.wo.transpose()) };
}

/** Block i's attention weights as core tensors in `dtype`, from the loaded model. */
export function blockWeights(glass: Glass, model: Model, block: number, dtype: DTypeName): AttentionWeights {
  const p = (name: string) => {
    const t = model.param(`blocks.${block}.attn.${name}.weight`);
    return glass.tensor(t.data, { shape: t.shape, dtype });
  };
  return { wq: p('wq'), wk: p('wk'), wv: p('wv'), wo: p('wo') };
}

const isIndex = (v: number, size: number) => Number.isInteger(v) && v >= 0 && v < size;

/** The pattern of one head, and how far the whole recomputed layer is from the model's own output. */
export function attentionPattern(s: WorkerState, { text, block, head }: AttentionPatternInput): AttentionPatternResult {
  const glass = s.glass;
  const { model, info } = needModel(s);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes === 0) throw new GlassError('type a prompt: at least one byte');
  if (bytes > info.context) throw new GlassError(`the prompt is ${bytes} bytes; the model reads at most ${info.context} (its context)`);
  if (!isIndex(block, info.blocks)) throw new GlassError(`block must be a whole number from 0 to ${info.blocks - 1}`);
  if (!isIndex(head, info.heads)) throw new GlassError(`head must be a whole number from 0 to ${info.heads - 1}`);
  const run = runModel(s, { text, eps: info.eps, dtype: 'float32' }, false);
  return glass.scope(() => {
    const input = run.snapshots[`blocks.${block}.norm.attn`];
    const x = glass.tensor(input.data, { shape: input.shape, dtype: 'float32' }); // (n, d)
    const { weights, out } = attentionLayer(glass, x, blockWeights(glass, model, block, 'float32'), info.heads, info.ropeBase);
    const n = input.shape[0];
    const w = weights.slice(0, head, head + 1).reshape([n, n]); // (n, n)
    const a = run.snapshots[`blocks.${block}.attn`];
    const own = glass.tensor(a.data, { shape: a.shape, dtype: 'float32' }); // (n, d)
    return {
      labels: run.ids.map((b) => model.displayByte(b)),
      weights: w.toNested() as number[][],
      rowSums: Array.from(w.sum(-1).data()),
      rowSumDev: w.sum(-1).sub(1).square().max().sqrt().item(),
      maxAbove: w.mul(causalMask(glass, n, 'float32')).max().item(),
      columns: [head * info.headDim, (head + 1) * info.headDim - 1],
      maxDiff: out.sub(own).square().max().sqrt().item(),
      maxAbs: own.square().max().sqrt().item(),
    };
  });
}

const ROPE_SHIFTS = [0, 1, 7, 30, 90];
const ROPE_OFFSETS = [0, 1, 2, 3, 5, 8, 13, 21];

/** q·k of two fixed random vectors (seeds 1 and 2) after RoPE at a query and a key position, in float64. */
export function ropeOffset(s: WorkerState, { query, key }: RopeOffsetInput): RopeOffsetResult {
  const glass = s.glass;
  const { info } = needModel(s);
  const k = info.headDim;
  if (!isIndex(query, info.context)) throw new GlassError(`the query position must be a whole number from 0 to ${info.context - 1}`);
  if (!isIndex(key, query + 1)) throw new GlassError(`the key position must be a whole number from 0 to the query position (${query}): a query never sees a later key`);
  return glass.scope(() => {
    const q = glass.randn([1, k], { seed: 1, dtype: 'float64' }); // (1, k)
    const kv = glass.randn([1, k], { seed: 2, dtype: 'float64' }); // (1, k)
    const dot = (qp: number, kp: number): RopeOffsetRow => {
      const a = ropeTables(glass, [qp], k, info.ropeBase, 'float64');
      const b = ropeTables(glass, [kp], k, info.ropeBase, 'float64');
      const d = rope(glass, q, a.cos, a.sin).mul(rope(glass, kv, b.cos, b.sin)).sum().item();
      return { query: qp, key: kp, dot: d };
    };
    const shifted = ROPE_SHIFTS.filter((s) => query + s < info.context).map((s) => dot(query + s, key + s));
    const offsets = ROPE_OFFSETS.filter((o) => o <= query).map((o) => dot(query, query - o));
    return { plain: q.mul(kv).sum().item(), shifted, offsets, headDim: k, base: info.ropeBase };
  });
}

export const attentionHandlers = {
  attentionPattern,
  ropeOffset,
};
