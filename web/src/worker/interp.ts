// Issue 12's side of the worker: attention patterns and heads, the residual
// ledger, the logit lens, interventions and the gradient check, each computed
// by the core (cpp/wasm/interp_bindings.cpp) on one run of the loaded model.
//
// Every request names its run (text, eps, dtype) and its interventions; the
// run is made with patterns recorded and reused while those stay the same
// (state.ts's held key names the interventions, so the inspector never reuses
// an intervened run as a plain one).
import { DEFAULT_DELTA, type GradientCheck, type InterventionReport } from '../core';
import type { GradCheckInput, HeadsResult, InterpRun, LensInput, LensResult, ResidualLedger } from '../protocol/interp';
import { ensureRunWith, needModel, type WorkerState } from './state';

/** The run with patterns and these interventions, computed unless the core holds it already. */
function prepare(s: WorkerState, input: InterpRun): { texts: string[]; ids: number[]; labels: string[] } {
  const { model } = needModel(s);
  const texts = model.checkInterventions(input.interventions ?? []); // refused before anything runs
  ensureRunWith(s, input.run, { patterns: true, interventions: texts });
  const ids = Array.from(new TextEncoder().encode(input.run.text));
  return { texts, ids, labels: ids.map((b) => model.displayByte(b)) };
}

export function interpLens(s: WorkerState, input: LensInput): LensResult {
  const { ids, labels } = prepare(s, input);
  return { lens: needModel(s).model.logitLens(input.k ?? 5, input.logits ?? false), ids, labels };
}

export function interpLedger(s: WorkerState, input: InterpRun): ResidualLedger {
  prepare(s, input);
  return needModel(s).model.residualLedger();
}

export function interpHeads(s: WorkerState, input: InterpRun): HeadsResult {
  const { ids, labels } = prepare(s, input);
  const { model, info } = needModel(s);
  const patterns = Array.from({ length: info.blocks }, (_, i) => model.pattern(i));
  return { patterns, summary: model.attentionSummary(), ids, labels };
}

/** Loss and top-5 with and without the interventions, and how much every snapshot changed. */
export function interpIntervene(s: WorkerState, input: InterpRun): InterventionReport {
  const { texts } = prepare(s, input);
  return needModel(s).model.interventionReport(texts);
}

export function interpGradCheck(s: WorkerState, input: GradCheckInput): GradientCheck {
  prepare(s, input);
  const delta = { float32: input.delta?.float32 ?? DEFAULT_DELTA.float32, float64: input.delta?.float64 ?? DEFAULT_DELTA.float64 };
  return needModel(s).model.gradientCheck(input.target, input.index, delta);
}

export const interpHandlers = {
  interpLens,
  interpLedger,
  interpHeads,
  interpIntervene,
  interpGradCheck,
};
