// The RMSNorm lab's requests (worker side: web/src/worker/lab.ts): the lab view
// and the RMSNorm lesson's lab widgets, the seed example, a random x.
import type { DTypeName, GraphNodeView } from './base';

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

/** d standard-normal values from the core's seeded generator (4 significant digits). */
export interface RandomVectorInput {
  d: number;
  seed: number;
}
