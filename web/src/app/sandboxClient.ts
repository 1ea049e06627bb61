// The page's side of the code-cell sandbox (protocol/sandbox.ts): every run of
// a learner's code cell gets a fresh worker with its own core, which is
// terminated as soon as it answers (or runs out of time, or misbehaves).
//
//   const outcome = await sandbox.run(code, { channel: 'lesson:rmsnorm/2/cell-0', weights });
//
// - One spare worker is kept loading in the background, so a run rarely waits
//   for a core to start.
// - A newer run on the same channel (the learner pressed Run again) stops the
//   older one's worker: its promise resolves { status: 'stale' }.
// - Time limits: the core must load within LOAD_LIMIT_MS, the code start within
//   START_LIMIT_MS of that, and finish within the run's time limit (TimeLimit).
// - Every message is checked (protocol/validate.ts); one of the wrong shape,
//   about another run, or out of order stops the worker (BadMessage). What a
//   sandbox does can never restart, hang or fool the core worker (app/core.ts).
// - In the built site each sandbox is a frame in a process of its own
//   (app/sandboxFrame.ts): when that process ends (the code filled its memory),
//   the run says so (Crashed), and the spare, which may have shared the
//   process, is replaced too. A run whose process ended before its code
//   started (another cell filled the memory) is tried once more in a fresh box.
import type { ErrorData } from '../protocol/base';
import { sandboxMessage, type CodeResult, type SandboxMessage, type SandboxRun } from '../protocol/sandbox';
import { shortProblem } from '../protocol/validate';
import { BAD_MESSAGE_ERROR, LOAD_LIMIT_MS, NO_ANSWER_ERROR, START_LIMIT_MS, TIME_LIMIT_ERROR, type WorkerLike } from './coreClient';

export type SandboxOutcome = { status: 'ok'; value: CodeResult; computeMs: number } | { status: 'error'; error: ErrorData } | { status: 'stale' };

export interface SandboxRunOptions {
  /** Who asks: a newer run on the same channel stops this one. */
  channel: string;
  /** A copy of the weights file (transferred to the sandbox), or null when the code does not use the model. */
  weights: ArrayBuffer | null;
  /** From the moment the code starts (default 3 s). */
  timeLimitMs?: number;
}

export const SANDBOX_TIME_LIMIT_MS = 3000;

/** A sandbox whose process ended under it (sandboxFrame.ts). */
export const CRASHED_ERROR = 'Crashed';

/** A sandbox that can tell the page its process ended (a frame); a plain worker cannot. */
export interface SandboxWorkerLike extends WorkerLike {
  onexit?: (() => void) | null;
}

/** A sandbox worker and where it is in its one run. */
interface Box {
  worker: SandboxWorkerLike;
  ready: boolean;
  loadFailed: ErrorData | null;
  run: Run | null;
  timer: ReturnType<typeof setTimeout> | null;
}

interface Run {
  id: number;
  channel: string;
  timeLimitMs: number;
  started: boolean;
  resolve: (outcome: SandboxOutcome) => void;
  code: string;
  /** A copy of the weights for one more try, when the box's process ended before the code started (not this code's doing). */
  again: ArrayBuffer | null | undefined;
}

export class SandboxClient {
  private nextId = 1;
  private spare: Box | null = null;
  private readonly running = new Map<string, Box>(); // channel -> the box running its newest run
  /** Runs started so far (each one a fresh worker). */
  runs = 0;

  constructor(private readonly spawn: () => SandboxWorkerLike) {}

  run(code: string, options: SandboxRunOptions): Promise<SandboxOutcome> {
    return new Promise<SandboxOutcome>((resolve) => {
      const before = this.running.get(options.channel);
      if (before !== undefined) this.finish(before, { status: 'stale' });
      const box = this.spare ?? this.open();
      this.spare = null;
      const run: Run = {
        id: this.nextId++,
        channel: options.channel,
        timeLimitMs: options.timeLimitMs ?? SANDBOX_TIME_LIMIT_MS,
        started: false,
        resolve,
        code,
        again: options.weights === null ? null : options.weights.slice(0),
      };
      this.runs += 1;
      this.start(box, run, options.weights);
      this.spare = this.open(); // the next run's worker starts loading now
    });
  }

  private start(box: Box, run: Run, weights: ArrayBuffer | null): void {
    box.run = run;
    this.running.set(run.channel, box);
    if (box.loadFailed !== null) {
      this.finish(box, { status: 'error', error: { name: box.loadFailed.name, message: `the code cell's core could not load: ${box.loadFailed.message}` } });
      return;
    }
    const message: SandboxRun = { type: 'run', id: run.id, code: run.code, weights };
    box.worker.postMessage(message, weights === null ? [] : [weights]);
    this.arm(box);
  }

  /** Stops every sandbox (the page is going away, or a test is done). */
  dispose(): void {
    for (const box of [...this.running.values()]) this.finish(box, { status: 'stale' });
    if (this.spare !== null) this.close(this.spare);
    this.spare = null;
  }

  private open(): Box {
    const worker = this.spawn();
    const box: Box = { worker, ready: false, loadFailed: null, run: null, timer: null };
    worker.onmessage = (event: MessageEvent) => this.receive(box, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.broken(box, { name: 'WorkerError', message: `the code cell's worker stopped with an error${event.message ? ` (${shortProblem(event.message, 120)})` : ''}` });
    };
    worker.onmessageerror = () => this.broken(box, { name: BAD_MESSAGE_ERROR, message: "a message from the code cell's worker could not be read" });
    worker.onexit = () => this.exited(box);
    this.arm(box);
    return box;
  }

  private receive(box: Box, data: unknown): void {
    const problem = sandboxMessage(data, 'message');
    if (problem !== null) {
      this.broken(box, { name: BAD_MESSAGE_ERROR, message: `the code cell's worker sent a message the page cannot read (${shortProblem(problem, 120)}), so it was stopped` });
      return;
    }
    const message = data as SandboxMessage;
    if (message.type === 'ready' || message.type === 'loadFailed') {
      if (box.ready || box.loadFailed !== null) return this.broken(box, outOfOrder(message.type));
      if (message.type === 'loadFailed') {
        box.loadFailed = message.error;
        if (box.run !== null) this.finish(box, { status: 'error', error: { name: message.error.name, message: `the code cell's core could not load: ${message.error.message}` } });
        else this.close(box);
        if (box === this.spare) this.spare = null;
        return;
      }
      box.ready = true;
      this.arm(box);
      return;
    }
    const run = box.run;
    if (!box.ready || run === null || message.id !== run.id || (message.type === 'started' && run.started)) return this.broken(box, outOfOrder(message.type));
    if (message.type === 'started') {
      run.started = true;
      this.arm(box);
      return;
    }
    this.finish(box, message.ok ? { status: 'ok', value: message.value, computeMs: message.computeMs } : { status: 'error', error: message.error });
  }

  /** The one timer of a box: loading, then starting the code, then the code's time limit. */
  private arm(box: Box): void {
    if (box.timer !== null) clearTimeout(box.timer);
    box.timer = null;
    if (!box.ready) {
      box.timer = setTimeout(() => this.broken(box, { name: NO_ANSWER_ERROR, message: `the code cell's core did not load within ${LOAD_LIMIT_MS / 1000} s` }), LOAD_LIMIT_MS);
      return;
    }
    const run = box.run;
    if (run === null) return;
    if (!run.started) {
      box.timer = setTimeout(() => this.broken(box, { name: NO_ANSWER_ERROR, message: `the code cell's worker stopped answering before the code started` }), START_LIMIT_MS);
      return;
    }
    box.timer = setTimeout(
      () => this.broken(box, { name: TIME_LIMIT_ERROR, message: `stopped after ${Number((run.timeLimitMs / 1000).toPrecision(3))} s` }),
      run.timeLimitMs,
    );
  }

  /** A box's process ended: the spare may have lived in it too, so it goes as well (the next run opens a fresh one). */
  private exited(box: Box): void {
    if (this.spare !== null && this.spare !== box) this.close(this.spare);
    if (this.spare !== box) this.spare = null;
    const run = box.run;
    if (run !== null && !run.started && run.again !== undefined) {
      // The process ended before this code started: another cell's doing (all frames of a page
      // share one process). One more try in a fresh box; its own crash would then be its own.
      const weights = run.again;
      run.again = undefined;
      box.run = null;
      this.close(box);
      this.start(this.open(), run, weights);
      return;
    }
    this.broken(box, { name: CRASHED_ERROR, message: "the code cell's sandbox crashed — did the code fill the memory?" });
  }

  /** A box misbehaved or ran out of time: stop it; its run (if any) resolves with the reason. */
  private broken(box: Box, reason: ErrorData): void {
    if (box === this.spare) {
      this.spare = null;
      this.close(box);
      return;
    }
    if (box.run === null) {
      this.close(box);
      return;
    }
    this.finish(box, { status: 'error', error: reason });
  }

  private finish(box: Box, outcome: SandboxOutcome): void {
    const run = box.run;
    this.close(box);
    if (run === null) return;
    box.run = null;
    if (this.running.get(run.channel) === box) this.running.delete(run.channel);
    run.resolve(outcome);
  }

  private close(box: Box): void {
    if (box.timer !== null) clearTimeout(box.timer);
    box.timer = null;
    box.worker.onmessage = null;
    box.worker.onerror = null;
    box.worker.onexit = null;
    box.worker.terminate();
  }
}

const outOfOrder = (type: string): ErrorData => ({
  name: BAD_MESSAGE_ERROR,
  message: `the code cell's worker sent '${type}' out of order, so it was stopped`,
});
