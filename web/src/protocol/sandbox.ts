// The code-cell sandbox: what the page and a sandbox worker (worker/sandbox/)
// say to each other. Each run of a code cell gets a fresh worker with its own
// core: the page sends one 'run', the worker answers 'ready', 'started' and
// one 'result', and the page terminates it. Whatever the learner's code does
// to that worker (timers, close(), replacing its handlers, posting messages of
// its own, filling its memory) ends with it, and never reaches the core worker
// that serves the lab, lessons and inspector.
import type { ErrorData } from './base';
import type { CodeResult } from './lessons/code';
import { bool, byType, errorShape, fields, literal, nullable, num, requestId, str, type Check } from './validate';

export type { CodeResult };

/** Page -> sandbox: run this code (with the model's weights when it uses `model`). */
export interface SandboxRun {
  type: 'run';
  id: number;
  code: string;
  /** A copy of the weights file, transferred; null when the code does not use the model. */
  weights: ArrayBuffer | null;
}

/**
 * Frame -> sandbox worker, before anything else, when the sandbox runs in its
 * frame (app/sandboxFrame.ts): the worker cannot fetch, so the page sends the
 * core's .wasm (the build it chose) with its script.
 */
export interface SandboxBoot {
  type: 'boot';
  build: 'simd128' | 'relaxed-fma';
  wasm: ArrayBuffer;
}

/** Sandbox -> page (the same envelope as the core worker's, protocol/api.ts). */
export type SandboxMessage =
  | { type: 'ready' }
  | { type: 'loadFailed'; error: ErrorData }
  | { type: 'started'; id: number }
  | { type: 'result'; id: number; ok: true; value: CodeResult; computeMs: number }
  | { type: 'result'; id: number; ok: false; error: ErrorData; fatal: boolean };

/** Longest output the page accepts (the worker cuts at 20,000 characters; a forged message may not send more). */
export const MAX_SANDBOX_OUTPUT = 50_000;

const codeResult: Check = fields({ output: str(MAX_SANDBOX_OUTPUT), truncated: bool, error: nullable(errorShape) });

/** Every message a sandbox may send (protocol/validate.ts). */
export const sandboxMessage: Check = byType({
  ready: fields({ type: literal('ready') }),
  loadFailed: fields({ type: literal('loadFailed'), error: errorShape }),
  started: fields({ type: literal('started'), id: requestId }),
  result: (v, path) =>
    (v as { ok?: unknown }).ok === true
      ? fields({ type: literal('result'), id: requestId, ok: literal(true), value: codeResult, computeMs: num({ min: 0 }) })(v, path)
      : fields({ type: literal('result'), id: requestId, ok: literal(false), error: errorShape, fatal: bool })(v, path),
});
