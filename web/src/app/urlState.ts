// What a learner would share lives in the address: the view and the lab's
// settings (the inspector adds its own keys; unknown keys are kept as they are).
//
//   ?view=lab&x=3,4&gamma=ones&eps=1e-6&c=1&dtype=float64&grad=sum
//
// readUrl validates every key; a bad one is reported and replaced by its default,
// so a corrupted address never breaks the page. A key given twice is reported
// (the first is used), and a message quotes at most 40 characters of a value.
import {
  DEFAULT_LAB,
  DTYPES,
  checkC,
  checkEps,
  parseNumber,
  parseVector,
  type LabSettings,
} from './labSettings';
import { duplicateKeys, quoted } from './addressText';
import type { DTypeName } from '../protocol/base';
import type { GradTarget } from '../protocol/lab';

export type View = 'start' | 'lessons' | 'lab' | 'inspector' | 'train';
export const VIEWS: readonly View[] = ['start', 'lessons', 'lab', 'inspector', 'train'];
/** A first visit (no view in the address) meets the start page, not an instrument. */
export const DEFAULT_VIEW: View = 'start';

export interface UrlState {
  view: View;
  lab: LabSettings;
}

export interface UrlRead {
  state: UrlState;
  /** One message per key that was present but invalid (its default was used). */
  problems: string[];
}

const LAB_KEYS = ['x', 'gamma', 'eps', 'c', 'dtype', 'grad'] as const;

export function readUrl(search: string): UrlRead {
  const params = new URLSearchParams(search);
  const problems: string[] = duplicateKeys(params, ['view', ...LAB_KEYS]);
  const bad = (key: string, why: string, fallback: string) => problems.push(`The address has ${key}=${quoted(params.get(key))}: ${why}; using ${fallback}.`);

  let view = DEFAULT_VIEW;
  const v = params.get('view');
  if (v !== null) {
    if ((VIEWS as readonly string[]).includes(v)) view = v as View;
    else bad('view', `not one of ${VIEWS.join(', ')}`, DEFAULT_VIEW);
  }

  const lab: LabSettings = { ...DEFAULT_LAB };
  const xText = params.get('x');
  if (xText !== null) {
    const r = parseVector(xText, 'x');
    if (r.ok) lab.x = r.value;
    else bad('x', r.message, 'the seed [3, 4]');
  }
  const gText = params.get('gamma');
  if (gText !== null && gText !== 'ones') {
    const r = parseVector(gText, 'gamma', lab.x.length);
    if (r.ok) lab.gamma = r.value;
    else bad('gamma', r.message, 'all ones');
  }
  const epsText = params.get('eps');
  if (epsText !== null) {
    const r = parseNumber(epsText, 'eps');
    const why = r.ok ? checkEps(r.value) : r.message;
    if (r.ok && why === null) lab.eps = r.value;
    else bad('eps', why!, String(DEFAULT_LAB.eps));
  }
  const cText = params.get('c');
  if (cText !== null) {
    const r = parseNumber(cText, 'c');
    const why = r.ok ? checkC(r.value) : r.message;
    if (r.ok && why === null) lab.c = r.value;
    else bad('c', why!, String(DEFAULT_LAB.c));
  }
  const dtype = params.get('dtype');
  if (dtype !== null) {
    if ((DTYPES as readonly string[]).includes(dtype)) lab.dtype = dtype as DTypeName;
    else bad('dtype', `not one of ${DTYPES.join(', ')}`, DEFAULT_LAB.dtype);
  }
  const grad = params.get('grad');
  if (grad !== null) {
    const parsed = parseGrad(grad, lab.x.length);
    if (parsed !== null) lab.grad = parsed;
    else bad('grad', `not 'sum' or a coordinate from 0 to ${lab.x.length - 1}`, 'sum');
  }
  return { state: { view, lab }, problems };
}

function parseGrad(text: string, d: number): GradTarget | null {
  if (text === 'sum') return 'sum';
  if (!/^\d+$/.test(text)) return null;
  const i = Number(text);
  return i < d ? i : null;
}

/** The query string for `state`, keeping keys other parts of the app own. */
export function writeUrl(state: UrlState, currentSearch: string): string {
  const params = new URLSearchParams(currentSearch);
  params.set('view', state.view);
  const { lab } = state;
  const labValues: Record<(typeof LAB_KEYS)[number], string> = {
    x: lab.x.map(String).join(','),
    gamma: lab.gamma === null ? 'ones' : lab.gamma.map(String).join(','),
    eps: String(lab.eps),
    c: String(lab.c),
    dtype: lab.dtype,
    grad: String(lab.grad),
  };
  for (const key of LAB_KEYS) params.set(key, labValues[key]);
  return `?${params.toString().replace(/%2C/g, ',')}`;
}
