// The training settings' defaults and allowed ranges, and the check every run
// spec goes through: one module for the Train view, the console API
// (glass.train.run) and the trainer worker, so they cannot disagree. The core
// checks again (cpp/wasm/train_bindings.cpp); these messages speak the
// learner's words.
import type { ModelConfigInput, RunSpec, TrainSettings } from './train';

/** The model the site ships (docs/model.md): 4 pre-norm RMSNorm blocks of width 128 over a 128-byte context. */
export const SHIPPED_MODEL_CONFIG: Readonly<ModelConfigInput> = Object.freeze({
  blocks: 4,
  d: 128,
  heads: 4,
  ctx: 128,
  norm: 'pre',
  normKind: 'rms',
  residual: true,
  eps: 1e-6,
  initScale: 'depth',
  dtype: 'float32',
});

/** "From scratch, your own settings" and omitted console fields: the shipped model's shape, smaller so it trains in seconds. */
export const DEFAULT_MODEL_CONFIG: Readonly<ModelConfigInput> = Object.freeze({
  ...SHIPPED_MODEL_CONFIG,
  d: 64,
  ctx: 64,
});

/** The CLI's trainer defaults (glassllm train), with fewer steps. */
export const DEFAULT_TRAIN_SETTINGS: Readonly<TrainSettings> = Object.freeze({
  steps: 200,
  batch: 16,
  lr: 2e-3,
  warmup: 20,
  clip: 1,
  weightDecay: 0.1,
  seed: 1,
  evalEvery: 50,
  sampleEvery: 50,
  sampleLength: 120,
});

/** Inclusive ranges; `whole` for counts. */
export interface SettingRange {
  min: number;
  max: number;
  whole: boolean;
  /** Plain words for messages. */
  label: string;
}

export const MODEL_RANGES = {
  blocks: { min: 1, max: 24, whole: true, label: 'blocks' },
  d: { min: 16, max: 256, whole: true, label: 'width d' },
  heads: { min: 1, max: 256, whole: true, label: 'heads' },
  ctx: { min: 2, max: 256, whole: true, label: 'context (bytes)' },
  eps: { min: 0, max: 1, whole: false, label: 'eps' },
} satisfies Partial<Record<keyof ModelConfigInput, SettingRange>>;

export const TRAIN_RANGES = {
  steps: { min: 1, max: 100_000, whole: true, label: 'steps' },
  batch: { min: 1, max: 256, whole: true, label: 'batch' },
  lr: { min: 1e-6, max: 1, whole: false, label: 'learning rate' },
  warmup: { min: 0, max: 100_000, whole: true, label: 'warmup steps' },
  clip: { min: 0, max: 1e6, whole: false, label: 'gradient clipping (0: off)' },
  weightDecay: { min: 0, max: 1, whole: false, label: 'weight decay' },
  seed: { min: 0, max: 2 ** 31 - 1, whole: true, label: 'seed' },
  evalEvery: { min: 0, max: 100_000, whole: true, label: 'validation every (steps; 0: only at the end)' },
  sampleEvery: { min: 0, max: 100_000, whole: true, label: 'sample every (steps; 0: never)' },
  sampleLength: { min: 1, max: 500, whole: true, label: 'sample length (bytes)' },
} satisfies Record<keyof TrainSettings, SettingRange>;

/** The training text: at most 50 MB (checked before decoding). */
export const MAX_TEXT_BYTES = 50 * 1024 * 1024;
/** The share of the text held out for the validation loss (as the CLI's). */
export const HELD_OUT_FRACTION = 0.05;
/** Held-out windows an evaluation reads at most (from the start of the held-out part), so it stays quick on a big text. */
export const EVAL_WINDOWS = 256;

export const NORM_PLACEMENTS = ['pre', 'post', 'none'] as const;
export const NORM_KINDS = ['rms', 'layer'] as const;
export const INIT_SCALES = ['depth', 'flat'] as const;
export const DTYPES = ['float32', 'float64'] as const;

/** The fewest bytes a text needs for a context of ctx: the 5% held out must hold one whole window (as the core's Corpus). */
export function minTextBytes(ctx: number): number {
  const split = (n: number) => n - Math.floor(n * HELD_OUT_FRACTION);
  let n = Math.max(ctx + 1, Math.floor(ctx / HELD_OUT_FRACTION) - 2);
  while (split(n) < ctx + 1 || n - split(n) < ctx) n++;
  return n;
}

function checkNumber(value: unknown, r: SettingRange): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${r.label} must be a number`;
  if (r.whole && !Number.isInteger(value)) return `${r.label} must be a whole number, got ${value}`;
  if (value < r.min || value > r.max) return `${r.label} must be from ${r.min} to ${r.max}, got ${value}`;
  return null;
}

function checkWord<T extends string>(value: unknown, label: string, words: readonly T[]): string | null {
  return typeof value === 'string' && (words as readonly string[]).includes(value) ? null : `${label} must be one of ${words.join(', ')}`;
}

/** The first problem with a model config, in plain words, or null. */
export function checkModelConfig(c: ModelConfigInput): string | null {
  for (const key of Object.keys(MODEL_RANGES) as (keyof typeof MODEL_RANGES)[]) {
    const problem = checkNumber(c[key], MODEL_RANGES[key]);
    if (problem) return problem;
  }
  if (c.d % c.heads !== 0) return `heads must divide the width d: d ${c.d} is not a multiple of ${c.heads} heads`;
  if ((c.d / c.heads) % 2 !== 0) return `each head's width d / heads must be even (RoPE turns pairs of numbers): d ${c.d} / ${c.heads} heads = ${c.d / c.heads}`;
  return (
    checkWord(c.norm, 'norm placement', NORM_PLACEMENTS) ??
    checkWord(c.normKind, 'norm kind', NORM_KINDS) ??
    (typeof c.residual === 'boolean' ? null : 'residual must be true or false') ??
    checkWord(c.initScale, 'init scale', INIT_SCALES) ??
    checkWord(c.dtype, 'dtype', DTYPES)
  );
}

/** The first problem with the training settings, in plain words, or null. */
export function checkTrainSettings(t: TrainSettings): string | null {
  for (const key of Object.keys(TRAIN_RANGES) as (keyof TrainSettings)[]) {
    const problem = checkNumber(t[key], TRAIN_RANGES[key]);
    if (problem) return problem;
  }
  if (t.warmup > t.steps) return `warmup steps (${t.warmup}) must not exceed the steps (${t.steps})`;
  return null;
}

/** The first problem with a run's settings (not its data, which the worker checks when it reads it), or null. */
export function checkRunSpec(spec: RunSpec): string | null {
  if (typeof spec.run !== 'string' || spec.run.length === 0 || spec.run.length > 100) return 'the run needs a name of 1 to 100 characters';
  return checkModelConfig(spec.config) ?? checkTrainSettings(spec.train);
}
