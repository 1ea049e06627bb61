// window.glass: the core's JS API for the browser's DevTools console.
//
//   await glass.ready                                   // the core on this thread (loads when idle)
//   const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true });
//   glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' }).call(x).sum().backward(); x.grad.data()
//   const r = await glass.model.run('In the beginning', { eps: 1e-6, dtype: 'float32', backward: true });
//   r.loss; r.snapshots['blocks.0.resid.attn'].shape; r.grads['embed'].data
//
// Two cores, on purpose (docs/architecture.md, "The console"):
// - glass.model runs in the page's worker: the same core instance and the same
//   loaded weights as the inspector and the lessons, so it answers with a Promise.
// - Tensors, ops, backward and RMSNorm are the facade (web/src/core) on a second
//   copy of the core on this thread, loaded only when the page is idle: a console
//   line like `x.grad.data()` must return a value, and a worker can only answer
//   later. Nothing the page shows comes from it; this is the one page module
//   allowed to load the core (.dependency-cruiser.cjs, rule page-runs-no-core).
import type { Glass } from '../core/glass';
import type { GradientCheck, Intervention, InterventionReport, ResidualLedger } from '../core/interp';
import type { ModelInfo, ModelRun } from '../core/model';
import type { HeadsResult, LensResult } from '../protocol/interp';
import type { Kind, RequestOf, ResponseOf } from '../protocol/api';
import type { DTypeName } from '../core/types';
import { DEFAULT_MODEL_EPS } from './inspectorSettings';
import { ensureWeights, weights } from './inspectorState';
import { core } from './core';

/** What every console request takes beyond the text. */
interface RunOptions {
  eps?: number;
  dtype?: DTypeName;
  interventions?: Intervention[];
}

export interface ConsoleModel {
  /**
   * Forward (+ backward) of the next-byte loss in the worker: { loss, ids, snapshots, grads, paramGradNorms };
   * patterns: true adds blocks.{i}.attn.pattern; interventions add `intervention` (before/after, what changed).
   */
  run(text: string, options?: RunOptions & { backward?: boolean; patterns?: boolean }): Promise<ModelRun>;
  /** The logit lens: top-k next bytes and the loss at every depth and position (logits: true adds them). */
  lens(text: string, options?: RunOptions & { k?: number; logits?: boolean }): Promise<LensResult>;
  /** The residual ledger: the last stream split into embed + each branch, and dL/d embed split the same way. */
  ledger(text: string, options?: RunOptions): Promise<ResidualLedger>;
  /** Every head's attention pattern (heads, n, n) per block and its summary. */
  heads(text: string, options?: RunOptions): Promise<HeadsResult>;
  /** Loss and top-5 with and without the interventions, and how much every snapshot changed. */
  intervene(text: string, interventions: Intervention[], options?: Omit<RunOptions, 'interventions'>): Promise<InterventionReport>;
  /** g·δ against the central difference for element `index` of a snapshot or parameter, in float32 and float64. */
  gradCheck(
    text: string,
    target: string,
    index: number,
    options?: RunOptions & { delta?: { float32?: number; float64?: number } },
  ): Promise<GradientCheck>;
  /** Configuration and parameter counts of the loaded weights. */
  info(): Promise<ModelInfo>;
  /** Benchmark: ms of each of `repeat` runs in the worker (nothing copied out; one warm-up first). */
  bench(text: string, options?: { eps?: number; dtype?: DTypeName; backward?: boolean; repeat?: number }): Promise<number[]>;
}

class ConsoleError extends Error {
  override name = 'GlassError';
}

/** One request with the page's weights, its errors thrown as GlassErrors. */
async function ask<K extends Kind>(kind: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  if (!(await ensureWeights())) {
    const w = weights.peek();
    throw new ConsoleError(w.status === 'failed' ? w.message : 'the weights are not loaded');
  }
  const o = await core().request(kind, payload);
  if (o.status === 'ok') return o.value;
  if (o.status === 'error') throw new ConsoleError(o.error.message);
  throw new ConsoleError(`superseded by a newer ${kind} call`);
}

const settings = (text: string, options: RunOptions) => ({
  text: String(text),
  eps: options.eps ?? DEFAULT_MODEL_EPS,
  dtype: options.dtype ?? ('float32' as const),
});

const model: ConsoleModel = {
  run(text, options = {}) {
    return ask('modelRun', {
      ...settings(text, options),
      backward: options.backward ?? true,
      patterns: options.patterns ?? false,
      interventions: options.interventions ?? [],
    });
  },
  lens(text, options = {}) {
    return ask('interpLens', { run: settings(text, options), interventions: options.interventions ?? [], k: options.k, logits: options.logits });
  },
  ledger(text, options = {}) {
    return ask('interpLedger', { run: settings(text, options), interventions: options.interventions ?? [] });
  },
  heads(text, options = {}) {
    return ask('interpHeads', { run: settings(text, options), interventions: options.interventions ?? [] });
  },
  intervene(text, interventions, options = {}) {
    return ask('interpIntervene', { run: settings(text, options), interventions });
  },
  gradCheck(text, target, index, options = {}) {
    return ask('interpGradCheck', {
      run: settings(text, options),
      interventions: options.interventions ?? [],
      target: String(target),
      index,
      delta: options.delta,
    });
  },
  async bench(text, options = {}) {
    if (!(await ensureWeights())) throw new ConsoleError('the weights are not loaded');
    const o = await core().request('benchRun', {
      text: String(text),
      eps: options.eps ?? DEFAULT_MODEL_EPS,
      dtype: options.dtype ?? 'float32',
      backward: options.backward ?? true,
      repeat: options.repeat ?? 20,
    });
    if (o.status === 'ok') return o.value;
    throw new ConsoleError(o.status === 'error' ? o.error.message : 'superseded by a newer call');
  },
  async info() {
    if (!(await ensureWeights())) throw new ConsoleError('the weights are not loaded');
    const w = weights.peek();
    if (w.status !== 'ready') throw new ConsoleError('the weights are not loaded');
    return w.info;
  },
};

const HELP = `GlassLLM console API (see README "The console API"):
  await glass.ready                                      the core on this thread, for tensors you can hold
  glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true }), glass.rmsnorm(d, { eps, dtype }).call(x),
  y.sum().backward(), x.grad.data(), glass.scope(() => ...), glass.traceGraph(y)
  await glass.model.run(text, { eps: 1e-6, dtype: 'float32', backward: true })  -> { loss, snapshots, grads, ... }
                                                         the model in the page's worker, with the page's weights
  await glass.model.run(text, { patterns: true })        adds blocks.{i}.attn.pattern, (heads, n, n)
  await glass.model.run(text, { interventions: [{ zero: 'blocks.2.ffn' }, { scale: 'blocks.0.attn', by: 0.5 },
      { ablateHead: { block: 1, head: 2 } }, { eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } },
      { identityNorm: 'norm_final' }, { unitGamma: 'blocks.0.norm_attn' }] })   -> .intervention: before/after, changes
  await glass.model.lens(text), glass.model.ledger(text), glass.model.heads(text)
  await glass.model.intervene(text, [{ ablateHead: { block: 1, head: 2 } }])
  await glass.model.gradCheck(text, 'blocks.0.resid.attn', 5, { delta: { float32: 1e-3, float64: 1e-6 } })`;

/** Installs window.glass; the main-thread core loads when the page is idle (or on first use of glass.ready). */
export function installConsoleApi(): void {
  let mainGlass: Glass | null = null;
  const ready = new Promise<Glass>((resolve, reject) => {
    const load = () =>
      import('../core')
        .then((m) => m.loadGlass())
        .then((g) => {
          mainGlass = g;
          resolve(g);
        }, reject);
    if ('requestIdleCallback' in globalThis) requestIdleCallback(() => void load(), { timeout: 3000 });
    else setTimeout(() => void load(), 1000);
  });
  ready.catch(() => {}); // reported when someone awaits it
  const base: Record<string | symbol, unknown> = { model, ready, help: () => HELP };
  const api = new Proxy(base, {
    get(target, key) {
      if (key in target) return target[key];
      if (mainGlass !== null && key in mainGlass) {
        const v = (mainGlass as unknown as Record<string | symbol, unknown>)[key];
        return typeof v === 'function' ? v.bind(mainGlass) : v;
      }
      return undefined;
    },
    has: (target, key) => key in target || (mainGlass !== null && key in mainGlass),
  });
  (globalThis as { glass?: unknown }).glass = api;
}
