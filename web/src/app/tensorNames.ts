// One learner-facing name for every tensor the model records (the snapshot
// names of docs/model.md) and for every parameter, so the inspector and the lessons
// call the same tensor the same thing. The code name stays beside it where it
// helps: it is what the address, the export and the console use.
//
//   blocks.1.norm.attn   ->  RMSNorm₁ of block 1      (short: RMSNorm₁)
//   blocks.1.resid.attn  ->  H of block 1, after attention +   (short: after attention +)
//
// A variant (post-norm, LayerNorm, no residuals: docs/model.md, "Variants") has
// its own words for the same code names: pass its shape (the shipped model's by
// default).
//
// Pure: no DOM, no core.
import { SHIPPED_SHAPE, blockParts, hasFinalNorm, type ModelShape } from '../protocol/modelNames';

export type { ModelShape };

export interface TensorName {
  /** The snapshot's code name, e.g. blocks.1.norm.attn. */
  code: string;
  /** Fits a tick or a box: "RMSNorm₁", "after attention +". */
  short: string;
  /** With its place in the model: "RMSNorm₁ of block 1". */
  name: string;
  /** What it is, one phrase: "RMSNorm₁(X), what the attention branch reads". */
  what: string;
  /** The block it belongs to, or null (embedding, final RMSNorm, logits). */
  block: number | null;
  /** Part of the residual stream (the embedding and the two sums of each block)? */
  stream: boolean;
}

const SUB = { attn: '₁', ffn: '₂' } as const;
/** "RMSNorm" or "LayerNorm": the model's norm kind. */
export const normWord = (m: ModelShape) => (m.normKind === 'layer' ? 'LayerNorm' : 'RMSNorm');

type Part = { short: string; name: (i: number) => string; what: (i: number) => string; stream: boolean };

/** The learner's words for a block's part in this kind of model (docs/model.md, "Snapshot names of each variant"). */
function partOf(part: string, m: ModelShape): Part | null {
  const match = /^(norm\.|sum\.|resid\.)?(attn|ffn)$/.exec(part);
  if (match === null) return null;
  const kind = match[1] ?? '';
  const s = match[2] as 'attn' | 'ffn';
  if (!blockParts(m).includes(part)) return null;
  const N = `${normWord(m)}${SUB[s]}`;
  const branch = s === 'attn' ? 'attention' : 'SwiGLU';
  const into = s === 'attn' ? 'X' : 'H'; // what the sublayer reads
  const out = s === 'attn' ? 'H' : 'X′'; // what it hands on
  const outWords = s === 'attn' ? 'the stream after the attention sublayer' : 'the block’s output, the stream after the SwiGLU sublayer';
  if (kind === 'norm.' && m.norm === 'pre')
    return {
      short: N,
      name: (i) => `${N} of block ${i}`,
      what: (i) => `${N}(${into}) of block ${i}, what its ${branch} branch reads`,
      stream: false,
    };
  if (kind === 'norm.') {
    const arg = m.residual ? `${into} + ${branch}` : branch;
    return {
      short: `after ${N}`,
      name: (i) => `${out} of block ${i}, ${N} after ${branch}`,
      what: (i) => `${out} = ${N}(${arg}) of block ${i}: ${outWords} (post-norm)`,
      stream: true,
    };
  }
  if (kind === 'sum.')
    return {
      short: `${into} + ${branch}`,
      name: (i) => `${into} + ${branch} of block ${i}, before ${N}`,
      what: (i) => `${into} + ${branch} of block ${i}: the residual sum that ${N} normalizes into ${out}`,
      stream: false,
    };
  if (kind === 'resid.')
    return s === 'attn'
      ? {
          short: 'after attention +',
          name: (i) => `H of block ${i}, after attention +`,
          what: (i) => `H = X + attention of block ${i}: the stream after the first addition`,
          stream: true,
        }
      : {
          short: 'after SwiGLU +',
          name: (i) => `X′ of block ${i}, after SwiGLU +`,
          what: (i) => `X′ = H + SwiGLU of block ${i}: the block's output, the stream after the second addition`,
          stream: true,
        };
  // the branch output itself
  const label = s === 'attn' ? 'attention output' : 'SwiGLU output';
  if (!m.residual && m.norm !== 'post')
    return {
      short: `after ${branch}`,
      name: (i) => `${out} of block ${i}, the ${label}`,
      what: (i) => `${out} = ${branch} of block ${i}: with no residual path the branch output is ${outWords}`,
      stream: true,
    };
  return {
    short: branch,
    name: (i) => `${label} of block ${i}`,
    what: (i) =>
      m.residual
        ? `the ${branch} branch output of block ${i}, before it is added to the stream`
        : `the ${branch} branch output of block ${i}, which ${N} normalizes (no residual path)`,
    stream: false,
  };
}

function top(code: string, m: ModelShape): Omit<TensorName, 'code' | 'block'> | null {
  if (code === 'embed')
    return {
      short: 'embedding',
      name: 'embedding X, into block 0',
      what: 'the embedding: one row of the byte table per position, X entering block 0',
      stream: true,
    };
  if (code === 'norm.final' && hasFinalNorm(m)) {
    const N = normWord(m);
    return {
      short: `final ${N}`,
      name: `final ${N}, before the head`,
      what: `the final ${N} of the last block’s output: not part of the stream, it feeds the head`,
      stream: false,
    };
  }
  if (code === 'logits')
    return {
      short: 'logits',
      name: 'logits, the next-byte scores',
      what: 'the logits, (n, 256): one score for every possible next byte',
      stream: false,
    };
  return null;
}

const BLOCK = /^blocks\.(\d+)\.(.+)$/;

/** The learner's names for a snapshot of this kind of model (the shipped one by default); an unknown name is returned as itself. */
export function tensorName(code: string, m: ModelShape = SHIPPED_SHAPE): TensorName {
  const t = top(code, m);
  if (t !== null) return { code, block: null, ...t };
  const match = BLOCK.exec(code);
  const p = match === null ? null : partOf(match[2], m);
  if (match === null || p === null) return { code, short: code, name: code, what: code, block: null, stream: false };
  const i = Number(match[1]);
  return { code, short: p.short, name: p.name(i), what: p.what(i), block: i, stream: p.stream };
}

/** "RMSNorm₁ of block 1 (blocks.1.norm.attn)": the learner's name with the code name beside it. */
export function withCode(code: string, m: ModelShape = SHIPPED_SHAPE): string {
  const t = tensorName(code, m);
  return t.name === code ? code : `${t.name} (${code})`;
}

// The stream by depth is part of the protocol (the worker computes it too).
export { depthNames } from '../protocol/model';

// ---- parameters ----

export interface ParamName {
  code: string;
  /** Where it sits: "block 2", "embedding", "final RMSNorm", "head". */
  layer: string;
  /** The learner's name inside that layer: "W_q (attention)", "γ of RMSNorm₁". */
  part: string;
}

const PARAM_PARTS: Record<string, string> = {
  'attn.wq.weight': 'W_q, attention queries',
  'attn.wk.weight': 'W_k, attention keys',
  'attn.wv.weight': 'W_v, attention values',
  'attn.wo.weight': 'W_o, attention output',
  'ffn.w_gate.weight': 'W_gate, SwiGLU gates',
  'ffn.w_up.weight': 'W_up, SwiGLU up values',
  'ffn.w_down.weight': 'W_down, SwiGLU down',
};
const NORM_PARAM = /^norm_(attn|ffn)\.(gamma|beta)$/;
const greek = (p: string) => (p === 'gamma' ? 'γ' : 'β');

/** The learner's names for a parameter (docs/model.md name) of this kind of model; an unknown one keeps its code name. */
export function paramName(code: string, m: ModelShape = SHIPPED_SHAPE): ParamName {
  const N = normWord(m);
  const match = /^blocks\.(\d+)\.(.+)$/.exec(code);
  if (match !== null) {
    const norm = NORM_PARAM.exec(match[2]);
    const part = norm !== null ? `${greek(norm[2])} of ${N}${SUB[norm[1] as 'attn' | 'ffn']}` : (PARAM_PARTS[match[2]] ?? match[2]);
    return { code, layer: `block ${match[1]}`, part };
  }
  if (code === 'tok_emb.weight') return { code, layer: 'embedding', part: `byte table (256, ${m.d})` };
  if (code === 'norm_final.gamma' || code === 'norm_final.beta') return { code, layer: `final ${N}`, part: greek(code.slice(11)) };
  if (code === 'head.weight') return { code, layer: 'head', part: `W_head (256, ${m.d})` };
  return { code, layer: 'other', part: code };
}
