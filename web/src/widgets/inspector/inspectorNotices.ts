// The inspector's "what to notice" lines, built from the live values each plot
// shows (the core computed them; here they are only compared and picked).
// Every sentence is either read off those values or true for any prompt.
import { fmt } from '../../app/format';
import { normWord, paramName, tensorName } from '../../app/tensorNames';
import { SHIPPED_SHAPE, streamNames, type ModelShape } from '../../protocol/modelNames';

type Values = ArrayLike<number>;

interface Extremes {
  min: number;
  minAt: number;
  max: number;
  maxAt: number;
}

/** The smallest and largest entry and where they are (NaN entries are skipped). */
export function extremes(xs: Values): Extremes | null {
  let e: Extremes | null = null;
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i];
    if (Number.isNaN(v)) continue;
    if (e === null) e = { min: v, minAt: i, max: v, maxAt: i };
    else {
      if (v < e.min) [e.min, e.minAt] = [v, i];
      if (v > e.max) [e.max, e.maxAt] = [v, i];
    }
  }
  return e;
}

const at = (i: number, labels: readonly string[]) => `position ${i} “${labels[i] ?? '?'}”`;

/** "from 0.41 (position 3 “t”) to 2.7 (position 0 “I”)". */
function range(xs: Values, labels: readonly string[]): string {
  const e = extremes(xs);
  if (e === null) return 'undefined (NaN)';
  if (e.min === e.max) return `${fmt(e.min, 3)} at every position`;
  return `from ${fmt(e.min, 3)} (${at(e.minAt, labels)}) to ${fmt(e.max, 3)} (${at(e.maxAt, labels)})`;
}

const partOf = (name: string) => /^blocks\.\d+\.(.+)$/.exec(name)?.[1] ?? name;

/** The norm that reads this stream tensor (pre-norm models only), for the "compare with" hint. */
function readBy(name: string, m: ModelShape): string | null {
  if (m.norm !== 'pre') return null;
  const k = streamNames(m).indexOf(name);
  if (k < 0) return null;
  if (k === 2 * m.blocks) return 'norm.final';
  const block = Math.floor(k / 2);
  return k % 2 === 0 ? `blocks.${block}.norm.attn` : `blocks.${block}.norm.ffn`;
}

/** The residual sum a branch output is added into (none without residuals). */
function sumOf(name: string, m: ModelShape = SHIPPED_SHAPE): string | null {
  const t = tensorName(name, m);
  if (t.block === null || !m.residual) return null;
  const part = partOf(name);
  if (part !== 'attn' && part !== 'ffn') return null;
  return `blocks.${t.block}.${m.norm === 'post' ? 'sum' : 'resid'}.${part}`;
}

export interface NoticeTensor {
  name: string;
  grad: boolean;
  shape: readonly number[];
  rowRms: Values;
  norm: number;
}

/** One open tensor (value or gradient). */
export function tensorNotice(t: NoticeTensor, labels: readonly string[], m: ModelShape = SHIPPED_SHAPE): string {
  const n = t.shape[0];
  const d = t.shape[1];
  const part = partOf(t.name);
  if (t.grad) {
    const last = t.rowRms[n - 1];
    const lastText =
      last === 0
        ? `the last row (${at(n - 1, labels)}) is exactly 0: the loss never uses the last position's prediction, and attention never looks forward, so nothing the loss uses depends on the last byte.`
        : `the last row (${at(n - 1, labels)}) has RMS ${fmt(last, 3)}.`;
    if (t.name === 'logits') return `each row is (softmax − one-hot) / (n − 1) for that position, so it sums to 0; ${lastText}`;
    const sum = sumOf(t.name, m);
    if (sum !== null) return `this is exactly the gradient of ${tensorName(sum, m).name}: the residual add passes the gradient to the branch unchanged. And ${lastText}`;
    return lastText;
  }
  if (t.name === 'logits') return 'each row holds one position’s 256 scores, one per possible next byte; softmax of a row gives the probabilities of the byte after that position.';
  if (part === 'norm.attn' || part === 'norm.ffn' || t.name === 'norm.final') {
    const how =
      m.normKind === 'layer'
        ? `Every row had its mean subtracted, was divided by its own standard deviation and multiplied by the learned γ, then shifted by β: with γ = 1, β = 0 and ε = 0 every row would have mean 0 and RMS exactly 1, on a sphere of radius √${d}.`
        : `Every row was divided by its own r(x) and multiplied by the learned γ: with γ = 1 and ε = 0 every row would have RMS exactly 1, on the sphere of radius √${d}.`;
    const post = m.norm === 'post' ? ' In this post-norm model this normalized tensor is the stream itself.' : '';
    return `the RMS of each row (right column) runs ${range(t.rowRms, labels)}. ${how}${post}`;
  }
  const sum = sumOf(t.name, m);
  if (sum !== null) return `the RMS of each row runs ${range(t.rowRms, labels)}. This is what the branch adds onto the stream; the sum is ${tensorName(sum, m).name}.`;
  if (part.startsWith('sum.'))
    return `the RMS of each row runs ${range(t.rowRms, labels)}: this residual sum is what the ${normWord(m)} then rescales; compare it with ${tensorName(`blocks.${tensorName(t.name, m).block}.norm.${part.slice(4)}`, m).name}.`;
  if (m.norm === 'none') return `the RMS of each row runs ${range(t.rowRms, labels)}: this model has no norms, so nothing rescales the stream.`;
  if (m.norm === 'post') return `the RMS of each row runs ${range(t.rowRms, labels)}.`;
  const reader = readBy(t.name, m);
  return `the RMS of each row runs ${range(t.rowRms, labels)}: the stream itself is never normalized.${reader !== null ? ` Compare it with ${tensorName(reader, m).name}, the normalized copy that is read from it.` : ''}`;
}

/** Two tensors and B − A. */
export function compareNotice(a: NoticeTensor, b: NoticeTensor, diff: NoticeTensor, labels: readonly string[], m: ModelShape = SHIPPED_SHAPE): string {
  if (diff.norm === 0) {
    const pair = sumOf(a.name, m) === b.name || sumOf(b.name, m) === a.name;
    return `B − A is exactly 0 everywhere: the two are the same numbers${a.grad && pair ? ', because the residual add passes the gradient to the branch unchanged' : ''}.`;
  }
  return `the RMS of each row runs ${range(a.rowRms, labels)} in A and ${range(b.rowRms, labels)} in B; ‖B − A‖ = ${fmt(diff.norm, 4)}.`;
}

/** The last position whose values are not all zero (the last byte's gradient is all zero). */
export function lastNonzero(rms: readonly Values[], n: number): number {
  for (let i = n - 1; i >= 0; i--) if (rms.some((r) => r[i] !== 0)) return i;
  return n - 1;
}

/** The depth plot, for the highlighted position. names: depthNames (embed … the last block's output, then norm.final if the model has it). */
export function depthNotice(
  names: readonly string[],
  rms: readonly Values[],
  pos: number,
  labels: readonly string[],
  grad: boolean,
  m: ModelShape = SHIPPED_SHAPE,
): string {
  const final = names.at(-1) === 'norm.final';
  const k = names.length;
  const topAt = final ? k - 2 : k - 1;
  const first = rms[0][pos];
  const top = rms[topAt][pos];
  const fin = rms[k - 1][pos];
  const where = at(pos, labels);
  const lastBlock = `${tensorName(names[topAt], m).short} of the last block`;
  const finalName = tensorName('norm.final', m).short;
  if (grad) {
    if (rms.every((r) => r[pos] === 0))
      return `${where} gets a gradient of exactly 0 at every depth: nothing the loss uses depends on the last byte. Pick another position.`;
    if (!final) return `backward runs right to left. At ${where} the gradient's RMS is ${fmt(top, 3)} ${lastBlock} and ${fmt(first, 3)} at the embedding.`;
    return `backward runs right to left. At ${where} the gradient's RMS is ${fmt(fin, 3)} at the ${finalName}, ${fmt(top, 3)} ${lastBlock} and ${fmt(first, 3)} at the embedding.`;
  }
  const trend = top > first ? 'grows' : top < first ? 'shrinks' : 'stays';
  const start = `at ${where} the stream's RMS ${trend} from ${fmt(first, 3)} at the embedding to ${fmt(top, 3)} ${lastBlock}`;
  if (!final) return `${start}; the head reads it directly (this model has no final norm).`;
  return `${start}; the ${finalName}, which is not part of the stream, brings it to ${fmt(fin, 3)}.`;
}

/** ‖∂loss/∂snapshot‖: each branch output has exactly the gradient of the sum it is added into. */
export function snapshotGradNotice(norms: Record<string, number>, m: ModelShape = SHIPPED_SHAPE): string {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(norms)) {
    const sum = sumOf(name, m);
    if (sum !== null && sum in norms) pairs.push([name, sum]);
  }
  if (pairs.length === 0) return 'each bar is the total derivative of the loss with respect to that tensor, through every later use of it.';
  const same = pairs.filter(([a, b]) => norms[a] === norms[b]).length;
  const [a, b] = pairs[0];
  const example = `${tensorName(a, m).name} and ${tensorName(b, m).name}: ${fmt(norms[a], 4)} and ${fmt(norms[b], 4)}`;
  if (same === pairs.length)
    return `each branch output has exactly the gradient norm of the sum it is added into (${example}): the residual add passes the gradient through unchanged.`;
  return `${same} of ${pairs.length} branch outputs have the gradient norm of the sum they are added into (${example}).`;
}

/** ‖∂loss/∂parameter‖: the largest and the smallest. */
export function paramGradNotice(norms: Record<string, number>, m: ModelShape = SHIPPED_SHAPE): string {
  const entries = Object.entries(norms).filter(([, v]) => Number.isFinite(v));
  if (entries.length === 0) return 'no parameter has a finite gradient here.';
  const e = extremes(entries.map(([, v]) => v))!;
  const name = (i: number) => {
    const p = paramName(entries[i][0], m);
    return `${p.part}, ${p.layer}`;
  };
  return `the largest gradient is ${name(e.maxAt)} (${fmt(e.max, 3)}), the smallest ${name(e.minAt)} (${fmt(e.min, 3)}): a plain gradient step would move each tensor in proportion to its gradient; AdamW, which trained this model, scales its step entry by entry instead.`;
}
