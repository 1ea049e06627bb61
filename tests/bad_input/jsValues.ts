// The bad-input table's JavaScript side: for each kind of argument the console
// API takes (web/src/core/args.ts's ArgKind, plus options objects and
// functions), the values of the wrong kind a caller might pass. A kind lists
// values JSON cannot hold (undefined, NaN, a bigint, a Tensor), hence a module
// beside kinds.json rather than in it. tests/web/badInput.test.ts generates one
// case per (function, argument, wrong value) from these.
import type { Glass } from '../../web/src/core';
import type { ArgKind } from '../../web/src/core/args';

export type Kind = ArgKind | 'options' | 'function' | 'data';

export interface WrongValue {
  label: string;
  make: (glass: Glass) => unknown;
}

const v = (label: string, value: unknown): WrongValue => ({ label, make: () => value });

// A live Tensor where something else belongs, a disposed one, and other handles.
const aTensor: WrongValue = { label: 'a Tensor', make: (g) => g.zeros([1]) };
const disposedTensor: WrongValue = {
  label: 'a disposed Tensor',
  make: (g) => {
    const t = g.keep(g.zeros([1]));
    t.dispose();
    return t;
  },
};
const aNorm: WrongValue = { label: 'an RMSNorm', make: (g) => g.rmsnorm(2) };
const rawHandle: WrongValue = {
  label: "a Tensor's raw Embind handle",
  make: (g) => g.zeros([1]).raw,
};

// Not a number at all: what a string, a missing value or an object would become.
const notNumbers: WrongValue[] = [
  v('the string "3"', '3'),
  v('an empty string', ''),
  v('null', null),
  v('true', true),
  v('an empty array', []),
  v('an array of one number', [3]),
  v('an object', { value: 3 }),
  v('a bigint', 3n),
  v('a symbol', Symbol('x')),
  v('a function', () => 3),
  aTensor,
];
// Numbers an int parameter (an axis) cannot hold: today's coercions (0.5 and 2^32 read as 0) included.
const notInt32: WrongValue[] = [
  v('0.5', 0.5),
  v('2^32', 2 ** 32),
  v('2^31', 2 ** 31),
  v('-2^31 - 1', -(2 ** 31) - 1),
  v('NaN', Number.NaN),
  v('Infinity', Number.POSITIVE_INFINITY),
  v('-0.5', -0.5),
];
const notWhole: WrongValue[] = [
  v('0.5', 0.5),
  v('NaN', Number.NaN),
  v('Infinity', Number.POSITIVE_INFINITY),
  v('2^53 + 2 (past the exact integers)', 2 ** 53 + 2),
];
const notArrays: WrongValue[] = [
  v('the number 3', 3),
  v('the string "3"', '3'),
  v('null', null),
  v('an object with a length', { length: 1, 0: 1 }),
  v('a Set', new Set([1])),
  aTensor,
];
const badItems = (int32: boolean): WrongValue[] => [
  v('an array holding 0.5', [0.5]),
  v('an array holding the string "2"', ['2']),
  v('an array holding NaN', [Number.NaN]),
  v('an array holding null', [null]),
  v('an array holding true', [true]),
  v('an array holding an array', [[1]]),
  ...(int32 ? [v('an array holding 2^32', [2 ** 32]), v('an array holding -2^31 - 1', [-(2 ** 31) - 1])] : [v('an array holding 2^60', [2 ** 60])]),
];

export const WRONG: Record<Kind, WrongValue[]> = {
  tensor: [v('the number 5', 5), v('the string "x"', 'x'), v('null', null), v('an object', {}), v('an empty array', []), v('an array of numbers', [1, 2]), disposedTensor, aNorm, rawHandle],
  tensors: [v('the number 5', 5), v('the string "x"', 'x'), v('null', null), { label: 'a Tensor, not in an array', make: aTensor.make }, v('an array holding 5', [5]), v('an array holding null', [null]), { label: 'an array holding a disposed Tensor', make: (g) => [disposedTensor.make(g)] }, { label: 'an array holding a raw handle', make: (g) => [rawHandle.make(g)] }],
  number: notNumbers,
  int: [...notNumbers, ...notInt32],
  int64: [...notNumbers, ...notWhole],
  boolean: [v('the number 1', 1), v('the number 0', 0), v('the string "true"', 'true'), v('null', null), v('an object', {}), aTensor],
  shape: [...notArrays, ...badItems(false)],
  axes: [...notArrays, ...badItems(true)],
  ids: [...notArrays, ...badItems(true)],
  dtype: [v('the number 32', 32), v('null', null), v('true', true), v('an object', { dtype: 'float32' }), v('an array', ['float32'])],
  string: [v('the number 5', 5), v('null', null), v('an array of strings', ['ab']), v('an object', {}), aTensor],
  options: [v('the number 5', 5), v('the string "float64"', 'float64'), v('null', null), v('an array', []), aTensor],
  function: [v('the number 5', 5), v('the string "x"', 'x'), v('null', null), v('an object', {}), aTensor],
  data: [v('the string "abc"', 'abc'), v('null', null), v('an object', {}), v('a Set', new Set([1])), v('an Int32Array', new Int32Array(2)), v('an array holding a string', ['1']), v('a nested array holding null', [[1, null]]), v('a bigint', 3n)],
};

// A value the caller leaves out: refused where the argument has no default.
export const MISSING: WrongValue = v('undefined (left out)', undefined);

/** Fragments no message may contain: Embind's internals and JavaScript's own TypeErrors. */
export const INTERNALS = /Cannot pass|Cannot convert|\$\$|BindingError|reading '|is not a function|undefined is not|Expected null or instance|Symbol\(/;
