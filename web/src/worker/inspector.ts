// The model inspector's side of the worker: one Model (the loaded weights) and
// its last run. Every number the inspector shows is computed here by the core
// (cpp/wasm/model_bindings.cpp): per-position RMS, differences, norms, top-k.
//
// A run is reused while its settings (text, eps, dtype) stay the same, so
// picking another tensor costs only copying it out.
import { GlassError, Model, type Glass, type ModelInfo, type ModelRun } from '../core';
import type { InspectInput, InspectResult, ModelRunSettings, Outlook, ShownTensor } from '../app/protocol';
import { depthNames } from '../app/tensorNames';

export { depthNames };

let model: Model | null = null;
let info: ModelInfo | null = null;
/** The run the core holds now (with backward), or null. */
let lastRun: { key: string; loss: number | null } | null = null;
const baselines = new Map<string, Outlook>(); // `${dtype}|${text}` -> outlook at the weights' eps

const key = (r: ModelRunSettings) => `${r.eps}|${r.dtype}|${r.text}`;

function loaded(): { model: Model; info: ModelInfo } {
  if (model === null || info === null) throw new GlassError('no weights are loaded yet');
  return { model, info };
}

export function loadWeights(glass: Glass, { bytes }: { bytes: ArrayBuffer }): ModelInfo {
  model ??= Model.create(glass);
  info = model.loadWeights(new Uint8Array(bytes)); // a refused file keeps the old model
  lastRun = null;
  baselines.clear();
  return info;
}

/** Forward + backward of `run`, unless the core holds it already. */
function ensureRun(m: Model, run: ModelRunSettings): { loss: number | null; ms: number } {
  if (lastRun?.key === key(run)) return { loss: lastRun.loss, ms: 0 };
  lastRun = null; // if compute throws, the core holds no usable run
  const t0 = performance.now();
  const loss = m.compute(run.text, { eps: run.eps, dtype: run.dtype, backward: true });
  lastRun = { key: key(run), loss };
  return { loss, ms: performance.now() - t0 };
}

/** The loaded model and its configuration, or null (the lessons' code cells and checks use it). */
export function loadedModel(): { model: Model; info: ModelInfo } | null {
  return model !== null && info !== null ? { model, info } : null;
}

/** Forgets the held run (the console's run replaced it). */
export function forgetRun(): void {
  lastRun = null;
}

function baseline(m: Model, i: ModelInfo, run: ModelRunSettings): Outlook {
  const k = `${run.dtype}|${run.text}`;
  let b = baselines.get(k);
  if (b === undefined) {
    lastRun = null;
    const loss = m.compute(run.text, { eps: i.eps, dtype: run.dtype, backward: false });
    b = { eps: i.eps, loss, top: m.topNext(5) };
    if (baselines.size > 16) baselines.clear();
    baselines.set(k, b);
  }
  return b;
}

function shown(m: Model, name: string, grad: boolean): ShownTensor {
  const t = m.snapshot(name, { grad });
  return { ...t, name, grad, rowRms: m.rowRms(name, { grad }), norm: m.tensorNorm(name, { grad }) };
}

export function inspect(glass: Glass, input: InspectInput): InspectResult {
  const { model: m, info: i } = loaded();
  const { run, show } = input;
  // The baseline (eps of the weights) first: the run we show must be the last one in the core.
  const base = run.eps === i.eps ? null : baseline(m, i, run);
  const { loss, ms } = ensureRun(m, run);
  const names = m.snapshotNames();
  const n = m.snapshot('embed').shape[0];
  const ids = Array.from(new TextEncoder().encode(run.text));
  const hasGrad = n > 1; // a 1-byte text predicts nothing: no loss, no gradients
  const depth = depthNames(i.blocks);
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
    snapshotGradNorms: hasGrad ? Object.fromEntries(names.map((s) => [s, m.tensorNorm(s, { grad: true })])) : null,
    paramGradNorms: hasGrad ? m.paramGradNorms() : null,
    shown:
      show.kind === 'single'
        ? [shown(m, show.name, show.grad && hasGrad)]
        : [shown(m, show.a, show.grad && hasGrad), shown(m, show.b, show.grad && hasGrad), difference(glass, m, show.a, show.b, show.grad && hasGrad)],
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

/** glass.model.run from the console: everything as plain data. */
export function modelRun(_glass: Glass, r: ModelRunSettings & { backward: boolean }): ModelRun {
  const { model: m } = loaded();
  lastRun = null;
  return m.run(r.text, { eps: r.eps, dtype: r.dtype, backward: r.backward });
}

const WARM_UP_RUNS = 10;

/** The benchmark: `repeat` timed runs after a warm-up (compute only: nothing copied out). */
export function benchRun(_glass: Glass, r: ModelRunSettings & { backward: boolean; repeat: number }): number[] {
  const { model: m } = loaded();
  lastRun = null;
  const times: number[] = [];
  // Warm up: V8 first runs wasm from its baseline compiler and swaps in the
  // optimised code of hot functions as a background compile finishes, so the
  // first few runs measure the baseline tier, not the page in use.
  m.compute(r.text, { eps: r.eps, dtype: r.dtype, backward: r.backward });
  for (let k = 0; k < WARM_UP_RUNS; k++) m.compute(r.text, { backward: r.backward });
  for (let k = 0; k < r.repeat; k++) {
    const t0 = performance.now();
    m.compute(r.text, { backward: r.backward });
    times.push(performance.now() - t0);
  }
  return times;
}
