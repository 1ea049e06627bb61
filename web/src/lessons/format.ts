// How inline live values ({{ expr | format }}) are written in prose.
import { fmt } from '../app/format';
import { formatArray, formatScalar, type Nested } from './numpyFormat';
import type { Plain } from './protocol';

export function formatValue(v: Plain, format: string): string {
  if (typeof v === 'number') {
    const [kind, arg] = format.split(':');
    const n = Number(arg);
    if (kind === 'int') return Math.round(v).toLocaleString('en-US');
    if (kind === 'fixed') return v.toFixed(n);
    if (kind === 'exp') return v.toExponential(n);
    if (kind === 'sig') return String(Number(v.toPrecision(n)));
    if (kind === 'np') return formatScalar(v);
    return fmt(v);
  }
  if (Array.isArray(v) && format === 'np') return formatArray(v as Nested);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
