// The Train view's state: commands a run sends its worker, and how the
// worker's events are filed (a fake worker here; the e2e tests use the real one).
import { describe, expect, it } from 'vitest';
import type { StepReport, TrainCommand, TrainEvent } from '../../web/src/protocol/train';
import { RunController, TrainSession, blankRun, canSave, type SpawnRun } from '../../web/src/viewmodels/train';
import { checkUploadSize, dataSource, MAX_UPLOAD_BYTES } from '../../web/src/viewmodels/trainData';
import { PRESETS } from '../../web/src/app/trainPresets';

function fakeWorkers() {
  const sent: { worker: number; command: TrainCommand; transfer: Transferable[] }[] = [];
  const emit: ((e: TrainEvent) => void)[] = [];
  const disposed: number[] = [];
  const spawn: SpawnRun = (onEvent) => {
    const worker = emit.length;
    emit.push(onEvent);
    return { send: (command, transfer = []) => sent.push({ worker, command, transfer }), dispose: () => disposed.push(worker) };
  };
  return { spawn, sent, emit, disposed };
}

const now = (flush: () => void) => flush(); // publish at once (no animation frames in Node)

const report = (step: number, loss: number, valLoss: number | null = null): StepReport => ({
  step,
  total: 3,
  loss,
  lr: 1e-3,
  gradNorm: 1,
  blockGradNorms: [0.5, 0.25],
  residRms: [1, 1.1, 1.2],
  tokensPerSecond: 1000,
  etaSeconds: 2,
  valLoss,
  seconds: 0.01,
});

const p = PRESETS[0];
const controller = (spawn: SpawnRun) => new RunController(blankRun('A', p.a.label, { ...p.a.config, blocks: 2 }, { ...p.a.train, steps: 3 }, 'scratch'), spawn, now);

describe('a run', () => {
  it('starts its worker with its spec, then files steps, validation losses and samples', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'text', text: 'hello '.repeat(50), label: 'your text' });
    expect(c.state.value.phase).toBe('starting');
    expect(w.sent).toHaveLength(1);
    const cmd = w.sent[0].command;
    expect(cmd.type).toBe('start');
    if (cmd.type !== 'start') return;
    expect(cmd.spec).toMatchObject({ run: 'A', config: { blocks: 2 }, train: { steps: 3 }, init: { kind: 'scratch' }, data: { kind: 'text' } });

    w.emit[0]({ type: 'started', run: 'A', parameters: 1234, trainBytes: 285, valBytes: 15, config: cmd.spec.config, train: cmd.spec.train, dataLabel: 'your text', depthNames: ['embed', 'blocks.0.resid.ffn', 'blocks.1.resid.ffn'] });
    w.emit[0]({ type: 'step', report: report(1, 5.5) });
    w.emit[0]({ type: 'step', report: report(2, 5.1, 5.3) });
    w.emit[0]({ type: 'sample', step: 2, prompt: 'In the', text: ' beginning' });
    const s = c.state.value;
    expect(s.phase).toBe('running');
    expect(s.info).toMatchObject({ parameters: 1234, dataLabel: 'your text' });
    expect(s.reports.map((r) => r.loss)).toEqual([5.5, 5.1]);
    expect(s.val).toEqual([{ step: 2, loss: 5.3 }]);
    expect(s.sample).toEqual({ step: 2, prompt: 'In the', text: ' beginning' });
    expect(canSave(s)).toBe(false); // mid-run: pause or stop first

    w.emit[0]({ type: 'step', report: report(3, 4.9) });
    w.emit[0]({ type: 'stopped', step: 3, finished: true, valLoss: 5.0 });
    expect(c.state.value.phase).toBe('finished');
    expect(c.state.value.val).toEqual([
      { step: 2, loss: 5.3 },
      { step: 3, loss: 5.0 },
    ]);
    expect(canSave(c.state.value)).toBe(true);
  });

  it('pauses, resumes and stops through its worker', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'kjv' });
    w.emit[0]({ type: 'step', report: report(1, 5.5) });
    c.pause();
    expect(c.state.value.phase).toBe('pausing');
    expect(w.sent.at(-1)!.command).toEqual({ type: 'pause' });
    c.pause(); // already pausing: nothing more is sent
    expect(w.sent).toHaveLength(2);
    w.emit[0]({ type: 'paused', step: 1 });
    expect([c.state.value.phase, canSave(c.state.value)]).toEqual(['paused', true]);
    c.resume();
    expect(w.sent.at(-1)!.command).toEqual({ type: 'resume' });
    w.emit[0]({ type: 'resumed', step: 1 });
    expect(c.state.value.phase).toBe('running');
    c.stop();
    expect(c.state.value.phase).toBe('stopping');
    expect(w.sent.at(-1)!.command).toEqual({ type: 'stop' });
    w.emit[0]({ type: 'stopped', step: 2, finished: false, valLoss: null });
    expect([c.state.value.phase, c.state.value.heldStep]).toEqual(['stopped', 2]);
  });

  it('a divergence keeps the plots and the weights of the step before, and they can still be saved', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'kjv' });
    w.emit[0]({ type: 'step', report: report(1, 5.5) });
    w.emit[0]({ type: 'step', report: report(2, 80) });
    w.emit[0]({ type: 'diverged', step: 3, what: 'loss', message: 'The loss is NaN.' });
    const s = c.state.value;
    expect(s.phase).toBe('diverged');
    expect(s.diverged).toEqual({ step: 3, what: 'loss', message: 'The loss is NaN.' });
    expect(s.reports).toHaveLength(2);
    expect(s.heldStep).toBe(2);
    let got: string | null = null;
    expect(c.requestWeights((_, name) => (got = name))).toBe(true);
    expect(w.sent.at(-1)!.command).toEqual({ type: 'save' });
    w.emit[0]({ type: 'weights', bytes: new ArrayBuffer(8), fileName: 'run-A-step-2.safetensors' });
    expect(got).toBe('run-A-step-2.safetensors');
  });

  it('a refusal before the first step fails the run with the worker’s words; a fatal error replaces the worker', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'kjv' });
    w.emit[0]({ type: 'error', error: { name: 'GlassError', message: 'the text is shorter than the context' }, fatal: false });
    expect([c.state.value.phase, c.state.value.error]).toEqual(['failed', 'the text is shorter than the context']);
    c.start({ kind: 'kjv' }); // again: each start has a fresh worker (and core)
    expect(w.disposed).toEqual([0]);
    expect(w.emit).toHaveLength(2);
    w.emit[1]({ type: 'step', report: report(1, 5.5) });
    w.emit[1]({ type: 'error', error: { name: 'RuntimeError', message: 'unreachable' }, fatal: true });
    expect(w.disposed).toEqual([0, 1]); // a fatal error drops the worker at once
    expect([c.state.value.phase, c.state.value.reports.length]).toEqual(['failed', 1]); // the plots stay
    w.emit[1]({ type: 'step', report: report(2, 5.0) }); // a late event from the dead worker is ignored
    expect(c.state.value.reports.length).toBe(1);
  });

  it('moves a file’s bytes to the worker (transferred, a copy per run) and loaded weights as the start', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    const weights = new Uint8Array([1, 2, 3]).buffer;
    c.setup({ weightsFile: { name: 'mine.safetensors', bytes: weights } });
    const file = new Uint8Array(300).fill(65).buffer;
    const d = dataSource({ kind: 'file', name: 'a.txt', size: 300, bytes: file }, () => '');
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    c.start(d.source());
    const { command, transfer } = w.sent[0];
    if (command.type !== 'start') throw new Error('expected start');
    expect(command.spec.init.kind).toBe('weights');
    expect(transfer).toHaveLength(2);
    expect(transfer).not.toContain(file); // the page keeps its own copy for the next run
    expect(transfer).not.toContain(weights);
  });

  it('a harmless refusal after the run ended is said but does not fail the run', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'kjv' });
    w.emit[0]({ type: 'step', report: report(1, 5.5) });
    w.emit[0]({ type: 'stopped', step: 1, finished: true, valLoss: 5.4 });
    w.emit[0]({ type: 'error', error: { name: 'CommandError', message: 'nothing to pause: the run has ended' }, fatal: false });
    expect([c.state.value.phase, c.state.value.error]).toEqual(['finished', 'nothing to pause: the run has ended']);
    expect(canSave(c.state.value)).toBe(true);
  });

  it('settings cannot change while a run trains', () => {
    const w = fakeWorkers();
    const c = controller(w.spawn);
    c.start({ kind: 'kjv' });
    c.setup({ label: 'changed' });
    expect(c.state.value.label).toBe(p.a.label);
  });
});

describe('the session', () => {
  it('a preset sets both runs; an empty paste is refused before any worker starts', () => {
    const w = fakeWorkers();
    const s = new TrainSession(w.spawn, () => 'lesson text', now);
    s.applyPreset('residual');
    expect([s.runs.A.state.value.config.residual, s.runs.B.state.value.config.residual]).toEqual([true, false]);
    s.data.value = { kind: 'paste', text: '   ' };
    s.start();
    expect(s.notice.value).toBe('Paste some text to train on first (or pick another source).');
    expect(w.sent).toHaveLength(0);
    s.data.value = { kind: 'lessons' };
    s.start();
    expect(s.notice.value).toBeNull();
    expect(w.sent.map((x) => x.command.type)).toEqual(['start', 'start']);
    expect(w.sent.map((x) => (x.command.type === 'start' ? x.command.spec.data : null))).toEqual([
      { kind: 'text', text: 'lesson text', label: 'the lesson texts' },
      { kind: 'text', text: 'lesson text', label: 'the lesson texts' },
    ]);
    s.applyPreset('eps'); // busy: refused
    expect(s.presetId.value).toBe('residual');
  });

  it('a file over 50 MB is refused by its size alone', () => {
    expect(checkUploadSize('big.txt', MAX_UPLOAD_BYTES + 1)).toBe('“big.txt” is 52.4 MB; the trainer takes files of at most 50 MB, so it was not read.');
    expect(checkUploadSize('ok.txt', MAX_UPLOAD_BYTES)).toBeNull();
    expect(checkUploadSize('empty.txt', 0)).toContain('empty');
  });
});
