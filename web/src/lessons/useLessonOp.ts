// The hook behind the lesson widgets that ask the worker: wait for the model's
// weights when the op needs them, ask on a channel (a newer request on the same
// channel drops an older one's result), and keep the newest answer or the
// core's message.
import { useEffect, useState } from 'preact/hooks';
import { ensureWeights, weights } from '../app/inspectorState';
import { ask } from './lessonCore';
import type { LessonRequest, LessonResponse } from './protocol';

export interface OpAnswer<R> {
  result: R | null;
  error: string | null;
  pending: boolean;
}

type Op = LessonRequest['op'];
/** The `result` of the response to op O. */
export type ResultOf<O extends Op> = Extract<LessonResponse, { op: O }> extends { result: infer R } ? R : never;

export interface OpOptions {
  /** The op reads the loaded model: wait for its weights first (default true). */
  needsModel?: boolean;
  /** On an error keep showing the last result beside the message (default false: clear it). */
  keepLast?: boolean;
}

export function useLessonOp<O extends Op>(
  channel: string,
  request: Extract<LessonRequest, { op: O }>,
  deps: unknown[],
  { needsModel = true, keepLast = false }: OpOptions = {},
): OpAnswer<ResultOf<O>> {
  const [answer, setAnswer] = useState<OpAnswer<ResultOf<O>>>({ result: null, error: null, pending: true });
  useEffect(() => {
    let live = true;
    setAnswer((a) => ({ ...a, pending: true }));
    void (needsModel ? ensureWeights() : Promise.resolve(true)).then((ok) => {
      if (!live) return;
      if (!ok) {
        const w = weights.value;
        setAnswer({ result: null, error: w.status === 'failed' ? w.message : 'the model weights could not be loaded', pending: false });
        return;
      }
      void ask(channel, request).then((o) => {
        if (!live) return;
        if (o.status === 'ok') setAnswer({ result: (o.value as unknown as { result: ResultOf<O> }).result, error: null, pending: false });
        else if (o.status === 'error') setAnswer((a) => ({ result: keepLast ? a.result : null, error: o.error.message, pending: false }));
      });
    });
    return () => {
      live = false;
    };
  }, deps);
  return answer;
}
