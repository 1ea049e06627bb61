// Everything the worker keeps between requests, in one object that the worker
// creates once and passes to every handler (handlers.ts): the core, the models,
// which run each model holds, and the inspector's baselines.
//
// Two models can be loaded side by side: the shipped weights, which lessons
// always read (their text and checks are written about that model), and the
// learner's own weights (a file or a run from the Train view), which the
// inspector and the console show once opened. Each request says which it uses
// (`use`, set by worker.ts from the request: lessons ask for 'shipped'), so a
// lesson never reads a learner's model and the inspector's reused run is never
// a lesson's.
//
// Handlers never touch a model's runs directly: they run it through
// computeModel / runModel here, which record which run that model now holds. So
// the inspector's "reuse the last run" can never show a run some other op
// replaced, and no op has to remember to reset anything.
import { GlassError, Model, type Glass, type ModelInfo, type ModelRun } from '../core';
import type { ModelRunSettings, ModelUse, Outlook } from '../protocol/model';

/** The run a model holds now: its settings and whether backward ran. */
interface HeldRun {
  key: string;
  backward: boolean;
  loss: number | null;
}

export interface LoadedModel {
  model: Model;
  info: ModelInfo;
  /** What this model last ran (null: nothing usable). */
  held: HeldRun | null;
}

export interface WorkerState {
  readonly glass: Glass;
  /** The shipped weights, or null until loadWeights. */
  shipped: LoadedModel | null;
  /** The learner's own weights, shown by the inspector in place of the shipped ones (null: none opened). */
  own: LoadedModel | null;
  /** Which model the request being answered uses. */
  use: ModelUse;
  /** The inspector's before/after: `${dtype}|${text}` -> outlook at the weights' own eps (of the shown model). */
  readonly baselines: Map<string, Outlook>;
}

export function createWorkerState(glass: Glass): WorkerState {
  return { glass, shipped: null, own: null, use: 'shown', baselines: new Map() };
}

const runKey = (r: ModelRunSettings) => `${r.eps}|${r.dtype}|${r.text}`;

/** The model the current request uses, or a GlassError a learner can read. */
export function needModel(s: WorkerState): LoadedModel {
  const m = s.use === 'shipped' ? s.shipped : (s.own ?? s.shipped);
  if (m === null) throw new GlassError('the model is not loaded yet (its weights are still on their way)');
  return m;
}

/**
 * Loads weights into one slot (a refused file keeps that slot's old model).
 * 'shipped' replaces the shipped model; 'own' the learner's. The slot's runs
 * and the inspector's baselines are forgotten.
 */
export function loadModel(s: WorkerState, bytes: Uint8Array, whose: 'shipped' | 'own' = 'shipped'): ModelInfo {
  const old = whose === 'shipped' ? s.shipped : s.own;
  const model = old?.model ?? Model.create(s.glass);
  let info: ModelInfo;
  try {
    info = model.loadWeights(bytes);
  } catch (e) {
    if (old === null) model.dispose();
    throw e;
  }
  const slot: LoadedModel = { model, info, held: null };
  if (whose === 'shipped') s.shipped = slot;
  else s.own = slot;
  s.baselines.clear();
  return info;
}

/** The inspector goes back to the shipped weights: the learner's model is freed. */
export function forgetOwnModel(s: WorkerState): void {
  if (s.own === null) return;
  s.own.model.dispose();
  s.own = null;
  s.baselines.clear();
}

/**
 * A memory of answers for the model the request uses, by key: a lesson step's
 * checks ask the same question many times in one request, and a model run or
 * a sample costs far more than a lookup. New weights are a new LoadedModel, so
 * nothing stale survives them; past `keep` answers the oldest is forgotten.
 */
export function answerCache(keep: number): <R>(s: WorkerState, key: string, compute: () => R) => R {
  const byModel = new WeakMap<LoadedModel, Map<string, unknown>>();
  return <R>(s: WorkerState, key: string, compute: () => R): R => {
    const m = needModel(s);
    let c = byModel.get(m);
    if (c === undefined) byModel.set(m, (c = new Map()));
    if (c.has(key)) return c.get(key) as R;
    const r = compute();
    c.set(key, r);
    if (c.size > keep) c.delete(c.keys().next().value as string);
    return r;
  };
}

/** Forward (+ backward) kept in the core; returns the loss (null for one byte). */
export function computeModel(s: WorkerState, run: ModelRunSettings, backward: boolean): number | null {
  const m = needModel(s);
  m.held = null; // if compute throws, the core holds no usable run
  const loss = m.model.compute(run.text, { eps: run.eps, dtype: run.dtype, backward });
  m.held = { key: runKey(run), backward, loss };
  return loss;
}

/** computeModel, then everything copied out as plain data. */
export function runModel(s: WorkerState, run: ModelRunSettings, backward: boolean): ModelRun {
  const m = needModel(s);
  m.held = null;
  const out = m.model.run(run.text, { eps: run.eps, dtype: run.dtype, backward });
  m.held = { key: runKey(run), backward, loss: out.loss };
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
  const m = needModel(s);
  m.held = null;
  const loss = m.model.computeWith(run.text, { eps: run.eps, dtype: run.dtype, backward, ...extra });
  m.held = { key: interpKey(run, extra), backward, loss };
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
  const m = needModel(s);
  m.held = null;
  const out = m.model.runWith(run.text, { eps: run.eps, dtype: run.dtype, backward, ...extra });
  m.held = { key: interpKey(run, extra), backward, loss: out.loss };
  return out;
}

/** computeModelWith unless the core holds that very run already (with backward). */
export function ensureRunWith(s: WorkerState, run: ModelRunSettings, extra: { patterns: boolean; interventions: string[] }): number | null {
  const { held } = needModel(s);
  if (held !== null && held.backward && held.key === interpKey(run, extra)) return held.loss;
  return computeModelWith(s, run, true, extra);
}

/** The loss of `run` with backward, computing it only if the core does not hold it already. */
export function ensureRun(s: WorkerState, run: ModelRunSettings): { loss: number | null; reused: boolean } {
  const { held } = needModel(s);
  if (held !== null && held.backward && held.key === runKey(run)) return { loss: held.loss, reused: true };
  return { loss: computeModel(s, run, true), reused: false };
}
