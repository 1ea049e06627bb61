// Lessons always read the shipped model (issue 11): once a learner opens their
// own weights in the inspector, the worker holds both, and a request's `use`
// (set by worker.ts from the request; lessons ask for 'shipped') picks one. So
// a lesson's value is the same before and after, the inspector's is the own
// model's, neither reuses a run of the other, and going back frees the own model.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrainSession, type TrainModelConfig, type TrainOptions } from '../../web/src/core/trainSession';
import { DEFAULT_PROMPT } from '../../web/src/protocol/model';
import { DEFAULT_MODEL_CONFIG } from '../../web/src/protocol/trainSettings';
import { handlers } from '../../web/src/worker/handlers';
import { forgetOwnModel, loadModel, needModel, type WorkerState } from '../../web/src/worker/state';
import { loadTestWorker, shippedWeightsUrl } from './load';

const TEXT = Array.from({ length: 40 }, (_, i) => `In the beginning ${i} God created the heaven and the earth. `).join('');
const OPTIONS: TrainOptions = { steps: 1, batch: 2, lr: 1e-3, warmup: 0, clip: 1, weightDecay: 0.1, seed: 1, evalEvery: 0 };
/** A model that differs from the shipped one in every way a lesson would notice: 2 blocks, width 32, 2 heads. */
const OWN: TrainModelConfig = { ...DEFAULT_MODEL_CONFIG, blocks: 2, d: 32, heads: 2, ctx: 64 };
const RUN = { text: DEFAULT_PROMPT, eps: 1e-6, dtype: 'float32' as const };

let w: WorkerState;
let ownBytes: Uint8Array;
beforeAll(async () => {
  w = await loadTestWorker();
  loadModel(w, readFileSync(shippedWeightsUrl));
  const s = TrainSession.create(w.glass, OWN, OPTIONS, TEXT);
  ownBytes = s.weights();
  s.dispose();
});
afterAll(() => {
  forgetOwnModel(w);
  w.shipped?.model.dispose();
  expect(w.glass.liveHandles()).toBe(0);
});

/** A request as worker.ts answers it: `use` from the request, then the handler. */
function ask<K extends keyof typeof handlers>(use: 'shown' | 'shipped', kind: K, payload: Parameters<(typeof handlers)[K]>[1]) {
  w.use = use;
  return (handlers[kind] as (s: WorkerState, p: unknown) => ReturnType<(typeof handlers)[K]>)(w, payload);
}

describe('the shipped model beside the learner’s own', () => {
  it('lessons read the shipped model before and after the own one is opened; the inspector reads the own one', () => {
    const lessonBefore = ask('shipped', 'nextByteLoss', { text: DEFAULT_PROMPT, position: 3 });
    const codeBefore = ask('shipped', 'evaluate', { exprs: ['model.info().blocks', 'model.info().d', 'model.run(prompt).loss'], prompt: DEFAULT_PROMPT });
    const shownBefore = ask('shown', 'modelRun', { ...RUN, backward: false, patterns: false, interventions: [] });

    const info = handlers.loadWeights(w, { bytes: ownBytes.slice().buffer, whose: 'own' });
    expect([info.blocks, info.d, info.heads]).toEqual([2, 32, 2]);

    // the inspector (and the console: 'shown' is the default) now reads the own model
    const shown = ask('shown', 'modelRun', { ...RUN, backward: false, patterns: false, interventions: [] });
    expect(Object.keys(shown.snapshots)).toContain('blocks.1.resid.ffn');
    expect(Object.keys(shown.snapshots)).not.toContain('blocks.3.resid.ffn');
    expect(shown.loss).not.toBe(shownBefore.loss);
    // a lesson's widget, expressions and code read the shipped one, bit for bit as before
    expect(ask('shipped', 'nextByteLoss', { text: DEFAULT_PROMPT, position: 3 })).toEqual(lessonBefore);
    const code = ask('shipped', 'evaluate', { exprs: ['model.info().blocks', 'model.info().d', 'model.run(prompt).loss'], prompt: DEFAULT_PROMPT });
    expect(code).toEqual(codeBefore);
    expect(code[0]).toEqual({ ok: true, value: 4 });
    expect(code[1]).toEqual({ ok: true, value: 128 });
  });

  it('each model keeps its own held run: the inspector never reuses a lesson’s run, nor a lesson the inspector’s', () => {
    const input = { run: RUN, show: { kind: 'single' as const, name: 'blocks.0.resid.attn', grad: true } };
    const first = ask('shown', 'inspect', input);
    // a lesson runs the shipped model on another text in between
    ask('shipped', 'nextByteLoss', { text: 'And God said', position: 2 });
    w.use = 'shown';
    expect(needModel(w).held?.key).toContain(DEFAULT_PROMPT); // the own model still holds the inspector's run
    const again = ask('shown', 'inspect', input);
    expect(again.runMs).toBe(0); // reused, not run again
    expect(again.shown[0].data).toEqual(first.shown[0].data);
    w.use = 'shipped';
    expect(needModel(w).held?.key).toContain('And God said');
  });

  it('a refused own file keeps the shipped model for lessons; going back frees the own model', () => {
    const before = ask('shipped', 'evaluate', { exprs: ['model.run(prompt).loss'], prompt: DEFAULT_PROMPT });
    expect(() => handlers.loadWeights(w, { bytes: new Uint8Array([1, 2, 3]).buffer, whose: 'own' })).toThrow(/safetensors/);
    expect(ask('shipped', 'evaluate', { exprs: ['model.run(prompt).loss'], prompt: DEFAULT_PROMPT })).toEqual(before);
    const own = w.own!.model;
    handlers.forgetOwnWeights(w, null);
    expect(w.own).toBeNull();
    expect(() => own.info()).toThrow(/this Model was disposed/);
    // the inspector shows the shipped model again
    const shown = ask('shown', 'modelRun', { ...RUN, backward: false, patterns: false, interventions: [] });
    expect(Object.keys(shown.snapshots)).toContain('blocks.3.resid.ffn');
  });
});
