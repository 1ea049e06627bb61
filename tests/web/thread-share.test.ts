// Runs that train at the same time share the threads (app/threadShare.ts): the
// shares themselves, what each TrainClient tells its worker as runs start,
// pause, stop, fail and close, and the 'threads' command's checks at both ends.
import { describe, expect, it } from 'vitest';
import { ThreadShare, type ShareMember } from '../../web/src/app/threadShare';
import { TrainClient } from '../../web/src/app/trainClient';
import type { WorkerLike } from '../../web/src/app/coreClient';
import type { RunSpec, TrainCommand, TrainEvent } from '../../web/src/protocol/train';
import { checkTrainCommand, checkTrainEvent } from '../../web/src/protocol/trainCheck';
import { DEFAULT_MODEL_CONFIG, DEFAULT_TRAIN_SETTINGS } from '../../web/src/protocol/trainSettings';

/** A member that remembers what it was told. */
function member(): ShareMember & { told: number[] } {
  return {
    told: [],
    setShare(n: number) {
      this.told.push(n);
    },
  };
}

describe('ThreadShare: k runs at once share the threads', () => {
  it('gives each of k runs total / k, the first ones the remainder, at least 1 each', () => {
    const cases: [number, number, number[]][] = [
      [2, 1, [2]],
      [2, 2, [1, 1]],
      [2, 3, [1, 1, 1]], // more runs than threads: each still computes
      [8, 3, [3, 3, 2]],
      [5, 2, [3, 2]],
      [1, 2, [1, 1]],
      [16, 4, [4, 4, 4, 4]],
    ];
    for (const [total, k, want] of cases) {
      const share = new ThreadShare(() => total);
      const ms = Array.from({ length: k }, member);
      for (const m of ms) share.join(m);
      expect(share.shares(), `${k} runs on ${total} threads`).toEqual(want);
      expect(ms.map((m) => m.told.at(-1))).toEqual(want);
    }
  });

  it('tells everyone when a run joins or leaves; joining twice or leaving unknown changes nothing', () => {
    const share = new ThreadShare(() => 4);
    const a = member(), b = member(), c = member();
    share.join(a);
    share.join(b);
    share.join(a);
    expect(a.told).toEqual([4, 2]);
    expect(b.told).toEqual([2]);
    share.leave(c);
    share.leave(a);
    expect(b.told).toEqual([2, 4]); // alone again: all of them
    expect(share.shares()).toEqual([4]);
    share.leave(b);
    expect(share.shares()).toEqual([]);
  });

  it('reads the total at every change, and takes 1 for a total that is not a count', () => {
    let total = 4;
    const share = new ThreadShare(() => total);
    const a = member(), b = member();
    share.join(a);
    total = 2; // the learner chose fewer threads
    share.join(b);
    expect(share.shares()).toEqual([1, 1]);
    for (const bad of [0, -3, NaN, Infinity, 0.5]) {
      total = bad;
      expect(share.shares(), String(bad)).toEqual([1, 1]);
    }
    total = 3.7;
    expect(share.shares()).toEqual([2, 1]);
  });
});

/** A worker that records the commands it is sent; events are played to the client by hand. */
function recordingWorker(): WorkerLike & { sent: TrainCommand[]; play(e: TrainEvent): void; terminated: boolean } {
  return {
    onmessage: null as ((e: MessageEvent) => void) | null,
    onerror: null as ((e: ErrorEvent) => void) | null,
    onmessageerror: null as ((e: MessageEvent) => void) | null,
    sent: [],
    terminated: false,
    postMessage(message: unknown) {
      this.sent.push(checkTrainCommand(structuredClone(message)));
    },
    terminate() {
      this.terminated = true;
    },
    play(e: TrainEvent) {
      this.onmessage?.({ data: e } as MessageEvent);
    },
  };
}

const SPEC: RunSpec = { run: 'A', config: DEFAULT_MODEL_CONFIG, train: DEFAULT_TRAIN_SETTINGS, data: { kind: 'text', text: 'x', label: 't' }, init: { kind: 'scratch' } };

/** The thread counts a worker was told, in order. */
const threadsSent = (w: { sent: TrainCommand[] }) => w.sent.flatMap((c) => (c.type === 'threads' ? [c.n] : []));

describe('TrainClient tells its worker its share', () => {
  function two(total = 2) {
    const share = new ThreadShare(() => total);
    const workers: ReturnType<typeof recordingWorker>[] = [];
    const client = () =>
      new TrainClient(
        () => {
          const w = recordingWorker();
          workers.push(w);
          return w;
        },
        'http://site/',
        share,
      );
    return { share, workers, a: client(), b: client() };
  }

  it('two runs at once: half each, and all again for the one left when the other stops, pauses or diverges', () => {
    const { share, workers, a, b } = two(2);
    const [wa, wb] = workers;
    expect(wa.sent).toEqual([]); // nothing before a run
    a.start(SPEC);
    expect(wa.sent.map((c) => c.type)).toEqual(['threads', 'start']); // the share first: the run's first step computes on it
    expect(threadsSent(wa)).toEqual([2]);
    b.start({ ...SPEC, run: 'B' });
    expect(threadsSent(wa)).toEqual([2, 1]);
    expect(threadsSent(wb)).toEqual([1]);
    wb.play({ type: 'stopped', step: 3, finished: true, valLoss: 1 });
    expect(threadsSent(wa)).toEqual([2, 1, 2]);
    b.resumeSaved('B');
    expect(threadsSent(wa)).toEqual([2, 1, 2, 1]);
    wb.play({ type: 'paused', step: 4 });
    expect(threadsSent(wa)).toEqual([2, 1, 2, 1, 2]);
    b.resume();
    expect(threadsSent(wb)).toEqual([1]); // told 1 before: not sent again
    wb.play({ type: 'diverged', step: 5, what: 'loss', message: 'the loss is NaN' });
    expect(threadsSent(wa)).toEqual([2, 1, 2, 1, 2, 1, 2]);
    expect(share.shares()).toEqual([2]);
    a.dispose();
    b.dispose();
    expect(share.shares()).toEqual([]);
  });

  it('a refused start gives its share back; an error while training does not', () => {
    const { share, workers, a, b } = two(4);
    a.start(SPEC);
    b.start(SPEC);
    expect(share.shares()).toEqual([2, 2]);
    workers[1].play({ type: 'error', error: { name: 'CommandError', message: 'bad settings' }, fatal: false });
    expect(share.shares()).toEqual([4]);
    expect(threadsSent(workers[0])).toEqual([4, 2, 4]);
    workers[0].play({ type: 'step', report: { step: 1, total: 9, loss: 5, lr: 1e-3, gradNorm: 1, blockGradNorms: [1], residRms: [1, 1], seconds: 0.1, tokensPerSecond: 1, etaSeconds: 1, valLoss: null, threads: 4 } });
    workers[0].play({ type: 'error', error: { name: 'CommandError', message: 'the run is already training' }, fatal: false });
    expect(share.shares()).toEqual([4]); // still training
    a.dispose();
    b.dispose();
  });

  it('a worker that dies takes its run out of the share; its replacement is told again when a run starts', () => {
    const { share, workers, a, b } = two(2);
    a.start(SPEC);
    b.start(SPEC);
    workers[0].onerror?.({ message: 'out of memory', preventDefault() {} } as ErrorEvent);
    expect(workers).toHaveLength(3);
    expect(share.shares()).toEqual([2]);
    expect(threadsSent(workers[1])).toEqual([1, 2]);
    a.start(SPEC);
    expect(threadsSent(workers[2])).toEqual([1]);
    a.dispose();
    b.dispose();
  });
});

describe("the 'threads' command and the report's threads, checked at both ends", () => {
  it('takes a whole number of threads from 1 to 256, and refuses anything else naming the field', () => {
    for (const n of [1, 2, 256]) expect(checkTrainCommand({ type: 'threads', n })).toEqual({ type: 'threads', n });
    for (const n of [0, -1, 1.5, 257, NaN, Infinity]) expect(() => checkTrainCommand({ type: 'threads', n }), String(n)).toThrow(/^command\.n must be a whole number of threads from 1 to 256/);
    for (const n of ['2', null, undefined, [2]]) expect(() => checkTrainCommand({ type: 'threads', n }), String(n)).toThrow(/^command\.n must be a number$/);
    const report = { step: 1, total: 2, loss: 1, lr: 1, gradNorm: 1, blockGradNorms: [], residRms: [], seconds: 1, tokensPerSecond: 1, etaSeconds: 1, valLoss: null };
    expect(checkTrainEvent({ type: 'step', report })).toBeTruthy(); // a report kept before threads were reported
    expect(checkTrainEvent({ type: 'step', report: { ...report, threads: 3 } })).toBeTruthy();
    for (const threads of [0, 2.5, '2']) expect(() => checkTrainEvent({ type: 'step', report: { ...report, threads } }), String(threads)).toThrow(/^report\.threads must be/);
  });
});
