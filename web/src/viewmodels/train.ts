// The Train view's state: run A and run B, each a stream of the trainer
// worker's events (protocol/train.ts) gathered into what the plots draw. No
// math here: every number is a step report from the core; this file only files
// them by step and decides what the buttons may do.
//
// Events arrive as fast as the worker trains; they are filed at once but the
// screen is told at most once per animation frame, so a fast run never floods
// the page with renders.
import { signal, type Signal } from '@preact/signals';
import { DEFAULT_PRESET, presetById, type Preset } from '../app/trainPresets';
import { dataSource, type DataChoice } from './trainData';
import type { DataSource, InitSource, ModelConfigInput, RunSpec, StepReport, TrainCommand, TrainEvent, TrainSettings } from '../protocol/train';

export type RunId = 'A' | 'B';

/** What a run needs from its trainer worker (web/src/app/trainClient.ts provides it). */
export interface RunLink {
  send(command: TrainCommand, transfer?: Transferable[]): void;
  dispose(): void;
}
/** Makes a run's worker; its events go to `onEvent`. */
export type SpawnRun = (onEvent: (e: TrainEvent) => void) => RunLink;

export type Phase =
  | 'idle' // nothing started yet (or reset)
  | 'starting' // the worker is loading the core, the data, the weights
  | 'running'
  | 'pausing'
  | 'paused'
  | 'stopping'
  | 'stopped' // by the learner
  | 'finished'
  | 'diverged'
  | 'failed'; // refused (bad settings, bad data) or crashed

export interface StartedInfo {
  parameters: number;
  trainBytes: number;
  valBytes: number;
  config: ModelConfigInput;
  /** What the text is called ("the KJV excerpt", a file's name). */
  dataLabel: string;
  /** The snapshot each residRms entry measures ('embed', 'blocks.0.resid.ffn', …). */
  depthNames: string[];
}

/** Weights loaded from a file to start from (InitSource 'weights'). */
export interface LoadedFile {
  name: string;
  bytes: ArrayBuffer;
}

export interface RunState {
  id: RunId;
  label: string;
  config: ModelConfigInput;
  train: TrainSettings;
  init: 'scratch' | 'shipped';
  /** When set, the run starts from these weights instead (their config wins). */
  weightsFile: LoadedFile | null;
  phase: Phase;
  info: StartedInfo | null;
  /** One report per step done, in order (the plots' data). */
  reports: StepReport[];
  /** Validation losses, by the step they were measured after. */
  val: { step: number; loss: number }[];
  /** The latest generated text: `text` continues `prompt` (the training text's first bytes). */
  sample: { step: number; prompt: string; text: string } | null;
  /** The last step the trainer kept in this browser's storage (a reload can resume from it). */
  keptStep: number | null;
  diverged: { step: number; what: string; message: string } | null;
  /** A refusal or crash, in the worker's words. */
  error: string | null;
  /** The last step whose weights the run holds (after stop, finish or divergence). */
  heldStep: number;
  /** Bumped on every change the screen should see. */
  version: number;
}

export function blankRun(id: RunId, label: string, config: ModelConfigInput, train: TrainSettings, init: 'scratch' | 'shipped'): RunState {
  return { id, label, config, train, init, weightsFile: null, phase: 'idle', info: null, reports: [], val: [], sample: null, keptStep: null, diverged: null, error: null, heldStep: 0, version: 0 };
}

/** Whether the buttons apply: Start, Pause, Resume, Stop, Save. */
export function canStart(r: RunState): boolean {
  return r.phase === 'idle' || r.phase === 'stopped' || r.phase === 'finished' || r.phase === 'diverged' || r.phase === 'failed';
}
export const canPause = (r: RunState) => r.phase === 'running';
export const canResume = (r: RunState) => r.phase === 'paused';
export const canStop = (r: RunState) => r.phase === 'running' || r.phase === 'paused' || r.phase === 'starting' || r.phase === 'pausing';
/** Weights exist to save: the run got at least one step in, and is not mid-step. */
export const canSave = (r: RunState) => r.heldStep > 0 && (r.phase === 'paused' || r.phase === 'stopped' || r.phase === 'finished' || r.phase === 'diverged');
/** A run is under way: settings of a running run cannot change. */
export const isActive = (r: RunState) => r.phase === 'starting' || r.phase === 'running' || r.phase === 'pausing' || r.phase === 'paused' || r.phase === 'stopping';

/** The run's spec for the worker (`data` is a copy per run: byte buffers are moved to the worker). */
export function specOf(r: RunState, data: DataSource): RunSpec {
  const init: InitSource = r.weightsFile !== null ? { kind: 'weights', bytes: r.weightsFile.bytes.slice(0), name: r.weightsFile.name } : { kind: r.init };
  return { run: r.id, config: r.config, train: r.train, data, init };
}

/** The buffers in `spec` to transfer rather than copy. */
export function transferables(spec: RunSpec): Transferable[] {
  const out: Transferable[] = [];
  if (spec.data.kind === 'file') out.push(spec.data.bytes);
  if (spec.init.kind === 'weights') out.push(spec.init.bytes);
  return out;
}

/**
 * Files one event into the run's state (mutating its arrays; the caller
 * publishes a new object). Returns the weights when the event carries them.
 */
export function fileEvent(r: RunState, e: TrainEvent): RunState {
  switch (e.type) {
    case 'ready':
      return r;
    case 'started':
      // the settings in effect: a weights file's own config, or those of a run resumed after a reload
      return {
        ...r,
        config: e.config,
        train: e.train,
        phase: r.phase === 'starting' ? 'running' : r.phase,
        info: { parameters: e.parameters, trainBytes: e.trainBytes, valBytes: e.valBytes, config: e.config, dataLabel: e.dataLabel, depthNames: e.depthNames },
      };
    case 'step': {
      const rep = e.report;
      // a resumed run replays nothing; a report for a step already filed replaces it
      while (r.reports.length > 0 && r.reports[r.reports.length - 1].step >= rep.step) r.reports.pop();
      r.reports.push(rep);
      if (rep.valLoss !== null) {
        while (r.val.length > 0 && r.val[r.val.length - 1].step >= rep.step) r.val.pop();
        r.val.push({ step: rep.step, loss: rep.valLoss });
      }
      return { ...r, heldStep: rep.step, phase: r.phase === 'starting' ? 'running' : r.phase };
    }
    case 'history': {
      // a resumed run's steps from before the reload
      r.reports.length = 0;
      r.reports.push(...e.reports);
      const val = e.reports.flatMap((p) => (p.valLoss === null ? [] : [{ step: p.step, loss: p.valLoss }]));
      return { ...r, val, heldStep: e.reports.at(-1)?.step ?? r.heldStep };
    }
    case 'sample':
      return { ...r, sample: { step: e.step, prompt: e.prompt, text: e.text } };
    case 'saved':
      return { ...r, keptStep: e.step };
    case 'paused':
      return { ...r, phase: 'paused', heldStep: e.step };
    case 'resumed':
      return { ...r, phase: 'running' };
    case 'stopped': {
      const val = [...r.val];
      if (e.valLoss !== null && (val.length === 0 || val[val.length - 1].step !== e.step)) val.push({ step: e.step, loss: e.valLoss });
      return { ...r, val, phase: e.finished ? 'finished' : 'stopped', heldStep: e.step };
    }
    case 'diverged':
      // the weights kept are those before the step that blew up
      return { ...r, phase: 'diverged', diverged: { step: e.step, what: e.what, message: e.message }, heldStep: Math.max(0, e.step - 1) };
    case 'weights':
      return r;
    case 'error':
      // a refusal of the start, or a dead worker, ends the run; anything else (a checkpoint that could not be
      // kept, "nothing to pause" just after the run ended) is said, and the run stays as it was
      return { ...r, phase: e.fatal || r.phase === 'starting' ? 'failed' : r.phase, error: e.error.message };
  }
}

/** A run's signal plus its worker. */
export class RunController {
  readonly state: Signal<RunState>;
  private link: RunLink | null = null;
  private live: RunState;
  private pendingFlush = false;
  /** What each asked-for 'weights' event is for, oldest first. */
  private wanted: ((bytes: ArrayBuffer, fileName: string) => void)[] = [];

  constructor(
    initial: RunState,
    private readonly spawn: SpawnRun,
    private readonly schedule: (flush: () => void) => void = defaultSchedule,
  ) {
    this.live = initial;
    this.state = signal(initial);
  }

  /** Replaces the settings (only while nothing runs). */
  setup(patch: Partial<Pick<RunState, 'label' | 'config' | 'train' | 'init' | 'weightsFile'>>): void {
    if (isActive(this.live)) return;
    this.publish({ ...this.live, ...patch }, true);
  }

  start(data: DataSource): void {
    if (!canStart(this.live)) return;
    this.dropWorker();
    const r = this.live;
    const spec = specOf(r, data);
    this.publish({ ...blankRun(r.id, r.label, r.config, r.train, r.init), weightsFile: r.weightsFile, phase: 'starting', version: r.version }, true);
    this.ensureWorker().send({ type: 'start', spec }, transferables(spec));
  }

  /** Continue a run the worker saved before the page was reloaded. */
  resumeSaved(key: string, label: string): void {
    this.dropWorker();
    const r = this.live;
    this.publish({ ...blankRun(r.id, label, r.config, r.train, r.init), phase: 'starting', version: r.version }, true);
    this.ensureWorker().send({ type: 'resume-saved', key });
  }

  pause(): void {
    if (!canPause(this.live) || this.link === null) return;
    this.publish({ ...this.live, phase: 'pausing' }, true);
    this.link.send({ type: 'pause' });
  }

  resume(): void {
    if (!canResume(this.live) || this.link === null) return;
    this.link.send({ type: 'resume' });
  }

  stop(): void {
    if (!canStop(this.live) || this.link === null) return;
    if (this.live.phase === 'starting') {
      this.dropWorker(); // nothing trained yet: nothing to keep
      this.publish({ ...this.live, phase: this.live.reports.length > 0 ? 'stopped' : 'idle' }, true);
      return;
    }
    this.publish({ ...this.live, phase: 'stopping' }, true);
    this.link.send({ type: 'stop' });
  }

  /** Forgets the run (plots, weights, worker); the settings stay. */
  reset(): void {
    this.dropWorker();
    const r = this.live;
    this.publish({ ...blankRun(r.id, r.label, r.config, r.train, r.init), weightsFile: r.weightsFile, version: r.version }, true);
  }

  /** Asks for the weights; `use` gets them as a .safetensors file. */
  requestWeights(use: (bytes: ArrayBuffer, fileName: string) => void): boolean {
    if (!canSave(this.live) || this.link === null) return false;
    this.wanted.push(use);
    this.link.send({ type: 'save' });
    return true;
  }

  dispose(): void {
    this.dropWorker();
  }

  /** Events from the worker (public for tests, which feed events without a worker). */
  onEvent(e: TrainEvent): void {
    if (e.type === 'weights') {
      this.wanted.shift()?.(e.bytes, e.fileName);
      return;
    }
    if (e.type === 'error' && e.fatal) {
      this.wanted = [];
      this.dropWorker();
    }
    this.live = fileEvent(this.live, e);
    this.publish(this.live, e.type !== 'step');
  }

  private ensureWorker(): RunLink {
    if (this.link === null) {
      // events of a worker that was dropped (reset, restarted) are not this run's any more
      const link: RunLink = this.spawn((e) => {
        if (this.link === link) this.onEvent(e);
      });
      this.link = link;
    }
    return this.link;
  }

  private dropWorker(): void {
    this.link?.dispose();
    this.link = null;
    this.wanted = [];
  }

  /** New state; the screen sees it now (`now`) or with the next frame. */
  private publish(next: RunState, now: boolean): void {
    this.live = { ...next, version: next.version + 1 };
    if (now) {
      this.state.value = this.live;
      return;
    }
    if (this.pendingFlush) return;
    this.pendingFlush = true;
    this.schedule(() => {
      this.pendingFlush = false;
      this.state.value = this.live;
    });
  }
}

function defaultSchedule(flush: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
}

// ---- the view's session: the preset, the data, and the two runs ----

export const RUN_IDS: readonly RunId[] = ['A', 'B'];

export class TrainSession {
  readonly presetId: Signal<string>;
  readonly data = signal<DataChoice>({ kind: 'kjv' });
  /** A page-level message: why the runs could not start (the data is not ready). */
  readonly notice = signal<string | null>(null);
  readonly runs: Record<RunId, RunController>;

  constructor(
    spawn: SpawnRun,
    private readonly lessonsText: () => string,
    schedule?: (flush: () => void) => void,
  ) {
    const p = DEFAULT_PRESET;
    this.presetId = signal(p.id);
    this.runs = {
      A: new RunController(blankRun('A', p.a.label, p.a.config, p.a.train, p.a.init), spawn, schedule),
      B: new RunController(blankRun('B', p.b.label, p.b.config, p.b.train, p.b.init), spawn, schedule),
    };
  }

  get preset(): Preset {
    return presetById(this.presetId.value) ?? DEFAULT_PRESET;
  }

  /** Any run under way (settings and the preset are locked while one is). */
  busy(): boolean {
    return RUN_IDS.some((id) => isActive(this.runs[id].state.value));
  }

  /** Sets both runs' settings from a preset (only while neither runs); their plots are cleared. */
  applyPreset(id: string): void {
    const p = presetById(id);
    if (p === null || this.busy()) return;
    this.presetId.value = id;
    for (const [rid, setup] of [['A', p.a], ['B', p.b]] as const) {
      const c = this.runs[rid];
      c.reset();
      c.setup({ label: setup.label, config: setup.config, train: setup.train, init: setup.init, weightsFile: null });
    }
  }

  /** Starts the runs that can start (both, normally) on the chosen data. */
  start(ids: readonly RunId[] = RUN_IDS): void {
    const d = dataSource(this.data.value, this.lessonsText);
    if (!d.ok) {
      this.notice.value = d.message;
      return;
    }
    this.notice.value = null;
    for (const id of ids) if (canStart(this.runs[id].state.value)) this.runs[id].start(d.source());
  }

  dispose(): void {
    for (const id of RUN_IDS) this.runs[id].dispose();
  }
}
