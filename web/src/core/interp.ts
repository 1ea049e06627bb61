// Issue 12's tools, as plain data (cpp/wasm/interp_bindings.cpp; the work is
// in cpp/glass/nn): attention patterns and their per-head summary, the
// residual ledger, the logit lens, interventions and the gradient check.
// The names follow docs/model.md ("Interventions" maps the console's names to
// the model's parameters and snapshots).
import { GlassError } from './errors';
import type { Prediction } from './types';

/**
 * One change for one run (the weights are never changed):
 *   { zero: 'blocks.2.ffn' }                        a branch's output set to 0
 *   { scale: 'blocks.0.attn', by: 0.5 }             a branch's output times `by`
 *   { ablateHead: { block: 1, head: 2 } }           that head's output before wo set to 0
 *   { eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } }   one norm's eps
 *   { identityNorm: 'norm_final' }                  one norm replaced by the identity
 *   { unitGamma: 'blocks.0.norm_attn' }             one norm's γ replaced by ones
 * or the same as text: 'zero:blocks.2.ffn', 'scale:blocks.0.attn:0.5', 'ablateHead:1:2', ...
 */
export type Intervention =
  | string
  | { zero: string }
  | { scale: string; by: number }
  | { ablateHead: { block: number; head: number } }
  | { eps: { norm: string; value: number } }
  | { identityNorm: string }
  | { unitGamma: string };

const FORMS =
  "{ zero: 'blocks.2.ffn' }, { scale: 'blocks.0.attn', by: 0.5 }, { ablateHead: { block: 1, head: 2 } }, " +
  "{ eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } }, { identityNorm: 'norm_final' }, { unitGamma: 'blocks.0.norm_attn' }";

function keysOf(o: object): string {
  return Object.keys(o).sort().join(', ');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text form the core parses (and refuses with a list of what exists); a malformed object is refused here. */
export function interventionText(iv: unknown): string {
  if (typeof iv === 'string') return iv;
  const bad = (why: string) => new GlassError(`intervention ${JSON.stringify(iv)}: ${why}; the forms are ${FORMS}`);
  if (!isRecord(iv)) throw bad('not an object');
  const name = (v: unknown) => {
    if (typeof v !== 'string' || v === '') throw bad('the name must be a non-empty string');
    if (v.includes(':') || v.includes(',')) throw bad('a name has no ":" or ","');
    return v;
  };
  const num = (v: unknown, what: string) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${what} must be a finite number`);
    return String(v);
  };
  const only = (...keys: string[]) => {
    if (keysOf(iv) !== [...keys].sort().join(', ')) throw bad(`expected exactly the keys ${keys.join(', ')}`);
  };
  if ('zero' in iv) {
    only('zero');
    return `zero:${name(iv.zero)}`;
  }
  if ('scale' in iv) {
    only('scale', 'by');
    return `scale:${name(iv.scale)}:${num(iv.by, 'by')}`;
  }
  if ('ablateHead' in iv) {
    only('ablateHead');
    const a = iv.ablateHead;
    if (!isRecord(a) || keysOf(a) !== 'block, head') throw bad('ablateHead takes { block, head }');
    return `ablateHead:${num(a.block, 'block')}:${num(a.head, 'head')}`;
  }
  if ('eps' in iv) {
    only('eps');
    const e = iv.eps;
    if (!isRecord(e) || keysOf(e) !== 'norm, value') throw bad('eps takes { norm, value }');
    return `eps:${name(e.norm)}:${num(e.value, 'value')}`;
  }
  if ('identityNorm' in iv) {
    only('identityNorm');
    return `identityNorm:${name(iv.identityNorm)}`;
  }
  if ('unitGamma' in iv) {
    only('unitGamma');
    return `unitGamma:${name(iv.unitGamma)}`;
  }
  throw bad('unknown kind');
}

/** Options of a run beyond eps and dtype. */
export interface InterpOptions {
  /** Record each block's attention weights as `blocks.{i}.attn.pattern`, (heads, n, n). */
  patterns?: boolean;
  interventions?: readonly Intervention[];
}

export interface SnapshotChange {
  name: string;
  /** Any element differs at all. */
  changed: boolean;
  /** max |after − before| (null: a NaN on one side). */
  maxAbs: number | null;
  /** ‖after − before‖ / ‖before‖. */
  relNorm: number | null;
}

export interface InterventionReport {
  /** The text forms as the core read them. */
  interventions: string[];
  before: { loss: number | null; top: Prediction[] };
  after: { loss: number | null; top: Prediction[] };
  /** Every snapshot, in the order the model computes them. */
  changes: SnapshotChange[];
}

export interface LogitLens {
  /** The residual stream's snapshots from the embedding up. */
  depths: string[];
  /** top[depth][position]: the k likeliest next bytes read at that depth. */
  top: Prediction[][][];
  /** loss[depth][t]: −log p(byte t+1) read at that depth (nats), t < n − 1. */
  loss: (number | null)[][];
  meanLoss: (number | null)[];
  /** max |lens at the last depth − the model's logits|: 0 when the lens is the model. */
  lastDepthMaxAbs: number | null;
  /** (depths, n, 256), when asked for. */
  logits?: { shape: number[]; data: Float32Array | Float64Array };
}

export interface LedgerTerm {
  name: string;
  norm: (number | null)[];
  share: (number | null)[];
  totalNorm: number | null;
  totalShare: number | null;
}

/** The gradient side of the ledger: ∂loss/∂embedding split by route. */
export interface LedgerGrad {
  totalNorm: (number | null)[];
  /** 'residual path', then each branch's Jᵀg term */
  terms: LedgerTerm[];
  throughIdentity: (number | null)[];
  maxAbsDiff: number | null;
}

export interface LedgerParts {
  totalName: string;
  totalNorm: (number | null)[];
  /** embed, then each block's attention and SwiGLU output */
  terms: LedgerTerm[];
  /** max |embed + Σ attn + Σ ffn − last stream|, added in the run's dtype */
  maxAbsDiff: number | null;
  grad: LedgerGrad | null;
}

export type ResidualLedger = { refused: string } | LedgerParts;

export interface HeadSummary {
  block: number;
  head: number;
  previous: number | null;
  same: number | null;
  first: number | null;
  meanDistance: number | null;
}

export interface AttentionSummary {
  heads: HeadSummary[];
  rowSumMaxError: number | null;
  aboveDiagonalMax: number | null;
}

export interface GradientCheckSide {
  dtype: 'float32' | 'float64';
  delta: number;
  appliedDelta: number | null;
  value: number | null;
  grad: number | null;
  predicted: number | null;
  actual: number | null;
  loss: number | null;
  lossPlus: number | null;
  lossMinus: number | null;
}

export interface GradientCheck {
  target: string;
  parameter: boolean;
  index: number;
  float32: GradientCheckSide;
  float64: GradientCheckSide;
}

/** A nudge that shows the gradient at work in each dtype without drowning in rounding. */
export const DEFAULT_DELTA = { float32: 1e-3, float64: 1e-6 } as const;
