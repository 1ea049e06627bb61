// The lab's settings: defaults, limits, presets, and reading them from text a
// learner typed or from the URL. Everything here is validation and parsing;
// the numbers themselves are computed by the core in the worker.
import type { DTypeName } from '../protocol/base';
import type { GradTarget, LabInput } from '../protocol/lab';
import { clip } from './addressText';

export type LabSettings = LabInput;

export const D_MIN = 2;
export const D_MAX = 128;
export const EPS_LOG10 = { min: -12, max: 2 } as const;
export const C_LOG10 = { min: -8, max: 8 } as const;
export const DTYPES: readonly DTypeName[] = ['float64', 'float32'];

/** The RMSNorm lesson's example: x = [3, 4], eps = 1e-6, float64. */
export const DEFAULT_LAB: LabSettings = { x: [3, 4], gamma: null, eps: 1e-6, c: 1, dtype: 'float64', grad: 'sum' };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A finite number from text, or a message naming the problem. */
export function parseNumber(text: string, label: string): ParseResult<number> {
  const t = text.trim();
  if (t === '') return { ok: false, message: `${label} is empty: type a number such as 3 or -0.5` };
  if (/^[+-]?nan$/i.test(t)) return { ok: false, message: `${label} is NaN: the lab needs a finite number` };
  if (/^[+-]?(inf|infinity|∞)$/i.test(t)) {
    return { ok: false, message: `${label} is ${t}: the lab needs a finite number (try 1e200 to see overflow)` };
  }
  // Number('') is 0 and Number('0x10') is 16: accept only decimal notation.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { ok: false, message: `${label}: '${clip(t)}' is not a number` };
  const v = Number(t);
  if (!Number.isFinite(v)) return { ok: false, message: `${label}: ${clip(t)} is beyond the float64 range (it would be Infinity)` };
  // 1e-400 reads as 0 without a word: say so instead of computing with a zero nobody typed.
  if (v === 0 && /[1-9]/.test(t.replace(/e.*$/i, '')))
    return { ok: false, message: `${label}: ${clip(t)} is too small for float64 (it would be 0); type 0 if you mean zero, or a number from about 5e-324` };
  return { ok: true, value: v };
}

/** A vector from text such as "3, 4" or "3 4". */
export function parseVector(text: string, label: string, length?: number): ParseResult<number[]> {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { ok: false, message: `${label} is empty: it needs ${D_MIN} to ${D_MAX} numbers` };
  const out: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const r = parseNumber(parts[i], `${label}[${i}]`);
    if (!r.ok) return r;
    out.push(r.value);
  }
  if (length !== undefined && out.length !== length) {
    return { ok: false, message: `${label} has ${out.length} number${out.length === 1 ? '' : 's'}; it needs ${length} (one per coordinate of x)` };
  }
  if (out.length < D_MIN || out.length > D_MAX) {
    return { ok: false, message: `${label} has ${out.length} number${out.length === 1 ? '' : 's'}; d must be from ${D_MIN} to ${D_MAX}` };
  }
  return { ok: true, value: out };
}

export function checkEps(eps: number): string | null {
  if (eps === 0) return null;
  if (!(eps >= 10 ** EPS_LOG10.min && eps <= 10 ** EPS_LOG10.max)) return `eps must be 0 or from 1e-12 to 1e2, got ${eps}`;
  return null;
}

export function checkC(c: number): string | null {
  if (!(c >= 10 ** C_LOG10.min && c <= 10 ** C_LOG10.max)) return `c must be from 1e-8 to 1e8, got ${c}`;
  return null;
}

/** A backward target from text: 'sum' or a coordinate index below d. */
export function parseGrad(text: string, d: number): GradTarget | null {
  if (text === 'sum') return 'sum';
  if (!/^\d+$/.test(text)) return null;
  const i = Number(text);
  return i < d ? i : null;
}

/** The keys a lesson's widget line may set (```widget epsilon-lab x=2,2,2,2 eps=0.01). */
export const LAB_ARG_KEYS = ['x', 'gamma', 'eps', 'c', 'dtype', 'grad'] as const;

/**
 * Settings for a lesson widget from the key=value pairs on its widget line,
 * starting from DEFAULT_LAB. A bad value is an error in the lesson file, so it
 * is refused with a message rather than replaced.
 */
export function parseLabArgs(args: Readonly<Record<string, string>>): ParseResult<LabSettings> {
  const s: LabSettings = { ...DEFAULT_LAB };
  for (const key of Object.keys(args)) {
    if (!(LAB_ARG_KEYS as readonly string[]).includes(key)) return { ok: false, message: `unknown setting '${key}' (known: ${LAB_ARG_KEYS.join(', ')})` };
  }
  if (args.x !== undefined) {
    const r = parseVector(args.x, 'x');
    if (!r.ok) return r;
    s.x = r.value;
  }
  if (args.gamma !== undefined && args.gamma !== 'ones') {
    const r = parseVector(args.gamma, 'gamma', s.x.length);
    if (!r.ok) return r;
    s.gamma = r.value;
  }
  for (const key of ['eps', 'c'] as const) {
    if (args[key] === undefined) continue;
    const r = parseNumber(args[key], key);
    if (!r.ok) return r;
    const why = key === 'eps' ? checkEps(r.value) : checkC(r.value);
    if (why !== null) return { ok: false, message: why };
    s[key] = r.value;
  }
  if (args.dtype !== undefined) {
    if (!(DTYPES as readonly string[]).includes(args.dtype)) return { ok: false, message: `dtype '${args.dtype}' is not one of ${DTYPES.join(', ')}` };
    s.dtype = args.dtype as DTypeName;
  }
  if (args.grad !== undefined) {
    const g = parseGrad(args.grad, s.x.length);
    if (g === null) return { ok: false, message: `grad '${args.grad}' is not 'sum' or a coordinate from 0 to ${s.x.length - 1}` };
    s.grad = g;
  }
  return { ok: true, value: s };
}

/** Fits gamma and the gradient target to a new x (keeps what still fits). */
export function withX(settings: LabSettings, x: number[]): LabSettings {
  const d = x.length;
  let gamma = settings.gamma;
  if (gamma !== null && gamma.length !== d) gamma = Array.from({ length: d }, (_, i) => gamma![i] ?? 1);
  const grad: GradTarget = settings.grad !== 'sum' && settings.grad >= d ? 'sum' : settings.grad;
  return { ...settings, x, gamma, grad };
}

// ---- presets ----
export type PresetName = 'seed' | 'constant' | 'zeros' | 'oneHot' | 'random' | 'huge' | 'tiny';

export const PRESETS: readonly { name: PresetName; label: string; what: string }[] = [
  { name: 'seed', label: '[3, 4]', what: "the RMSNorm lesson's example" },
  { name: 'constant', label: 'Constant', what: 'every coordinate 2: LayerNorm gives zeros, RMSNorm does not' },
  { name: 'zeros', label: 'All zeros', what: 'x = 0: eps decides between 0 and 0/0 = NaN' },
  { name: 'oneHot', label: 'One-hot', what: 'a single 1' },
  { name: 'random', label: 'Random', what: "seeded normal values from the core's generator" },
  { name: 'huge', label: 'Huge (1e200)', what: 'squares overflow' },
  { name: 'tiny', label: 'Tiny (1e-200)', what: 'squares underflow' },
];

/** The preset's vector of width d; 'random' comes from the core (a 'randomVector' request). */
export function presetVector(name: Exclude<PresetName, 'random'>, d: number): number[] {
  switch (name) {
    case 'seed':
      return [3, 4];
    case 'constant':
      return Array(d).fill(2);
    case 'zeros':
      return Array(d).fill(0);
    case 'oneHot':
      return Array.from({ length: d }, (_, i) => (i === 0 ? 1 : 0));
    case 'huge':
      return Array.from({ length: d }, (_, i) => (i % 2 === 0 ? 1e200 : -2e200));
    case 'tiny':
      return Array.from({ length: d }, (_, i) => (i % 2 === 0 ? 1e-200 : -2e-200));
  }
}
