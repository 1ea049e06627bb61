// Issue 12's side of the worker: attention patterns and heads, the residual
// ledger, the logit lens, interventions and the gradient check, each computed
// by the core (cpp/wasm/interp_bindings.cpp) on one run of the loaded model.
//
// Every request names its run (text, eps, dtype) and its interventions; the
// run is made with patterns recorded and reused while those stay the same
// (state.ts's held key names the interventions, so the inspector never reuses
// an intervened run as a plain one).
import { DEFAULT_DELTA, type GradientCheck, type InterventionReport } from '../core';
import type { GradCheckInput, GradCheckResult, HeadsResult, InterpRun, LensInput, LensResult, ResidualLedger } from '../protocol/interp';
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

/** The target's shape and whether it is a parameter, or null if it names neither (the core then refuses it, listing both). */
function shapeOf(s: WorkerState, target: string): { shape: number[]; parameter: boolean } | null {
  const { model } = needModel(s);
  if (model.snapshotNames().includes(target)) return { shape: model.snapshot(target).shape, parameter: false };
  if (target in model.paramGradNorms()) return { shape: model.param(target).shape, parameter: true };
  return null;
}

/** (pos, coord) as the row-major index and its coordinates; a coordinate out of range is refused by name. */
function elementOf(t: { shape: number[]; parameter: boolean }, at: { pos: number; coord: number }, target: string): { index: number; coords: number[] } {
  const { shape } = t;
  const within = (v: number, size: number, what: string) => {
    if (!Number.isInteger(v) || v < 0 || v >= size)
      throw new Error(`gradient check: ${what} ${v} is outside 0 to ${size - 1} (${target} has shape (${shape.join(', ')}))`);
  };
  if (shape.length === 1) {
    within(at.coord, shape[0], 'coordinate');
    return { index: at.coord, coords: [at.coord] };
  }
  if (shape.length !== 2) throw new Error(`gradient check: ${target} has shape (${shape.join(', ')}); pick a tensor with one or two axes`);
  within(at.pos, shape[0], t.parameter ? 'row' : 'position');
  within(at.coord, shape[1], t.parameter ? 'column' : 'coordinate');
  return { index: at.pos * shape[1] + at.coord, coords: [at.pos, at.coord] };
}

export function interpGradCheck(s: WorkerState, input: GradCheckInput): GradCheckResult {
  prepare(s, input);
  const delta = { float32: input.delta?.float32 ?? DEFAULT_DELTA.float32, float64: input.delta?.float64 ?? DEFAULT_DELTA.float64 };
  const t = shapeOf(s, input.target);
  const element = input.at !== undefined && t !== null ? elementOf(t, input.at, input.target) : { index: input.index, coords: [input.index] };
  const check: GradientCheck = needModel(s).model.gradientCheck(input.target, element.index, delta);
  return { ...check, shape: t?.shape ?? [], coords: element.coords };
}

export const interpHandlers = {
  interpLens,
  interpLedger,
  interpHeads,
  interpIntervene,
  interpGradCheck,
};
