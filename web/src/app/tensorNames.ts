// One learner-facing name for every tensor the model records (the snapshot
// names of docs/model.md) and for every parameter, so the inspector and the lessons
// call the same tensor the same thing. The code name stays beside it where it
// helps: it is what the address, the export and the console use.
//
//   blocks.1.norm.attn   ->  RMSNorm₁ of block 1      (short: RMSNorm₁)
//   blocks.1.resid.attn  ->  H of block 1, after attention +   (short: after attention +)
//
// Pure: no DOM, no core.

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

const PARTS: Record<string, { short: string; name: (i: number) => string; what: (i: number) => string; stream: boolean }> = {
  'norm.attn': {
    short: 'RMSNorm₁',
    name: (i) => `RMSNorm₁ of block ${i}`,
    what: (i) => `RMSNorm₁(X) of block ${i}, what its attention branch reads`,
    stream: false,
  },
  attn: {
    short: 'attention',
    name: (i) => `attention output of block ${i}`,
    what: (i) => `the attention branch output of block ${i}, before it is added to the stream`,
    stream: false,
  },
  'resid.attn': {
    short: 'after attention +',
    name: (i) => `H of block ${i}, after attention +`,
    what: (i) => `H = X + attention of block ${i}: the stream after the first addition`,
    stream: true,
  },
  'norm.ffn': {
    short: 'RMSNorm₂',
    name: (i) => `RMSNorm₂ of block ${i}`,
    what: (i) => `RMSNorm₂(H) of block ${i}, what its SwiGLU branch reads`,
    stream: false,
  },
  ffn: {
    short: 'SwiGLU',
    name: (i) => `SwiGLU output of block ${i}`,
    what: (i) => `the SwiGLU branch output of block ${i}, before it is added to the stream`,
    stream: false,
  },
  'resid.ffn': {
    short: 'after SwiGLU +',
    name: (i) => `X′ of block ${i}, after SwiGLU +`,
    what: (i) => `X′ = H + SwiGLU of block ${i}: the block's output, the stream after the second addition`,
    stream: true,
  },
};

const TOP: Record<string, Omit<TensorName, 'code' | 'block'>> = {
  embed: {
    short: 'embedding',
    name: 'embedding X, into block 0',
    what: 'the embedding: one row of the byte table per position, X entering block 0',
    stream: true,
  },
  'norm.final': {
    short: 'final RMSNorm',
    name: 'final RMSNorm, before the head',
    what: 'the final RMSNorm of the last block’s output: not part of the stream, it feeds the head',
    stream: false,
  },
  logits: {
    short: 'logits',
    name: 'logits, the next-byte scores',
    what: 'the logits, (n, 256): one score for every possible next byte',
    stream: false,
  },
};

const BLOCK = /^blocks\.(\d+)\.(norm\.attn|attn|resid\.attn|norm\.ffn|ffn|resid\.ffn)$/;

/** The learner's names for a snapshot; an unknown name is returned as itself. */
export function tensorName(code: string): TensorName {
  const top = TOP[code];
  if (top !== undefined) return { code, block: null, ...top };
  const m = BLOCK.exec(code);
  if (m === null) return { code, short: code, name: code, what: code, block: null, stream: false };
  const i = Number(m[1]);
  const p = PARTS[m[2]];
  return { code, short: p.short, name: p.name(i), what: p.what(i), block: i, stream: p.stream };
}

/** "RMSNorm₁ of block 1 (blocks.1.norm.attn)": the learner's name with the code name beside it. */
export function withCode(code: string): string {
  const t = tensorName(code);
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
  'norm_attn.gamma': 'γ of RMSNorm₁',
  'attn.wq.weight': 'W_q, attention queries',
  'attn.wk.weight': 'W_k, attention keys',
  'attn.wv.weight': 'W_v, attention values',
  'attn.wo.weight': 'W_o, attention output',
  'norm_ffn.gamma': 'γ of RMSNorm₂',
  'ffn.w_gate.weight': 'W_gate, SwiGLU gates',
  'ffn.w_up.weight': 'W_up, SwiGLU up values',
  'ffn.w_down.weight': 'W_down, SwiGLU down',
};

/** The learner's names for a parameter (docs/model.md name); an unknown one keeps its code name. */
export function paramName(code: string): ParamName {
  const m = /^blocks\.(\d+)\.(.+)$/.exec(code);
  if (m !== null) return { code, layer: `block ${m[1]}`, part: PARAM_PARTS[m[2]] ?? m[2] };
  if (code === 'tok_emb.weight') return { code, layer: 'embedding', part: 'byte table (256, 128)' };
  if (code === 'norm_final.gamma') return { code, layer: 'final RMSNorm', part: 'γ' };
  if (code === 'head.weight') return { code, layer: 'head', part: 'W_head (256, 128)' };
  return { code, layer: 'other', part: code };
}
