// The typed entry point to the wasm core.
//
//   const glass = await loadGlass();            // in Node: loadGlass({ wasmBinary })
//   const [a, diff] = glass.scope(() => {
//     const norm = glass.rmsnorm(2, { eps: 1e-6, dtype: 'float64' });
//     const a = norm.call(glass.tensor([[3, 4]], { dtype: 'float64' }));
//     const b = norm.call(glass.tensor([[6, 8]], { dtype: 'float64' }));
//     return [a.data(), b.sub(a).data()];      // plain arrays: every handle is freed
//   });
//
// Ownership of handles is described in scope.ts: use glass.scope(); anything
// created outside a scope must be disposed by the caller.
import type { GlassCoreOptions } from './wasm/glass_core.js';
import { bestBuild, type WasmBuild } from './wasmBuild';
import { canShareMemory, hardwareThreads, loadThreadedCore, threadsPayOff } from './threadedBuild';
import { checkArg, checkArgs, checkHandle, checkOptional, checkOptions, describeValue } from './args';
import type { Context } from './context';
import { TrackedHandle } from './handle';
import { flatten } from './data';
import { GlassError, guarded } from './errors';
import { RMSNorm } from './nn';
import { GlassOps } from './opMethods.gen';
import type { RawGenerator, RawGraphNode, RawModule } from './raw';
import { HandleTracker } from './scope';
import { Tensor } from './tensor';
import type { DTypeName, TensorData } from './types';

export interface LoadOptions {
  /** Which build (wasmBuild.ts); by default the fastest this engine validates. */
  build?: WasmBuild;
  /** The .wasm bytes of that build. Needed in Node (Vitest); in the browser the glue fetches them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: GlassCoreOptions['locateFile'];
  /** That build's glue, already imported: for a worker that cannot import a chunk (the code-cell sandbox, started from a blob: URL). */
  createCore?: (options: GlassCoreOptions) => Promise<RawModule>;
  /**
   * The threaded build (threadedBuild.ts), whose kernels share the work among
   * Web Workers. By default in a worker wherever memory can be shared (a
   * cross-origin isolated page); never with `createCore`.
   */
  threaded?: boolean;
  /** Threads to compute on, the calling one included (threaded build; default: the machine's cores). */
  threads?: number;
}

/** A node of the recorded graph (raw.ts documents the fields), with facade tensors. */
export interface GraphNode extends Omit<RawGraphNode, 'value' | 'grad'> {
  /** The tensor itself, or null if it no longer exists. A new handle. */
  value: Tensor | null;
  /** Its gradient after backward (leaves, or retainGrads), else null. A new handle. */
  grad: Tensor | null;
}

/** A seeded random stream: the same seed gives the same numbers natively and in wasm. */
export class Generator extends TrackedHandle<RawGenerator> {
  constructor(ctx: Context, raw: RawGenerator) {
    super(ctx, raw, 'Generator');
  }
  get raw(): RawGenerator {
    return this.live;
  }
}

export interface RandomOptions {
  dtype?: DTypeName;
  /** Seed of a fresh generator (default 0), unless `generator` is given. */
  seed?: number;
  /** Continue an existing stream instead. */
  generator?: Generator;
}

/**
 * The core's entry point. The table's plain functions (glass.concat, glass.where,
 * glass.crossEntropy, the fused kernels, ...) come from GlassOps (opMethods.gen.ts);
 * construction, autograd, scopes and the ops below are written here.
 */
export class Glass extends GlassOps<Tensor> {
  protected readonly ctx: Context;

  /**
   * @param build which build of the core `raw` is (wasmBuild.ts)
   * @param threaded whether it is the threaded one (threadedBuild.ts)
   */
  constructor(
    raw: RawModule,
    readonly build: WasmBuild = 'simd128',
    readonly threaded = false,
  ) {
    super();
    this.ctx = { raw, tracker: new HandleTracker() };
  }

  /** The raw Embind module (handles must be freed by hand). */
  get raw(): RawModule {
    return this.ctx.raw;
  }

  // ---- ownership ----
  /** Runs fn; disposes every handle created inside except those in its result. */
  scope<R>(fn: () => R): R {
    if (typeof fn !== 'function') throw new GlassError(`scope: expected a function, got ${describeValue(fn)}`);
    return this.ctx.tracker.scope(fn);
  }
  /** Takes handles out of every scope: the caller disposes them. */
  keep<V>(value: V): V {
    return this.ctx.tracker.keep(value);
  }
  /** Number of facade handles (Tensor, RMSNorm, Generator) not yet disposed. */
  liveHandles(): number {
    return this.ctx.tracker.liveCount;
  }

  // ---- construction ----
  /**
   * A tensor from a number, nested arrays ([[3, 4]] has shape [1, 2]) or a
   * typed array (1-d unless `shape` is given). dtype defaults to float64 for a
   * Float64Array and float32 otherwise.
   */
  tensor(data: TensorData, options: { shape?: readonly number[]; dtype?: DTypeName; requiresGrad?: boolean } = {}): Tensor {
    checkOptions('tensor options', options);
    checkOptional('shape', 'tensor shape', options.shape);
    checkOptional('dtype', 'tensor dtype', options.dtype);
    checkOptional('boolean', 'tensor requiresGrad', options.requiresGrad);
    const flat = flatten(data, options.shape, options.dtype);
    const t = this.wrap(() => this.ctx.raw.fromArray(flat.values, flat.shape, flat.dtype));
    if (options.requiresGrad) t.requiresGrad = true;
    return t;
  }
  scalar(value: number, dtype: DTypeName = 'float32'): Tensor {
    checkArgs('scalar', [['value', 'number', value], ['dtype', 'dtype', dtype]]);
    return this.wrap(() => this.ctx.raw.scalar(value, dtype));
  }
  zeros(shape: readonly number[], dtype: DTypeName = 'float32'): Tensor {
    checkArgs('zeros', [['shape', 'shape', shape], ['dtype', 'dtype', dtype]]);
    return this.wrap(() => this.ctx.raw.zeros(shape, dtype));
  }
  ones(shape: readonly number[], dtype: DTypeName = 'float32'): Tensor {
    checkArgs('ones', [['shape', 'shape', shape], ['dtype', 'dtype', dtype]]);
    return this.wrap(() => this.ctx.raw.ones(shape, dtype));
  }
  full(shape: readonly number[], value: number, dtype: DTypeName = 'float32'): Tensor {
    checkArgs('full', [['shape', 'shape', shape], ['value', 'number', value], ['dtype', 'dtype', dtype]]);
    return this.wrap(() => this.ctx.raw.full(shape, value, dtype));
  }
  generator(seed = 0): Generator {
    checkArg('int64', 'generator seed', seed);
    return new Generator(this.ctx, guarded(() => new this.ctx.raw.Generator(seed)));
  }
  randn(shape: readonly number[], options: RandomOptions = {}): Tensor {
    checkArg('shape', 'randn shape', shape);
    this.checkRandom('randn', options);
    return this.withGenerator(options, (gen) => this.ctx.raw.randn(shape, gen, options.dtype ?? 'float32'));
  }
  uniform(shape: readonly number[], low: number, high: number, options: RandomOptions = {}): Tensor {
    checkArgs('uniform', [['shape', 'shape', shape], ['low', 'number', low], ['high', 'number', high]]);
    this.checkRandom('uniform', options);
    return this.withGenerator(options, (gen) => this.ctx.raw.uniform(shape, low, high, gen, options.dtype ?? 'float32'));
  }

  // ---- ops with several tensor inputs (the rest are Tensor methods), by hand ----
  add(a: Tensor, b: Tensor | number): Tensor {
    return a.add(b);
  }
  sub(a: Tensor, b: Tensor | number): Tensor {
    return a.sub(b);
  }
  mul(a: Tensor, b: Tensor | number): Tensor {
    return a.mul(b);
  }
  div(a: Tensor, b: Tensor | number): Tensor {
    return a.div(b);
  }
  matmul(a: Tensor, b: Tensor): Tensor {
    return a.matmul(b);
  }
  /** Rows of weight (V, D) picked by ids (shape idsShape, default [ids.length]). */
  embedding(weight: Tensor, ids: ArrayLike<number>, idsShape?: readonly number[]): Tensor {
    checkArgs('embedding', [['weight', 'tensor', weight], ['ids', 'ids', ids]]);
    checkOptional('shape', 'embedding idsShape', idsShape);
    const shape = idsShape ?? [ids.length];
    const w = weight.raw;
    return this.wrap(() => this.ctx.raw.embedding(w, ids, shape));
  }
  oneHot(ids: ArrayLike<number>, classes: number, options: { shape?: readonly number[]; dtype?: DTypeName } = {}): Tensor {
    checkArgs('oneHot', [['ids', 'ids', ids], ['classes', 'int64', classes]]);
    checkOptions('oneHot options', options);
    checkOptional('shape', 'oneHot shape', options.shape);
    checkOptional('dtype', 'oneHot dtype', options.dtype);
    return this.wrap(() => this.ctx.raw.oneHot(ids, options.shape ?? [ids.length], classes, options.dtype ?? 'float32'));
  }

  // ---- autograd ----
  /** Runs fn with graph recording off (nests; restored even if fn throws). */
  noGrad<R>(fn: () => R): R {
    if (typeof fn !== 'function') throw new GlassError(`noGrad: expected a function, got ${describeValue(fn)}`);
    const guard = guarded(() => new this.ctx.raw.NoGradGuard());
    try {
      return fn();
    } finally {
      guard.delete();
    }
  }
  gradEnabled(): boolean {
    return this.ctx.raw.gradEnabled();
  }
  /** Every tensor `root` depends on, inputs before users, root last. */
  traceGraph(root: Tensor): GraphNode[] {
    checkHandle('traceGraph root', root);
    const r = root.raw;
    const nodes = guarded(() => this.ctx.raw.traceGraph(r));
    return nodes.map((n) => ({
      ...n,
      value: n.value === null ? null : new Tensor(this.ctx, n.value),
      grad: n.grad === null ? null : new Tensor(this.ctx, n.grad),
    }));
  }

  // ---- nn ----
  rmsnorm(d: number, options: { eps?: number; dtype?: DTypeName } = {}): RMSNorm {
    checkArg('int64', 'rmsnorm d', d);
    checkOptions('rmsnorm options', options);
    checkOptional('number', 'rmsnorm eps', options.eps);
    checkOptional('dtype', 'rmsnorm dtype', options.dtype);
    const raw = guarded(() => new this.ctx.raw.RMSNorm(d, options.eps ?? 1e-6, options.dtype ?? 'float32'));
    return new RMSNorm(this.ctx, raw);
  }

  /**
   * The core's LayerNorm (nn::LayerNorm, the "layer" variant's norm) over x's last
   * axis with a fresh gamma = 1 and beta = 0: x - mean, divided by sqrt(variance + eps),
   * times gamma, plus beta. Recorded like any op chain, so traceGraph shows its steps.
   */
  layernorm(x: Tensor, options: { eps?: number } = {}): Tensor {
    checkHandle('layernorm x', x);
    checkOptions('layernorm options', options);
    checkOptional('number', 'layernorm eps', options.eps);
    const xr = x.raw;
    return this.wrap(() => this.ctx.raw.layernormOf(xr, options.eps ?? 1e-6));
  }

  // ---- threads ----
  /** Threads the kernels compute on, the calling one included. */
  threads(): number {
    return this.ctx.raw.threads();
  }
  /** The most setThreads accepts: 1 in the single-threaded build, else the Web Workers the core started with, plus one. */
  maxThreads(): number {
    return this.ctx.raw.maxThreads();
  }
  /** Computes on n threads from now on; every count gives the same bits (cpp/glass/tensor/thread_pool.h). */
  setThreads(n: number): void {
    checkArg('number', 'setThreads n', n);
    const max = this.maxThreads();
    if (!Number.isInteger(n) || n < 1 || n > max) {
      const why = this.threaded
        ? `this core started ${max - 1} Web Worker${max === 2 ? '' : 's'} beside its own thread`
        : canShareMemory()
          ? "this is the single-threaded build of the core: a core on the page's own thread may not wait for other threads (the core worker and the trainer workers use them)"
          : 'this is the single-threaded build of the core: the page is not cross-origin isolated, so it cannot share memory with workers';
      throw new GlassError(`setThreads: the thread count must be a whole number from 1 to ${max}; ${why}; got ${describeValue(n)}`);
    }
    guarded(() => this.ctx.raw.setThreads(n));
  }

  // ---- testing ----
  /**
   * Executes a wasm trap (WebAssembly.RuntimeError "unreachable"), the way a
   * core bug would. The module is unusable afterwards: only for testing that a
   * host (the app's worker) recovers from a dead core.
   */
  debugTrap(): never {
    this.ctx.raw.debugTrap();
    throw new GlassError('debugTrap: the core did not trap');
  }

  protected wrap(call: () => ReturnType<RawModule['zeros']>): Tensor {
    return new Tensor(this.ctx, guarded(call));
  }

  private checkRandom(op: string, options: RandomOptions): void {
    checkOptions(`${op} options`, options);
    checkOptional('dtype', `${op} dtype`, options.dtype);
    checkOptional('int64', `${op} seed`, options.seed);
    if (options.generator !== undefined) checkHandle(`${op} generator`, options.generator, 'Generator');
  }

  private withGenerator(options: RandomOptions, call: (gen: RawGenerator) => ReturnType<RawModule['zeros']>): Tensor {
    if (options.generator) {
      const gen = options.generator.raw;
      return this.wrap(() => call(gen));
    }
    const gen = guarded(() => new this.ctx.raw.Generator(options.seed ?? 0));
    try {
      return this.wrap(() => call(gen));
    } finally {
      gen.delete();
    }
  }
}

/** Loads the wasm core and returns the typed API. */
export async function loadGlass(options: LoadOptions = {}): Promise<Glass> {
  const coreOptions: GlassCoreOptions = {};
  if (options.wasmBinary !== undefined) coreOptions.wasmBinary = options.wasmBinary;
  if (options.locateFile !== undefined) coreOptions.locateFile = options.locateFile;
  const build = options.build ?? bestBuild();
  if (options.threads !== undefined && (!Number.isInteger(options.threads) || options.threads < 1))
    throw new GlassError(`loadGlass: threads must be a whole number of at least 1, got ${describeValue(options.threads)}`);
  const threaded = options.createCore === undefined && (options.threaded ?? threadsPayOff());
  if (threaded) {
    const threads = options.threads ?? hardwareThreads();
    const glass = new Glass(await loadThreadedCore(build, threads, coreOptions), build, true);
    glass.setThreads(Math.min(threads, glass.maxThreads()));
    return glass;
  }
  // one glue per build; only the chosen one (and its .wasm) is fetched
  const createGlassCore =
    options.createCore ?? (build === 'relaxed-fma' ? await import('./wasm/glass_core_fma.js') : await import('./wasm/glass_core.js')).default;
  const raw = await createGlassCore(coreOptions);
  return new Glass(raw, build);
}
