// The model facade: one loaded model and its last run (cpp/wasm/model_bindings.cpp).
//
//   const model = Model.create(glass);
//   model.loadWeights(bytes);                       // a safetensors file's bytes
//   const run = model.run('In the beginning', { eps: 1e-6, dtype: 'float32', backward: true });
//   run.loss; run.snapshots['blocks.0.resid.attn']; run.grads?.['embed'];
//   model.dispose();
//
// The inspector asks for one tensor at a time from the last run instead:
//   model.compute(text, options);                   // forward (+ backward), copies nothing out
//   model.snapshot('blocks.2.resid.attn', { grad: true });
//   model.rowRms('embed'); model.difference('blocks.0.norm.attn', 'blocks.0.resid.attn');
//
// Everything a run returns is plain data (typed-array copies), so only the
// Model itself is a handle to dispose.
import { GlassError, guarded } from './errors';
import type { Glass } from './glass';
import type { RawHandle } from './raw';
import type { DTypeName, Disposable } from './types';

/** A tensor as plain data, batch axis removed: shape (n, 128) for most snapshots. */
export interface NamedTensor {
  shape: number[];
  data: Float32Array | Float64Array;
}

export interface ParamGroup {
  kind: string;
  tensors: number;
  params: number;
}

/** The loaded model's configuration and parameter counts, counted by the core. */
export interface ModelInfo {
  vocab: number;
  context: number;
  d: number;
  blocks: number;
  heads: number;
  headDim: number;
  hidden: number;
  eps: number;
  ropeBase: number;
  dtype: DTypeName;
  parameterTable: ParamGroup[];
  parameters: number;
  norms: number;
  perBlock: number[];
}

export interface ModelRun {
  /** Mean next-byte cross-entropy (nats); null for a 1-byte text. */
  loss: number | null;
  /** The text's UTF-8 bytes. */
  ids: number[];
  /** DESIGN.md's snapshot names -> values. */
  snapshots: Record<string, NamedTensor>;
  /** Same names -> gradients of the loss (null without backward). */
  grads: Record<string, NamedTensor> | null;
  /** Parameter name -> L2 norm of its gradient (null without backward). */
  paramGradNorms: Record<string, number> | null;
}

export interface Prediction {
  byte: number;
  /** How the byte reads on screen ("␣", "\\n", "e", "\\xC3"). */
  label: string;
  prob: number;
}

export interface RunOptions {
  eps?: number;
  dtype?: DTypeName;
  /** Also run backward of the loss (default true). */
  backward?: boolean;
}

/** Which of a snapshot's two tensors: its value (default) or the loss's gradient with respect to it. */
export interface TensorPick {
  grad?: boolean;
}

interface RawModelSession extends RawHandle {
  loadWeights(bytes: Uint8Array): void;
  config(): ModelInfo;
  setEps(eps: number): void;
  setDtype(dtype: string): void;
  compute(text: string, backward: boolean): number | null;
  run(text: string, backward: boolean): ModelRun;
  snapshot(name: string, grad: boolean): NamedTensor;
  snapshotNames(): string[];
  paramGradNorms(): Record<string, number>;
  rowRms(name: string, grad: boolean): Float32Array | Float64Array;
  difference(a: string, b: string, grad: boolean): NamedTensor;
  tensorNorm(name: string, grad: boolean): number;
  param(name: string): NamedTensor;
  paramGrad(name: string): NamedTensor;
  topNext(k: number): Prediction[];
}

interface RawModelModule {
  ModelSession: new () => RawModelSession;
  displayByte(byte: number): string;
}

export class Model implements Disposable {
  private handle: RawModelSession | null;

  private constructor(
    raw: RawModelSession,
    private readonly module: RawModelModule,
  ) {
    this.handle = raw;
  }

  static create(glass: Glass): Model {
    const raw = glass.raw as unknown as RawModelModule;
    return new Model(guarded(() => new raw.ModelSession()), raw);
  }

  /** How a byte reads on screen, as the core labels it ("␣", "\\n", "e", "\\xC3"). */
  displayByte(byte: number): string {
    return guarded(() => this.module.displayByte(byte));
  }

  private get raw(): RawModelSession {
    if (this.handle === null) throw new GlassError('this Model was disposed');
    return this.handle;
  }

  /** Replaces the model with the weights in a safetensors file; a refused file changes nothing. */
  loadWeights(bytes: Uint8Array): ModelInfo {
    guarded(() => this.raw.loadWeights(bytes));
    return this.info();
  }
  info(): ModelInfo {
    return guarded(() => this.raw.config());
  }
  /** Forward (and backward unless backward: false) of the next-byte loss on `text`. */
  run(text: string, options: RunOptions = {}): ModelRun {
    const raw = this.raw;
    return guarded(() => {
      if (options.dtype !== undefined) raw.setDtype(options.dtype);
      if (options.eps !== undefined) raw.setEps(options.eps);
      return raw.run(text, options.backward ?? true);
    });
  }
  /** Like run, but keeps the result in the core and returns only the loss (null for 1 byte). */
  compute(text: string, options: RunOptions = {}): number | null {
    const raw = this.raw;
    return guarded(() => {
      if (options.dtype !== undefined) raw.setDtype(options.dtype);
      if (options.eps !== undefined) raw.setEps(options.eps);
      return raw.compute(text, options.backward ?? true);
    });
  }
  /** Snapshot names of the last run, in the order the model computed them. */
  snapshotNames(): string[] {
    return guarded(() => this.raw.snapshotNames());
  }
  /** Parameter name -> L2 norm of its gradient after the last backward (empty without backward). */
  paramGradNorms(): Record<string, number> {
    return guarded(() => this.raw.paramGradNorms());
  }
  /** One snapshot of the last run (or its gradient), batch axis removed. */
  snapshot(name: string, pick: TensorPick = {}): NamedTensor {
    return guarded(() => this.raw.snapshot(name, pick.grad ?? false));
  }
  /** Per-position RMS sqrt(mean(t², last axis)) of a snapshot (or its gradient): shape (n,). */
  rowRms(name: string, pick: TensorPick = {}): Float32Array | Float64Array {
    return guarded(() => this.raw.rowRms(name, pick.grad ?? false));
  }
  /** b − a, elementwise, of two snapshots of the same shape (or of their gradients). */
  difference(a: string, b: string, pick: TensorPick = {}): NamedTensor {
    return guarded(() => this.raw.difference(a, b, pick.grad ?? false));
  }
  /** The L2 norm of a snapshot (or of its gradient). */
  tensorNorm(name: string, pick: TensorPick = {}): number {
    return guarded(() => this.raw.tensorNorm(name, pick.grad ?? false));
  }
  /** A parameter's values (DESIGN.md name, e.g. "tok_emb.weight"), in the model's dtype. */
  param(name: string): NamedTensor {
    return guarded(() => this.raw.param(name));
  }
  paramGrad(name: string): NamedTensor {
    return guarded(() => this.raw.paramGrad(name));
  }
  /** The k most likely next bytes after the last run, with probabilities. */
  topNext(k = 5): Prediction[] {
    return guarded(() => this.raw.topNext(k));
  }

  get isDisposed(): boolean {
    return this.handle === null;
  }
  dispose(): void {
    if (this.handle === null) return;
    this.handle.delete();
    this.handle = null;
  }
}
