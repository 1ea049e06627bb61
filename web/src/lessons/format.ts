// How inline live values ({{ expr | format }}) and revealed check answers are
// written in prose. Whole numbers are written as integers (6, [2, 3]), never
// with a trailing point.
import { fmt } from '../app/format';
import { formatArray, formatScalar, type Nested } from '../common/numpyFormat';
import type { Plain } from '../protocol/base';

const isNumbers = (v: Plain): boolean => (Array.isArray(v) ? v.every(isNumbers) : typeof v === 'number');

/** A number as prose writes it: whole numbers in full (147456), others as fmt does (7 significant digits). */
export function formatNumber(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(Object.is(v, -0) ? 0 : v);
  return fmt(v);
}

/** [2, 3], [[1, 2], [3, 4]], [0.5, 1]: one line, comma and space between items. */
function formatList(v: Plain): string {
  return Array.isArray(v) ? `[${v.map(formatList).join(', ')}]` : formatNumber(v as number);
}

export function formatValue(v: Plain, format: string): string {
  if (typeof v === 'number') {
    const [kind, arg] = format.split(':');
    const n = Number(arg);
    if (kind === 'int') return Math.round(v).toLocaleString('en-US');
    if (kind === 'fixed') return v.toFixed(n);
    if (kind === 'exp') return v.toExponential(n);
    if (kind === 'sig') return String(Number(v.toPrecision(n)));
    if (kind === 'np') return formatScalar(v);
    return formatNumber(v);
  }
  if (Array.isArray(v) && format === 'np') return formatArray(v as Nested);
  if (Array.isArray(v) && isNumbers(v)) return formatList(v);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
