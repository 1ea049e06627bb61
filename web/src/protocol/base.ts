// The base types of the worker protocol: what every feature's requests and
// results are built from. Plain data only (structured clone): no handles, no
// classes. Imports nothing but types from the core facade, so any layer (the
// worker, the page, the tests) can use it.
import type { DTypeName, NamedTensor } from '../core';
import type { RawGraphNode } from '../core/raw';

export type { DTypeName, NamedTensor };

/** An error as data: how every refusal and crash crosses the worker boundary. */
export interface ErrorData {
  name: string;
  message: string;
}

export function errorData(e: unknown): ErrorData {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

/** A tensor as the page shows it (the inspector's heatmap), with what the core computed about it. */
export interface ShownTensor extends NamedTensor {
  name: string;
  grad: boolean;
  /** Per-position RMS sqrt(mean(t², last axis)), (n,). */
  rowRms: Float32Array | Float64Array;
  /** ||t|| over every element. */
  norm: number;
}

/** One node of the core's recorded autograd graph (its fields as core/raw.ts documents them), values copied out. */
export type GraphNodeView = Pick<RawGraphNode, 'id' | 'op' | 'detail' | 'name' | 'inputs' | 'shape'> & {
  value: number[];
  grad: number[] | null;
};

/** A value an expression or widget returned: numbers, strings, booleans, nested arrays of numbers. */
export type Plain = number | string | boolean | null | Plain[] | { [key: string]: Plain };

export type ValueOutcome = { ok: true; value: Plain } | { ok: false; error: ErrorData };
