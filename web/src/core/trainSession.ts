// The training facade: one run's model, text and trainer (cpp/wasm/train_bindings.cpp),
// the trainer `glassllm train` uses (AdamW, warmup + cosine, clipping, 5% held out).
//
//   const run = TrainSession.create(glass, config, options, text);   // or fromWeights(glass, bytes, options, text)
//   const r = run.step();            // one step: { step, loss, gradNorm, blockGradNorms, residRms, ... } or { diverged }
//   run.sample('And ', 80, 1);       // bytes sampled from the model as it is now
//   run.weights();                   // a .safetensors file with the config in its metadata
//   run.dispose();
//
// Everything returned is plain data, so only the session itself is a handle.
import { GlassError, guarded } from './errors';
import type { Glass } from './glass';
import type { RawHandle } from './raw';
import type { DTypeName, Disposable } from './types';

/** A model variant in the JS names (docs/model.md, "Variants"; protocol/train.ts ModelConfigInput). */
export interface TrainModelConfig {
  blocks: number;
  d: number;
  heads: number;
  ctx: number;
  norm: 'pre' | 'post' | 'none';
  normKind: 'rms' | 'layer';
  residual: boolean;
  eps: number;
  initScale: 'depth' | 'flat';
  dtype: DTypeName;
}

/** The trainer's options (the CLI's `glassllm train` flags). */
export interface TrainOptions {
  steps: number;
  batch: number;
  lr: number;
  warmup: number;
  clip: number;
  weightDecay: number;
  seed: number;
  /** Validation loss every N steps and at the end (0: only at the end). */
  evalEvery: number;
  /** Held-out windows each evaluation uses, from the start of the held-out part (0 or absent: all). */
  evalWindows?: number;
}

/** What blew up in a refused step; the run keeps the state before it. */
export interface Divergence {
  step: number;
  /** 'loss', or the parameter group whose gradient blew up nearest the loss ('head', 'blocks.7', ...). */
  what: string;
  message: string;
}

export interface TrainStepResult {
  step: number;
  total: number;
  loss: number;
  lr: number;
  /** Global L2 gradient norm before clipping. */
  gradNorm: number;
  /** Per block, over its parameters, before clipping. */
  blockGradNorms: number[];
  /** RMS of the residual stream over the batch: [embed, after block 0, ...]. */
  residRms: number[];
  /** This step's time in the core (forward, backward, update; not the evaluation). */
  seconds: number;
  valLoss: number | null;
  diverged: null;
}

export type TrainStepOutcome = TrainStepResult | { diverged: Divergence };

interface RawTrainSession extends RawHandle {
  step(): TrainStepOutcome;
  validationLoss(): number;
  sample(prompt: string, length: number, seed: number, temperature: number): Uint8Array;
  weights(): Uint8Array;
  checkpoint(): Uint8Array;
  restore(bytes: Uint8Array): void;
  config(): TrainModelConfig;
  depthNames(): string[];
  parameters(): number;
  trainBytes(): number;
  valBytes(): number;
  stepsDone(): number;
  totalSteps(): number;
}

interface RawTrainModule {
  TrainSession: {
    new (config: TrainModelConfig, options: TrainOptions, text: string): RawTrainSession;
    fromWeights(bytes: Uint8Array, options: TrainOptions, text: string): RawTrainSession;
  };
}

export class TrainSession implements Disposable {
  private handle: RawTrainSession | null;

  private constructor(raw: RawTrainSession) {
    this.handle = raw;
  }

  /** A fresh model from config, initialised from options.seed. Refuses bad settings and too short a text by name. */
  static create(glass: Glass, config: TrainModelConfig, options: TrainOptions, text: string): TrainSession {
    const raw = glass.raw as unknown as RawTrainModule;
    return new TrainSession(guarded(() => new raw.TrainSession(config, options, text)));
  }

  /** Fine-tuning: the weights of a safetensors file; the file's config wins. */
  static fromWeights(glass: Glass, bytes: Uint8Array, options: TrainOptions, text: string): TrainSession {
    const raw = glass.raw as unknown as RawTrainModule;
    return new TrainSession(guarded(() => raw.TrainSession.fromWeights(bytes, options, text)));
  }

  private get raw(): RawTrainSession {
    if (this.handle === null) throw new GlassError('this TrainSession was disposed');
    return this.handle;
  }

  /** One training step; a non-finite loss or gradient comes back as { diverged } with nothing changed. */
  step(): TrainStepOutcome {
    return guarded(() => this.raw.step());
  }
  /** Mean loss over the held-out windows, without recording a graph. */
  validationLoss(): number {
    return guarded(() => this.raw.validationLoss());
  }
  /** `length` bytes after `prompt`, sampled at `temperature` (0: most likely byte) with a generator seeded by `seed`. */
  sample(prompt: string, length: number, seed: number, temperature = 0.8): Uint8Array {
    return guarded(() => this.raw.sample(prompt, length, seed, temperature));
  }
  /** The weights as a safetensors file, config in its metadata. */
  weights(): Uint8Array {
    return guarded(() => this.raw.weights());
  }
  /** Weights, optimizer moments, step and sampler state: restore() continues exactly. */
  checkpoint(): Uint8Array {
    return guarded(() => this.raw.checkpoint());
  }
  /** Refuses another model's checkpoint (any config field), changing nothing. */
  restore(bytes: Uint8Array): void {
    guarded(() => this.raw.restore(bytes));
  }
  config(): TrainModelConfig {
    return guarded(() => this.raw.config());
  }
  /** The snapshot each residRms entry measures: 'embed', then the stream after each block as this variant names it. */
  depthNames(): string[] {
    return guarded(() => this.raw.depthNames());
  }
  get parameters(): number {
    return guarded(() => this.raw.parameters());
  }
  get trainBytes(): number {
    return guarded(() => this.raw.trainBytes());
  }
  get valBytes(): number {
    return guarded(() => this.raw.valBytes());
  }
  get stepsDone(): number {
    return guarded(() => this.raw.stepsDone());
  }
  get totalSteps(): number {
    return guarded(() => this.raw.totalSteps());
  }

  get isDisposed(): boolean {
    return this.handle === null;
  }

  dispose(): void {
    if (this.handle !== null) this.handle.delete();
    this.handle = null;
  }
}
