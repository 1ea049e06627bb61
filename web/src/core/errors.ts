// Errors from the core reach JS as plain `Error`s whose message is exactly the
// C++ glass::Error message (cpp/wasm/marshal.h). The facade re-raises them as
// GlassError (a subclass of Error, name 'GlassError') with the same message,
// so callers can tell core errors from their own bugs.

export class GlassError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GlassError';
  }
}

/** A core error as a GlassError; anything else (Embind binding errors, bugs) unchanged. */
export function toGlassError(e: unknown): unknown {
  if (e instanceof GlassError) return e;
  if (e instanceof Error && e.name === 'Error') return new GlassError(e.message, { cause: e });
  return e;
}

/** Runs a raw core call, re-raising core errors as GlassError. */
export function guarded<R>(call: () => R): R {
  try {
    return call();
  } catch (e) {
    throw toGlassError(e);
  }
}
