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
import type { GradientCheck, Intervention, InterventionReport, ResidualLedger } from '../core/interp';
import type { ModelInfo, ModelRun } from '../core/model';
import { checkArg, checkOptional, checkOptions } from '../core/args';
import { checkRun } from '../core/model';
import type { HeadsResult, LensResult } from '../protocol/interp';
import type { NextByteResult, SampleResult } from '../protocol/lessons/generation';
import type { Kind, RequestOf, ResponseOf } from '../protocol/api';
import type { DTypeName } from '../core/types';
import { CONTEXT_BYTES, DEFAULT_MODEL_EPS } from './inspectorSettings';
import { ensureWeights, weights } from './inspectorState';
import { core } from './core';
import { consoleTrainRun, type ConsoleTrainOptions, type ConsoleTrainResult } from './consoleTrain';

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
  /**
   * `length` bytes (default 80, at most 400) sampled after `prompt` by the core's seeded sampler (the one
   * `glassllm generate` runs): temperature 0 is greedy; topK keeps the k likeliest bytes (0: all).
   * -> { text, sampleText, sample: [{ byte, label }], ... }; the same settings and seed give the same bytes.
   */
  generate(prompt: string, options?: ConsoleSampleOptions & { length?: number }): Promise<SampleResult>;
  /** One sampling step after `prompt`: the 256 probabilities drawn from (after temperature and top-k), the draw u and the byte. */
  nextByte(prompt: string, options?: ConsoleSampleOptions): Promise<NextByteResult>;
  /** Configuration and parameter counts of the loaded weights. */
  info(): Promise<ModelInfo>;
  /**
   * Benchmark: ms of each of `repeat` runs in the worker (nothing copied out; 10
   * warm-up runs first). It runs in chunks of a few runs, so `onProgress(done, total)`
   * is called between them and `signal` (an AbortSignal) cancels it between them.
   */
  bench(text: string, options?: BenchOptions): Promise<number[]>;
}

export interface ConsoleSampleOptions {
  temperature?: number;
  topK?: number;
  seed?: number;
}

/** The sampling settings' kinds, checked before any request (their ranges are the worker's to check). */
function sampling(op: string, prompt: unknown, o: (ConsoleSampleOptions & { length?: number }) | undefined) {
  checkArg('string', `glass.model.${op} prompt`, prompt);
  checkOptions(`glass.model.${op} options`, o);
  checkOptional('number', `glass.model.${op} temperature`, o?.temperature);
  checkOptional('int64', `glass.model.${op} topK`, o?.topK);
  checkOptional('int64', `glass.model.${op} seed`, o?.seed);
  checkOptional('int64', `glass.model.${op} length`, o?.length);
  return { text: prompt as string, temperature: o?.temperature ?? 1, topK: o?.topK ?? 0, seed: o?.seed ?? 1 };
}

export interface BenchOptions {
  eps?: number;
  dtype?: DTypeName;
  backward?: boolean;
  repeat?: number;
  /** Threads for these runs only (up to the threads the page's core worker started with); its setting if absent. */
  threads?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

class ConsoleError extends Error {
  override name = 'GlassError';
}

/** glass.model.bench's bounds: at most this many timed runs, in chunks of BENCH_CHUNK. */
export const BENCH_MAX_REPEAT = 1000;
const BENCH_CHUNK = 5;
const BENCH_WARM_UP = 10;
let benchCalls = 0;

/** Checks glass.model.bench's arguments; the message says what was expected. */
export function benchProblem(text: unknown, repeat: unknown): string | null {
  if (typeof text !== 'string' || text === '') return `glass.model.bench(text, options): text must be a non-empty string, got ${typeof text === 'string' ? 'an empty one' : typeof text}`;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > CONTEXT_BYTES) return `glass.model.bench: the text is ${bytes} bytes; the model reads at most ${CONTEXT_BYTES}`;
  if (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 1 || repeat > BENCH_MAX_REPEAT)
    return `glass.model.bench repeat: expected a whole number from 1 to ${BENCH_MAX_REPEAT}, got ${typeof repeat === 'number' ? repeat : typeof repeat}`;
  return null;
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

// The run every request names; the text's and options' kinds are checked first, before any request.
function settings(op: string, text: string, options: RunOptions) {
  checkRun(`glass.model.${op}`, text, options);
  return { text, eps: options.eps ?? DEFAULT_MODEL_EPS, dtype: options.dtype ?? ('float32' as const) };
}

/** glass.model (exported for tests: its argument checks run before any request). */
export const consoleModel: ConsoleModel = {
  async run(text, options = {}) {
    return ask('modelRun', {
      ...settings('run', text, options),
      backward: options.backward ?? true,
      patterns: options.patterns ?? false,
      interventions: options.interventions ?? [],
    });
  },
  async lens(text, options = {}) {
    return ask('interpLens', { run: settings('lens', text, options), interventions: options.interventions ?? [], k: options.k, logits: options.logits });
  },
  async ledger(text, options = {}) {
    return ask('interpLedger', { run: settings('ledger', text, options), interventions: options.interventions ?? [] });
  },
  async heads(text, options = {}) {
    return ask('interpHeads', { run: settings('heads', text, options), interventions: options.interventions ?? [] });
  },
  async intervene(text, interventions, options = {}) {
    return ask('interpIntervene', { run: settings('intervene', text, options), interventions });
  },
  async gradCheck(text, target, index, options = {}) {
    const run = settings('gradCheck', text, options);
    checkArg('string', 'glass.model.gradCheck target', target);
    checkArg('int64', 'glass.model.gradCheck index', index);
    return ask('interpGradCheck', {
      run,
      interventions: options.interventions ?? [],
      target,
      index,
      delta: options.delta,
    });
  },
  async bench(text, options = {}) {
    checkRun('glass.model.bench', text, options);
    checkOptional('int64', 'glass.model.bench repeat', options.repeat); // a wrong kind is a GlassError like every argument's
    checkOptional('int64', 'glass.model.bench threads', options.threads); // its range is the core worker's to check
    const repeat = options.repeat ?? 20;
    const problem = benchProblem(text, repeat);
    if (problem !== null) throw new ConsoleError(problem);
    if (!(await ensureWeights())) throw new ConsoleError('the weights are not loaded');
    const run = { text, eps: options.eps ?? DEFAULT_MODEL_EPS, dtype: options.dtype ?? 'float32', backward: options.backward ?? true };
    const channel = `console-bench-${++benchCalls}`; // concurrent calls do not supersede each other
    const times: number[] = [];
    while (times.length < repeat) {
      if (options.signal?.aborted) throw new ConsoleError(`glass.model.bench: cancelled after ${times.length} of ${repeat} runs`);
      const n = Math.min(BENCH_CHUNK, repeat - times.length);
      const chunk = { ...run, repeat: n, warmUp: times.length === 0 ? BENCH_WARM_UP : 0, ...(options.threads === undefined ? {} : { threads: options.threads }) };
      const o = await core().request('benchChunk', chunk, { channel });
      if (o.status !== 'ok') throw new ConsoleError(o.status === 'error' ? o.error.message : 'superseded by a newer call');
      times.push(...o.value);
      options.onProgress?.(times.length, repeat);
    }
    return times;
  },
  async generate(prompt, options = {}) {
    const run = sampling('generate', prompt, options);
    return ask('generationSample', { ...run, length: options.length ?? 80 });
  },
  async nextByte(prompt, options = {}) {
    return ask('generationNext', sampling('nextByte', prompt, options));
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
                                                         -> { losses, gradNorms, valLoss }; omitted fields: the Train view's defaults
  await glass.model.bench(text, { repeat: 20, backward: true, threads, onProgress: (done, total) => ..., signal })
                                                         ms per run (at most 1000 runs; an AbortSignal cancels it;
                                                         threads: for these runs only, the page's setting if absent)
  await glass.model.run(text, { patterns: true })        adds blocks.{i}.attn.pattern, (heads, n, n)
  await glass.model.run(text, { interventions: [{ zero: 'blocks.2.ffn' }, { scale: 'blocks.0.attn', by: 0.5 },
      { ablateHead: { block: 1, head: 2 } }, { eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } },
      { identityNorm: 'norm_final' }, { unitGamma: 'blocks.0.norm_attn' }] })   -> .intervention: before/after, changes
  await glass.model.lens(text), glass.model.ledger(text), glass.model.heads(text)
  await glass.model.generate('And God said, ', { length: 80, temperature: 0.8, topK: 0, seed: 1 })   -> { text, sampleText, ... }
                                                         seeded: the same settings give the same bytes; temperature 0 is greedy
  await glass.model.nextByte('And God said, ', { temperature: 1, topK: 5, seed: 1 })   -> { probs, top, u, chosen, bits }
  await glass.model.intervene(text, [{ ablateHead: { block: 1, head: 2 } }])
  await glass.model.gradCheck(text, 'blocks.0.resid.attn', 5, { delta: { float32: 1e-3, float64: 1e-6 } })`;

/** A trap leaves a wasm instance unusable (docs/architecture.md): the console's copy is replaced, never reused. */
class MainCore {
  glass: Glass | null = null;
  /** Bumped at each replacement: objects made by an older copy refuse to be used. */
  generation = 0;
  ready: Promise<Glass>;
  private readonly proxies = new WeakMap<object, object>();
  private readonly targets = new WeakMap<object, object>();

  constructor() {
    this.ready = this.load(true);
  }

  private load(whenIdle: boolean): Promise<Glass> {
    const generation = this.generation;
    const ready = new Promise<Glass>((resolve, reject) => {
      const load = () =>
        import('../core')
          .then((m) => m.loadGlass())
          .then((g) => {
            if (generation === this.generation) this.glass = g;
            resolve(g);
          }, reject);
      if (!whenIdle) void load();
      else if ('requestIdleCallback' in globalThis) requestIdleCallback(() => void load(), { timeout: 3000 });
      else setTimeout(() => void load(), 1000);
    });
    ready.catch(() => {}); // reported when someone awaits it
    return ready;
  }

  /** Runs a call into the core; a trap replaces the copy and says so. */
  call<R>(generation: number, fn: () => R): R {
    if (generation !== this.generation)
      throw new ConsoleError('this object was made by a copy of the core that stopped after a crash; make it again (await glass.ready first)');
    try {
      return this.wrap(fn(), generation) as R;
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      this.generation += 1;
      this.glass = null;
      this.ready = this.load(false);
      throw new ConsoleError(`the core on this thread crashed (RuntimeError: ${e.message}) and is being replaced by a fresh copy: tensors made before are gone; await glass.ready, then start again`);
    }
  }

  /**
   * Objects the core made (tensors, norms, the Glass itself) are handed out
   * behind a proxy whose methods go through call(): a trap inside x.sum() is
   * caught like one inside glass.tensor(). Plain data (numbers, arrays of
   * numbers, typed arrays) is handed out as it is.
   */
  wrap(value: unknown, generation: number): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.some(isInstance) ? value.map((v) => this.wrap(v, generation)) : value;
    if (isPlainObject(value))
      return Object.values(value).some(isInstance) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.wrap(v, generation)])) : value;
    if (!isInstance(value)) return value;
    const known = this.proxies.get(value);
    if (known !== undefined) return known;
    const proxy = new Proxy(value, {
      get: (target, key) => {
        const v = Reflect.get(target, key, target);
        if (typeof v !== 'function') return this.wrap(v, generation);
        return (...args: unknown[]) => this.call(generation, () => (v as (...a: unknown[]) => unknown).apply(target, args.map((a) => this.unwrap(a, generation))));
      },
    });
    this.proxies.set(value, proxy);
    this.targets.set(proxy, value);
    return proxy;
  }

  /** What the core gets back: its own objects, and callbacks (glass.scope(fn)) that return its own objects. */
  private unwrap(value: unknown, generation: number): unknown {
    if (typeof value === 'function')
      return (...args: unknown[]) => this.unwrap((value as (...a: unknown[]) => unknown)(...args.map((a) => this.wrap(a, generation))), generation);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((v) => this.unwrap(v, generation));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.unwrap(v, generation)]));
    return this.targets.get(value) ?? value;
  }
}

const isPlainObject = (v: object): boolean => Object.getPrototypeOf(v) === Object.prototype;

/** A class instance of the facade (not plain data: objects, arrays, typed arrays, buffers, promises). */
function isInstance(v: unknown): v is object {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Promise || v instanceof Error) return false;
  const proto = Object.getPrototypeOf(v);
  return proto !== null && proto !== Object.prototype && proto !== Array.prototype;
}

/** Installs window.glass; the main-thread core loads when the page is idle (or on first use of glass.ready). */
export function installConsoleApi(): void {
  const main = new MainCore();
  const base: Record<string | symbol, unknown> = { model: consoleModel, train, help: () => HELP };
  const api = new Proxy(base, {
    get(target, key) {
      if (key === 'ready') return main.ready;
      if (key in target) return target[key];
      const g = main.glass;
      if (g !== null && key in g) return (main.wrap(g, main.generation) as Record<string | symbol, unknown>)[key];
      return undefined;
    },
    has: (target, key) => key === 'ready' || key in target || (main.glass !== null && key in main.glass),
  });
  (globalThis as { glass?: unknown }).glass = api;
}
