// Issue 12's requests (worker side: web/src/worker/interp.ts): attention
// patterns and heads, the residual ledger, the logit lens, interventions and
// the gradient check, each on one run of the loaded model.
import type {
  AttentionSummary,
  GradientCheck,
  Intervention,
  InterventionReport,
  LedgerTerm,
  LogitLens,
  NamedTensor,
  ResidualLedger,
} from '../core';
import type { ModelRunSettings } from './model';

export type { AttentionSummary, GradientCheck, Intervention, InterventionReport, LedgerTerm, LogitLens, ResidualLedger };

/** A run and the interventions it is made with (none: the model as loaded). */
export interface InterpRun {
  run: ModelRunSettings;
  interventions?: Intervention[];
}

export interface LensInput extends InterpRun {
  /** How many next bytes per depth and position (default 5). */
  k?: number;
  /** Also return the lens logits, (depths, n, 256). */
  logits?: boolean;
}

export interface LensResult {
  lens: LogitLens;
  /** The core's display label of each byte of the text. */
  labels: string[];
  ids: number[];
}

export interface HeadsResult {
  /** patterns[block]: (heads, n, n), the model's own softmax. */
  patterns: NamedTensor[];
  summary: AttentionSummary;
  labels: string[];
  ids: number[];
}

export interface GradCheckInput extends InterpRun {
  /** A snapshot (docs/model.md name or alias; blocks.{i}.attn.pattern too) or a parameter name. */
  target: string;
  /** Row-major element index (a snapshot without its batch axis); ignored when `at` is given. */
  index: number;
  /**
   * The element as a position and a coordinate: (pos, coord) of a 2-D tensor
   * ((n, d) snapshots, (rows, cols) matrices), coord alone of a vector (γ);
   * the worker turns it into the index and says which is out of range.
   */
  at?: { pos: number; coord: number };
  /** δ per dtype (default DEFAULT_DELTA: 1e-3 in float32, 1e-6 in float64). */
  delta?: { float32?: number; float64?: number };
}

export interface GradCheckResult extends GradientCheck {
  /** The target's shape (a snapshot's without its batch axis) and the element's coordinates in it. */
  shape: number[];
  coords: number[];
}

export interface InterveneResult {
  report: InterventionReport;
}
