// Everything the worker keeps between requests, in one object that the worker
// creates once and passes to every handler (handlers.ts): the core, the loaded
// model, which run the core's model holds, and the inspector's baselines.
//
// Handlers never touch the model's runs directly: they run it through
// computeModel / runModel here, which record which run the core now holds. So
// the inspector's "reuse the last run" can never show a run some other op
// replaced, and no op has to remember to reset anything.
import { GlassError, Model, type Glass, type ModelInfo, type ModelRun } from '../core';
import type { ModelRunSettings, Outlook } from '../protocol/model';

export interface LoadedModel {
  model: Model;
  info: ModelInfo;
}

/** The run the core's model holds now: its settings and whether backward ran. */
interface HeldRun {
  key: string;
  backward: boolean;
  loss: number | null;
}

export interface WorkerState {
  readonly glass: Glass;
  /** The loaded weights, or null until loadWeights. */
  loaded: LoadedModel | null;
  /** What the core's model last ran (null: nothing usable). */
  held: HeldRun | null;
  /** The inspector's before/after: `${dtype}|${text}` -> outlook at the weights' own eps. */
  readonly baselines: Map<string, Outlook>;
}

export function createWorkerState(glass: Glass): WorkerState {
  return { glass, loaded: null, held: null, baselines: new Map() };
}

const runKey = (r: ModelRunSettings) => `${r.eps}|${r.dtype}|${r.text}`;

/** The loaded model, or a GlassError a learner can read. */
export function needModel(s: WorkerState): LoadedModel {
  if (s.loaded === null) throw new GlassError('the model is not loaded yet (its weights are still on their way)');
  return s.loaded;
}

/** Replaces the weights (a refused file keeps the old model); every run and baseline is forgotten. */
export function loadModel(s: WorkerState, bytes: Uint8Array): ModelInfo {
  const model = s.loaded?.model ?? Model.create(s.glass);
  let info: ModelInfo;
  try {
    info = model.loadWeights(bytes);
  } catch (e) {
    if (s.loaded === null) model.dispose();
    throw e;
  }
  s.loaded = { model, info };
  s.held = null;
  s.baselines.clear();
  return info;
}

/** Forward (+ backward) kept in the core; returns the loss (null for one byte). */
export function computeModel(s: WorkerState, run: ModelRunSettings, backward: boolean): number | null {
  const { model } = needModel(s);
  s.held = null; // if compute throws, the core holds no usable run
  const loss = model.compute(run.text, { eps: run.eps, dtype: run.dtype, backward });
  s.held = { key: runKey(run), backward, loss };
  return loss;
}

/** computeModel, then everything copied out as plain data. */
export function runModel(s: WorkerState, run: ModelRunSettings, backward: boolean): ModelRun {
  const { model } = needModel(s);
  s.held = null;
  const out = model.run(run.text, { eps: run.eps, dtype: run.dtype, backward });
  s.held = { key: runKey(run), backward, loss: out.loss };
  return out;
}

/**
 * computeModel with attention patterns and interventions (texts already checked by the core).
 * The held key names them, so the inspector's ensureRun never mistakes this run for a plain one.
 */
export function computeModelWith(
  s: WorkerState,
  run: ModelRunSettings,
  backward: boolean,
  extra: { patterns: boolean; interventions: string[] },
): number | null {
  const { model } = needModel(s);
  s.held = null;
  const loss = model.computeWith(run.text, { eps: run.eps, dtype: run.dtype, backward, ...extra });
  s.held = { key: interpKey(run, extra), backward, loss };
  return loss;
}

const interpKey = (r: ModelRunSettings, extra: { patterns: boolean; interventions: string[] }) =>
  extra.patterns || extra.interventions.length > 0 ? `${runKey(r)}|${extra.patterns ? 'p' : ''}|${extra.interventions.join(',')}` : runKey(r);

/** computeModelWith, then everything copied out (pattern snapshots included). */
export function runModelWith(
  s: WorkerState,
  run: ModelRunSettings,
  backward: boolean,
  extra: { patterns: boolean; interventions: string[] },
): ModelRun {
  const { model } = needModel(s);
  s.held = null;
  const out = model.runWith(run.text, { eps: run.eps, dtype: run.dtype, backward, ...extra });
  s.held = { key: interpKey(run, extra), backward, loss: out.loss };
  return out;
}

/** computeModelWith unless the core holds that very run already (with backward). */
export function ensureRunWith(s: WorkerState, run: ModelRunSettings, extra: { patterns: boolean; interventions: string[] }): number | null {
  if (s.held !== null && s.held.backward && s.held.key === interpKey(run, extra)) return s.held.loss;
  return computeModelWith(s, run, true, extra);
}

/** The loss of `run` with backward, computing it only if the core does not hold it already. */
export function ensureRun(s: WorkerState, run: ModelRunSettings): { loss: number | null; reused: boolean } {
  if (s.held !== null && s.held.backward && s.held.key === runKey(run)) return { loss: s.held.loss, reused: true };
  return { loss: computeModel(s, run, true), reused: false };
}
