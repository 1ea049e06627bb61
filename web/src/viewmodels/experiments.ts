// A lesson's experiment (app/lessonExperiments.ts): run A and run B, each a
// RunController of the Train view (viewmodels/train.ts) with a trainer worker
// of its own. One pair per experiment for the page's life, so a step that
// shows the same experiment again (or the learner coming back) finds its runs.
//
// Once both runs have ended, their reports are summed up as plain data in
// `finishedRuns`: the step's checks read them as `runs.<id>.A` / `.B`, and the
// core worker evaluates those answers from the learner's own runs. A new start
// takes the experiment out again, so no check is judged against a run in progress.
import { effect, signal } from '@preact/signals';
import { experimentById, type Experiment } from '../app/lessonExperiments';
import type { StepReport, TrainCommand } from '../protocol/train';
import { spawnRun } from './runLink';
import { RUN_IDS, RunController, blankRun, canStart, isActive, type RunId, type RunState, type SpawnRun } from './train';

/** One run as the checks see it: per-step arrays (index 0 is step 1) and the evaluations. */
export interface RunSummary {
  label: string;
  /** Steps done. */
  steps: number;
  losses: number[];
  lr: number[];
  /** Global gradient norm of each step, before clipping. */
  gradNorms: number[];
  /** Per step, one gradient norm per block (block 0 first), before clipping. */
  blockGradNorms: number[][];
  /** Per step, the residual stream's RMS: [embedding, after block 0, ...]. */
  residRms: number[][];
  /** The evaluation steps and their validation losses. */
  valSteps: number[];
  valLosses: number[];
  /** The last validation loss (null if none was measured). */
  valLoss: number | null;
  /** Per followed entry: its value and AdamW moments after each step. */
  probes: { value: number[]; m: number[]; v: number[] }[];
  clip: number;
  weightDecay: number;
  peakLr: number;
  warmup: number;
  /** The step that blew up, when the run diverged. */
  divergedAt: number | null;
}

export type ExperimentRuns = Record<RunId, RunSummary>;

/** Both runs of an experiment have ended: its id -> the runs (what `runs` is in a check's answer). */
export const finishedRuns = signal<Readonly<Record<string, ExperimentRuns>>>({});

/** A run that ran to its end, or stopped at a divergence: its numbers can answer questions. */
export const hasEnded = (r: RunState) => r.phase === 'finished' || r.phase === 'diverged';

export function summarize(r: RunState): RunSummary {
  const p = r.reports;
  const col = (f: (x: StepReport) => number) => p.map(f);
  const probeCount = p[0]?.probes?.length ?? 0;
  return {
    label: r.label,
    steps: p.length,
    losses: col((x) => x.loss),
    lr: col((x) => x.lr),
    gradNorms: col((x) => x.gradNorm),
    blockGradNorms: p.map((x) => x.blockGradNorms),
    residRms: p.map((x) => x.residRms),
    valSteps: r.val.map((v) => v.step),
    valLosses: r.val.map((v) => v.loss),
    valLoss: r.val.at(-1)?.loss ?? null,
    probes: Array.from({ length: probeCount }, (_, k) => ({
      value: p.map((x) => x.probes?.[k]?.value ?? NaN),
      m: p.map((x) => x.probes?.[k]?.m ?? NaN),
      v: p.map((x) => x.probes?.[k]?.v ?? NaN),
    })),
    clip: r.train.clip,
    weightDecay: r.train.weightDecay,
    peakLr: r.train.lr,
    warmup: r.train.warmup,
    divergedAt: r.diverged?.step ?? null,
  };
}

/**
 * The experiment's start command, made its own: a name apart from the Train
 * view's runs, no checkpoint kept for a reload (a lesson run is seconds long),
 * and the entries it follows.
 */
export function experimentSpawn(e: Experiment, spawn: SpawnRun = spawnRun): SpawnRun {
  return (onEvent) => {
    const link = spawn(onEvent);
    return {
      send(command: TrainCommand, transfer?: Transferable[]) {
        if (command.type !== 'start') return link.send(command, transfer);
        const spec = { ...command.spec, run: `lesson-${e.id}-${command.spec.run}`, persist: false, probes: e.probes.map(({ param, index }) => ({ param, index })) };
        link.send({ type: 'start', spec }, transfer);
      },
      dispose: () => link.dispose(),
    };
  };
}

export class ExperimentSession {
  readonly runs: Record<RunId, RunController>;
  private readonly unwatch: () => void;

  constructor(
    readonly experiment: Experiment,
    spawn: SpawnRun = spawnRun,
    schedule?: (flush: () => void) => void,
  ) {
    const own = experimentSpawn(experiment, spawn);
    const setup = { A: experiment.a, B: experiment.b };
    this.runs = {
      A: new RunController(blankRun('A', setup.A.label, setup.A.config, setup.A.train, setup.A.init), own, schedule),
      B: new RunController(blankRun('B', setup.B.label, setup.B.config, setup.B.train, setup.B.init), own, schedule),
    };
    // the checks see the runs once both have ended, and lose them when either starts again
    this.unwatch = effect(() => {
      const a = this.runs.A.state.value;
      const b = this.runs.B.state.value;
      const id = experiment.id;
      const has = Object.hasOwn(finishedRuns.peek(), id);
      if (hasEnded(a) && hasEnded(b)) finishedRuns.value = { ...finishedRuns.peek(), [id]: { A: summarize(a), B: summarize(b) } };
      else if (has) {
        const { [id]: _, ...rest } = finishedRuns.peek();
        finishedRuns.value = rest;
      }
    });
  }

  states(): RunState[] {
    return RUN_IDS.map((id) => this.runs[id].state.value);
  }

  busy(): boolean {
    return RUN_IDS.some((id) => isActive(this.runs[id].state.value));
  }

  /** Trains both runs from scratch (again), each on its own text. */
  start(): void {
    for (const id of RUN_IDS) {
      const c = this.runs[id];
      if (!canStart(c.state.peek())) continue;
      c.start(id === 'A' ? this.experiment.a.data : this.experiment.b.data);
    }
  }

  stop(): void {
    for (const id of RUN_IDS) this.runs[id].stop();
  }

  dispose(): void {
    this.unwatch();
    for (const id of RUN_IDS) this.runs[id].dispose();
  }
}

const sessions = new Map<string, ExperimentSession>();

/** The page's pair of runs for an experiment (made on first use); null for an unknown id. */
export function experimentSession(id: string): ExperimentSession | null {
  const e = experimentById(id);
  if (e === null) return null;
  let s = sessions.get(id);
  if (s === undefined) {
    s = new ExperimentSession(e);
    sessions.set(id, s);
  }
  return s;
}

/** The experiments an expression reads (`runs.prenorm.A...` -> 'prenorm'); empty when it reads none. */
export function experimentsRead(expr: string): string[] {
  return [...new Set([...expr.matchAll(/\bruns\.([A-Za-z_][\w]*)/g)].map((m) => m[1]))];
}
