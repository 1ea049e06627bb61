// window.glass: the core's JS API for the browser's DevTools console.
//
//   await glass.ready                                   // the core on this thread (loads when idle)
//   const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true });
//   glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' }).call(x).sum().backward(); x.grad.data()
//   const r = await glass.model.run('In the beginning', { eps: 1e-6, dtype: 'float32', backward: true });
//   r.loss; r.snapshots['blocks.0.resid.attn'].shape; r.grads['embed'].data
//   const t = await glass.train.run({ text, config: { blocks: 12, norm: 'post' }, steps: 200 });  // consoleTrain.ts
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
import type { ModelInfo, ModelRun } from '../core/model';
import type { DTypeName } from '../core/types';
import { DEFAULT_MODEL_EPS } from './inspectorSettings';
import { ensureWeights, weights } from './inspectorState';
import { core } from './core';
import { consoleTrainRun, type ConsoleTrainOptions, type ConsoleTrainResult } from './consoleTrain';

export interface ConsoleModel {
  /** Forward (+ backward) of the next-byte loss in the worker: { loss, ids, snapshots, grads, paramGradNorms }. */
  run(text: string, options?: { eps?: number; dtype?: DTypeName; backward?: boolean }): Promise<ModelRun>;
  /** Configuration and parameter counts of the loaded weights. */
  info(): Promise<ModelInfo>;
  /** Benchmark: ms of each of `repeat` runs in the worker (nothing copied out; one warm-up first). */
  bench(text: string, options?: { eps?: number; dtype?: DTypeName; backward?: boolean; repeat?: number }): Promise<number[]>;
}

class ConsoleError extends Error {
  override name = 'GlassError';
}

const model: ConsoleModel = {
  async run(text, options = {}) {
    if (!(await ensureWeights())) {
      const w = weights.peek();
      throw new ConsoleError(w.status === 'failed' ? w.message : 'the weights are not loaded');
    }
    const o = await core().request('modelRun', {
      text: String(text),
      eps: options.eps ?? DEFAULT_MODEL_EPS,
      dtype: options.dtype ?? 'float32',
      backward: options.backward ?? true,
    });
    if (o.status === 'ok') return o.value;
    if (o.status === 'error') throw new ConsoleError(o.error.message);
    throw new ConsoleError('superseded by a newer glass.model.run call');
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

export interface ConsoleTrain {
  /** A training run in a trainer worker of its own: { losses, gradNorms, valLoss, residRms } (README, "The console API"). */
  run(options?: ConsoleTrainOptions): Promise<ConsoleTrainResult>;
}

const train: ConsoleTrain = { run: (options) => consoleTrainRun(options) };

const HELP = `GlassLLM console API (see README "The console API"):
  await glass.ready                                      the core on this thread, for tensors you can hold
  glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true }), glass.rmsnorm(d, { eps, dtype }).call(x),
  y.sum().backward(), x.grad.data(), glass.scope(() => ...), glass.traceGraph(y)
  await glass.model.run(text, { eps: 1e-6, dtype: 'float32', backward: true })  -> { loss, snapshots, grads, ... }
                                                         the model in the page's worker, with the page's weights
  await glass.train.run({ text, config: { blocks, d, heads, ctx, norm, normKind, residual, eps, dtype }, steps, batch, lr, warmup, seed })
                                                         -> { losses, gradNorms, valLoss }; omitted fields: the Train view's defaults`;

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
  const base: Record<string | symbol, unknown> = { model, train, ready, help: () => HELP };
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
