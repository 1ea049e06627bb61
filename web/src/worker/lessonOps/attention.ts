// The attention lesson's computations. A head's pattern is the model's own:
// the worker runs the prompt, then asks the core for block i's attention parts
// (Attention::parts in cpp/glass/nn/attention.cpp, the function the forward
// pass runs), so what the page shows cannot disagree with the model. RoPE's
// offset invariance uses the model's RoPE (nn::Rope) the same way.
//
// Letters: n positions, h = 4 heads, k = 32 head width.
import { GlassError, type Glass, type Tensor } from '../../core';
import type { AttentionPatternInput, AttentionPatternResult, RopeOffsetInput, RopeOffsetResult, RopeOffsetRow } from '../../protocol/lessons/attention';
import { computeModel, needModel, type WorkerState } from '../state';

/** (n, n): 1 above the diagonal, where query i would see a later key j. */
function causalMask(glass: Glass, n: number): Tensor {
  return glass.tensor(
    Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? 1 : 0))),
    { dtype: 'float32' },
  );
}

const isIndex = (v: number, size: number) => Number.isInteger(v) && v >= 0 && v < size;

/** The pattern of one head of one block, from the model's own attention code. */
export function attentionPattern(s: WorkerState, { text, block, head }: AttentionPatternInput): AttentionPatternResult {
  const glass = s.glass;
  const { model, info } = needModel(s);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length === 0) throw new GlassError('type a prompt: at least one byte');
  if (bytes.length > info.context) throw new GlassError(`the prompt is ${bytes.length} bytes; the model reads at most ${info.context} (its context)`);
  if (!isIndex(block, info.blocks)) throw new GlassError(`block must be a whole number from 0 to ${info.blocks - 1}`);
  if (!isIndex(head, info.heads)) throw new GlassError(`head must be a whole number from 0 to ${info.heads - 1}`);
  computeModel(s, { text, eps: info.eps, dtype: 'float32' }, false);
  const parts = model.attentionParts(block);
  const n = bytes.length;
  return glass.scope(() => {
    const all = glass.tensor(parts.weights.data, { shape: parts.weights.shape, dtype: 'float32' }); // (h, n, n)
    const w = all.slice(0, head, head + 1).reshape([n, n]); // (n, n)
    const sums = w.sum(-1); // (n,)
    return {
      labels: Array.from(bytes, (b) => model.displayByte(b)),
      weights: w.toNested() as number[][],
      rowSums: Array.from(sums.data()),
      rowSumDev: sums.sub(1).square().max().sqrt().item(),
      maxAbove: w.mul(causalMask(glass, n)).max().item(),
      columns: [head * info.headDim, (head + 1) * info.headDim - 1],
    };
  });
}

const ROPE_SHIFTS = [0, 1, 7, 30, 90];
const ROPE_OFFSETS = [0, 1, 2, 3, 5, 8, 13, 21];

/** q·k of two fixed random vectors (seeds 1 and 2) after the model's RoPE at a query and a key position, in float64. */
export function ropeOffset(s: WorkerState, { query, key }: RopeOffsetInput): RopeOffsetResult {
  const glass = s.glass;
  const { model, info } = needModel(s);
  const k = info.headDim;
  if (!isIndex(query, info.context)) throw new GlassError(`the query position must be a whole number from 0 to ${info.context - 1}`);
  if (!isIndex(key, query + 1)) throw new GlassError(`the key position must be a whole number from 0 to the query position (${query}): a query never sees a later key`);
  return glass.scope(() => {
    const q = glass.randn([1, k], { seed: 1, dtype: 'float64' }); // (1, k)
    const kv = glass.randn([1, k], { seed: 2, dtype: 'float64' }); // (1, k)
    const at = (x: Tensor, position: number) => {
      const r = model.rope(x, position); // (1, k), as the model rotates a row at that position
      return glass.tensor(r.data, { shape: r.shape, dtype: 'float64' });
    };
    const dot = (qp: number, kp: number): RopeOffsetRow => ({ query: qp, key: kp, dot: at(q, qp).mul(at(kv, kp)).sum().item() });
    const shifted = ROPE_SHIFTS.filter((d) => query + d < info.context).map((d) => dot(query + d, key + d));
    const offsets = ROPE_OFFSETS.filter((o) => o <= query).map((o) => dot(query, query - o));
    return { plain: q.mul(kv).sum().item(), shifted, offsets, headDim: k, base: info.ropeBase };
  });
}

export const attentionHandlers = {
  attentionPattern,
  ropeOffset,
};
