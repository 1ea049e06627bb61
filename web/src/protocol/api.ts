// The worker protocol: every request kind, what it carries and what comes back,
// and the messages that travel between the page and the worker.
//
// The kinds and their types are not written here: they are read off the
// worker's handler table (web/src/worker/handlers.ts), where each kind is a
// function (state, payload) -> result. A type-only import: nothing of the
// worker reaches the page's bundle. docs/worker-protocol.md tells the story.
import type { handlers } from '../worker/handlers';
import type { ErrorData } from './base';
import type { ModelUse } from './model';

type Handlers = typeof handlers;

/** Every request kind the worker answers. */
export type Kind = keyof Handlers;

/** kind -> { request: the handler's payload; response: what it returns }. */
export type Api = { [K in Kind]: { request: Parameters<Handlers[K]>[1]; response: ReturnType<Handlers[K]> } };

export type RequestOf<K extends Kind> = Api[K]['request'];
export type ResponseOf<K extends Kind> = Api[K]['response'];

/** Page -> worker. */
export interface Request<K extends Kind = Kind> {
  id: number;
  kind: K;
  payload: RequestOf<K>;
  /** Which model the request reads (default 'shown'). */
  model?: ModelUse;
}

/** Worker -> page. */
export type Response =
  | { type: 'result'; id: number; ok: true; value: unknown; computeMs: number }
  // fatal: the core trapped (WebAssembly.RuntimeError); the worker is unusable.
  | { type: 'result'; id: number; ok: false; error: ErrorData; fatal: boolean }
  // A request's work begins now (its time limit counts from here, not from the
  // moment it was sent: loading the core or earlier requests do not count).
  | { type: 'started'; id: number }
  | { type: 'ready'; core?: CoreThreads }
  | { type: 'loadFailed'; error: ErrorData };

/** Which build of the core the worker loaded, and its threads (web/src/core/threadedBuild.ts). */
export interface CoreThreads {
  /** The threaded build (a cross-origin isolated page), or the single-threaded one. */
  threaded: boolean;
  /** Threads its kernels compute on, the worker's own included. */
  threads: number;
  /** The most it can use: its Web Workers plus its own thread (1 single-threaded). */
  maxThreads: number;
}
