// The page's side of the core worker: a small typed request/response API.
//
//   const client = new CoreClient(() => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module' }));
//   const outcome = await client.request('lab', settings, { channel: 'lab' });
//   if (outcome.status === 'ok') show(outcome.value);
//
// - Every request carries an id. Requests of one kind and channel supersede
//   each other: while one is in flight only the newest waiting request is
//   kept, and those it replaces resolve { status: 'stale' } without reaching
//   the worker, so a moving slider never builds a queue. The one in flight
//   still answers: it is the newest result there is, and a slider dragged over
//   a model slower than the frames would otherwise show nothing until it
//   stopped (every answer had a newer request waiting behind it). Callers that
//   want only the newest ignore older answers themselves (a `live` flag).
//   Channels keep callers apart: the lab view and each lesson widget ask on
//   their own (`{ channel }`), so one never drops another's request; without
//   a channel a request shares its kind's default channel. This is the only
//   place requests are dropped as stale.
// - Errors come back as data: { status: 'error', error: { name, message } }.
// - If the worker dies (an 'error' event, or a wasm trap it reports as fatal)
//   it is replaced by a fresh one, `onRestart` is called, and what was in
//   flight resolves as an error naming the crash.
// - Every request has a time limit (DEFAULT_TIME_LIMIT_MS unless it names its
//   own, `{ timeLimitMs }`: a check expression, which lesson text can make loop).
//   It counts from the worker's 'started' message for that request. When it runs
//   out the worker is terminated and replaced as after a crash; the request
//   resolves as { name: 'TimeLimit' }, and the requests queued behind it (never
//   started) go to the new worker.
// - A watchdog notices a worker that stops answering: one that does not load
//   within LOAD_LIMIT_MS, or does not start the next request within
//   START_LIMIT_MS of the previous one's answer (it closed itself, or its loop
//   is stuck). It is replaced like a crash ({ name: 'NoAnswer' }); the requests
//   it never started go to the new worker.
// - Every message is checked (protocol/validate.ts) before it is believed: a
//   message of the wrong shape, or about a request that is not in flight, means
//   the worker is broken, and it is replaced ({ name: 'BadMessage' }).
import type { CoreThreads, Kind, Request, RequestOf, Response, ResponseOf } from '../protocol/api';
import type { ErrorData } from '../protocol/base';
import type { ModelUse } from '../protocol/model';
import { responseCheck, shortProblem } from '../protocol/validate';

export type Outcome<K extends Kind> =
  | { status: 'ok'; value: ResponseOf<K>; /** time the worker spent computing */ computeMs: number }
  | { status: 'error'; error: ErrorData }
  | { status: 'stale' };

interface Pending<K extends Kind = Kind> {
  id: number;
  kind: K;
  /** kind and channel: requests with the same key supersede each other. */
  key: string;
  payload: RequestOf<K>;
  /** Buffers moved to the worker with the message (not copied). */
  transfer: Transferable[];
  timeLimitMs: number;
  model: ModelUse | undefined;
  /** performance-clock ms when the worker said 'started' (null: not yet). */
  startedAt: number | null;
  resolve: (outcome: Outcome<K>) => void;
}

export interface RequestOptions {
  /** Who asks: a newer request of the same kind on the same channel drops this one's result. */
  channel?: string;
  /** Buffers in the payload to move rather than copy (they become unusable here). */
  transfer?: Transferable[];
  /** Stop the worker (and restart it) if the request's work takes longer than this (default DEFAULT_TIME_LIMIT_MS). */
  timeLimitMs?: number;
  /** Which model the request reads (default: the one the inspector shows). */
  model?: ModelUse;
}

/** The error a request that ran out of time resolves with. */
export const TIME_LIMIT_ERROR = 'TimeLimit';
/** The error when the worker stops answering (it is replaced). */
export const NO_ANSWER_ERROR = 'NoAnswer';
/** The error when the worker sends a message of the wrong shape (it is replaced). */
export const BAD_MESSAGE_ERROR = 'BadMessage';

/** What no request of the app comes near (the model on 128 bytes in float64 with backward takes well under a second). */
export const DEFAULT_TIME_LIMIT_MS = 20_000;
/** Starting a worker: fetching and compiling the core. */
export const LOAD_LIMIT_MS = 60_000;
/** From one answer (or 'ready') to the worker's 'started' for the next request: its loop is idle, so this is quick. */
export const START_LIMIT_MS = 10_000;

/** The minimal Worker surface used here (a test can pass a fake). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror?: ((event: MessageEvent) => void) | null;
}

export interface CoreClientEvents {
  /** `core`: the build and threads the worker reported (absent from an older worker). */
  onReady?: (core?: CoreThreads) => void;
  /**
   * The worker died (or was stopped at a time limit: reason.name 'TimeLimit') and a
   * new one was started. Requests made here reach the new worker before any
   * that were waiting (re-send what the old worker held, like the weights).
   */
  onRestart?: (reason: ErrorData, restarts: number) => void;
  /** The core could not be loaded, or kept dying: no more restarts. */
  onFailed?: (reason: ErrorData) => void;
}

/** After this many restarts within RESTART_WINDOW_MS the client gives up. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10_000;

export class CoreClient {
  private worker: WorkerLike;
  private ready = false;
  /** The watchdog: one timer for the oldest request in flight (or for loading). */
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  /** When the oldest request in flight became the worker's next job (performance clock). */
  private headSince = 0;
  /** When the current worker was started (its load limit counts from here). */
  private spawnedAt = 0;
  private readonly check = responseCheck();
  /** Workers in a row that were replaced for not answering, without one answer between. */
  private silentWorkers = 0;
  private nextId = 1;
  private readonly inFlight = new Map<number, Pending>(); // id -> request sent to the worker
  private readonly latest = new Map<string, number>(); // key -> id of the newest request
  private readonly waiting = new Map<string, Pending>(); // key -> newest request not yet sent
  private restartTimes: number[] = [];
  private failed: ErrorData | null = null;
  restarts = 0;

  constructor(
    private readonly spawn: () => WorkerLike,
    private readonly events: CoreClientEvents = {},
  ) {
    this.worker = this.start();
  }

  request<K extends Kind>(kind: K, payload: RequestOf<K>, options: RequestOptions = {}): Promise<Outcome<K>> {
    return new Promise<Outcome<K>>((resolve) => {
      if (this.failed !== null) {
        resolve({ status: 'error', error: this.failed });
        return;
      }
      const pending = {
        id: this.nextId++,
        kind,
        key: options.channel === undefined ? kind : `${kind}\n${options.channel}`,
        payload,
        transfer: options.transfer ?? [],
        timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
        model: options.model,
        startedAt: null,
        resolve,
      } as Pending<K>;
      this.latest.set(pending.key, pending.id);
      this.enqueue(pending as unknown as Pending);
    });
  }

  /** Testing only: makes the core trap, so the worker dies and is restarted. */
  debugTrap(): Promise<Outcome<'debugTrap'>> {
    return this.request('debugTrap', null);
  }

  dispose(): void {
    this.stopWatchdog();
    this.worker.terminate();
  }

  /** Sends the request, or keeps it as the newest waiting one while its key is in flight. */
  private enqueue(pending: Pending): void {
    const busy = [...this.inFlight.values()].some((p) => p.key === pending.key);
    if (!busy) {
      this.send(pending);
      return;
    }
    const before = this.waiting.get(pending.key);
    if (before !== undefined && before !== pending) before.resolve({ status: 'stale' });
    this.waiting.set(pending.key, pending);
  }

  private send(pending: Pending): void {
    if (this.inFlight.size === 0) this.headSince = performance.now();
    this.inFlight.set(pending.id, pending);
    const message: Request = { id: pending.id, kind: pending.kind, payload: pending.payload, ...(pending.model === undefined ? {} : { model: pending.model }) };
    this.worker.postMessage(message, pending.transfer);
    this.arm();
  }

  private start(): WorkerLike {
    const worker = this.spawn();
    this.ready = false;
    this.spawnedAt = performance.now();
    worker.onmessage = (event: MessageEvent) => {
      if (worker !== this.worker) return; // a message from a worker already replaced
      const problem = this.check(event.data, 'message');
      if (problem !== null) this.crashed(worker, { name: BAD_MESSAGE_ERROR, message: `the core sent a message the page cannot read (${shortProblem(problem, 120)})` });
      else this.receive(worker, event.data as Response);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.crashed(worker, { name: 'WorkerError', message: event.message || 'the core worker stopped with an error' });
    };
    worker.onmessageerror = () => this.crashed(worker, { name: 'WorkerError', message: 'a message from the core could not be read' });
    return worker;
  }

  private receive(worker: WorkerLike, message: Response): void {
    if (message.type === 'ready' || message.type === 'loadFailed') {
      if (this.ready) {
        this.crashed(worker, { name: BAD_MESSAGE_ERROR, message: `the core said '${message.type}' twice` });
        return;
      }
      if (message.type === 'loadFailed') {
        this.giveUp({ name: message.error.name, message: `the core could not load: ${message.error.message}` });
        return;
      }
      this.ready = true;
      this.headSince = performance.now();
      this.arm();
      this.events.onReady?.(message.core);
      return;
    }
    // The worker runs requests in order: only the oldest in flight can start or answer.
    const head = this.inFlight.values().next().value;
    if (!this.ready || head === undefined || head.id !== message.id || (message.type === 'started') === (head.startedAt !== null)) {
      this.crashed(worker, { name: BAD_MESSAGE_ERROR, message: `the core sent '${message.type}' for request ${message.id}, which is not the one it is working on` });
      return;
    }
    if (message.type === 'started') {
      head.startedAt = performance.now();
      this.arm();
      return;
    }
    const pending = head;
    this.silentWorkers = 0;
    this.inFlight.delete(message.id);
    this.headSince = performance.now();
    this.arm();
    if (!message.ok && message.fatal) {
      this.settle(pending, { status: 'error', error: message.error });
      this.crashed(worker, message.error);
      return;
    }
    // it ran: its answer stands even with a newer request waiting (see the top)
    pending.resolve(message.ok ? { status: 'ok', value: message.value as ResponseOf<Kind>, computeMs: message.computeMs } : { status: 'error', error: message.error });
    const next = this.waiting.get(pending.key);
    if (next !== undefined) {
      this.waiting.delete(pending.key);
      this.send(next);
    }
  }

  /** Resolves a request the worker lost (a crash, a time limit), or drops it if a newer one of its kind and channel exists. */
  private settle(pending: Pending, outcome: Outcome<Kind>): void {
    if (this.latest.get(pending.key) !== pending.id) pending.resolve({ status: 'stale' });
    else pending.resolve(outcome);
  }

  /** (Re)sets the one watchdog timer: for loading, for the next request to start, or for the running one's limit. */
  private arm(): void {
    this.stopWatchdog();
    const worker = this.worker;
    if (!this.ready) {
      this.watchdog = setTimeout(() => this.noAnswer(worker, `it did not load within ${formatSeconds(LOAD_LIMIT_MS)}`), LOAD_LIMIT_MS - (performance.now() - this.spawnedAt));
      return;
    }
    const head = this.inFlight.values().next().value;
    if (head === undefined) return;
    if (head.startedAt === null) {
      const left = START_LIMIT_MS - (performance.now() - this.headSince);
      this.watchdog = setTimeout(() => this.noAnswer(worker, `it did not start the next request within ${formatSeconds(START_LIMIT_MS)}`), left);
    } else {
      const left = head.timeLimitMs - (performance.now() - head.startedAt);
      this.watchdog = setTimeout(() => this.timedOut(worker, head), left);
    }
  }

  private stopWatchdog(): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  /** The worker is idle but silent (it closed itself, or never loaded): replace it; what it never started goes to the new one. */
  private noAnswer(worker: WorkerLike, why: string): void {
    if (worker !== this.worker) return;
    worker.terminate();
    this.stopWatchdog();
    const queued = [...this.inFlight.values()];
    this.inFlight.clear();
    const reason: ErrorData = { name: NO_ANSWER_ERROR, message: `the core stopped answering: ${why}` };
    // Counted apart from crashes (a silent worker takes seconds to notice): give
    // up when several workers in a row answered nothing at all.
    this.silentWorkers += 1;
    if (this.silentWorkers > MAX_RESTARTS) {
      this.waiting.clear();
      for (const p of queued) p.resolve({ status: 'error', error: reason });
      this.giveUp({ name: reason.name, message: `the core keeps stopping (${reason.message}); reload the page to try again` });
      return;
    }
    this.replace(reason, queued);
  }

  /** Counts a crash; true when there were too many lately to try again. */
  private tooMany(): boolean {
    const now = Date.now();
    this.restartTimes = [...this.restartTimes.filter((t) => now - t < RESTART_WINDOW_MS), now];
    return this.restartTimes.length > MAX_RESTARTS;
  }

  private crashed(worker: WorkerLike, reason: ErrorData): void {
    if (worker !== this.worker) return;
    worker.terminate();
    this.stopWatchdog();
    const lost: ErrorData = { name: reason.name, message: `the core stopped (${reason.name}: ${reason.message}) and was restarted` };
    for (const pending of this.inFlight.values()) this.settle(pending, { status: 'error', error: lost });
    this.inFlight.clear();
    if (this.tooMany()) {
      this.giveUp({ name: reason.name, message: `the core keeps stopping (${reason.message}); reload the page to try again` });
      return;
    }
    this.replace(reason, []);
  }

  /** A request ran past its time limit: stop the worker, start another. */
  private timedOut(worker: WorkerLike, pending: Pending): void {
    if (worker !== this.worker || this.inFlight.get(pending.id) !== pending) return;
    worker.terminate();
    this.stopWatchdog();
    this.inFlight.delete(pending.id);
    const reason: ErrorData = { name: TIME_LIMIT_ERROR, message: `stopped after ${formatSeconds(pending.timeLimitMs!)}` };
    this.settle(pending, { status: 'error', error: reason });
    // The worker runs requests in arrival order: the others in flight were queued
    // behind this one and never started, so the new worker runs them. (A time
    // limit is not a crash: it does not count towards giving up.)
    const queued = [...this.inFlight.values()];
    this.inFlight.clear();
    this.replace(reason, queued);
  }

  /** Starts a new worker; after onRestart, sends `again` and what was waiting (oldest first). */
  private replace(reason: ErrorData, again: Pending[]): void {
    this.restarts += 1;
    this.worker = this.start();
    const waiting = [...again, ...this.waiting.values()].sort((a, b) => a.id - b.id);
    for (const p of again) p.startedAt = null;
    this.waiting.clear();
    this.events.onRestart?.(reason, this.restarts);
    for (const pending of waiting) {
      if (this.latest.get(pending.key) !== pending.id) pending.resolve({ status: 'stale' });
      else this.enqueue(pending);
    }
  }

  private giveUp(reason: ErrorData): void {
    this.failed = reason;
    this.worker.terminate();
    this.stopWatchdog();
    for (const pending of [...this.inFlight.values(), ...this.waiting.values()]) pending.resolve({ status: 'error', error: reason });
    this.inFlight.clear();
    this.waiting.clear();
    this.events.onFailed?.(reason);
  }
}

/** 3000 -> "3 s", 2500 -> "2.5 s". */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toPrecision(3))} s`;
}
