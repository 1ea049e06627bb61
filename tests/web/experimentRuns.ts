// Runs a lesson experiment (app/lessonExperiments.ts) to its end in Node, as
// the page does: the experiment's pair of RunControllers
// (viewmodels/experiments.ts), each with the trainer worker's loop
// (worker/trainer/runner.ts) on the real wasm core in this thread, the KJV
// excerpt read from public/. What comes back is what a lesson's checks read.
import { readFileSync } from 'node:fs';
import type { Glass } from '../../web/src/core';
import { experimentById } from '../../web/src/app/lessonExperiments';
import type { TrainEvent } from '../../web/src/protocol/train';
import { ExperimentSession, hasEnded, summarize, type ExperimentRuns } from '../../web/src/viewmodels/experiments';
import type { SpawnRun } from '../../web/src/viewmodels/train';
import { TrainerRunner } from '../../web/src/worker/trainer/runner';

const KJV = new URL('../../public/data/kjv-excerpt.txt', import.meta.url);

/** A trainer "worker" in this thread: the runner, fed the commands, its events handed back. */
export function inThreadSpawn(glass: Glass, seen: TrainEvent[] = []): SpawnRun {
  return (onEvent) => {
    let live = true;
    const runner = new TrainerRunner({
      glass,
      post: (e) => {
        seen.push(e);
        if (live) onEvent(e);
      },
      store: null,
      fetchBytes: async (url) => {
        if (!url.endsWith('data/kjv-excerpt.txt')) throw new Error(`404 ${url}`);
        const b = readFileSync(KJV);
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
      },
      yieldToEvents: () => new Promise((r) => setTimeout(r, 0)),
      now: () => performance.now(),
    });
    return {
      send: (command) => void runner.receive(command),
      dispose: () => {
        live = false;
        void runner.receive({ type: 'stop' }).catch(() => {});
      },
    };
  };
}

/** Trains an experiment's two runs to their end; resolves to what the checks read, and the seconds it took. */
export async function runExperiment(glass: Glass, id: string, seen: TrainEvent[] = []): Promise<{ runs: ExperimentRuns; seconds: number; session: ExperimentSession }> {
  const e = experimentById(id);
  if (e === null) throw new Error(`no experiment "${id}"`);
  const session = new ExperimentSession(e, inThreadSpawn(glass, seen), (flush) => flush());
  const t0 = performance.now();
  session.start();
  await new Promise<void>((resolve, reject) => {
    const poll = () => {
      const [a, b] = session.states();
      for (const r of [a, b]) if (r.phase === 'failed') return reject(new Error(`${id} run ${r.id}: ${r.error}`));
      if (hasEnded(a) && hasEnded(b)) return resolve();
      setTimeout(poll, 5);
    };
    poll();
  });
  const [a, b] = session.states();
  return { runs: { A: summarize(a), B: summarize(b) }, seconds: (performance.now() - t0) / 1000, session };
}
