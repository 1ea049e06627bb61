// The training protocol: what the page and a trainer worker say to each other
// (worker side: web/src/worker/trainer/). Each run (A or B) has a worker of its
// own, so two runs train at once, sharing the threads (app/threadShare.ts), and
// the lab, lessons and inspector (the core worker) stay responsive. Unlike the core
// worker's request/response table (api.ts), a run is a stream: the page sends
// commands, the worker sends events as steps finish.
//
// Plain data only (structured clone); byte buffers are transferred, not copied.
import type { DTypeName, ErrorData } from './base';

export type NormPlacement = 'pre' | 'post' | 'none';
export type NormKind = 'rms' | 'layer';
export type InitScale = 'depth' | 'flat';

/** A model variant, the JS names of the C++ Config (docs/model.md, "Variants"). */
export interface ModelConfigInput {
  blocks: number; // 1 .. 24
  d: number; // 16 .. 256, divisible by heads
  heads: number;
  ctx: number; // 2 .. 256
  norm: NormPlacement;
  normKind: NormKind;
  residual: boolean;
  eps: number;
  initScale: InitScale;
  dtype: DTypeName;
}

/** The trainer's options (the CLI's `glassllm train` flags, same defaults where the CLI has them). */
export interface TrainSettings {
  steps: number;
  batch: number;
  lr: number; // peak
  warmup: number; // steps of linear warmup (0: none)
  clip: number; // global gradient norm; 0 turns clipping off
  weightDecay: number; // AdamW, matrices only
  seed: number;
  evalEvery: number; // validation loss every N steps and at the end
  sampleEvery: number; // a generated sample every N steps (0: none)
  sampleLength: number; // bytes per sample
}

/** Where the training text comes from; the trainer worker decodes and checks it (UTF-8, size). */
export type DataSource =
  /** The KJV excerpt shipped with the site, fetched by the worker (url: where; the client fills it in); `bytes`: only its start, cut there (at a character boundary). */
  | { kind: 'kjv'; url?: string; bytes?: number }
  | { kind: 'text'; text: string; label: string } // pasted text, or the lesson texts
  | { kind: 'file'; bytes: ArrayBuffer; name: string }; // an uploaded .txt (checked: UTF-8, at most 50 MB)

/** The weights a run starts from. */
export type InitSource =
  | { kind: 'scratch' } // initialised from config + seed
  | { kind: 'shipped'; url?: string } // the model the site ships (its config wins over `config`; url as for 'kjv')
  | { kind: 'weights'; bytes: ArrayBuffer; name: string }; // a .safetensors file saved earlier

export interface RunSpec {
  /** 'A' or 'B' in the Train view; any string for the console API. */
  run: string;
  config: ModelConfigInput;
  train: TrainSettings;
  data: DataSource;
  init: InitSource;
  /** Keep a checkpoint in IndexedDB at every evaluation, to resume after a reload (default true; the console API: false). */
  persist?: boolean;
  /** Entries of parameters to follow through AdamW: each step reports their value and moments (StepReport.probes). */
  probes?: ProbeSpec[];
}

/** One number of one parameter (docs/model.md names; index into its flattened values). */
export interface ProbeSpec {
  param: string;
  index: number;
}

/** A probed entry after a step: the parameter's value and AdamW's first and second moments (before bias correction). */
export interface ProbeReading {
  value: number;
  m: number;
  v: number;
}

/** Page -> trainer worker. */
export type TrainCommand =
  | { type: 'start'; spec: RunSpec }
  /** Continue from a checkpoint the worker saved earlier (after a reload). */
  | { type: 'resume-saved'; key: string }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  /** Ask for the weights as a .safetensors file (config in its metadata). */
  | { type: 'save' }
  /**
   * Compute on n threads (at most what the worker's core has) from the next slice of steps: the worker reads
   * commands between slices of about 50 ms. The page's share of the machine for this run while others train
   * too (app/threadShare.ts). Accepted at any time, even before a run.
   */
  | { type: 'threads'; n: number };

/** After each step. */
export interface StepReport {
  step: number; // steps done (1-based)
  total: number;
  loss: number; // this step's training loss
  lr: number;
  gradNorm: number; // global, before clipping
  blockGradNorms: number[]; // (blocks,) per block, before clipping
  /** RMS of the residual stream over the batch, by depth: [embed, after block 0, ..., after block n-1]. */
  residRms: number[];
  /** This step's time in the core: forward, backward, clipping and AdamW (not the evaluation or the sample). */
  seconds: number;
  tokensPerSecond: number;
  etaSeconds: number;
  /** The threads this step computed on (absent in runs kept before it was reported). */
  threads?: number;
  valLoss: number | null; // set on evaluation steps
  /** The spec's probes, in its order (only when it asked for some). */
  probes?: ProbeReading[];
}

/** Trainer worker -> page. */
export type TrainEvent =
  | { type: 'ready' } // the core is loaded
  /**
   * config: the one in effect (a weights file's own); train: the settings; dataLabel: what the text is called
   * ("the KJV excerpt", a file's name); depthNames: the snapshot each residRms entry measures ('embed',
   * 'blocks.0.resid.ffn', ...: docs/model.md). After 'resume-saved' these say what the saved run was.
   */
  | { type: 'started'; run: string; parameters: number; trainBytes: number; valBytes: number; config: ModelConfigInput; train: TrainSettings; dataLabel: string; depthNames: string[] }
  | { type: 'step'; report: StepReport }
  /** After 'started' of a resumed run ('resume-saved'): the reports of the steps done before the reload. */
  | { type: 'history'; reports: StepReport[] }
  /** `text` continues `prompt` (the first bytes of the training text), sampled from the model after `step`. */
  | { type: 'sample'; step: number; prompt: string; text: string }
  /** A checkpoint was kept (IndexedDB, under `key`): 'resume-saved' with it continues from `step`. */
  | { type: 'saved'; key: string; step: number; total: number }
  | { type: 'paused'; step: number }
  | { type: 'resumed'; step: number }
  /** Stopped by the learner, or finished: the weights are those after `step`. */
  | { type: 'stopped'; step: number; finished: boolean; valLoss: number | null }
  /** A non-finite loss or gradient (what: 'loss' | 'gradient' | block name): the run keeps the state before `step`. */
  | { type: 'diverged'; step: number; what: string; message: string }
  | { type: 'weights'; bytes: ArrayBuffer; fileName: string }
  /** A refusal (bad settings, bad data) or a crash; `fatal` when the worker must be replaced. */
  | { type: 'error'; error: ErrorData; fatal: boolean };
