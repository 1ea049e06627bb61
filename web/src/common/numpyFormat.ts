// How code cells print numbers. A float tensor prints like numpy's print of a
// float array, with commas between items (the RMSNorm reference output is
// written that way):
//
//   [[0.848528, 1.131371]]            fixed notation, as many decimals as needed (at most 8)
//   [[2.54558422e-08, 3.39411230e-08]] scientific when numpy would switch: a nonzero |v| < 1e-4,
//                                      |v| >= 1e8, or max/min > 1e3
//   [[2., 4.]]                        a float tensor that holds whole numbers is still float
//
// Plain JavaScript numbers and arrays (a shape, a count, byte values, a number
// that came out of .item()) are not tensors: whole ones print as integers, the
// way numpy prints an int array: [2, 3], 6, [99, 114, 195].
// Pure formatting: the numbers come from the core.

export type Nested = number | Nested[];

const PRECISION = 8;

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '') : s;
}

/** Formats every number of a nested array with one shared notation and width. */
export function formatArray(value: Nested): string {
  const flat: number[] = [];
  const walk = (v: Nested) => (Array.isArray(v) ? v.forEach(walk) : flat.push(v));
  walk(value);
  const item = itemFormatter(flat);
  const width = Math.max(0, ...flat.map((v) => item(v).length));
  const render = (v: Nested, depth: number): string => {
    if (!Array.isArray(v)) return item(v).padStart(width);
    const sep = v.length > 0 && Array.isArray(v[0]) ? `,\n${' '.repeat(depth + 1)}` : ', ';
    return `[${v.map((x) => render(x, depth + 1)).join(sep)}]`;
  };
  return render(value, 0);
}

/** A single number as numpy prints a float64 scalar. */
export function formatScalar(v: number): string {
  return itemFormatter([v])(v);
}

function itemFormatter(values: number[]): (v: number) => string {
  const finite = values.filter((v) => Number.isFinite(v) && v !== 0).map(Math.abs);
  const max = Math.max(0, ...finite);
  const min = finite.length > 0 ? Math.min(...finite) : 0;
  const scientific = finite.length > 0 && (max >= 1e8 || min < 1e-4 || max / min > 1e3);
  const special = (v: number) => (Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');
  if (scientific) {
    const digits = Math.max(
      0,
      ...values.filter(Number.isFinite).map((v) => {
        const mant = trimZeros(v.toExponential(PRECISION).split('e')[0]);
        return mant.includes('.') ? mant.split('.')[1].length : 0;
      }),
    );
    return (v) => {
      if (!Number.isFinite(v)) return special(v);
      const [mant, exp] = v.toExponential(digits).split('e');
      const sign = exp.startsWith('-') ? '-' : '+';
      const e = exp.replace(/^[+-]/, '').padStart(2, '0');
      return `${mant.includes('.') || digits > 0 ? mant : `${mant}.`}e${sign}${e}`;
    };
  }
  const decimals = Math.max(
    0,
    ...values.filter(Number.isFinite).map((v) => {
      const s = trimZeros(v.toFixed(PRECISION));
      return s.endsWith('.') ? 0 : s.split('.')[1]?.length ?? 0;
    }),
  );
  return (v) => {
    if (!Number.isFinite(v)) return special(v);
    // numpy writes each value's own digits and pads the rest with spaces: [1. , 2.5]
    const s = trimZeros(v.toFixed(decimals));
    const own = s.includes('.') ? s : `${s}.`;
    return own.padEnd(own.indexOf('.') + 1 + decimals);
  };
}

const whole = (v: number) => Number.isInteger(v) && Math.abs(v) < 2 ** 53;
const allWhole = (v: Nested): boolean => (Array.isArray(v) ? v.every(allWhole) : whole(v));

/** Whole numbers as an int array: [99, 114, 195] on one line; rows of a matrix right-aligned: [[ 1, 20],\n [ 3,  4]]. */
function formatIntArray(value: Nested): string {
  const flat: number[] = [];
  const walk = (v: Nested) => (Array.isArray(v) ? v.forEach(walk) : flat.push(v));
  walk(value);
  const item = (v: number) => String(Object.is(v, -0) ? 0 : v);
  const nested = Array.isArray(value) && value.some(Array.isArray);
  const width = nested ? Math.max(0, ...flat.map((v) => item(v).length)) : 0;
  const render = (v: Nested, depth: number): string => {
    if (!Array.isArray(v)) return item(v).padStart(width);
    const sep = v.length > 0 && Array.isArray(v[0]) ? `,\n${' '.repeat(depth + 1)}` : ', ';
    return `[${v.map((x) => render(x, depth + 1)).join(sep)}]`;
  };
  return render(value, 0);
}

/**
 * A plain (non-tensor) number or nested array as a code cell prints it: whole
 * numbers as integers (6, [2, 3]), anything else in numpy's float style.
 */
export function formatPlain(value: Nested): string {
  if (!Array.isArray(value)) return whole(value) ? String(Object.is(value, -0) ? 0 : value) : formatScalar(value);
  return allWhole(value) ? formatIntArray(value) : formatArray(value);
}

const FLOAT = Symbol('float values');

/** Marks a nested array as a float tensor's values (round(t, k) of a tensor), so it keeps numpy's float look. */
export function markFloat<T extends Nested>(value: T): T {
  if (Array.isArray(value)) Object.defineProperty(value, FLOAT, { value: true });
  return value;
}

export const isMarkedFloat = (value: unknown): boolean => Array.isArray(value) && (value as unknown as Record<symbol, unknown>)[FLOAT] === true;
