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
import { ensureShippedWeights, ensureWeights, shippedWeights, shippedWeightsCopy, weights } from '../app/inspectorState';
import type { ModelUse } from '../protocol/model';
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
  return sources.some((s) => /\bmodel\b/.test(s)) ? ensureShippedWeights() : Promise.resolve(true);
}

/**
 * One request on a channel; lesson code gets its time limit. Lessons always read
 * the shipped model (their text and checks are about it), even while the
 * inspector shows the learner's own weights.
 */
export function askLesson<K extends Kind>(kind: K, payload: RequestOf<K>, channel: string, model: ModelUse = 'shipped'): Promise<Outcome<K>> {
  return core().request(kind, payload, LIMITED.has(kind) ? { channel, timeLimitMs: LESSON_TIME_LIMIT_MS, model } : { channel, model });
}

/** Waits for a model's weights; resolves to null when ready, else the message to show. */
async function modelProblem(model: ModelUse): Promise<string | null> {
  const ok = await (model === 'shipped' ? ensureShippedWeights() : ensureWeights());
  if (ok) return null;
  const w = (model === 'shipped' ? shippedWeights : weights).peek();
  return w.status === 'failed' ? w.message : 'the model weights could not be loaded';
}

/** Runs a code cell in a fresh sandbox worker, with a copy of the weights when the code uses the model. */
export async function runCell(code: string, channel: string): Promise<SandboxOutcome> {
  const usesModel = /\bmodel\b/.test(code);
  const problem = usesModel ? await modelProblem('shipped') : null;
  if (problem !== null) return { status: 'error', error: { name: 'Weights', message: problem } };
  return sandbox().run(code, { channel, weights: usesModel ? shippedWeightsCopy() : null, timeLimitMs: LESSON_TIME_LIMIT_MS });
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
  /** Which model: 'shipped' for lessons (default), 'shown' for the inspector's tools (the learner's own weights once opened). */
  model?: ModelUse;
}

export function useLessonOp<K extends Kind>(
  kind: K,
  payload: RequestOf<K>,
  deps: unknown[],
  { channel = 'widget', needsModel = true, keepLast = false, skip = false, model = 'shipped' }: OpOptions = {},
): OpAnswer<ResponseOf<K>> {
  const [answer, setAnswer] = useState<OpAnswer<ResponseOf<K>>>({ result: null, error: null, pending: true });
  useEffect(() => {
    if (skip) return;
    let live = true;
    setAnswer((a) => ({ ...a, pending: true }));
    void (needsModel ? modelProblem(model) : Promise.resolve(null)).then((problem) => {
      if (!live) return;
      if (problem !== null) {
        setAnswer({ result: null, error: problem, pending: false });
        return;
      }
      void askLesson(kind, payload, channel, model).then((o) => {
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
