// Tensor: the facade's handle to a C++ glass::Tensor.
//
// Values live in wasm memory. `data()` copies them out; shape and dtype are
// read once. Every method that computes returns a new Tensor, tracked by the
// current scope (see scope.ts for who frees what). Ops accept a Tensor or a
// number where the C++ API has a scalar overload.
//
// The plain ops (t.neg(), t.reshape(shape), t.softmax(-1), ...) come from the
// op table through TensorOps (opMethods.gen.ts); written here are the rest:
// metadata, autograd, copies, and the ops whose facade picks between two raw
// ops (add/sub/mul/div of a tensor or a number, sum/mean/max over all or one axis).
import { checkArg, checkHandle, checkOptional, checkOptions, describeValue } from './args';
import type { Context } from './context';
import { GlassError, guarded } from './errors';
import { TensorOps } from './opMethods.gen';
import type { RawTensor } from './raw';
import type { BackwardOptions, DTypeName, NestedNumbers } from './types';

export type TensorOrNumber = Tensor | number;

export class Tensor extends TensorOps<Tensor> {
  private cachedShape: readonly number[] | null = null;

  /** Internal: use glass.tensor() and friends. Takes ownership of `raw`. */
  constructor(ctx: Context, raw: RawTensor) {
    super(ctx, raw, 'Tensor');
  }

  /** The Embind handle (throws if disposed). For the facade's own use. */
  get raw(): RawTensor {
    return this.live;
  }

  // ---- metadata and values ----
  get shape(): readonly number[] {
    this.cachedShape ??= Object.freeze(guarded(() => this.raw.shape()));
    return this.cachedShape;
  }
  get dtype(): DTypeName {
    return guarded(() => this.raw.dtype());
  }
  get ndim(): number {
    return this.shape.length;
  }
  get numel(): number {
    return guarded(() => this.raw.numel());
  }
  get strides(): number[] {
    return guarded(() => this.raw.strides());
  }
  get isContiguous(): boolean {
    return guarded(() => this.raw.isContiguous());
  }
  /** A row-major copy of the values (Float32Array for float32, Float64Array for float64). */
  data(): Float32Array | Float64Array {
    return guarded(() => this.raw.data());
  }
  /** The values as nested arrays of the tensor's shape (a number for shape ()). */
  toNested(): NestedNumbers {
    const flat = this.data();
    const shape = this.shape;
    let pos = 0;
    const build = (axis: number): NestedNumbers => {
      if (axis === shape.length) return flat[pos++];
      return Array.from({ length: shape[axis] }, () => build(axis + 1));
    };
    return build(0);
  }
  /** The single value of a one-element tensor. */
  item(): number {
    return guarded(() => this.raw.item());
  }
  get name(): string {
    return guarded(() => this.raw.name());
  }
  set name(name: string) {
    checkArg('string', 'Tensor name', name);
    guarded(() => this.raw.setName(name));
  }
  /** Sets the name the graph inspector shows; returns this. */
  named(name: string): this {
    this.name = name;
    return this;
  }
  toString(): string {
    return this.isDisposed ? 'Tensor(disposed)' : `Tensor(${guarded(() => this.raw.describe())})`;
  }

  // ---- autograd ----
  get requiresGrad(): boolean {
    return guarded(() => this.raw.requiresGrad());
  }
  set requiresGrad(on: boolean) {
    checkArg('boolean', 'Tensor requiresGrad', on);
    guarded(() => this.raw.setRequiresGrad(on));
  }
  /** Marks a leaf as needing a gradient; returns this. */
  requireGrad(on = true): this {
    this.requiresGrad = on;
    return this;
  }
  get isLeaf(): boolean {
    return guarded(() => this.raw.isLeaf());
  }
  /** The gradient written by backward, or null. Each read is a new handle. */
  get grad(): Tensor | null {
    const g = guarded(() => this.raw.grad());
    return g === null ? null : new Tensor(this.ctx, g);
  }
  zeroGrad(): void {
    guarded(() => this.raw.zeroGrad());
  }
  /** Asks backward() to store this non-leaf's gradient; returns this. */
  retainGrad(): this {
    guarded(() => this.raw.retainGrad());
    return this;
  }
  /** backward() from a one-element tensor, or backward(upstream) with a gradient of this shape. */
  backward(upstreamOrOptions?: Tensor | BackwardOptions, options?: BackwardOptions): void {
    if (upstreamOrOptions instanceof Tensor) {
      checkHandle('backward upstream', upstreamOrOptions);
      checkOptions('backward options', options);
      const upstream = upstreamOrOptions.raw;
      guarded(() => this.raw.backwardWith(upstream, options ?? {}));
    } else {
      checkOptions('backward options (or an upstream Tensor)', upstreamOrOptions);
      guarded(() => this.raw.backward(upstreamOrOptions ?? {}));
    }
  }
  detach(): Tensor {
    return this.make((t) => t.detach());
  }

  // ---- copies and views ----
  contiguous(): Tensor {
    return this.make((t) => t.contiguous());
  }
  clone(): Tensor {
    return this.make((t) => t.clone());
  }
  /** Explicit cast (differentiable). */
  to(dtype: DTypeName): Tensor {
    checkArg('dtype', 'to dtype', dtype);
    return this.make((t) => t.to(dtype));
  }

  // ---- elementwise, binary (broadcasting); a number is a scalar of this dtype ----
  add(other: TensorOrNumber): Tensor {
    return this.binary(other, 'add', 'addScalar');
  }
  sub(other: TensorOrNumber): Tensor {
    return this.binary(other, 'sub', 'subScalar');
  }
  mul(other: TensorOrNumber): Tensor {
    return this.binary(other, 'mul', 'mulScalar');
  }
  div(other: TensorOrNumber): Tensor {
    return this.binary(other, 'div', 'divScalar');
  }

  // ---- reductions: over everything (shape ()) or along one axis ----
  sum(axis?: number, keepdim = false): Tensor {
    this.checkAxis('sum', axis, keepdim);
    return this.make((t) => (axis === undefined ? this.ctx.raw.sum(t) : this.ctx.raw.sumAxis(t, axis, keepdim)));
  }
  mean(axis?: number, keepdim = false): Tensor {
    this.checkAxis('mean', axis, keepdim);
    return this.make((t) => (axis === undefined ? this.ctx.raw.mean(t) : this.ctx.raw.meanAxis(t, axis, keepdim)));
  }
  max(axis?: number, keepdim = false): Tensor {
    this.checkAxis('max', axis, keepdim);
    return this.make((t) => (axis === undefined ? this.ctx.raw.max(t) : this.ctx.raw.maxAxis(t, axis, keepdim)));
  }

  // ---- helpers ----
  protected make(call: (raw: RawTensor) => RawTensor): Tensor {
    const self = this.raw;
    return new Tensor(this.ctx, guarded(() => call(self)));
  }

  private checkAxis(op: string, axis: number | undefined, keepdim: boolean): void {
    checkOptional('int', `${op} axis`, axis);
    checkArg('boolean', `${op} keepdim`, keepdim);
  }

  private binary(
    other: TensorOrNumber,
    withTensor: 'add' | 'sub' | 'mul' | 'div',
    withScalar: 'addScalar' | 'subScalar' | 'mulScalar' | 'divScalar',
  ): Tensor {
    if (typeof other === 'number') return this.make((t) => this.ctx.raw[withScalar](t, other));
    if (!(other instanceof Tensor)) throw new GlassError(`${withTensor} other: expected a Tensor or a number, got ${describeValue(other)}`);
    checkHandle(`${withTensor} other`, other);
    const b = other.raw;
    return this.make((t) => this.ctx.raw[withTensor](t, b));
  }
}
