// The Train view's presets: each one an experiment, with one sentence of what
// to expect and why. A preset sets run A's and run B's model and training
// settings; both runs train on the same data (the data picker) and seed.
//
// The small model (12 blocks, d = 32) is sized so that 200 steps of A and of B,
// each in its own worker, finish in under a minute on a 2-core machine.
import type { ModelConfigInput, TrainSettings } from '../protocol/train';
import { DEFAULT_MODEL_CONFIG, DEFAULT_TRAIN_SETTINGS, SHIPPED_MODEL_CONFIG } from './trainDefaults';

export interface RunSetup {
  /** What this run is, in a few words: "pre-norm", "without residuals". */
  label: string;
  config: ModelConfigInput;
  train: TrainSettings;
  init: 'scratch' | 'shipped';
}

export interface Preset {
  id: string;
  title: string;
  /** What to expect and why, in one sentence. */
  expect: string;
  a: RunSetup;
  b: RunSetup;
  /** The preset is a starting point for the learner's own settings (the form opens). */
  own?: boolean;
}

/** 12 blocks, narrow: deep enough for depth to matter, small enough to train in seconds. */
export const SMALL_MODEL: ModelConfigInput = {
  blocks: 12,
  d: 32,
  heads: 2,
  ctx: 64,
  norm: 'pre',
  normKind: 'rms',
  residual: true,
  eps: 1e-6,
  initScale: 'depth',
  dtype: 'float32',
};

export const SMALL_TRAINING: TrainSettings = {
  steps: 200,
  batch: 8,
  lr: 3e-3,
  warmup: 20,
  clip: 1,
  weightDecay: 0.1,
  seed: 1,
  evalEvery: 50,
  sampleEvery: 50,
  sampleLength: 80,
};

/** The model the site ships (docs/model.md): 4 blocks, d = 128, context 128. */
export const SHIPPED_MODEL: ModelConfigInput = { ...SHIPPED_MODEL_CONFIG };

const small = (label: string, config: Partial<ModelConfigInput> = {}, train: Partial<TrainSettings> = {}): RunSetup => ({
  label,
  config: { ...SMALL_MODEL, ...config },
  train: { ...SMALL_TRAINING, ...train },
  init: 'scratch',
});

const FINE_TUNE: TrainSettings = { ...SMALL_TRAINING, steps: 100, batch: 4, lr: 3e-4, warmup: 10, evalEvery: 25, sampleEvery: 25 };

export const PRESETS: readonly Preset[] = [
  {
    id: 'pre-post',
    title: 'Pre-norm vs post-norm at 12 blocks',
    expect:
      'Post-norm puts a norm after every sum, so the gradient on its way to the first blocks passes through every later norm: within a few steps its last block gets many times the gradient of its first (Xiong et al. 2020; compare the two heatmaps), while pre-norm’s blocks stay within a few times of each other.',
    a: small('pre-norm'),
    b: small('post-norm', { norm: 'post' }),
  },
  {
    id: 'residual',
    title: 'With vs without residuals at 12 blocks',
    expect:
      'Without residuals each block’s small output is all the next block gets, and once the stream’s RMS falls below √eps the norm cannot scale it back up, so it shrinks block by block to exactly zero: the loss stays at ln 256 ≈ 5.545 and every gradient is 0, while with residuals the identity path (I + J_F) carries the signal and its gradient through all twelve blocks (He et al. 2015).',
    a: small('with residuals'),
    b: small('without residuals', { residual: false }),
  },
  {
    id: 'rms-layer',
    title: 'RMSNorm vs LayerNorm',
    expect:
      'LayerNorm also subtracts each row’s mean and learns a shift β, yet the two loss curves should stay within about a tenth of a nat of each other — the reason many recent models keep the cheaper RMSNorm.',
    a: small('RMSNorm'),
    b: small('LayerNorm', { normKind: 'layer' }),
  },
  {
    id: 'eps',
    title: 'eps 1e-6 vs 0 in float32',
    expect:
      'eps only matters when a row’s RMS comes near √eps = 0.001, and the stream here stays well above that, so the curves start identical to the digits shown and stay close; the small gap that opens is rounding differences that training compounds.',
    a: small('eps = 1e-6'),
    b: small('eps = 0', { eps: 0 }),
  },
  {
    id: 'warmup',
    title: 'Warmup vs no warmup for post-norm',
    expect:
      'Warmup protects post-norm from large first updates in big models (Xiong et al. 2020), but at this small size with clipping on expect little harm without it — the run without warmup even drops faster at first; raise the learning rate or set clip to 0 to look for where it breaks.',
    a: small('post-norm, 50 warmup steps', { norm: 'post' }, { lr: 1e-2, warmup: 50 }),
    b: small('post-norm, no warmup', { norm: 'post' }, { lr: 1e-2, warmup: 0 }),
  },
  {
    id: 'fine-tune',
    title: 'Fine-tune the shipped model on your text',
    expect:
      'Run A starts from the trained model, which already knows English spelling, so its loss on your text starts far below run B’s, which starts from random weights of the same shape.',
    a: { label: 'from the shipped model', config: SHIPPED_MODEL, train: FINE_TUNE, init: 'shipped' },
    b: { label: 'from random weights', config: SHIPPED_MODEL, train: FINE_TUNE, init: 'scratch' },
  },
  {
    id: 'own',
    title: 'From scratch, your own settings',
    expect: 'Both runs start with the defaults (the shipped model’s shape, narrower and with a shorter context, so it trains in seconds); change any setting of either run below and compare.',
    a: { label: 'run A', config: { ...DEFAULT_MODEL_CONFIG }, train: { ...DEFAULT_TRAIN_SETTINGS }, init: 'scratch' },
    b: { label: 'run B', config: { ...DEFAULT_MODEL_CONFIG }, train: { ...DEFAULT_TRAIN_SETTINGS }, init: 'scratch' },
    own: true,
  },
];

export const DEFAULT_PRESET = PRESETS[0];

export const presetById = (id: string): Preset | null => PRESETS.find((p) => p.id === id) ?? null;
