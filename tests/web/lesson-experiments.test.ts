// The lessons' experiments without a core: which experiments an expression
// reads, the start command a lesson run sends (its own name, no checkpoint
// kept, the followed entries), when the runs reach the checks (both ended,
// and gone again at a new start), the text cut to its first bytes, and the
// refusal of a followed entry the model does not have. (Trained for real,
// every check answered from the runs: tests/web/lessons.test.ts.)
import { describe, expect, it } from 'vitest';
import { EXPERIMENTS, experimentById } from '../../web/src/app/lessonExperiments';
import type { StepReport, TrainCommand, TrainEvent } from '../../web/src/protocol/train';
import { checkTrainCommand, checkTrainEvent } from '../../web/src/protocol/trainCheck';
import { ExperimentSession, experimentsRead, finishedRuns } from '../../web/src/viewmodels/experiments';
import type { SpawnRun } from '../../web/src/viewmodels/train';
import { firstBytes, readTrainingData } from '../../web/src/worker/trainer/data';
import { checkProbes, readProbes } from '../../web/src/worker/trainer/probe';
import { safetensorsBytes } from './safetensors';

const report = (step: number, total: number, extra: Partial<StepReport> = {}): StepReport => ({
  step,
  total,
  loss: 5 - step / 10,
  lr: 0.001 * step,
  gradNorm: 1 + step,
  blockGradNorms: [step, 2 * step],
  residRms: [1, 1, 1],
  seconds: 0.01,
  tokensPerSecond: 1000,
  etaSeconds: 1,
  valLoss: step === total ? 4 : null,
  ...extra,
});

/** Workers that record the commands and let the test play their events. */
function fakeSpawn() {
  const sent: TrainCommand[] = [];
  const emit: ((e: TrainEvent) => void)[] = [];
  const spawn: SpawnRun = (onEvent) => {
    emit.push(onEvent);
    return { send: (c) => void sent.push(c), dispose: () => {} };
  };
  return { spawn, sent, emit };
}

/** A minimal safetensors file of 1-d tensors. */
const safetensors = (tensors: Record<string, number[]>): Uint8Array =>
  safetensorsBytes(Object.fromEntries(Object.entries(tensors).map(([name, v]) => [name, { shape: [v.length], data: v }])), { format: 'test' });

describe('lesson experiments', () => {
  it('an expression reads the experiments it names, once each', () => {
    expect(experimentsRead('runs.prenorm.A.valLoss < runs.prenorm.B.valLoss')).toEqual(['prenorm']);
    expect(experimentsRead('runs.batch.A.steps + runs.adamw.B.steps')).toEqual(['batch', 'adamw']);
    expect(experimentsRead("model.info().norms + myruns.x")).toEqual([]);
  });

  it('every experiment is a valid pair of runs, and its start command is its own: a lesson name, no checkpoint kept, its followed entries', () => {
    for (const e of EXPERIMENTS) {
      const { spawn, sent } = fakeSpawn();
      const s = new ExperimentSession(e, spawn, (f) => f());
      s.start();
      expect(sent).toHaveLength(2);
      for (const [i, c] of sent.entries()) {
        expect(checkTrainCommand(c)).toBe(c);
        if (c.type !== 'start') throw new Error('not a start');
        expect(c.spec.run).toBe(`lesson-${e.id}-${i === 0 ? 'A' : 'B'}`);
        expect(c.spec.persist).toBe(false);
        expect(c.spec.probes).toEqual(e.probes.map(({ param, index }) => ({ param, index })));
        expect(c.spec.data).toEqual(i === 0 ? e.a.data : e.b.data);
      }
      s.dispose();
    }
  });

  it('the checks see the runs only once both have ended, and lose them when the experiment trains again', () => {
    const e = experimentById('batch')!;
    const { spawn, emit } = fakeSpawn();
    const s = new ExperimentSession(e, spawn, (f) => f());
    s.start();
    const play = (k: number, ev: TrainEvent) => emit[k](checkTrainEvent(ev));
    for (const k of [0, 1]) for (const step of [1, 2]) play(k, { type: 'step', report: report(step, 2, { probes: [{ value: step, m: 0.1, v: 0.01 }] }) });
    play(0, { type: 'stopped', step: 2, finished: true, valLoss: 4 });
    expect(Object.hasOwn(finishedRuns.value, 'batch')).toBe(false); // B still training
    play(1, { type: 'stopped', step: 2, finished: true, valLoss: 4 });
    const runs = finishedRuns.value.batch;
    expect(runs.A).toMatchObject({ label: e.a.label, steps: 2, losses: [4.9, 4.8], gradNorms: [2, 3], blockGradNorms: [[1, 2], [2, 4]], valSteps: [2], valLosses: [4], valLoss: 4 });
    expect(runs.A.probes).toEqual([{ value: [1, 2], m: [0.1, 0.1], v: [0.01, 0.01] }]);
    expect(runs.B.peakLr).toBe(e.b.train.lr);
    s.start(); // again: the old runs no longer answer
    expect(Object.hasOwn(finishedRuns.value, 'batch')).toBe(false);
    s.dispose();
  });

  it('a run stopped by the learner does not answer the checks', () => {
    const e = experimentById('prenorm')!;
    const { spawn, emit } = fakeSpawn();
    const s = new ExperimentSession(e, spawn, (f) => f());
    s.start();
    emit[0]({ type: 'step', report: report(1, 60) });
    emit[1]({ type: 'step', report: report(1, 60) });
    s.stop();
    emit[0]({ type: 'stopped', step: 1, finished: false, valLoss: 5 });
    emit[1]({ type: 'stopped', step: 1, finished: false, valLoss: 5 });
    expect(Object.hasOwn(finishedRuns.value, 'prenorm')).toBe(false);
    s.dispose();
  });

  it('the start of a text: at most n bytes, never half a character', async () => {
    expect(firstBytes('abcdef', 4)).toBe('abcd');
    expect(firstBytes('abc', 10)).toBe('abc');
    expect(firstBytes('aé', 2)).toBe('a'); // é is 2 bytes: cut before it
    expect(firstBytes('aé', 3)).toBe('aé');
    expect(() => firstBytes('abc', 0)).toThrow(/whole number of bytes/);
    const kjv = new TextEncoder().encode('In the beginning God created the heaven and the earth.');
    const t = await readTrainingData({ kind: 'kjv', bytes: 16 }, async () => kjv.buffer.slice(0) as ArrayBuffer);
    expect(t).toEqual({ text: 'In the beginning', label: 'the first 16 bytes of the KJV excerpt', bytes: 16 });
    expect(() => checkTrainCommand({ type: 'start', spec: { ...startSpec(), data: { kind: 'kjv', bytes: '16' } } })).toThrow(/spec.data.bytes must be a number/);
  });

  it('followed entries are read from the checkpoint; one the model does not have is refused by name', () => {
    const ckpt = safetensors({ 'w.weight': [1, 2, 3], 'adamw.m.w.weight': [0.1, 0.2, 0.3], 'adamw.v.w.weight': [0.01, 0.02, 0.03] });
    expect(readProbes(ckpt, [{ param: 'w.weight', index: 1 }])[0]).toEqual({ value: 2, m: Math.fround(0.2), v: Math.fround(0.02) });
    expect(() => checkProbes(ckpt, [{ param: 'w.weight', index: 1 }])).not.toThrow();
    expect(() => checkProbes(ckpt, [{ param: 'nope', index: 0 }])).toThrow(/no parameter named "nope" to follow \(the model has w.weight\)/);
    expect(() => checkProbes(ckpt, [{ param: 'w.weight', index: 3 }])).toThrow(/has 3 numbers; index 3 is not one of them/);
    expect(() => checkProbes(ckpt, [{ param: 'adamw.m.w.weight', index: 0 }])).toThrow(/no parameter named/);
    expect(() => checkTrainEvent({ type: 'step', report: { ...report(1, 2), probes: [{ value: 1, m: 'x', v: 0 }] } })).toThrow(/report.probes\[\].m must be a number/);
  });
});

function startSpec() {
  const e = experimentById('batch')!;
  return { run: 'x', config: e.a.config, train: e.a.train, data: e.a.data, init: { kind: 'scratch' } };
}
