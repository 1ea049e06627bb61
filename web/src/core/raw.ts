// The raw Embind surface of cpp/wasm/bindings.cpp, one entry per binding;
// the ops come from the op table (rawOps.gen.ts, generated from
// cpp/glass/tensor/op_table.inc, which cpp/wasm/op_bindings.cpp registers).
// Use the facade (glass.ts) instead: raw handles must be freed by hand with
// .delete(), and raw errors are plain `Error`s.
import type { RawOps } from './rawOps.gen';
import type { DTypeName } from './types';

export interface RawHandle {
  delete(): void;
  isDeleted(): boolean;
}

export type RawBackwardOptions = { retainGraph?: boolean; retainGrads?: boolean } | undefined;

export interface RawTensor extends RawHandle {
  shape(): number[];
  strides(): number[];
  dtype(): DTypeName;
  numel(): number;
  ndim(): number;
  data(): Float32Array | Float64Array;
  item(): number;
  isContiguous(): boolean;
  name(): string;
  setName(name: string): void;
  requiresGrad(): boolean;
  setRequiresGrad(on: boolean): void;
  isLeaf(): boolean;
  grad(): RawTensor | null;
  zeroGrad(): void;
  retainGrad(): void;
  backward(options: RawBackwardOptions): void;
  backwardWith(upstream: RawTensor, options: RawBackwardOptions): void;
  detach(): RawTensor;
  contiguous(): RawTensor;
  clone(): RawTensor;
  to(dtype: string): RawTensor;
  describe(): string;
}

export type RawGenerator = RawHandle;
export type RawNoGradGuard = RawHandle;

export interface RawRMSNorm extends RawHandle {
  call(x: RawTensor): RawTensor;
  eps(): number;
  setEps(eps: number): void;
  dim(): number;
  dtype(): DTypeName;
  gamma(): RawTensor;
  setGamma(gamma: RawTensor): void;
}

export interface RawGraphNode {
  id: number;
  /** "leaf" for tensors no op made; otherwise the core's op name ("square", "mean", ...). */
  op: string;
  /** Op arguments worth showing, e.g. "axis=-1, keepdim". */
  detail: string;
  name: string;
  /** Ids of this node's inputs, in argument order. */
  inputs: number[];
  shape: number[];
  dtype: DTypeName;
  requiresGrad: boolean;
  value: RawTensor | null;
  grad: RawTensor | null;
}

type T = RawTensor;
type Numbers = ArrayLike<number>;

/** Everything cpp/wasm/bindings.cpp registers, plus every op of the table (RawOps). */
export interface RawModule extends RawOps<RawTensor> {
  Generator: new (seed: number) => RawGenerator;
  NoGradGuard: new () => RawNoGradGuard;
  RMSNorm: new (d: number, eps: number, dtype: string) => RawRMSNorm;
  gradEnabled(): boolean;

  fromArray(data: Numbers, shape: Numbers, dtype: string): T;
  scalar(value: number, dtype: string): T;
  zeros(shape: Numbers, dtype: string): T;
  ones(shape: Numbers, dtype: string): T;
  full(shape: Numbers, value: number, dtype: string): T;
  randn(shape: Numbers, gen: RawGenerator, dtype: string): T;
  uniform(shape: Numbers, low: number, high: number, gen: RawGenerator, dtype: string): T;

  traceGraph(root: T): RawGraphNode[];
  /** cpp/wasm/layernorm_bindings.cpp: a fresh nn::LayerNorm (gamma 1, beta 0) of x's last axis, applied to x. */
  layernormOf(x: T, eps: number): T;

  /** The kernels' threads (cpp/glass/tensor/thread_pool.h): 1 and only 1 in the build without threads. */
  setThreads(n: number): void;
  threads(): number;
  maxThreads(): number;

  /** Testing only: executes a wasm `unreachable` (a RuntimeError trap); the module is dead afterwards. */
  debugTrap(): void;
}
