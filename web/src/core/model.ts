// The model facade: one loaded model and its last run (cpp/wasm/model_bindings.cpp).
//
//   const model = Model.create(glass);
//   model.loadWeights(bytes);                       // a safetensors file's bytes
//   const run = model.run('In the beginning', { eps: 1e-6, dtype: 'float32', backward: true });
//   run.loss; run.snapshots['blocks.0.resid.attn']; run.grads?.['embed'];
//   model.dispose();
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
  /** How the byte reads on screen ("␠", "\\n", "e", "\\xC3"). */
  label: string;
  prob: number;
}

export interface RunOptions {
  eps?: number;
  dtype?: DTypeName;
  /** Also run backward of the loss (default true). */
  backward?: boolean;
}

interface RawModelSession extends RawHandle {
  loadWeights(bytes: Uint8Array): void;
  config(): ModelInfo;
  setEps(eps: number): void;
  setDtype(dtype: string): void;
  run(text: string, backward: boolean): ModelRun;
  paramGrad(name: string): NamedTensor;
  topNext(k: number): Prediction[];
}

interface RawModelModule {
  ModelSession: new () => RawModelSession;
  displayByte(byte: number): string;
}

export class Model implements Disposable {
  private handle: RawModelSession | null;

  private constructor(raw: RawModelSession) {
    this.handle = raw;
  }

  static create(glass: Glass): Model {
    const raw = glass.raw as unknown as RawModelModule;
    return new Model(guarded(() => new raw.ModelSession()));
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
