// The typed request/response API between the page and the core's Web Worker.
// Plain data only (structured clone): no handles, no classes. The worker
// (web/src/worker/worker.ts) answers every request with a Response carrying the
// same id; errors travel as data { name, message }.
import type { ModelInfo, ModelRun, NamedTensor, Prediction } from '../core/model';
import type { DTypeName } from '../core/types';
import type { LessonRequest, LessonResponse } from '../lessons/protocol';

export type { DTypeName };

/** Which scalar the lab's backward pass starts from: sum(y), or one output coordinate y[i]. */
export type GradTarget = 'sum' | number;

/** Everything the RMSNorm lab computes from. Validated before it is sent. */
export interface LabInput {
  x: number[]; // (d,)  2 <= d <= 128, finite
  gamma: number[] | null; // (d,) or null for all ones
  eps: number; // 0, or 1e-12 .. 1e2
  c: number; // 1e-8 .. 1e8
  dtype: DTypeName;
  grad: GradTarget;
}

/** One node of the core's recorded autograd graph, values copied out. */
export interface GraphNodeView {
  id: number;
  op: string;
  detail: string;
  name: string;
  inputs: number[];
  shape: number[];
  value: number[];
  grad: number[] | null;
}

export interface LabResult {
  dtype: DTypeName;
  d: number;
  /** x as the core stores it in this dtype (1e200 is Infinity in float32). */
  x: number[];
  /** c·x, the input the RMSNorm actually sees. */
  input: number[];
  /** mean((c·x)²): the "mean" node of the graph. */
  meanSquare: number;
  /** r(c·x) = sqrt(mean((c·x)²) + eps): the "sqrt" node of the graph. */
  r: number;
  /** RMSNorm(c·x) = gamma ⊙ c·x / r. */
  output: number[];
  outputNorm: number; // ||RMSNorm(c·x)||
  outputMeanSquare: number; // mean(RMSNorm(c·x)²)
  outputMean: number; // mean(RMSNorm(c·x)): RMSNorm does not center
  /** eps / c²: the epsilon RMSNorm(x) would need to give the same output. */
  effectiveEps: number;
  /** mean(x²) at c = 1: the energy of x (Infinity or 0 when the squares overflow or underflow). */
  energy: number;
  /**
   * sqrt(eps / mean(x²)): the c where eps/c² equals the energy mean(x²). Below it
   * epsilon dominates; well above it the output is nearly scale invariant.
   * null when eps = 0 or mean(x²) is 0 or not finite.
   */
  crossoverC: number | null;
  /** ||RMSNorm(c·x) − RMSNorm(x)|| at the current c. */
  distance: number;
  /** The same distance across ~60 values of c (log-spaced, 1e-8 .. 1e8; c = 1 is one of them). */
  curve: { c: number[]; distance: number[] };
  /** What the right-hand end of the curve shows, for the plot's caption. */
  plateau: LabPlateau;
  /** LayerNorm(c·x) = gamma ⊙ (c·x − mean) / sqrt(var + eps), no beta, from core ops. */
  layerNorm: { mean: number; variance: number; output: number[] };
  /** The graph of y = RMSNorm(c·x), inputs before users, after backward of `grad`. */
  graph: GraphNodeView[];
  grad: GradTarget;
}

/**
 * As c grows, ε/c² vanishes and RMSNorm(c·x) tends to γ ⊙ x / rms(x), so the
 * distance ‖RMSNorm(c·x) − RMSNorm(x)‖ levels off at ‖γ ⊙ x / rms(x) − RMSNorm(x)‖:
 * ε's own effect at c = 1. Whether the plot shows that level depends on the dtype's
 * rounding, on where ε stops mattering, and on c·x overflowing.
 */
export interface LabPlateau {
  /**
   * ‖γ ⊙ x / rms(x) − RMSNorm(x)‖ computed in float64 from x as stored in the
   * dtype; null when rms(x) is 0 or not finite (x = 0, squares that overflow
   * or underflow), where there is no such level.
   */
  epsEffect: number | null;
  /** The dtype's rounding near RMSNorm(x): unit roundoff (2⁻⁵³ or 2⁻²⁴) × ‖RMSNorm(x)‖. */
  rounding: number;
  /**
   * 'eps': the curve levels off at epsEffect (well above rounding).
   * 'mixed': it levels off near epsEffect, which is within 100× the rounding (the level wobbles).
   * 'rounding': epsEffect is below the rounding: the right-hand end is rounding (or exactly 0).
   * 'exact': ε = 0, the ideal is exactly scale invariant: what the curve shows is rounding.
   * 'not-levelled': ε still matters at c = 1e8, the curve has not reached epsEffect.
   * 'none': epsEffect is null.
   */
  kind: 'eps' | 'mixed' | 'rounding' | 'exact' | 'not-levelled' | 'none';
  /** The smallest c > 1 on the curve where mean((c·x)²) overflows to Infinity (r = Infinity, output 0), or null. */
  overflowFrom: number | null;
}

export interface SeedRow {
  dtype: DTypeName;
  eps: number;
  a: number[]; // RMSNorm([[3, 4]])
  b: number[]; // RMSNorm([[6, 8]])
  diff: number[]; // b − a
}

// ---- the model inspector ----

/** One run of the model: prompt (at most `context` UTF-8 bytes), eps of every norm, dtype. */
export interface ModelRunSettings {
  text: string;
  eps: number;
  dtype: DTypeName;
}

/** What the inspector shows: one tensor, or two and their difference (b − a). */
export type TensorSelection =
  | { kind: 'single'; name: string; grad: boolean }
  | { kind: 'compare'; a: string; b: string; grad: boolean };

export interface InspectInput {
  run: ModelRunSettings;
  show: TensorSelection;
}

/** A tensor as the inspector shows it, with what the core computed about it. */
export interface ShownTensor extends NamedTensor {
  name: string;
  grad: boolean;
  /** Per-position RMS sqrt(mean(t², last axis)), (n,). */
  rowRms: Float32Array | Float64Array;
  /** ||t|| over every element. */
  norm: number;
}

export interface Outlook {
  eps: number;
  loss: number | null;
  top: Prediction[];
}

export interface InspectResult {
  run: ModelRunSettings;
  loss: number | null;
  ids: number[];
  /** The core's display label for each byte of the prompt. */
  labels: string[];
  /** The 5 most likely next bytes after the prompt at this eps. */
  top: Prediction[];
  /** The same at the weights' own eps (the default), for before/after. */
  baseline: Outlook;
  /** Snapshot names in the order the model computed them. */
  names: string[];
  /** Residual stream by depth: embed, each block's resid.attn and resid.ffn, norm.final. */
  depth: {
    names: string[];
    rms: (Float32Array | Float64Array)[]; // per name: per-position RMS (n,)
    gradRms: (Float32Array | Float64Array)[] | null; // the same for the gradients
  };
  /** Snapshot name -> ||dL/d snapshot|| (null without backward: 1-byte prompt). */
  snapshotGradNorms: Record<string, number> | null;
  /** Parameter name -> ||dL/d parameter||. */
  paramGradNorms: Record<string, number> | null;
  shown: ShownTensor[]; // [t] or [a, b, b − a]
  /** ms the core spent: the forward(+backward) run (0 when the run was reused) and everything. */
  runMs: number;
}

/** Request kinds: what each carries and what comes back. */
export interface CoreApi {
  lab: { request: LabInput; response: LabResult };
  seed: { request: null; response: SeedRow[] };
  /** d standard-normal values from the core's seeded generator (4 significant digits). */
  randomVector: { request: { d: number; seed: number }; response: number[] };
  /** The bytes of a safetensors file; the worker keeps the model. */
  loadWeights: { request: { bytes: ArrayBuffer }; response: ModelInfo };
  /** Runs the prompt (reusing the last run if nothing changed) and returns what to show. */
  inspect: { request: InspectInput; response: InspectResult };
  /** The console's glass.model.run: everything as plain data. */
  modelRun: { request: ModelRunSettings & { backward: boolean }; response: ModelRun };
  /** Benchmark: times compute() `repeat` times; ms of each. */
  benchRun: { request: ModelRunSettings & { backward: boolean; repeat: number }; response: number[] };
  /** Lessons: code cells, check answers and inline values, widget computations (lessons/protocol.ts). */
  lesson: { request: LessonRequest; response: LessonResponse };
  /** Testing only: the worker runs a wasm trap and dies (see glass.debugTrap). */
  debugTrap: { request: null; response: never };
}
export type Kind = keyof CoreApi;

export interface ErrorData {
  name: string;
  message: string;
}

export interface Request<K extends Kind = Kind> {
  id: number;
  kind: K;
  payload: CoreApi[K]['request'];
  /** The client keeps a time limit on this request: say 'started' when its work begins. */
  watch?: boolean;
}

export type Response =
  | { type: 'result'; id: number; ok: true; value: unknown; computeMs: number }
  // fatal: the core trapped (WebAssembly.RuntimeError); the worker is unusable.
  | { type: 'result'; id: number; ok: false; error: ErrorData; fatal: boolean }
  // A watched request's work begins now (its time limit counts from here, not from
  // the moment it was sent: loading the core or earlier requests do not count).
  | { type: 'started'; id: number }
  | { type: 'ready' }
  | { type: 'loadFailed'; error: ErrorData };

export function errorData(e: unknown): ErrorData {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}
