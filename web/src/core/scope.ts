// Handle ownership.
//
// Every object the facade hands out (Tensor, RMSNorm, Generator) wraps an
// Embind handle that JS's garbage collector never frees: it must be disposed.
// The rules:
//
// 1. Inside glass.scope(fn), every handle created while fn runs belongs to that
//    scope and is disposed when fn returns or throws, except the handles in its
//    return value (a handle, or arrays / plain objects containing handles),
//    which move to the enclosing scope. Scopes nest.
// 2. A handle created outside every scope, returned from the outermost scope,
//    or passed to glass.keep() belongs to the caller: call .dispose() on it.
// 3. Disposing twice is harmless; using a disposed handle throws a GlassError.
// 4. Reading .grad, .gamma or a graph trace creates new handles (views of the
//    same C++ data); they follow the same rules.
//
// Disposing a handle never invalidates another: a Tensor is a shared handle in
// C++, so the graph, a norm's gamma or another handle keep the data alive.
import { GlassError } from './errors';
import type { Disposable } from './types';

export class HandleTracker {
  private readonly live = new Set<Disposable>();
  private readonly scopes: Set<Disposable>[] = [];

  /** Registers a new handle with the innermost scope (if any). */
  track<H extends Disposable>(handle: H): H {
    this.live.add(handle);
    this.scopes.at(-1)?.add(handle);
    return handle;
  }

  /** Called by a handle's dispose(). */
  forget(handle: Disposable): void {
    this.live.delete(handle);
    for (const scope of this.scopes) scope.delete(handle);
  }

  /** Takes `value`'s handles out of every scope: the caller now owns them. */
  keep<V>(value: V): V {
    for (const handle of handlesIn(value)) for (const scope of this.scopes) scope.delete(handle);
    return value;
  }

  /** Number of facade handles created and not yet disposed. */
  get liveCount(): number {
    return this.live.size;
  }

  scope<R>(fn: () => R): R {
    const owned = new Set<Disposable>();
    this.scopes.push(owned);
    let result: R;
    try {
      result = fn();
    } catch (e) {
      this.close(owned, new Set());
      throw e;
    }
    if (result instanceof Promise) {
      this.close(owned, new Set());
      throw new GlassError('glass.scope(fn): fn returned a Promise; scopes are synchronous (handles would be freed before the awaits ran)');
    }
    this.close(owned, handlesIn(result));
    return result;
  }

  private close(owned: Set<Disposable>, kept: Set<Disposable>): void {
    this.scopes.pop();
    const parent = this.scopes.at(-1);
    for (const handle of owned) {
      if (kept.has(handle)) parent?.add(handle);
      else handle.dispose();
    }
  }
}

function isDisposable(v: unknown): v is Disposable {
  return typeof v === 'object' && v !== null && typeof (v as Disposable).dispose === 'function' && 'isDisposed' in v;
}

/** Handles in a value: itself, or inside arrays and plain objects (any depth). */
function handlesIn(value: unknown): Set<Disposable> {
  const found = new Set<Disposable>();
  const seen = new Set<unknown>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isDisposable(v)) found.add(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (Object.getPrototypeOf(v) === Object.prototype) stack.push(...Object.values(v));
  }
  return found;
}
