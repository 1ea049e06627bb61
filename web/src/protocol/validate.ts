// Checks every message the page receives from a worker before believing it.
// A worker is code the page started, but a learner's code cell runs in one
// (worker/sandbox/) and can post anything; a bug can too. So each client
// (app/coreClient.ts, app/sandboxClient.ts, the trainer's client) runs what
// arrives through a check built from these pieces, and treats a message that
// fails as a broken worker (it is stopped and replaced), never as data.
//
//   const event = byType({ ready: fields({}), step: fields({ step: int(1, 1e9) }) });
//   const problem = event(data);          // null: the message has that shape
//
// A check returns null when the value fits, else a short problem naming the
// path ("result.error.message: not a string").
import type { Response } from './api';

/** null: fits; else what is wrong, naming where. */
export type Check = (value: unknown, path?: string) => string | null;

/** Longest string a message may carry (a code cell's output is capped well below this). */
export const MAX_MESSAGE_STRING = 1_000_000;

const at = (path: string | undefined, name: string) => (path ? `${path}.${name}` : name);
const where = (path: string | undefined) => (path ? `${path}: ` : '');

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);
}

export const anything: Check = () => null;

export function str(max = MAX_MESSAGE_STRING): Check {
  return (v, path) =>
    typeof v !== 'string' ? `${where(path)}not a string` : v.length > max ? `${where(path)}a string of ${v.length} characters (at most ${max})` : null;
}

/** One of these exact values. */
export function literal(...values: readonly (string | number | boolean | null)[]): Check {
  return (v, path) => (values.includes(v as string) ? null : `${where(path)}not one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
}

export const bool: Check = (v, path) => (typeof v === 'boolean' ? null : `${where(path)}not true or false`);

/** A finite number (NaN and ±Infinity are refused unless `nonFinite`). */
export function num(options: { min?: number; max?: number; nonFinite?: boolean } = {}): Check {
  const { min = -Infinity, max = Infinity, nonFinite = false } = options;
  return (v, path) => {
    if (typeof v !== 'number') return `${where(path)}not a number`;
    if (!Number.isFinite(v)) return nonFinite ? null : `${where(path)}not a finite number`;
    return v < min || v > max ? `${where(path)}${v} is outside ${min}..${max}` : null;
  };
}

/** A whole number from min to max. */
export function int(min: number, max: number): Check {
  return (v, path) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max ? null : `${where(path)}not a whole number from ${min} to ${max}`);
}

export function nullable(check: Check): Check {
  return (v, path) => (v === null ? null : check(v, path));
}

export function arrayOf(item: Check, maxLength = 1_000_000): Check {
  return (v, path) => {
    if (!Array.isArray(v)) return `${where(path)}not an array`;
    if (v.length > maxLength) return `${where(path)}an array of ${v.length} items (at most ${maxLength})`;
    for (let i = 0; i < v.length; i++) {
      const p = item(v[i], at(path, String(i)));
      if (p !== null) return p;
    }
    return null;
  };
}

export const bytes: Check = (v, path) => (v instanceof ArrayBuffer ? null : `${where(path)}not an ArrayBuffer`);

/**
 * An object with exactly these fields (an optional one is named in `optional`);
 * a field not listed is refused, so a message cannot smuggle extra data.
 */
export function fields(shape: Record<string, Check>, optional: readonly string[] = []): Check {
  const names = Object.keys(shape);
  return (v, path) => {
    if (!isRecord(v)) return `${where(path)}not an object`;
    for (const key of Object.keys(v)) if (!(key in shape)) return `${where(path)}unexpected field '${key.slice(0, 40)}'`;
    for (const name of names) {
      if (!(name in v)) {
        if (optional.includes(name)) continue;
        return `${where(path)}missing field '${name}'`;
      }
      const p = shape[name](v[name], at(path, name));
      if (p !== null) return p;
    }
    return null;
  };
}

/** A message with a string `type` field, checked by the shape of its type. */
export function byType(shapes: Record<string, Check>): Check {
  return (v, path) => {
    if (!isRecord(v)) return `${where(path)}not an object`;
    const type = v.type;
    if (typeof type !== 'string' || !Object.hasOwn(shapes, type)) return `${where(path)}no known type (${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type})`;
    return shapes[type](v, path);
  };
}

/** Either check (the first problem is reported if neither fits). */
export function either(a: Check, b: Check): Check {
  return (v, path) => {
    const p = a(v, path);
    return p === null || b(v, path) === null ? null : p;
  };
}

export const errorShape: Check = fields({ name: str(200), message: str(10_000) });

/** Request ids are positive whole numbers the client handed out. */
export const requestId: Check = int(1, Number.MAX_SAFE_INTEGER);

/**
 * The core worker's messages (protocol/api.ts, Response). `value` is checked by
 * `valueOf(id)`: the client knows which kind that id asked for.
 */
export function responseCheck(valueOf: (id: number) => Check = () => anything): Check {
  const ok = fields({ type: literal('result'), id: requestId, ok: literal(true), value: anything, computeMs: num({ min: 0 }) });
  const failed = fields({ type: literal('result'), id: requestId, ok: literal(false), error: errorShape, fatal: bool });
  return byType({
    result: (v, path) => {
      const r = v as Record<string, unknown>;
      const p = (r.ok === true ? ok : failed)(v, path);
      if (p !== null || r.ok !== true) return p;
      return valueOf(r.id as number)(r.value, at(path, 'value'));
    },
    started: fields({ type: literal('started'), id: requestId }),
    ready: fields({ type: literal('ready'), core: fields({ threaded: bool, threads: int(1, 256), maxThreads: int(1, 256) }) }, ['core']),
    loadFailed: fields({ type: literal('loadFailed'), error: errorShape }),
  });
}

/** Narrows after a check passed. */
export function asResponse(v: unknown): Response {
  return v as Response;
}

/** A problem as it goes into a notice: short, whatever the message held. */
export function shortProblem(problem: string, max = 160): string {
  return problem.length <= max ? problem : `${problem.slice(0, max - 1)}…`;
}
