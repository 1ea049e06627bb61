// Training runs at the same time share the machine's threads. Each trainer
// worker's core starts on all of them (the learner's choice, else every core),
// so two runs at once asked for twice the cores there are, and each run's pool
// waited on threads the other run held: the pre- vs post-norm preset, A and B
// together, took 13.1-13.6 s in headless Chromium on a 2-core AMD EPYC on 2
// threads each, against 8.1-8.6 s on 1 each (a run alone: 5.4-6.5 s on 2, 6.4
// on 1; 2026-12-07). So while k runs train, each computes on total / k threads
// (the first ones to start take the remainder), and a run left alone gets them
// all again. The page tells each trainer its share ('threads' command,
// protocol/train.ts): before a run's start, so its first step computes on it,
// and while it trains, from its next slice of steps. A thread count never
// changes a result, only the time.
import { chosenThreads, machineCores } from './threadSetting';

/** A run that can be told its share (TrainClient). */
export interface ShareMember {
  setShare(threads: number): void;
}

export class ThreadShare {
  /** The training runs, in the order they started. */
  private readonly running: ShareMember[] = [];

  /** @param total the threads all runs share (read at every change: the learner may choose anew) */
  constructor(private readonly total: () => number) {}

  /** `m` trains from now on (already counted: nothing changes). */
  join(m: ShareMember): void {
    if (this.running.includes(m)) return;
    this.running.push(m);
    this.tell();
  }

  /** `m` stopped training (not counted: nothing changes). */
  leave(m: ShareMember): void {
    const i = this.running.indexOf(m);
    if (i < 0) return;
    this.running.splice(i, 1);
    this.tell();
  }

  /** Each running member's threads, in the order they started: at least 1 each. */
  shares(): number[] {
    const t = this.total();
    const total = Number.isFinite(t) && t >= 1 ? Math.floor(t) : 1;
    const k = this.running.length;
    return this.running.map((_, i) => Math.max(1, Math.floor(total / k) + (i < total % k ? 1 : 0)));
  }

  private tell(): void {
    const shares = this.shares();
    this.running.forEach((m, i) => m.setShare(shares[i]));
  }
}

/** The page's runs: the Train view's A and B, a lesson's experiment, the console's. */
export const trainingThreads = new ThreadShare(() => chosenThreads() ?? machineCores());
