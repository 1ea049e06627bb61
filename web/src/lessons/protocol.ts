// The 'lesson' request kind (app/protocol.ts): what lessons ask the worker.
// Plain data only. The worker side is web/src/worker/lessons.ts.
import type { ErrorData, GraphNodeView } from '../app/protocol';
import type { AttentionPatternInput, AttentionPatternResult, RopeOffsetInput, RopeOffsetResult } from './attentionProtocol';
import type { ModelSwigluInput, ModelSwigluResult, SiluGateInput, SiluGateResult } from './swigluProtocol';
import type { BytePairInput, BytePairResult, ByteTextInput, ByteTextResult, EmbedGradInput, EmbedGradResult } from './bytesProtocol';
import type { NextByteLossInput, NextByteLossResult } from './lossProtocol';

/** A value an expression or widget returned: numbers, strings, booleans, nested arrays of numbers. */
export type Plain = number | string | boolean | null | Plain[] | { [key: string]: Plain };

export type ValueOutcome = { ok: true; value: Plain } | { ok: false; error: ErrorData };

export interface RowsInput {
  rows: number[][]; // (n, d)
  eps: number;
}
export interface RowsResult {
  output: number[][]; // RMSNorm of the whole (n, d) tensor, row by row
  r: number[]; // (n,) r(x) of each row
}

export interface GammaInput {
  rows: number[][]; // (n, d) inputs of different scale
  gamma: number[]; // (d,)
  eps: number;
}
export interface GammaRow {
  input: number[];
  output: number[];
  norm: number; // ||y||
  meanSquare: number; // mean(y²)
  variance: number; // mean((y − mean y)²)
  onesNorm: number; // ||y|| with gamma = 1
  onesMeanSquare: number;
}

export interface PathInput {
  matrix: number[][]; // A, (k, k): F(x) = s·A x
  scale: number; // s
  depth: number; // L, 1 .. 64
}
export interface PathResult {
  /** Singular values, largest first. */
  residual: number[]; // of I + s·A
  branch: number[]; // of s·A alone
  /** Per depth 1..L: [σmax, σmin] of (I + sA)^l and of (sA)^l. */
  residualDepth: [number, number][];
  branchDepth: [number, number][];
}

export interface ModelGradsInput {
  text: string;
}
export interface ModelGradsResult {
  loss: number | null;
  names: string[]; // residual stream by depth
  norms: number[]; // ||dL/d name||
  n: number;
}

/** The autograd-graph widget: one of a few small expressions of a and b (3 values each). */
export const GRAPH_EXPRESSIONS = {
  'mul-add': 'y = sum(a * b + a)',
  'sq-mean': 'y = mean((a - b)²)',
  'tanh-mul': 'y = sum(tanh(a * b))',
} as const;
export type GraphExpression = keyof typeof GRAPH_EXPRESSIONS;
export interface GraphInput {
  expression: GraphExpression;
  a: number[];
  b: number[];
}
export interface GraphResult {
  y: number;
  /** The recorded graph, inputs before users, after y.backward() with the graph and every gradient kept. */
  nodes: GraphNodeView[];
}

/** The broadcasting widget: two shapes; the core broadcasts tensors of those shapes. */
export interface BroadcastInput {
  a: number[];
  b: number[];
}
export interface BroadcastResult {
  shape: number[];
  numel: number;
}

export type LessonRequest =
  | { op: 'code'; code: string }
  | { op: 'eval'; exprs: string[] }
  | { op: 'rows'; input: RowsInput }
  | { op: 'gamma'; input: GammaInput }
  | { op: 'path'; input: PathInput }
  | { op: 'modelGrads'; input: ModelGradsInput }
  | { op: 'graph'; input: GraphInput }
  | { op: 'broadcast'; input: BroadcastInput }
  | { op: 'attentionPattern'; input: AttentionPatternInput }
  | { op: 'ropeOffset'; input: RopeOffsetInput }
  | { op: 'siluGate'; input: SiluGateInput }
  | { op: 'modelSwiglu'; input: ModelSwigluInput }
  | { op: 'byteText'; input: ByteTextInput }
  | { op: 'bytePair'; input: BytePairInput }
  | { op: 'embedGrad'; input: EmbedGradInput }
  | { op: 'nextByteLoss'; input: NextByteLossInput };

export type LessonResponse =
  | { op: 'code'; output: string; error: ErrorData | null }
  | { op: 'eval'; values: ValueOutcome[] }
  | { op: 'rows'; result: RowsResult }
  | { op: 'gamma'; result: GammaRow[] }
  | { op: 'path'; result: PathResult }
  | { op: 'modelGrads'; result: ModelGradsResult }
  | { op: 'graph'; result: GraphResult }
  | { op: 'broadcast'; result: BroadcastResult }
  | { op: 'attentionPattern'; result: AttentionPatternResult }
  | { op: 'ropeOffset'; result: RopeOffsetResult }
  | { op: 'siluGate'; result: SiluGateResult }
  | { op: 'modelSwiglu'; result: ModelSwigluResult }
  | { op: 'byteText'; result: ByteTextResult }
  | { op: 'bytePair'; result: BytePairResult }
  | { op: 'embedGrad'; result: EmbedGradResult }
  | { op: 'nextByteLoss'; result: NextByteLossResult };
