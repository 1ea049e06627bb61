// The raw Embind surface of cpp/wasm/bindings.cpp, one entry per binding.
// Use the facade (glass.ts) instead: raw handles must be freed by hand with
// .delete(), and raw errors are plain `Error`s.
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

export interface RawModule {
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

  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  div(a: T, b: T): T;
  addScalar(a: T, s: number): T;
  subScalar(a: T, s: number): T;
  mulScalar(a: T, s: number): T;
  divScalar(a: T, s: number): T;

  neg(x: T): T;
  pow(x: T, exponent: number): T;
  square(x: T): T;
  sqrt(x: T): T;
  exp(x: T): T;
  log(x: T): T;
  sigmoid(x: T): T;
  silu(x: T): T;
  tanh(x: T): T;
  relu(x: T): T;

  sum(x: T): T;
  sumAxis(x: T, axis: number, keepdim: boolean): T;
  mean(x: T): T;
  meanAxis(x: T, axis: number, keepdim: boolean): T;
  max(x: T): T;
  maxAxis(x: T, axis: number, keepdim: boolean): T;
  sumTo(x: T, shape: Numbers): T;

  matmul(a: T, b: T): T;
  reshape(x: T, shape: Numbers): T;
  permute(x: T, axes: Numbers): T;
  transpose(x: T, axis0: number, axis1: number): T;
  slice(x: T, axis: number, start: number, stop: number): T;
  concat(xs: T[], axis: number): T;
  broadcastTo(x: T, shape: Numbers): T;

  where(cond: T, a: T, b: T): T;
  maskedFill(x: T, mask: T, value: number): T;
  embedding(weight: T, ids: Numbers, idsShape: Numbers): T;
  oneHot(ids: Numbers, idsShape: Numbers, classes: number, dtype: string): T;

  softmax(x: T, axis: number): T;
  logSoftmax(x: T, axis: number): T;
  crossEntropy(logits: T, targets: Numbers): T;

  traceGraph(root: T): RawGraphNode[];

  /** Testing only: executes a wasm `unreachable` (a RuntimeError trap); the module is dead afterwards. */
  debugTrap(): void;
}
