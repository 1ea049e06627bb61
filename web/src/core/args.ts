// The facade's argument checks: every value a caller passes (from the app, a
// lesson cell or the DevTools console) is checked for its kind before it
// reaches Embind, which would otherwise coerce it (a string for a number is
// NaN, an axis of 0.5 or 2^32 is 0) or fail with its own internals ("Cannot
// pass non-string to std::string", "reading '$$'"). A refusal is a GlassError
// "<op> <parameter>: expected <kind>, got <the value>", worded as the core's
// own checks of the same kinds (cpp/wasm/marshal.h), which guard the raw
// bindings. The op table's methods call these from generated code
// (opMethods.gen.ts, scripts/gen_op_table.py maps each C++ type to a kind);
// hand-written facade methods call them directly.
import { GlassError } from './errors';
import { TrackedHandle } from './handle';

/** What a parameter must be (scripts/gen_op_table.py's TYPES name one per C++ type). */
export type ArgKind = 'tensor' | 'tensors' | 'number' | 'int' | 'int64' | 'boolean' | 'shape' | 'axes' | 'ids' | 'dtype' | 'string';

const INT32 = 'a whole number from -2147483648 to 2147483647';

/** The kind as a message says it: "expected <this>". */
export const KIND_TEXT: Record<ArgKind, string> = {
  tensor: 'a Tensor',
  tensors: 'an array of Tensors',
  number: 'a number',
  int: INT32,
  int64: 'a whole number',
  boolean: 'true or false',
  shape: 'an array of whole numbers',
  axes: 'an array of whole numbers',
  ids: 'an array of whole numbers',
  dtype: "'float32' or 'float64'",
  string: 'a string',
};

/** A JS value as a message shows it: the number 0.5, the string "3", undefined, an array of 3, a Tensor. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return `the number ${String(v)}`;
    case 'bigint':
      return `the bigint ${String(v)}n`;
    case 'boolean':
      return String(v);
    case 'string':
      return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v instanceof TrackedHandle) return v.isDisposed ? `a disposed ${v.handleKind}` : `a ${v.handleKind}`;
  // a raw Embind handle (glass.raw's), which the facade cannot use in place of its own objects
  if (typeof (v as { isDeleted?: unknown }).isDeleted === 'function' && typeof (v as { delete?: unknown }).delete === 'function') {
    return `a raw core handle (${(v as object).constructor.name}, from glass.raw)`;
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return `a ${v.constructor.name} of ${(v as unknown as ArrayLike<number>).length}`;
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : 'an object';
}

function refuse(what: string, kind: string, got: unknown, where = ''): never {
  throw new GlassError(`${what}: expected ${kind}${where}, got ${describeValue(got)}`);
}

// up to 2^53 in size, as the core reads sizes (cpp/wasm/marshal.h): a size past its cap is the core's to refuse, by name
const isWhole = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && Math.abs(x) <= 2 ** 53;
const isInt32 = (x: unknown): x is number => isWhole(x) && x >= -2147483648 && x <= 2147483647;

function isArrayLike(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/** A live facade Tensor (or another handle kind); a disposed one is refused by name. */
export function checkHandle(what: string, v: unknown, kind = 'Tensor'): void {
  if (!(v instanceof TrackedHandle) || v.handleKind !== kind) refuse(what, `a ${kind}`, v);
  if (v.isDisposed) throw new GlassError(`${what}: the ${kind} was disposed (its scope ended, or dispose() was called)`);
}

/** Throws a GlassError naming `what` ("transpose axis0") unless v is of the kind. */
export function checkArg(kind: ArgKind, what: string, v: unknown): void {
  switch (kind) {
    case 'tensor':
      return checkHandle(what, v);
    case 'tensors':
      if (!Array.isArray(v)) refuse(what, KIND_TEXT.tensors, v);
      (v as unknown[]).forEach((item, i) => {
        if (!(item instanceof TrackedHandle) || item.handleKind !== 'Tensor') refuse(what, 'a Tensor', item, ` at item ${i}`);
        checkHandle(`${what} item ${i}`, item);
      });
      return;
    case 'number':
      if (typeof v !== 'number') refuse(what, KIND_TEXT.number, v);
      return;
    case 'int':
      if (!isInt32(v)) refuse(what, INT32, v);
      return;
    case 'int64':
      if (!isWhole(v)) refuse(what, KIND_TEXT.int64, v);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') refuse(what, KIND_TEXT.boolean, v);
      return;
    case 'shape':
    case 'axes':
    case 'ids': {
      if (!isArrayLike(v)) refuse(what, KIND_TEXT[kind], v);
      const fits = kind === 'shape' ? isWhole : isInt32;
      for (let i = 0; i < v.length; i++) if (!fits(v[i])) refuse(what, kind === 'shape' ? 'a whole number' : INT32, v[i], ` at item ${i}`);
      return;
    }
    case 'dtype': // a string; which names are dtypes is the core's to say (it also knows 'f32')
      if (typeof v !== 'string') refuse(what, KIND_TEXT.dtype, v);
      return;
    case 'string':
      if (typeof v !== 'string') refuse(what, KIND_TEXT.string, v);
      return;
  }
}

/** Checks each [parameter, kind, value] of op `op`, in order. */
export function checkArgs(op: string, args: readonly (readonly [string, ArgKind, unknown])[]): void {
  for (const [name, kind, value] of args) checkArg(kind, `${op} ${name}`, value);
}

/** An options argument: undefined (none) or a plain object; its fields are checked by their users. */
export function checkOptions(what: string, v: unknown): void {
  if (v === undefined) return;
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof TrackedHandle) refuse(what, 'an options object', v);
}

/** An optional field: undefined, or of the kind. */
export function checkOptional(kind: ArgKind, what: string, v: unknown): void {
  if (v !== undefined) checkArg(kind, what, v);
}
