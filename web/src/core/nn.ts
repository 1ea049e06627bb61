// nn modules of the core, as facade handles.
import { checkArg, checkHandle } from './args';
import type { Context } from './context';
import { TrackedHandle } from './handle';
import { guarded } from './errors';
import type { RawRMSNorm } from './raw';
import { Tensor } from './tensor';
import type { DTypeName } from './types';

/**
 * RMSNorm(x) = gamma * x / sqrt(mean(x^2 over the last axis) + eps), written in
 * the core from Tensor ops only (square, mean, add eps, sqrt, div, mul), so
 * backward and the graph trace show each step.
 */
export class RMSNorm extends TrackedHandle<RawRMSNorm> {
  /** Internal: use glass.rmsnorm(). Takes ownership of `raw`. */
  constructor(ctx: Context, raw: RawRMSNorm) {
    super(ctx, raw, 'RMSNorm');
  }

  private get raw(): RawRMSNorm {
    return this.live;
  }

  /** x (..., d) -> (..., d). */
  call(x: Tensor): Tensor {
    checkHandle('RMSNorm call x', x);
    const xr = x.raw;
    return new Tensor(this.ctx, guarded(() => this.raw.call(xr)));
  }

  get eps(): number {
    return guarded(() => this.raw.eps());
  }
  /** Must be finite and >= 0; otherwise a GlassError and eps is unchanged. */
  set eps(eps: number) {
    checkArg('number', 'RMSNorm eps', eps);
    guarded(() => this.raw.setEps(eps));
  }
  get dim(): number {
    return guarded(() => this.raw.dim());
  }
  get dtype(): DTypeName {
    return guarded(() => this.raw.dtype());
  }
  /** gamma (d,): a new handle sharing the norm's parameter (its grad after backward). */
  get gamma(): Tensor {
    return new Tensor(this.ctx, guarded(() => this.raw.gamma()));
  }
  /** Replaces gamma; must be (d,) of this norm's dtype. */
  setGamma(gamma: Tensor): void {
    checkHandle('RMSNorm setGamma gamma', gamma);
    const g = gamma.raw;
    guarded(() => this.raw.setGamma(g));
  }
}
