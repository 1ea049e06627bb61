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
// A block's parts, computed by the model's own code (Attention::parts and
// SwiGLU::parts, the functions its forward pass runs), on the last run:
//   model.attentionParts(2); model.swigluParts(0); model.rope(x, 7);
//
// Everything a run returns is plain data (typed-array copies), so only the
// Model itself is a handle to dispose.
import { checkArg, checkOptional, checkOptions } from './args';
import { GlassError, guarded } from './errors';
import type { Glass } from './glass';
import {
  interventionText,
  type AttentionSummary,
  type GradientCheck,
  type InterpOptions,
  type InterventionReport,
  type LogitLens,
  type ResidualLedger,
} from './interp';
import type { RawHandle, RawTensor } from './raw';
import type { Tensor } from './tensor';
import type { DTypeName, Disposable, Prediction } from './types';

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
  /** Where the norms sit: 'pre' (today's model), 'post' or 'none' (docs/model.md, "Variants"). */
  norm: 'pre' | 'post' | 'none';
  normKind: 'rms' | 'layer';
  residual: boolean;
  initScale: 'depth' | 'flat';
  parameterTable: ParamGroup[];
  parameters: number;
  norms: number;
  perBlock: number[];
  /** Parameters holding NaN or infinity (docs/model.md, "Weights files": such a file loads, with this warning); empty if none. */
  nonFinite: { name: string; count: number; numel: number }[];
  /** The core's one-line warning naming them, or '' when every parameter is finite. */
  warning: string;
}

export interface ModelRun {
  /** Mean next-byte cross-entropy (nats); null for a 1-byte text. */
  loss: number | null;
  /** The text's UTF-8 bytes. */
  ids: number[];
  /** The snapshot names of docs/model.md -> values. */
  snapshots: Record<string, NamedTensor>;
  /** Same names -> gradients of the loss (null without backward). */
  grads: Record<string, NamedTensor> | null;
  /** Parameter name -> L2 norm of its gradient (null without backward). */
  paramGradNorms: Record<string, number> | null;
  /** With interventions (glass.model.run(text, { interventions })): what they changed. */
  intervention?: InterventionReport;
}

export type { Prediction } from './types';

/** A freshly initialised model's stream on a text (Model.freshStream). */
export interface FreshStream {
  stream: { name: string; rms: number }[];
  outStd: number;
}

export interface RunOptions {
  eps?: number;
  dtype?: DTypeName;
  /** Also run backward of the loss (default true). */
  backward?: boolean;
}

/** One attention layer's intermediates, from the model's own code (batch axis removed; h heads, n positions, k = headDim). */
export interface AttentionParts {
  q: NamedTensor; // (h, n, k) RoPE applied
  k: NamedTensor; // (h, n, k) RoPE applied
  v: NamedTensor; // (h, n, k)
  scores: NamedTensor; // (h, n, n) q·k/√k on and below the diagonal, 0 above (never computed)
  weights: NamedTensor; // (h, n, n) softmax rows, exactly 0 above the diagonal
  heads: NamedTensor; // (h, n, k) each head's output
  out: NamedTensor; // (n, d) the layer's output: the blocks.i.attn snapshot
}

/** One feed-forward branch's intermediates (batch axis removed; H hidden units). */
export interface SwigluParts {
  gate: NamedTensor; // (n, H) x W_gateᵀ
  up: NamedTensor; // (n, H) x W_upᵀ
  act: NamedTensor; // (n, H) silu(gate)
  hidden: NamedTensor; // (n, H) silu(gate) ⊙ up
  out: NamedTensor; // (n, d) the branch's output: the blocks.i.ffn snapshot
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
  attentionParts(block: number): AttentionParts;
  swigluParts(block: number): SwigluParts;
  rope(x: RawTensor, offset: number): RawTensor;
}

interface RawModelModule {
  ModelSession: new () => RawModelSession;
  displayByte(byte: number): string;
  // cpp/wasm/interp_bindings.cpp: free functions on the session
  interpCompute(s: RawModelSession, text: string, backward: boolean, patterns: boolean, interventions: string[]): number | null;
  interpReport(s: RawModelSession, k: number): Omit<InterventionReport, 'interventions'>;
  interpLens(s: RawModelSession, k: number, withLogits: boolean): LogitLens;
  interpLedger(s: RawModelSession): ResidualLedger;
  interpHeads(s: RawModelSession): AttentionSummary;
  interpPattern(s: RawModelSession, block: number): NamedTensor;
  interpGradCheck(s: RawModelSession, target: string, index: number, delta32: number, delta64: number): GradientCheck;
  interpCheck(s: RawModelSession, interventions: string[]): string[];
  // cpp/wasm/norm_lesson_bindings.cpp
  freshWeightsLike(s: RawModelSession, initScale: string, seed: number): Uint8Array;
  freshStream(s: RawModelSession, initScale: string, seed: number, text: string): FreshStream;
  // cpp/wasm/generation_bindings.cpp: texts as byte arrays; initSeed < 0 is the loaded weights
  generateStep(s: RawModelSession, ids: number[], temperature: number, topK: number, seed: number, initSeed: number): GenerationStep;
  generateSample(s: RawModelSession, ids: number[], length: number, temperature: number, topK: number, seed: number, initSeed: number): number[];
  generateLoss(s: RawModelSession, ids: number[], initSeed: number): number;
}

/**
 * How a byte is chosen (glass/train/sample.h): softmax(logits / temperature)
 * over the topK likeliest bytes (0 or 256: all), one draw from a generator
 * seeded with `seed`. Temperature 0 is greedy: the largest logit, the lowest
 * byte on a tie, nothing drawn. `initSeed` samples from a freshly initialised
 * model of the same config instead of the loaded weights.
 */
export interface SampleSettings {
  temperature?: number;
  topK?: number;
  seed?: number;
  initSeed?: number;
}

/** One step of sampling, everything it used. */
export interface GenerationStep {
  /** The model's score for each of the 256 next bytes. */
  logits: Float64Array;
  /** The distribution the byte was drawn from (after temperature and top-k): 0 outside the top k. */
  probs: Float64Array;
  /** The uniform draw in [0, 1) that picked the byte along the cumulative probabilities; null when greedy. */
  u: number | null;
  byte: number;
}

function checkSample(op: string, bytes: unknown, o: SampleSettings | undefined): void {
  checkArg('ids', `${op} bytes`, bytes);
  checkOptions(`${op} options`, o);
  checkOptional('number', `${op} temperature`, o?.temperature);
  checkOptional('int64', `${op} topK`, o?.topK);
  checkOptional('int64', `${op} seed`, o?.seed);
  checkOptional('int64', `${op} initSeed`, o?.initSeed);
}

/** A run's text and options, by kind (args.ts): a missing text is refused, never run as "undefined". */
export function checkRun(op: string, text: unknown, options: RunOptions | undefined): void {
  checkArg('string', `${op} text`, text);
  checkOptions(`${op} options`, options);
  checkOptional('number', `${op} eps`, options?.eps);
  checkOptional('dtype', `${op} dtype`, options?.dtype);
  checkOptional('boolean', `${op} backward`, options?.backward);
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
    checkRun('model.run', text, options);
    const raw = this.raw;
    return guarded(() => {
      if (options.dtype !== undefined) raw.setDtype(options.dtype);
      if (options.eps !== undefined) raw.setEps(options.eps);
      return raw.run(text, options.backward ?? true);
    });
  }
  /** Like run, but keeps the result in the core and returns only the loss (null for 1 byte). */
  compute(text: string, options: RunOptions = {}): number | null {
    checkRun('model.compute', text, options);
    const raw = this.raw;
    return guarded(() => {
      if (options.dtype !== undefined) raw.setDtype(options.dtype);
      if (options.eps !== undefined) raw.setEps(options.eps);
      return raw.compute(text, options.backward ?? true);
    });
  }
  /**
   * compute() with attention patterns recorded and interventions applied (web/src/core/interp.ts);
   * returns the loss. Bad interventions are refused before anything runs.
   */
  computeWith(text: string, options: RunOptions & InterpOptions = {}): number | null {
    const raw = this.raw;
    const texts = (options.interventions ?? []).map(interventionText);
    return guarded(() => {
      if (options.dtype !== undefined) raw.setDtype(options.dtype);
      if (options.eps !== undefined) raw.setEps(options.eps);
      return this.module.interpCompute(raw, text, options.backward ?? true, options.patterns ?? false, texts);
    });
  }
  /** run() with patterns and interventions: every snapshot (patterns included) as plain data. */
  runWith(text: string, options: RunOptions & InterpOptions = {}): ModelRun {
    const loss = this.computeWith(text, options);
    const raw = this.raw;
    // gradients exist after backward of a loss (a 1-byte text has none)
    const haveGrads = (options.backward ?? true) && loss !== null;
    return guarded(() => {
      const snapshots: Record<string, NamedTensor> = {};
      const grads: Record<string, NamedTensor> = {};
      for (const name of raw.snapshotNames()) {
        snapshots[name] = raw.snapshot(name, false);
        if (haveGrads) grads[name] = raw.snapshot(name, true);
      }
      const ids = Array.from(new TextEncoder().encode(text));
      return { loss, ids, snapshots, grads: haveGrads ? grads : null, paramGradNorms: haveGrads ? raw.paramGradNorms() : null };
    });
  }
  /**
   * A model just initialised from `seed` (as the trainer does) with this model's
   * configuration but the given init scale of the projections that write into the
   * stream, as a safetensors file: load it into another Model to run it.
   */
  freshWeightsLike(initScale: 'depth' | 'flat', seed: number): Uint8Array {
    checkArg('string', 'freshWeightsLike initScale', initScale);
    checkArg('number', 'freshWeightsLike seed', seed);
    return guarded(() => this.module.freshWeightsLike(this.raw, initScale, seed));
  }
  /**
   * freshWeightsLike's model run forward on `text` inside the core: the residual
   * stream's RMS by depth (embed, then after each residual addition) and the std
   * of the projections that write into the stream.
   */
  freshStream(initScale: 'depth' | 'flat', seed: number, text: string): FreshStream {
    checkArg('string', 'freshStream initScale', initScale);
    checkArg('number', 'freshStream seed', seed);
    checkArg('string', 'freshStream text', text);
    return guarded(() => this.module.freshStream(this.raw, initScale, seed, text));
  }
  /** Checks interventions against this model without running: their text forms, or a GlassError listing what exists. */
  checkInterventions(interventions: readonly unknown[]): string[] {
    const texts = interventions.map(interventionText);
    return guarded(() => this.module.interpCheck(this.raw, texts));
  }
  /** The last run (made with interventions) against the same text without them. */
  interventionReport(interventions: readonly unknown[], k = 5): InterventionReport {
    const texts = this.checkInterventions(interventions);
    return { interventions: texts, ...guarded(() => this.module.interpReport(this.raw, k)) };
  }
  /** The logit lens on the last run: top-k and loss at every depth and position. */
  logitLens(k = 5, withLogits = false): LogitLens {
    return guarded(() => this.module.interpLens(this.raw, k, withLogits));
  }
  /** The residual ledger of the last run, or { refused } for a model whose stream is not a sum. */
  residualLedger(): ResidualLedger {
    return guarded(() => this.module.interpLedger(this.raw));
  }
  /** Each head's summary; the last run must have recorded patterns. */
  attentionSummary(): AttentionSummary {
    return guarded(() => this.module.interpHeads(this.raw));
  }
  /** Block i's attention weights of the last run, (heads, n, n). */
  pattern(block: number): NamedTensor {
    return guarded(() => this.module.interpPattern(this.raw, block));
  }
  /** g·δ against the central difference for one element of a snapshot or parameter, in float32 and float64. */
  gradientCheck(target: string, index: number, delta: { float32: number; float64: number }): GradientCheck {
    return guarded(() => this.module.interpGradCheck(this.raw, target, index, delta.float32, delta.float64));
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
  /** A parameter's values (docs/model.md name, e.g. "tok_emb.weight"), in the model's dtype. */
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

  /**
   * One sampling step after `bytes` (the last `context` of them): the logits, the distribution
   * drawn from and the byte. Runs in float32 at eps (the weights' own, from the caller); keeps no run.
   */
  generateStep(bytes: readonly number[], o: SampleSettings & { eps?: number } = {}): GenerationStep {
    checkSample('model.generateStep', bytes, o);
    const raw = this.raw;
    return guarded(() => {
      this.forSampling(o.eps);
      return this.module.generateStep(raw, [...bytes], o.temperature ?? 1, o.topK ?? 0, o.seed ?? 0, o.initSeed ?? -1);
    });
  }
  /** `length` new bytes after `bytes`, sampled one at a time (the same bytes for the same settings and seed). */
  generate(bytes: readonly number[], length: number, o: SampleSettings & { eps?: number } = {}): number[] {
    checkSample('model.generate', bytes, o);
    checkArg('int64', 'model.generate length', length);
    const raw = this.raw;
    return guarded(() => {
      this.forSampling(o.eps);
      return this.module.generateSample(raw, [...bytes], length, o.temperature ?? 1, o.topK ?? 0, o.seed ?? 0, o.initSeed ?? -1);
    });
  }
  /** The mean next-byte loss over `bytes` (2 up to the context), of the loaded weights or a fresh model (initSeed). */
  generationLoss(bytes: readonly number[], o: { initSeed?: number; eps?: number } = {}): number {
    checkSample('model.generationLoss', bytes, o);
    const raw = this.raw;
    return guarded(() => {
      this.forSampling(o.eps);
      return this.module.generateLoss(raw, [...bytes], o.initSeed ?? -1);
    });
  }
  /** Samples come from the float32 model (what `glassllm generate` runs), at the given eps. */
  private forSampling(eps: number | undefined): void {
    this.raw.setDtype('float32');
    if (eps !== undefined) this.raw.setEps(eps);
  }

  /** Block i's attention on its input in the last run, every intermediate: the forward pass's own function. */
  attentionParts(block: number): AttentionParts {
    return guarded(() => this.raw.attentionParts(block));
  }
  /** Block i's feed-forward branch on its input in the last run, every intermediate. */
  swigluParts(block: number): SwigluParts {
    return guarded(() => this.raw.swigluParts(block));
  }
  /** x (..., n, headDim) rotated by the model's RoPE as if its rows stood at positions offset .. offset+n−1. */
  rope(x: Tensor, offset = 0): NamedTensor {
    const raw = this.raw;
    const xr = x.raw;
    return guarded(() => {
      const r = raw.rope(xr, offset);
      try {
        return { shape: r.shape(), data: r.data() };
      } finally {
        r.delete();
      }
    });
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
