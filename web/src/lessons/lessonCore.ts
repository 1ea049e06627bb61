// The page's side of the 'lesson' request kind. Lesson requests go to the worker
// one at a time (so the core client never drops one as stale), and each caller
// names a channel: a newer request on the same channel (a slider that moved on)
// supersedes a waiting or running one, whose result is dropped.
// Code cells and expressions (code a learner can edit) have a time limit: an
// endless loop is stopped after LESSON_TIME_LIMIT_MS by restarting the worker,
// and the cell says so (coreClient.ts).
import { ensureWeights } from '../app/inspectorState';
import type { ErrorData } from '../app/protocol';
import { core } from '../app/state';
import type { LessonRequest, LessonResponse } from './protocol';

export type LessonOutcome<R> = { status: 'ok'; value: R } | { status: 'error'; error: ErrorData } | { status: 'stale' };

export const LESSON_TIME_LIMIT_MS = 3000;
const LIMITED: ReadonlySet<LessonRequest['op']> = new Set(['code', 'eval']);

/**
 * Resolves once code that mentions `model` can run: the weights are fetched and
 * in the worker (they are loaded on first need, not with the page). Code
 * cells, live values and checks all wait here, so a deep link to any step works.
 */
export function modelReadyFor(sources: readonly string[]): Promise<boolean> {
  return sources.some((s) => /\bmodel\b/.test(s)) ? ensureWeights() : Promise.resolve(true);
}

let chain: Promise<unknown> = Promise.resolve();
const newest = new Map<string, number>();
let counter = 0;

export function ask<O extends LessonRequest['op']>(
  channel: string,
  request: Extract<LessonRequest, { op: O }>,
): Promise<LessonOutcome<Extract<LessonResponse, { op: O }>>> {
  const id = ++counter;
  newest.set(channel, id);
  const mine = chain.then(async (): Promise<LessonOutcome<Extract<LessonResponse, { op: O }>>> => {
    if (newest.get(channel) !== id) return { status: 'stale' };
    const o = await core.request('lesson', request, LIMITED.has(request.op) ? { timeLimitMs: LESSON_TIME_LIMIT_MS } : {});
    if (newest.get(channel) !== id) return { status: 'stale' };
    if (o.status === 'ok') return { status: 'ok', value: o.value as Extract<LessonResponse, { op: O }> };
    if (o.status === 'error') return { status: 'error', error: o.error };
    return { status: 'stale' };
  });
  chain = mine.catch(() => undefined);
  return mine;
}
