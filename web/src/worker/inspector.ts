// The model inspector's side of the worker, and the console's glass.model:
// loading the weights, running a prompt, and every number the inspector shows,
// computed by the core (cpp/wasm/model_bindings.cpp): per-position RMS,
// differences, norms, top-k.
//
// A run is reused while its settings (text, eps, dtype) stay the same, so
// picking another tensor costs only copying it out (state.ts keeps track).
import type { Glass, Model, ModelInfo, ModelRun } from '../core';
import type { ShownTensor } from '../protocol/base';
import { depthNames, type BenchInput, type InspectInput, type InspectResult, type ModelRunInput, type ModelRunSettings, type Outlook } from '../protocol/model';
import { computeModel, ensureRun, forgetOwnModel, loadModel, needModel, runModel, runModelWith, type WorkerState } from './state';

export { depthNames };

/** The shipped weights (whose 'shipped', the default) or the learner's own, which the inspector then shows. */
export function loadWeights(s: WorkerState, { bytes, whose = 'shipped' }: { bytes: ArrayBuffer; whose?: 'shipped' | 'own' }): ModelInfo {
  return loadModel(s, new Uint8Array(bytes), whose);
}

/** Back to the shipped weights in the inspector: the learner's model is freed. */
export function forgetOwnWeights(s: WorkerState, _: null): null {
  forgetOwnModel(s);
  return null;
}

function baseline(s: WorkerState, run: ModelRunSettings): Outlook {
  const { model, info } = needModel(s);
  const k = `${run.dtype}|${run.text}`;
  let b = s.baselines.get(k);
  if (b === undefined) {
    const loss = computeModel(s, { ...run, eps: info.eps }, false);
    b = { eps: info.eps, loss, top: model.topNext(5) };
    if (s.baselines.size > 16) s.baselines.clear();
    s.baselines.set(k, b);
  }
  return b;
}

function shown(m: Model, name: string, grad: boolean): ShownTensor {
  const t = m.snapshot(name, { grad });
  return { ...t, name, grad, rowRms: m.rowRms(name, { grad }), norm: m.tensorNorm(name, { grad }) };
}

export function inspect(s: WorkerState, input: InspectInput): InspectResult {
  const { model: m, info: i } = needModel(s);
  const { run, show } = input;
  // The baseline (eps of the weights) first: the run we show must be the last one in the core.
  const base = run.eps === i.eps ? null : baseline(s, run);
  const t0 = performance.now();
  const { loss, reused } = ensureRun(s, run);
  const ms = reused ? 0 : performance.now() - t0;
  const names = m.snapshotNames();
  const n = m.snapshot('embed').shape[0];
  const ids = Array.from(new TextEncoder().encode(run.text));
  const hasGrad = n > 1; // a 1-byte text predicts nothing: no loss, no gradients
  const depth = depthNames(i);
  const top = m.topNext(5);
  return {
    run,
    loss,
    ids,
    labels: ids.map((b) => m.displayByte(b)),
    top,
    baseline: base ?? { eps: i.eps, loss, top },
    names,
    depth: {
      names: depth,
      rms: depth.map((d) => m.rowRms(d)),
      gradRms: hasGrad ? depth.map((d) => m.rowRms(d, { grad: true })) : null,
    },
    snapshotGradNorms: hasGrad ? Object.fromEntries(names.map((x) => [x, m.tensorNorm(x, { grad: true })])) : null,
    paramGradNorms: hasGrad ? m.paramGradNorms() : null,
    shown:
      show.kind === 'single'
        ? [shown(m, show.name, show.grad && hasGrad)]
        : [shown(m, show.a, show.grad && hasGrad), shown(m, show.b, show.grad && hasGrad), difference(s.glass, m, show.a, show.b, show.grad && hasGrad)],
    runMs: ms,
  };
}

function difference(glass: Glass, m: Model, a: string, b: string, grad: boolean): ShownTensor {
  const t = m.difference(a, b, { grad }); // (n, d)
  // Its per-position RMS and norm, by core Tensor ops on a copy (the difference is not a snapshot).
  const stats = glass.scope(() => {
    const x = glass.tensor(t.data, { shape: t.shape });
    const sq = x.square();
    return { rowRms: sq.mean(-1).sqrt().data(), norm: sq.sum().sqrt().item() };
  });
  return { ...t, name: `${b} − ${a}`, grad, ...stats };
}

/**
 * glass.model.run from the console: everything as plain data. With patterns or
 * interventions (docs/model.md, "Interventions") the run records the attention
 * patterns too, and carries `intervention`: loss and top-5 before and after,
 * and how much every snapshot changed.
 */
export function modelRun(s: WorkerState, r: ModelRunInput): ModelRun {
  if (!r.patterns && (r.interventions ?? []).length === 0) return runModel(s, r, r.backward);
  const { model } = needModel(s);
  const interventions = model.checkInterventions(r.interventions ?? []); // refused before anything runs
  const out = runModelWith(s, r, r.backward, { patterns: r.patterns ?? false, interventions });
  return interventions.length > 0 ? { ...out, intervention: model.interventionReport(interventions) } : out;
}

const WARM_UP_RUNS = 10;

/** The benchmark: `repeat` timed runs after a warm-up (compute only: nothing copied out). */
export function benchRun(s: WorkerState, r: BenchInput): number[] {
  const { model: m } = needModel(s);
  const times: number[] = [];
  // Warm up: V8 first runs wasm from its baseline compiler and swaps in the
  // optimised code of hot functions as a background compile finishes, so the
  // first few runs measure the baseline tier, not the page in use. The first
  // run sets eps and dtype; the timed ones repeat that same run.
  computeModel(s, r, r.backward);
  for (let k = 0; k < WARM_UP_RUNS; k++) m.compute(r.text, { backward: r.backward });
  for (let k = 0; k < r.repeat; k++) {
    const t0 = performance.now();
    m.compute(r.text, { backward: r.backward });
    times.push(performance.now() - t0);
  }
  return times;
}

export const modelHandlers = {
  loadWeights,
  forgetOwnWeights,
  inspect,
  modelRun,
  benchRun,
};
