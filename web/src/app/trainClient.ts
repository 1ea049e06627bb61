// The page's side of one training run (protocol/train.ts): it owns a trainer
// worker (web/src/worker/trainer/main.ts), sends commands, checks the shape of
// every event it receives and hands it to the listeners. A worker that dies
// (an error event, an unreadable message, a wasm trap) is reported as a fatal
// 'error' event and replaced by a fresh one; the run itself is gone, but its
// last kept checkpoint can be resumed with resumeSaved(runName). While its
// run trains, it counts in the page's share of threads (threadShare.ts) and
// tells its worker the share whenever that changes.
//
//   const run = new TrainClient();                  // spawns a worker
//   run.on((e) => { if (e.type === 'step') plot(e.report); });
//   run.start(spec);  run.pause();  run.resume();  run.stop();  run.save();
//   run.dispose();                                   // terminates the worker
import type { WorkerLike } from './coreClient';
import type { RunSpec, TrainCommand, TrainEvent } from '../protocol/train';
import { checkTrainEvent } from '../protocol/trainCheck';
import { errorData } from '../protocol/base';
import { workerName } from './threadSetting';
import { trainingThreads, type ShareMember, type ThreadShare } from './threadShare';

/** After this many restarts within RESTART_WINDOW_MS the client gives up. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10_000;

export type TrainListener = (event: TrainEvent) => void;

/** Where the site keeps what the worker fetches, relative to the page (vite's publicDir). */
const KJV_URL = 'data/kjv-excerpt.txt';
const SHIPPED_WEIGHTS_URL = 'weights/glass-kjv.safetensors';

/** A trainer worker from the production build or the dev server. */
export function spawnTrainerWorker(): WorkerLike {
  return new Worker(new URL('../worker/trainer/main.ts', import.meta.url), { type: 'module', name: workerName('glass-trainer') });
}

/** Absolute URLs for the shipped text and weights, so the worker (whose own URL is elsewhere) fetches the page's. */
export function withSiteUrls(spec: RunSpec, base: string): RunSpec {
  const data = spec.data.kind === 'kjv' && spec.data.url === undefined ? { ...spec.data, url: new URL(KJV_URL, base).href } : spec.data;
  const init = spec.init.kind === 'shipped' && spec.init.url === undefined ? { ...spec.init, url: new URL(SHIPPED_WEIGHTS_URL, base).href } : spec.init;
  return { ...spec, data, init };
}

export class TrainClient implements ShareMember {
  private worker: WorkerLike;
  /** Whether the run trains, as far as the page knows: from a start (or resume) sent until the worker ends it. */
  private training: 'no' | 'asked' | 'yes' = 'no';
  /** The share last sent to this worker (undefined: none yet, a fresh worker runs on all its threads). */
  private sentShare: number | undefined;
  private readonly listeners = new Set<TrainListener>();
  private disposed = false;
  private restartTimes: number[] = [];
  /** Workers started because one died. */
  restarts = 0;
  /** True once the current worker's core has loaded. */
  ready = false;

  constructor(
    private readonly spawn: () => WorkerLike = spawnTrainerWorker,
    /** The page's address, to resolve the shipped files against (default: document.baseURI). */
    private readonly base: string = typeof document === 'undefined' ? '' : document.baseURI,
    /** The runs this one shares threads with (default: every run of the page). */
    private readonly share: ThreadShare = trainingThreads,
  ) {
    this.worker = this.startWorker();
  }

  /** Adds a listener; returns its removal. */
  on(listener: TrainListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a run (a running one in this worker ends). Buffers in spec.data / spec.init are transferred. */
  start(spec: RunSpec): void {
    const full = this.base ? withSiteUrls(spec, this.base) : spec;
    const transfer: Transferable[] = [];
    if (full.data.kind === 'file') transfer.push(full.data.bytes);
    if (full.init.kind === 'weights') transfer.push(full.init.bytes);
    this.asked();
    this.send({ type: 'start', spec: full }, transfer);
  }
  /** Continues a run kept in IndexedDB (common/trainStore.ts lists them). */
  resumeSaved(key: string): void {
    this.asked();
    this.send({ type: 'resume-saved', key });
  }
  pause(): void {
    this.send({ type: 'pause' });
  }
  resume(): void {
    if (this.training === 'no') this.asked();
    this.send({ type: 'resume' });
  }
  stop(): void {
    this.send({ type: 'stop' });
  }
  /** Asks for the weights: a 'weights' event with a .safetensors file. */
  save(): void {
    this.send({ type: 'save' });
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
    this.worker.terminate();
    this.trains('no');
  }

  /** ShareMember: the threads this run may compute on while the others train. */
  setShare(threads: number): void {
    if (this.disposed || threads === this.sentShare) return;
    this.sentShare = threads;
    this.worker.postMessage({ type: 'threads', n: threads } satisfies TrainCommand);
  }

  /**
   * A run is asked to train: it counts in the share from now, and its worker hears
   * its share before the command, so the run's first step already computes on it
   * (a small run's steps may all fit in its first slice, before another message is read).
   */
  private asked(): void {
    this.alive();
    this.trains('asked');
  }

  private trains(state: 'no' | 'asked' | 'yes'): void {
    this.training = state;
    if (state === 'no') this.share.leave(this);
    else this.share.join(this);
  }

  /** What an event says about whether the run trains. */
  private follow(event: TrainEvent): void {
    switch (event.type) {
      case 'started':
      case 'resumed':
      case 'step':
        this.trains('yes');
        return;
      case 'paused':
      case 'stopped':
      case 'diverged':
        this.trains('no');
        return;
      case 'error':
        // a fatal one ends the worker; otherwise only a start that was refused ends what was asked
        if (event.fatal || this.training === 'asked') this.trains('no');
        return;
    }
  }

  private send(command: TrainCommand, transfer: Transferable[] = []): void {
    this.alive();
    this.worker.postMessage(command, transfer);
  }

  private alive(): void {
    if (this.disposed) throw new Error('this training run was closed');
  }

  private emit(event: TrainEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        // one listener's bug must not starve the others of events
        setTimeout(() => {
          throw e;
        });
      }
    }
  }

  private startWorker(): WorkerLike {
    this.ready = false;
    this.sentShare = undefined;
    const worker = this.spawn();
    worker.onmessage = (event: MessageEvent) => this.receive(worker, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.crashed(worker, event.message || 'the trainer stopped with an error');
    };
    worker.onmessageerror = () => this.crashed(worker, 'a message from the trainer could not be read');
    return worker;
  }

  private receive(worker: WorkerLike, data: unknown): void {
    if (worker !== this.worker || this.disposed) return;
    let event: TrainEvent;
    try {
      event = checkTrainEvent(data);
    } catch (e) {
      this.emit({ type: 'error', error: { name: 'ProtocolError', message: `the trainer sent a message of the wrong shape: ${errorData(e).message}` }, fatal: false });
      return;
    }
    if (event.type === 'ready') this.ready = true;
    this.follow(event);
    this.emit(event);
    if (event.type === 'error' && event.fatal) this.replace(worker);
  }

  private crashed(worker: WorkerLike, message: string): void {
    if (worker !== this.worker || this.disposed) return;
    this.emit({ type: 'error', error: { name: 'WorkerError', message: `${message}; the trainer was restarted (the run can resume from its last kept checkpoint)` }, fatal: true });
    this.replace(worker);
  }

  private replace(worker: WorkerLike): void {
    if (worker !== this.worker || this.disposed) return;
    worker.terminate();
    this.trains('no'); // the run went with its worker
    const now = Date.now();
    this.restartTimes = this.restartTimes.filter((t) => now - t < RESTART_WINDOW_MS).concat(now);
    if (this.restartTimes.length > MAX_RESTARTS) {
      this.disposed = true; // a core that keeps dying: stop, and say so
      this.emit({ type: 'error', error: { name: 'WorkerError', message: 'the trainer kept stopping; reload the page to try again' }, fatal: true });
      this.listeners.clear();
      return;
    }
    this.restarts++;
    this.worker = this.startWorker();
  }
}
