// The one implementation of a facade object that owns an Embind handle and
// is tracked by the scopes (scope.ts explains the rules): Tensor, RMSNorm and
// Generator extend it.
import type { Context } from './context';
import { GlassError } from './errors';
import type { RawHandle } from './raw';
import type { Disposable } from './types';

export abstract class TrackedHandle<R extends RawHandle> implements Disposable {
  private handle: R | null;

  /** Takes ownership of `raw` and registers with the innermost scope. */
  protected constructor(
    protected readonly ctx: Context,
    raw: R,
    private readonly kind: string,
  ) {
    this.handle = raw;
    ctx.tracker.track(this);
  }

  /** The Embind handle; a GlassError once disposed. */
  protected get live(): R {
    if (this.handle === null) throw new GlassError(`this ${this.kind} was disposed (its scope ended, or dispose() was called)`);
    return this.handle;
  }

  /** What this handle is ('Tensor', 'RMSNorm', 'Generator'): argument checks name it (args.ts). */
  get handleKind(): string {
    return this.kind;
  }

  get isDisposed(): boolean {
    return this.handle === null;
  }

  dispose(): void {
    if (this.handle === null) return;
    this.handle.delete();
    this.handle = null;
    this.ctx.tracker.forget(this);
  }
}
