// Turning JS values into flat values + shape for the core. Only marshalling:
// every numeric check (NaN, sizes, dtype names) is the core's.
import { describeValue } from './args';
import { GlassError } from './errors';
import type { DTypeName, NestedNumbers, TensorData } from './types';

export interface Flat {
  values: ArrayLike<number>;
  shape: number[];
  dtype: DTypeName;
}

/**
 * Flattens `data` row-major. The shape comes from the nesting (a typed array
 * is 1-d) unless `shape` is given, in which case the core checks the count.
 * Default dtype: float64 for a Float64Array, float32 otherwise.
 */
export function flatten(data: TensorData, shape?: readonly number[], dtype?: DTypeName): Flat {
  if (data instanceof Float32Array || data instanceof Float64Array) {
    return {
      values: data,
      shape: shape ? [...shape] : [data.length],
      dtype: dtype ?? (data instanceof Float64Array ? 'float64' : 'float32'),
    };
  }
  if (typeof data !== 'number' && !Array.isArray(data)) {
    throw new GlassError(`tensor data: expected a number, nested arrays of numbers, or a Float32Array or Float64Array, got ${describeValue(data)}`);
  }
  const values: number[] = [];
  const nestedShape = shapeOf(data);
  pushValues(data, nestedShape, 0, values);
  return { values, shape: shape ? [...shape] : nestedShape, dtype: dtype ?? 'float32' };
}

function shapeOf(data: NestedNumbers): number[] {
  const shape: number[] = [];
  let level: NestedNumbers = data;
  while (Array.isArray(level)) {
    shape.push(level.length);
    if (level.length === 0) break;
    level = level[0];
  }
  return shape;
}

function pushValues(data: NestedNumbers, shape: number[], axis: number, out: number[]): void {
  if (axis === shape.length) {
    if (typeof data !== 'number') {
      const what = Array.isArray(data) ? 'ragged nested array: expected a number' : 'tensor data: expected a number';
      throw new GlassError(`${Array.isArray(data) ? 'tensor: ' : ''}${what} at depth ${axis}, got ${describe(data)}`);
    }
    out.push(data);
    return;
  }
  if (!Array.isArray(data) || data.length !== shape[axis]) {
    throw new GlassError(
      `tensor: ragged nested array: expected ${shape[axis]} items at depth ${axis} (shape (${shape.join(', ')})), got ${describe(data)}`,
    );
  }
  for (const item of data as readonly NestedNumbers[]) pushValues(item, shape, axis + 1, out);
}

function describe(v: unknown): string {
  return describeValue(v);
}
