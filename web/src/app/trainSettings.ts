// The Train view's settings form as data: each field's plain label, the
// internal name shown beside it, its range, and how typed text becomes a value.
// Validation only: a value out of range is refused with a message that names
// the field and its range, and the run keeps its last valid value (the typed
// text stays in the box, so nothing is lost).
//
// The ranges are the trainer's (trainDefaults.ts, which the trainer worker
// checks against too, and the C++ Config's: blocks 1-24, d 16-256, context
// 2-256, heads dividing d into an even head width); the core checks them again
// when the run starts.
import { fmt } from './format';
import { parseNumber } from './labSettings';
import { MODEL_RANGES, TRAIN_RANGES } from './trainDefaults';
import type { ModelConfigInput, RunSpec, TrainSettings } from '../protocol/train';

type ConfigKey = keyof ModelConfigInput;
type TrainKey = keyof TrainSettings;

interface Base {
  /** Plain words for learners. */
  label: string;
  /** The name the code (and the console API) uses, shown beside the label. */
  name: string;
  /** One short line under the field. */
  help?: string;
}

export interface NumberField<K extends string> extends Base {
  kind: 'number';
  key: K;
  min: number;
  max: number;
  integer: boolean;
  step?: number;
}

export interface ChoiceField<K extends string> extends Base {
  kind: 'choice';
  key: K;
  options: readonly { value: string; label: string }[];
}

export interface SwitchField<K extends string> extends Base {
  kind: 'switch';
  key: K;
}

export type ModelField = NumberField<ConfigKey> | ChoiceField<ConfigKey> | SwitchField<ConfigKey>;
export type TrainField = NumberField<TrainKey>;
export type Field = { group: 'config'; field: ModelField } | { group: 'train'; field: TrainField };

/** min, max and whole-number-ness from the trainer's range. */
const range = (r: { min: number; max: number; whole: boolean }) => ({ min: r.min, max: r.max, integer: r.whole });

export const MODEL_FIELDS: readonly ModelField[] = [
  { kind: 'number', key: 'blocks', label: 'Blocks', name: 'blocks', ...range(MODEL_RANGES.blocks), help: 'how deep the model is' },
  { kind: 'number', key: 'd', label: 'Stream width', name: 'd', ...range(MODEL_RANGES.d), help: 'numbers per byte in the residual stream' },
  { kind: 'number', key: 'heads', label: 'Attention heads', name: 'heads', ...range(MODEL_RANGES.heads), help: 'must split d into an even head width' },
  { kind: 'number', key: 'ctx', label: 'Context', name: 'ctx', ...range(MODEL_RANGES.ctx), help: 'bytes the model sees at once' },
  {
    kind: 'choice',
    key: 'norm',
    label: 'Where the norms sit',
    name: 'norm',
    options: [
      { value: 'pre', label: 'before each branch (pre-norm)' },
      { value: 'post', label: 'after each sum (post-norm)' },
      { value: 'none', label: 'no norms' },
    ],
  },
  {
    kind: 'choice',
    key: 'normKind',
    label: 'Kind of norm',
    name: 'normKind',
    options: [
      { value: 'rms', label: 'RMSNorm' },
      { value: 'layer', label: 'LayerNorm' },
    ],
  },
  { kind: 'switch', key: 'residual', label: 'Residual connections', name: 'residual', help: 'each block adds to the stream instead of replacing it' },
  { kind: 'number', key: 'eps', label: 'Epsilon in every norm', name: 'eps', ...range(MODEL_RANGES.eps), help: 'added to the mean square before the square root' },
  {
    kind: 'choice',
    key: 'initScale',
    label: 'Output projections start',
    name: 'initScale',
    options: [
      { value: 'depth', label: 'smaller in deeper models (0.02 / √(2 × blocks))' },
      { value: 'flat', label: 'at 0.02 whatever the depth' },
    ],
  },
  {
    kind: 'choice',
    key: 'dtype',
    label: 'Number format',
    name: 'dtype',
    options: [
      { value: 'float32', label: 'float32 (faster)' },
      { value: 'float64', label: 'float64 (exact to more digits)' },
    ],
  },
];

export const TRAIN_FIELDS: readonly TrainField[] = [
  { kind: 'number', key: 'steps', label: 'Training steps', name: 'steps', ...range(TRAIN_RANGES.steps) },
  { kind: 'number', key: 'batch', label: 'Sequences per step', name: 'batch', ...range(TRAIN_RANGES.batch) },
  { kind: 'number', key: 'lr', label: 'Peak learning rate', name: 'lr', ...range(TRAIN_RANGES.lr) },
  { kind: 'number', key: 'warmup', label: 'Warmup steps', name: 'warmup', ...range(TRAIN_RANGES.warmup), help: 'the learning rate rises from 0 over these steps' },
  { kind: 'number', key: 'clip', label: 'Clip the gradient norm at', name: 'clip', ...range(TRAIN_RANGES.clip), help: '0 turns clipping off' },
  { kind: 'number', key: 'weightDecay', label: 'Weight decay', name: 'weightDecay', ...range(TRAIN_RANGES.weightDecay), help: 'AdamW, on the matrices only' },
  { kind: 'number', key: 'seed', label: 'Random seed', name: 'seed', ...range(TRAIN_RANGES.seed) },
  { kind: 'number', key: 'evalEvery', label: 'Validation loss every', name: 'evalEvery', ...range(TRAIN_RANGES.evalEvery), help: 'steps (0: only at the end)' },
  { kind: 'number', key: 'sampleEvery', label: 'Sample text every', name: 'sampleEvery', ...range(TRAIN_RANGES.sampleEvery), help: 'steps (0: never)' },
  { kind: 'number', key: 'sampleLength', label: 'Sample length', name: 'sampleLength', ...range(TRAIN_RANGES.sampleLength), help: 'bytes per sample' },
];

/** The field's range in words: "a whole number from 1 to 24", "a number from 0 to 1". */
export function rangeText(f: NumberField<string>): string {
  const kind = f.integer ? 'a whole number' : 'a number';
  const show = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en') : fmt(v));
  const lo = show(f.min);
  const hi = show(f.max);
  return `${kind} from ${lo} to ${hi}`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** Typed text -> the field's value, or a message naming the field and its range. */
export function parseField(f: NumberField<string>, text: string): Checked<number> {
  const who = `${f.label} (${f.name})`;
  const r = parseNumber(text, who);
  if (!r.ok) return { ok: false, message: `${r.message}; it must be ${rangeText(f)}` };
  const v = r.value;
  if (f.integer && !Number.isInteger(v)) return { ok: false, message: `${who} must be ${rangeText(f)}, got ${text.trim()}` };
  if (v < f.min || v > f.max) return { ok: false, message: `${who} must be ${rangeText(f)}, got ${text.trim()}` };
  return { ok: true, value: v };
}

/** What the fields cannot say alone: heads must split d into an even head width, warmup within the steps. */
export function crossCheck(spec: Pick<RunSpec, 'config' | 'train'>): string | null {
  const { d, heads } = spec.config;
  if (d % heads !== 0) return `Attention heads (heads) must divide the stream width: d = ${d} does not split into ${heads} heads`;
  if ((d / heads) % 2 !== 0) return `Attention heads (heads): each head needs an even width for the rotary positions, and d / heads = ${d} / ${heads} = ${d / heads}`;
  if (spec.train.warmup > spec.train.steps) return `Warmup steps (warmup = ${spec.train.warmup}) must fit in the training steps (steps = ${spec.train.steps}): lower the warmup or raise the steps`;
  return null;
}

/** A number field's id in the form: "config.blocks", "train.lr". */
export type FieldId = `${'config' | 'train'}.${string}`;

export function numberFields(): { id: FieldId; group: 'config' | 'train'; field: NumberField<string> }[] {
  return [
    ...MODEL_FIELDS.filter((f): f is NumberField<ConfigKey> => f.kind === 'number').map((field) => ({ id: `config.${field.key}` as FieldId, group: 'config' as const, field })),
    ...TRAIN_FIELDS.map((field) => ({ id: `train.${field.key}` as FieldId, group: 'train' as const, field })),
  ];
}

export interface Applied {
  /** The last valid spec: every draft that is valid (alone and together) applied. */
  spec: RunSpec;
  /** Drafts still refused, by field id, with the message to show under the field. */
  problems: Partial<Record<FieldId, string>>;
}

/**
 * Applies what the learner typed (`drafts`, by field id) to the last valid
 * `spec`. A draft that is out of range is reported and leaves its field as it
 * was; when valid drafts clash (heads that do not divide d, warmup past the
 * steps) the clashing fields keep their old values and the message goes under
 * each of them. The order the learner typed in never matters.
 */
export function applyDrafts(spec: RunSpec, drafts: Partial<Record<FieldId, string>>): Applied {
  const problems: Partial<Record<FieldId, string>> = {};
  let next: RunSpec = { ...spec, config: { ...spec.config }, train: { ...spec.train } };
  const set = (group: 'config' | 'train', key: string, v: number) => ((next[group] as unknown as Record<string, number>)[key] = v);
  for (const { id, group, field } of numberFields()) {
    const text = drafts[id];
    if (text === undefined) continue;
    const v = parseField(field, text);
    if (v.ok) set(group, field.key, v.value);
    else problems[id] = `${v.message}; keeping ${field.name} = ${fieldText(spec, group, field.key)}`;
  }
  const cross = crossCheck(next);
  if (cross !== null) {
    const clash: FieldId[] = cross.startsWith('Warmup') ? ['train.warmup', 'train.steps'] : ['config.d', 'config.heads'];
    for (const id of clash) {
      const [group, key] = id.split('.') as ['config' | 'train', string];
      set(group, key, (spec[group] as unknown as Record<string, number>)[key]);
      if (drafts[id] !== undefined) problems[id] ??= `${cross}; keeping ${key} = ${(spec[group] as unknown as Record<string, number>)[key]}`;
    }
    if (crossCheck(next) !== null) next = spec; // cannot happen when `spec` was valid; never leave an invalid one
  }
  return { spec: next, problems };
}

/** The spec's value of a number field, as the form shows it. */
export function fieldText(spec: RunSpec, group: 'config' | 'train', key: string): string {
  const v = (group === 'config' ? spec.config : spec.train)[key as never] as unknown;
  // 1e-6 rather than 0.000001; whole numbers as they are (fmt would write a big seed in exponent form)
  return typeof v === 'number' && !Number.isInteger(v) ? fmt(v) : String(v);
}
