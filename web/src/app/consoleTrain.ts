// glass.train.run: a training run from the DevTools console, in a trainer
// worker of its own (app/trainClient.ts), with the Train view's defaults for
// every omitted field (protocol/trainSettings.ts).
//
//   const r = await glass.train.run({ text, config: { blocks: 12, norm: 'post' }, steps: 200, lr: 1e-3, warmup: 0 });
//   r.losses[0]; r.gradNorms[0];   // per step: the loss; one gradient norm per block (before clipping)
//   r.valLoss;                     // the held-out loss at the end
import type { ModelConfigInput, RunSpec, StepReport, TrainSettings } from '../protocol/train';
import { DEFAULT_MODEL_CONFIG, DEFAULT_TRAIN_SETTINGS } from './trainDefaults';
import { TrainClient } from './trainClient';
import type { WorkerLike } from './coreClient';

export interface ConsoleTrainOptions {
  /** The training text (at least enough for the context and the 5% held out); omitted: the shipped KJV excerpt. */
  text?: string;
  config?: Partial<ModelConfigInput>;
  steps?: number;
  batch?: number;
  lr?: number;
  warmup?: number;
  seed?: number;
  clip?: number;
  weightDecay?: number;
}

export interface ConsoleTrainResult {
  /** One training loss per step. */
  losses: number[];
  /** Per step, one global L2 gradient norm (before clipping) per block. */
  gradNorms: number[][];
  /** The held-out loss at the end (null if the run diverged). */
  valLoss: number | null;
  /** Per step, the residual stream's RMS by depth: [embed, after block 0, ...]. */
  residRms: number[][];
  /** Per step, its time in the core (forward, backward, clipping, AdamW), in seconds. */
  seconds: number[];
  /** Per step, the threads it computed on: all of them, or a share while other runs train too. */
  threads: number[];
  /** Set when a step's loss or gradient was not finite: the run stopped before it. */
  diverged?: { step: number; what: string; message: string };
}

class ConsoleError extends Error {
  override name = 'GlassError';
}

const OPTION_KEYS = ['text', 'config', 'steps', 'batch', 'lr', 'warmup', 'seed', 'clip', 'weightDecay'];
const CONFIG_KEYS = Object.keys(DEFAULT_MODEL_CONFIG);

function checkKeys(o: object, allowed: string[], where: string): void {
  for (const key of Object.keys(o))
    if (!allowed.includes(key)) throw new ConsoleError(`${where}: unknown field "${key}" (known: ${allowed.join(', ')})`);
}

/** The spec a console call means: its fields over the Train view's defaults. */
export function consoleRunSpec(options: ConsoleTrainOptions = {}): RunSpec {
  if (typeof options !== 'object' || options === null) throw new ConsoleError('glass.train.run takes one object: { text, config, steps, batch, lr, warmup, seed }');
  checkKeys(options, OPTION_KEYS, 'glass.train.run');
  if (options.config !== undefined) {
    if (typeof options.config !== 'object' || options.config === null) throw new ConsoleError('glass.train.run: config must be an object');
    checkKeys(options.config, CONFIG_KEYS, 'glass.train.run config');
  }
  if (options.text !== undefined && typeof options.text !== 'string') throw new ConsoleError('glass.train.run: text must be a string');
  const steps = options.steps ?? DEFAULT_TRAIN_SETTINGS.steps;
  const train: TrainSettings = {
    ...DEFAULT_TRAIN_SETTINGS,
    steps,
    batch: options.batch ?? DEFAULT_TRAIN_SETTINGS.batch,
    lr: options.lr ?? DEFAULT_TRAIN_SETTINGS.lr,
    // the default warmup, but never longer than the run
    warmup: options.warmup ?? (typeof steps === 'number' ? Math.min(DEFAULT_TRAIN_SETTINGS.warmup, steps) : DEFAULT_TRAIN_SETTINGS.warmup),
    seed: options.seed ?? DEFAULT_TRAIN_SETTINGS.seed,
    clip: options.clip ?? DEFAULT_TRAIN_SETTINGS.clip,
    weightDecay: options.weightDecay ?? DEFAULT_TRAIN_SETTINGS.weightDecay,
    evalEvery: 0, // only at the end
    sampleEvery: 0,
  };
  return {
    run: 'console',
    config: { ...DEFAULT_MODEL_CONFIG, ...options.config },
    train,
    data: options.text === undefined ? { kind: 'kjv' } : { kind: 'text', text: options.text, label: 'the text' },
    init: { kind: 'scratch' },
    persist: false,
  };
}

/** Runs one training to its end in a fresh trainer worker, which is closed afterwards. */
export function consoleTrainRun(options: ConsoleTrainOptions = {}, spawn?: () => WorkerLike, base?: string): Promise<ConsoleTrainResult> {
  let spec: RunSpec;
  try {
    spec = consoleRunSpec(options);
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    const client = new TrainClient(spawn, base);
    const reports: StepReport[] = [];
    const result = (valLoss: number | null): ConsoleTrainResult => ({
      losses: reports.map((r) => r.loss),
      gradNorms: reports.map((r) => r.blockGradNorms),
      valLoss,
      residRms: reports.map((r) => r.residRms),
      seconds: reports.map((r) => r.seconds),
      threads: reports.map((r) => r.threads ?? 1),
    });
    client.on((event) => {
      switch (event.type) {
        case 'step':
          reports.push(event.report);
          return;
        case 'stopped':
          client.dispose();
          resolve(result(event.valLoss));
          return;
        case 'diverged':
          client.dispose();
          resolve({ ...result(null), diverged: { step: event.step, what: event.what, message: event.message } });
          return;
        case 'error':
          client.dispose();
          reject(new ConsoleError(event.error.message));
          return;
        default:
          return;
      }
    });
    client.start(spec);
  });
}
