// Issue 12's requests (worker side: web/src/worker/interp.ts): attention
// patterns and heads, the residual ledger, the logit lens, interventions and
// the gradient check, each on one run of the loaded model.
import type {
  AttentionSummary,
  GradientCheck,
  Intervention,
  InterventionReport,
  LogitLens,
  NamedTensor,
  ResidualLedger,
} from '../core';
import type { ModelRunSettings } from './model';

export type { AttentionSummary, GradientCheck, Intervention, InterventionReport, LogitLens, ResidualLedger };

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
  /** Row-major element index (a snapshot without its batch axis). */
  index: number;
  /** δ per dtype (default DEFAULT_DELTA: 1e-3 in float32, 1e-6 in float64). */
  delta?: { float32?: number; float64?: number };
}

export type { GradientCheck as GradCheckResult };

export interface InterveneResult {
  report: InterventionReport;
}
