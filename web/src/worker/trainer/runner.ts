// One training run in the trainer worker: commands in, events out
// (protocol/train.ts). The steps run in slices of about 50 ms; between slices
// the loop yields, so pause, resume, stop and save are handled within one
// slice. Nothing here touches `self`: main.ts wires it to the worker, the
// tests to plain functions (the same loop, the real core).
//
// Order of events for a run: started, (history), then per step a step report,
// a sample every sampleEvery steps, saved after each kept checkpoint, and one
// of stopped (finished or by the learner) or diverged (the state before the
// failing step is kept: save still gives those weights).
import type { Glass } from '../../core';
import { TrainSession, type TrainStepResult } from '../../core/trainSession';
import type { RunStore, SavedRun } from '../../common/trainStore';
import { errorData } from '../../protocol/base';
import type { RunSpec, StepReport, TrainCommand, TrainEvent } from '../../protocol/train';
import { checkRunSpecShape, checkTrainCommand } from '../../protocol/trainCheck';
import { EVAL_WINDOWS, checkRunSpec } from '../../protocol/trainSettings';
import { checkLength, readTrainingData, type TrainingText } from './data';
import { checkProbes, readProbes } from './probe';

export interface TrainerHost {
  glass: Glass;
  post(event: TrainEvent, transfer?: Transferable[]): void;
  /** null: runs are not kept (a browser without IndexedDB). */
  store: RunStore | null;
  fetchBytes(url: string): Promise<ArrayBuffer>;
  /** Lets queued commands in (a macrotask). */
  yieldToEvents(): Promise<void>;
  now(): number;
}

/** Where the shipped weights are when the page does not say. */
export const SHIPPED_WEIGHTS_PATH = 'weights/glass-kjv.safetensors';
/** The loop yields after a slice this long (ms). */
const SLICE_MS = 50;
const SAMPLE_TEMPERATURE = 0.8;

type Status = 'idle' | 'running' | 'paused' | 'ended';

interface Run {
  spec: RunSpec; // as kept: no big buffers
  session: TrainSession;
  text: TrainingText;
  prompt: string;
  tokensPerStep: number;
  reports: StepReport[];
  /** Moving averages: core seconds per step, wall seconds per step (steps, evaluations, samples; no pauses). */
  coreSeconds: number;
  wallSeconds: number;
}

class CommandError extends Error {
  override name = 'CommandError';
}

/** The first characters of the text (at most 24), the prompt every sample continues. */
export function samplePrompt(text: string): string {
  const start = text.trimStart();
  return [...(start.length > 0 ? start : text)].slice(0, 24).join('');
}

function fileName(run: string, step: number): string {
  const safe = run.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
  return `glassllm-${safe}-step${step}.safetensors`;
}

function average(prev: number, x: number, n: number): number {
  // the plain mean over the first steps, then an exponential average over about 20
  return n <= 1 ? x : prev + (x - prev) / Math.min(n, 20);
}

export class TrainerRunner {
  private status: Status = 'idle';
  private run: Run | null = null;
  /** Bumped by every start: a loop of an older run stops. */
  private generation = 0;
  private queue: Promise<void> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly host: TrainerHost) {}

  /** Every message from the page: checked, then handled in arrival order. */
  receive(message: unknown): Promise<void> {
    this.queue = this.queue.then(() => this.handle(message));
    return this.queue;
  }

  /** Resolves when every checkpoint written so far is stored (tests). */
  flushed(): Promise<void> {
    return this.saving;
  }

  private async handle(message: unknown): Promise<void> {
    try {
      const command = checkTrainCommand(message);
      await this.apply(command);
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    const fatal = e instanceof WebAssembly.RuntimeError;
    this.host.post({ type: 'error', error: errorData(e), fatal });
    if (fatal) this.status = 'ended';
  }

  private async apply(c: TrainCommand): Promise<void> {
    switch (c.type) {
      case 'start':
        return this.start(c.spec, null);
      case 'resume-saved':
        return this.resumeSaved(c.key);
      case 'pause':
        if (this.status !== 'running') throw new CommandError(this.notTraining('pause'));
        this.status = 'paused';
        this.host.post({ type: 'paused', step: this.current().session.stepsDone });
        return;
      case 'resume':
        if (this.status !== 'paused') throw new CommandError(this.status === 'running' ? 'the run is already training' : this.notTraining('resume'));
        this.status = 'running';
        this.host.post({ type: 'resumed', step: this.current().session.stepsDone });
        void this.loop(this.generation);
        return;
      case 'stop': {
        if (this.status !== 'running' && this.status !== 'paused') throw new CommandError(this.notTraining('stop'));
        this.status = 'ended';
        const run = this.current();
        const step = run.session.stepsDone;
        const last = run.reports[run.reports.length - 1];
        const valLoss = last?.step === step && last.valLoss !== null ? last.valLoss : step > 0 ? run.session.validationLoss() : null;
        this.host.post({ type: 'stopped', step, finished: false, valLoss });
        return;
      }
      case 'threads':
        // the core's own limit wins (1 in the single-threaded build); results do not depend on it
        this.host.glass.setThreads(Math.min(c.n, this.host.glass.maxThreads()));
        return;
      case 'save': {
        const run = this.current();
        const bytes = run.session.weights();
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
        this.host.post({ type: 'weights', bytes: buffer, fileName: fileName(run.spec.run, run.session.stepsDone) }, [buffer]);
        return;
      }
    }
  }

  private notTraining(what: string): string {
    return this.run === null ? `nothing to ${what}: no run has started` : `nothing to ${what}: the run has ended`;
  }

  private current(): Run {
    if (this.run === null) throw new CommandError('no run has started yet');
    return this.run;
  }

  /** Builds the session (from a spec, or a saved record), reports 'started' and trains. */
  private async start(spec: RunSpec, saved: SavedRun | null): Promise<void> {
    const problem = checkRunSpec(spec);
    if (problem) throw new CommandError(problem);
    // a new start ends the old run first (its loop sees the new generation)
    const generation = ++this.generation;
    this.status = 'idle';
    this.run?.session.dispose();
    this.run = null;

    const text = await readTrainingData(spec.data, (url) => this.host.fetchBytes(url));
    if (spec.init.kind === 'scratch') checkLength(text, spec.config.ctx);
    const options = { ...spec.train, evalWindows: EVAL_WINDOWS };
    const glass = this.host.glass;
    let session: TrainSession;
    if (spec.init.kind === 'scratch') {
      session = TrainSession.create(glass, spec.config, options, text.text);
    } else {
      const bytes = spec.init.kind === 'weights' ? spec.init.bytes : await this.host.fetchBytes(spec.init.url ?? SHIPPED_WEIGHTS_PATH);
      session = TrainSession.fromWeights(glass, new Uint8Array(bytes), options, text.text);
    }
    if (generation !== this.generation) {
      session.dispose(); // a newer start arrived while this one was reading its data
      return;
    }
    try {
      if (saved) session.restore(new Uint8Array(saved.checkpoint));
      if (spec.probes !== undefined && spec.probes.length > 0) checkProbes(session.checkpoint(), spec.probes);
    } catch (e) {
      session.dispose();
      throw e;
    }
    const config = session.config();
    // what a resume after a reload needs: the effective config, the settings, the
    // text (a file's bytes become its text); a weights file is in every checkpoint
    const kept: RunSpec = {
      run: spec.run,
      config,
      train: spec.train,
      data: spec.data.kind === 'file' ? { kind: 'text', text: text.text, label: text.label } : spec.data,
      init: { kind: 'scratch' },
      persist: spec.persist,
      probes: spec.probes,
    };
    this.run = {
      spec: kept,
      session,
      text,
      prompt: samplePrompt(text.text),
      tokensPerStep: spec.train.batch * config.ctx,
      reports: saved ? this.savedReports(saved) : [],
      coreSeconds: 0,
      wallSeconds: 0,
    };
    this.host.post({
      type: 'started',
      run: spec.run,
      parameters: session.parameters,
      trainBytes: session.trainBytes,
      valBytes: session.valBytes,
      config,
      train: spec.train,
      dataLabel: text.label,
      depthNames: session.depthNames(),
    });
    if (saved) this.host.post({ type: 'history', reports: this.run.reports.slice() });
    this.status = 'running';
    void this.loop(generation);
  }

  private savedReports(saved: SavedRun): StepReport[] {
    const r = saved.reports;
    return Array.isArray(r) ? (r as StepReport[]).filter((x) => x.step <= saved.step) : [];
  }

  private async resumeSaved(key: string): Promise<void> {
    if (this.host.store === null) throw new CommandError('this browser keeps no saved runs');
    const saved = await this.host.store.get(key);
    if (!saved) throw new CommandError(`no saved run named "${key}"`);
    let spec: RunSpec;
    try {
      spec = checkRunSpecShape(saved.spec);
    } catch (e) {
      throw new CommandError(`the saved run "${key}" cannot be read (${e instanceof Error ? e.message : String(e)})`);
    }
    return this.start(spec, saved);
  }

  private async loop(generation: number): Promise<void> {
    while (this.generation === generation && this.status === 'running') {
      const sliceStart = this.host.now();
      try {
        do this.stepOnce();
        while (this.generation === generation && this.status === 'running' && this.host.now() - sliceStart < SLICE_MS);
      } catch (e) {
        this.status = 'ended';
        this.fail(e);
        return;
      }
      await this.host.yieldToEvents();
    }
  }

  private stepOnce(): void {
    const run = this.current();
    const session = run.session;
    if (session.stepsDone >= session.totalSteps) return this.finish(run);
    const t0 = this.host.now();
    const threads = this.host.glass.threads(); // the step's: a 'threads' command applies between steps
    const outcome = session.step();
    if (outcome.diverged !== null) {
      this.status = 'ended';
      const d = outcome.diverged;
      this.host.post({ type: 'diverged', step: d.step, what: d.what, message: d.message });
      return;
    }
    const r: TrainStepResult = outcome;
    const n = run.reports.length + 1;
    const spec = run.spec.train;
    let sample: string | null = null;
    if (spec.sampleEvery > 0 && (r.step % spec.sampleEvery === 0 || r.step === r.total)) sample = this.sample(run, r.step);
    run.coreSeconds = average(run.coreSeconds, r.seconds, n);
    run.wallSeconds = average(run.wallSeconds, (this.host.now() - t0) / 1000, n);
    const report: StepReport = {
      step: r.step,
      total: r.total,
      loss: r.loss,
      lr: r.lr,
      gradNorm: r.gradNorm,
      blockGradNorms: r.blockGradNorms,
      residRms: r.residRms,
      seconds: r.seconds,
      tokensPerSecond: run.tokensPerStep / Math.max(run.coreSeconds, 1e-9),
      etaSeconds: run.wallSeconds * (r.total - r.step),
      valLoss: r.valLoss,
      threads,
    };
    const probes = run.spec.probes;
    if (probes !== undefined && probes.length > 0) report.probes = readProbes(session.checkpoint(), probes);
    run.reports.push(report);
    this.host.post({ type: 'step', report });
    if (sample !== null) this.host.post({ type: 'sample', step: r.step, prompt: run.prompt, text: sample });
    if (r.valLoss !== null && run.spec.persist !== false) this.keep(run);
    if (r.step === r.total) this.finish(run);
  }

  private sample(run: Run, step: number): string {
    const bytes = run.session.sample(run.prompt, run.spec.train.sampleLength, run.spec.train.seed + step, SAMPLE_TEMPERATURE);
    return new TextDecoder('utf-8').decode(bytes); // a byte model may end mid-character: shown as �
  }

  private finish(run: Run): void {
    this.status = 'ended';
    const last = run.reports[run.reports.length - 1];
    this.host.post({ type: 'stopped', step: run.session.stepsDone, finished: true, valLoss: last?.valLoss ?? run.session.validationLoss() });
  }

  /** Stores a checkpoint (in order, without holding up the steps) and reports 'saved'. */
  private keep(run: Run): void {
    const store = this.host.store;
    if (store === null) return;
    const bytes = run.session.checkpoint();
    const record: SavedRun = {
      key: run.spec.run,
      spec: run.spec,
      checkpoint: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      step: run.session.stepsDone,
      total: run.session.totalSteps,
      savedAt: Date.now(),
      reports: run.reports.slice(),
    };
    this.saving = this.saving.then(
      () =>
        store.put(record).then(
          () => this.host.post({ type: 'saved', key: record.key, step: record.step, total: record.total }),
          (e: unknown) => this.host.post({ type: 'error', error: { name: 'StorageError', message: `the checkpoint at step ${record.step} could not be kept, so a reload would lose this run (${errorData(e).message})` }, fatal: false }),
        ),
    );
  }
}
