// Number formatting for display (no math: the core computed every value).

/** A compact, honest rendering: NaN and Infinity spelled out, tiny/huge in exponent form. */
export function fmt(v: number, digits = 7): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e7) return String(Number(v.toPrecision(digits)));
  return v.toExponential(digits - 1).replace(/\.?0+e/, 'e');
}

/** "1e-6" style for a power of ten, else fmt. */
export function fmtScale(v: number): string {
  if (v === 0) return '0';
  const e = v.toExponential(2);
  const [mant, exp] = e.split('e');
  const power = Number(exp);
  if (mant === '1.00') return power >= -3 && power <= 3 ? String(10 ** power) : `1e${power}`;
  return fmt(v, 3);
}

/** numpy's repr of a float64 in exponent form: 2.54558422e-08 (two-digit exponent). */
export function fmtNumpyExp(v: number, digits = 8): string {
  return v.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
}

export const fmtVector = (xs: readonly number[], digits = 7) => `[${xs.map((v) => fmt(v, digits)).join(', ')}]`;

/** A count with its noun: "1 thread", "2 threads". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
