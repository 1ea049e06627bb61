// What lesson widgets, code cells and steps ask the worker, and the hook behind
// the widgets: wait for the model's weights when the op needs them, ask on a
// channel (a newer request of the same kind on the same channel drops an older
// one's result: app/coreClient.ts), and keep the newest answer or the core's
// message.
// The lesson's expressions (inline values, check answers) have a short time
// limit: one that loops is stopped after LESSON_TIME_LIMIT_MS by restarting the
// core worker. Code cells (which the learner edits) never reach the core
// worker: each run gets a sandbox of its own (runCell).
import { useEffect, useState } from 'preact/hooks';
import { core, sandbox } from '../app/core';
import type { Outcome } from '../app/coreClient';
import { ensureWeights, weights, weightsCopy } from '../app/inspectorState';
import type { SandboxOutcome } from '../app/sandboxClient';
import type { Kind, RequestOf, ResponseOf } from '../protocol/api';

export const LESSON_TIME_LIMIT_MS = 3000;
const LIMITED: ReadonlySet<Kind> = new Set<Kind>(['evaluate']);

/**
 * Resolves once code that mentions `model` can run: the weights are fetched and
 * in the worker (they are loaded on first need, not with the page). Code
 * cells, live values and checks all wait here, so a deep link to any step works.
 */
export function modelReadyFor(sources: readonly string[]): Promise<boolean> {
  return sources.some((s) => /\bmodel\b/.test(s)) ? ensureWeights() : Promise.resolve(true);
}

/** One request on a channel; lesson code gets its time limit. */
export function askLesson<K extends Kind>(kind: K, payload: RequestOf<K>, channel: string): Promise<Outcome<K>> {
  return core().request(kind, payload, LIMITED.has(kind) ? { channel, timeLimitMs: LESSON_TIME_LIMIT_MS } : { channel });
}

/** Runs a code cell in a fresh sandbox worker, with a copy of the weights when the code uses the model. */
export async function runCell(code: string, channel: string): Promise<SandboxOutcome> {
  const usesModel = /\bmodel\b/.test(code);
  if (usesModel && !(await ensureWeights())) {
    const w = weights.peek();
    return { status: 'error', error: { name: 'Weights', message: w.status === 'failed' ? w.message : 'the model weights could not be loaded' } };
  }
  return sandbox().run(code, { channel, weights: usesModel ? weightsCopy() : null, timeLimitMs: LESSON_TIME_LIMIT_MS });
}

export interface OpAnswer<R> {
  result: R | null;
  error: string | null;
  pending: boolean;
}

export interface OpOptions {
  /** Who asks (default: the kind's own channel). Two widgets of one kind on a page need two. */
  channel?: string;
  /** The op reads the loaded model: wait for its weights first (default true). */
  needsModel?: boolean;
  /** On an error keep showing the last result beside the message (default false: clear it). */
  keepLast?: boolean;
  /** Do not ask now (the widget's own input is unreadable): keep the last answer. */
  skip?: boolean;
}

export function useLessonOp<K extends Kind>(
  kind: K,
  payload: RequestOf<K>,
  deps: unknown[],
  { channel = 'widget', needsModel = true, keepLast = false, skip = false }: OpOptions = {},
): OpAnswer<ResponseOf<K>> {
  const [answer, setAnswer] = useState<OpAnswer<ResponseOf<K>>>({ result: null, error: null, pending: true });
  useEffect(() => {
    if (skip) return;
    let live = true;
    setAnswer((a) => ({ ...a, pending: true }));
    void (needsModel ? ensureWeights() : Promise.resolve(true)).then((ok) => {
      if (!live) return;
      if (!ok) {
        const w = weights.value;
        setAnswer({ result: null, error: w.status === 'failed' ? w.message : 'the model weights could not be loaded', pending: false });
        return;
      }
      void askLesson(kind, payload, channel).then((o) => {
        if (!live) return;
        if (o.status === 'ok') setAnswer({ result: o.value, error: null, pending: false });
        else if (o.status === 'error') setAnswer((a) => ({ result: keepLast ? a.result : null, error: o.error.message, pending: false }));
      });
    });
    return () => {
      live = false;
    };
  }, deps);
  return answer;
}
