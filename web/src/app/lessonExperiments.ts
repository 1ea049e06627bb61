// The lessons' experiments: two runs, A and B, trained side by side in the
// page by the Train view's trainer (one worker each), small enough to finish
// in seconds on a 2-core machine. A lesson step shows one with
// ```widget train-experiment experiment=<id>``` and its checks read the
// finished runs as `runs.<id>.A` and `runs.<id>.B` (viewmodels/experiments.ts).
import type { DataSource, ModelConfigInput, ProbeSpec, TrainSettings } from '../protocol/train';
import { SMALL_MODEL, SMALL_TRAINING, type RunSetup } from './trainPresets';

/** What the widget draws under the runs (the loss plot is always there). */
/** What a placement of an experiment shows (`show=` in the lesson): the loss curves, and each experiment's own views. */
export type ExperimentView = 'loss' | 'block-grads' | 'lr' | 'grad-norm' | 'probes';

/** A run of an experiment: its settings and its text. */
export type ExperimentRun = RunSetup & { data: DataSource };

export interface Experiment {
  id: string;
  /** The button's words: "Train pre-norm and post-norm". */
  title: string;
  a: ExperimentRun;
  b: ExperimentRun;
  /** Entries followed through AdamW in both runs (StepReport.probes), with what the learner calls them. */
  probes: (ProbeSpec & { label: string })[];
  views: ExperimentView[];
}

/** The depth experiments: the Train view's 12 narrow blocks, a third of its steps. */
const DEPTH_TRAINING: TrainSettings = { ...SMALL_TRAINING, steps: 60, evalEvery: 20, sampleEvery: 0 };

/** Two blocks of width 32: a step takes milliseconds, so a few hundred steps fit in seconds. */
const TINY_MODEL: ModelConfigInput = { ...SMALL_MODEL, blocks: 2, d: 32, heads: 2, ctx: 32 };
const TINY_TRAINING: TrainSettings = { ...SMALL_TRAINING, steps: 150, batch: 16, lr: 1e-2, warmup: 30, evalEvery: 25, sampleEvery: 0 };

/** Long enough, at a high enough rate, for a small text to be learnt by heart. */
const OVERFIT_TRAINING: Partial<TrainSettings> = { steps: 200, lr: 1e-2, warmup: 20, evalEvery: 25 };

const KJV: DataSource = { kind: 'kjv' };

const depth = (label: string, config: Partial<ModelConfigInput> = {}): ExperimentRun => ({ label, config: { ...SMALL_MODEL, ...config }, train: DEPTH_TRAINING, init: 'scratch', data: KJV });
const tiny = (label: string, config: Partial<ModelConfigInput> = {}, train: Partial<TrainSettings> = {}, data: DataSource = KJV): ExperimentRun => ({
  label,
  config: { ...TINY_MODEL, ...config },
  train: { ...TINY_TRAINING, ...train },
  init: 'scratch',
  data,
});

export const EXPERIMENTS: readonly Experiment[] = [
  {
    id: 'prenorm',
    title: 'Train pre-norm and post-norm',
    a: depth('pre-norm'),
    b: depth('post-norm', { norm: 'post' }),
    probes: [],
    views: ['loss', 'block-grads'],
  },
  {
    id: 'residual',
    title: 'Train with and without residuals',
    a: depth('with residuals'),
    b: depth('without residuals', { residual: false }),
    probes: [],
    views: ['loss', 'block-grads'],
  },
  {
    id: 'batch',
    title: 'Train with batches of 1 and of 32',
    a: tiny('batch of 1', {}, { batch: 1 }),
    b: tiny('batch of 32', {}, { batch: 32 }),
    probes: [],
    views: ['loss'],
  },
  {
    id: 'adamw',
    title: 'Train with and without warmup',
    a: tiny('30 warmup steps'),
    b: tiny('no warmup', {}, { warmup: 0 }),
    probes: [
      { param: 'head.weight', index: 101 * TINY_MODEL.d, label: 'a weight of the head (row of the byte “e”)' },
      { param: 'norm_final.gamma', index: 0, label: 'a gain γ of the final norm' },
      { param: 'tok_emb.weight', index: 0, label: 'the embedding of byte 0, which the text never contains' },
    ],
    views: ['loss', 'lr', 'grad-norm', 'probes'],
  },
  {
    id: 'overfit',
    title: 'Train on a small text and on the whole excerpt',
    a: tiny('the first 2,000 bytes', { d: 64 }, OVERFIT_TRAINING, { kind: 'kjv', bytes: 2000 }),
    b: tiny('the whole excerpt', { d: 64 }, OVERFIT_TRAINING),
    probes: [],
    views: ['loss'],
  },
];

export const experimentById = (id: string): Experiment | null => EXPERIMENTS.find((e) => e.id === id) ?? null;
