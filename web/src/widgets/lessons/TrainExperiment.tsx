// A lesson's experiment: run A and run B trained side by side in the page by
// the Train view's trainer (one worker each), drawn with the Train view's own
// plots. The step's checks are answered from these runs once both have ended
// (viewmodels/experiments.ts). Which experiment: the widget line's
// `experiment=<id>` (app/lessonExperiments.ts).
import { fmt } from '../../app/format';
import { experimentById, type Experiment } from '../../app/lessonExperiments';
import { durationText } from '../train/RunPanel';
import { hasEnded, experimentSession } from '../../viewmodels/experiments';
import { isActive, type RunState } from '../../viewmodels/train';
import { sizeText } from '../../viewmodels/trainData';
import { GradHeatmaps } from '../train/GradHeatmaps';
import { LossPlot, type PlotSeries } from '../train/LossPlot';
import { ToNotice } from '../ToNotice';
import type { LessonWidgets, WidgetProps } from '../../lessons/widgetTypes';
import './TrainExperiment.css';

export const lessonWidgets: LessonWidgets = { 'train-experiment': TrainExperiment };

const LR_SERIES: PlotSeries = {
  caption: ['Learning rate', ' of each step: what AdamW multiplies its step by.'],
  name: 'learning rate',
  pick: (p) => p.lr,
  val: false,
  testId: 'lr-plot',
};

const gradSeries = (clip: number): PlotSeries => ({
  caption: ['Gradient norm', ' of each step, over all parameters, before clipping; the dotted line is the clipping threshold.'],
  name: 'gradient norm',
  pick: (p) => p.gradNorm,
  val: false,
  level: clip > 0 ? { value: clip, label: `clipped above ${fmt(clip, 4)}` } : undefined,
  testId: 'grad-norm-plot',
});

function RunLine({ r }: { r: RunState }) {
  const last = r.reports.at(-1) ?? null;
  const total = last?.total ?? r.train.steps;
  const val = r.val.at(-1) ?? null;
  let state: string;
  if (r.phase === 'failed') state = `could not run: ${r.error ?? 'the trainer stopped'}`;
  else if (r.phase === 'diverged' && r.diverged !== null) state = `diverged at step ${r.diverged.step.toLocaleString('en')} (${r.diverged.what} became NaN or infinite)`;
  else if (r.phase === 'idle') state = 'not trained yet';
  else if (r.phase === 'starting') state = 'starting: loading the core and the text…';
  else if (r.phase === 'finished') state = 'finished';
  else if (r.phase === 'stopped') state = 'stopped before its end: train again to answer the questions';
  else state = `training, about ${durationText(last?.etaSeconds ?? NaN)} left`;
  return (
    <li class={`te-run te-run-${r.id}`} data-testid={`te-run-${r.id}`} data-phase={r.phase}>
      <strong>
        <span aria-hidden="true">{r.id === 'A' ? '● ' : '■ '}</span>Run {r.id}: {r.label}
      </strong>{' '}
      <span class="num">
        step {(last?.step ?? 0).toLocaleString('en')} of {total.toLocaleString('en')}
      </span>
      {last !== null && <span class="num"> · loss {fmt(last.loss, 4)}</span>}
      {val !== null && <span class="num"> · validation {fmt(val.loss, 4)}</span>}
      <span class="te-state"> · {state}</span>
      {r.info !== null && (
        <span class="te-facts">
          {' '}
          ({r.info.parameters.toLocaleString('en')} parameters; {sizeText(r.info.trainBytes)} of {r.info.dataLabel} to train on, {sizeText(r.info.valBytes)} held out)
        </span>
      )}
    </li>
  );
}

/** Where each run's gradient is largest at its last step, from the reports themselves. */
function gradNotice(runs: readonly RunState[]): string {
  if (!runs.every(hasEnded)) return ' the maps fill in, one column per step, as the runs train; a darker cell is a larger gradient norm.';
  const where = runs.map((r) => {
    const g = r.reports.at(-1)?.blockGradNorms ?? [];
    const top = g.indexOf(Math.max(...g));
    return Math.max(...g) === 0 ? `run ${r.id}’s gradients are all exactly 0` : `run ${r.id}’s largest is block ${top}’s`;
  });
  return ` at the last step, ${where.join(', ')}. Compare the first blocks with the last in each map.`;
}

function ProbeTable({ e, runs }: { e: Experiment; runs: readonly RunState[] }) {
  const shown = (r: RunState) => {
    const n = r.reports.length;
    return [...new Set([1, 2, 3, 10, n].filter((s) => s >= 1 && s <= n))];
  };
  return (
    <div class="te-probes">
      {e.probes.map((p, k) => (
        <figure key={k} class="te-probe" data-testid={`probe-${k}`}>
          <figcaption>
            <strong>{p.label}</strong>: its value and AdamW’s moments m and v after each step (before bias correction).
          </figcaption>
          <div class="te-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">run</th>
                  <th scope="col">step</th>
                  <th scope="col">learning rate</th>
                  <th scope="col">value</th>
                  <th scope="col">m</th>
                  <th scope="col">v</th>
                </tr>
              </thead>
              <tbody>
                {runs.flatMap((r) =>
                  shown(r).map((s) => {
                    const rep = r.reports[s - 1];
                    const q = rep.probes?.[k];
                    return (
                      <tr key={`${r.id}-${s}`}>
                        <th scope="row">{r.id}</th>
                        <td class="num">{s.toLocaleString('en')}</td>
                        <td class="num">{fmt(rep.lr, 4)}</td>
                        <td class="num" data-testid={`probe-${k}-${r.id}-${s}-value`}>{q === undefined ? '—' : fmt(q.value, 7)}</td>
                        <td class="num">{q === undefined ? '—' : fmt(q.m, 4)}</td>
                        <td class="num">{q === undefined ? '—' : fmt(q.v, 4)}</td>
                      </tr>
                    );
                  }),
                )}
              </tbody>
            </table>
          </div>
        </figure>
      ))}
      <ToNotice>
        {runs.every((r) => r.reports.length > 0)
          ? ' m follows the gradient’s sign, v its square; a weight whose gradient is always 0 has m = v = 0, and still changes if it is a matrix’s.'
          : ' the table fills in once the runs have trained: steps 1, 2, 3, 10 and the last.'}
      </ToNotice>
    </div>
  );
}

export function TrainExperiment({ args }: WidgetProps) {
  const id = args.experiment ?? '';
  const e = experimentById(id);
  const s = e === null ? null : experimentSession(id);
  if (e === null || s === null)
    return (
      <p class="lesson-error" role="alert" data-testid="widget-train-experiment">
        This step asks for an experiment named “{id}”, which does not exist.
      </p>
    );
  // `show=lr,grad-norm`: the views of this placement (a later step shows another side of the same
  // runs, without the loss curves an earlier step already showed); all of them without `show`
  const show = args.show === undefined ? e.views : args.show.split(',').map((v) => v.trim());
  const unknown = show.filter((v) => !(e.views as string[]).includes(v));
  if (unknown.length > 0)
    return (
      <p class="lesson-error" role="alert" data-testid="widget-train-experiment">
        This experiment has no view named “{unknown.join('”, “')}” (it has {e.views.join(', ')}).
      </p>
    );
  const runs = s.states();
  const running = runs.some(isActive);
  const ended = runs.every(hasEnded);
  const failed = runs.some((r) => r.phase === 'failed');
  const state = running ? 'running' : ended ? 'done' : failed ? 'failed' : 'idle';
  return (
    <div class="lesson-widget train-experiment" data-testid="widget-train-experiment" data-experiment={id} data-state={state}>
      <div class="widget-row">
        {running ? (
          <button type="button" onClick={() => s.stop()} data-testid="te-stop">
            Stop
          </button>
        ) : (
          <button type="button" class="te-go" onClick={() => s.start()} data-testid="te-start">
            {ended ? 'Train both again' : e.title}
          </button>
        )}
        <span class="widget-note">Both runs start from the same seed and read the same kind of text; each trains in a worker of its own.</span>
      </div>
      <ul class="te-runs" aria-live="polite">
        {runs.map((r) => (
          <RunLine key={r.id} r={r} />
        ))}
      </ul>
      {show.includes('loss') && (
        <>
          <LossPlot runs={runs} />
          <ToNotice>
            {ended
              ? ` run A ended at a training loss of ${fmt(runs[0].reports.at(-1)?.loss ?? NaN, 4)} and run B at ${fmt(runs[1].reports.at(-1)?.loss ?? NaN, 4)}; the markers are the loss on text neither run trained on.`
              : ' both curves start near ln 256 nats, the loss of a uniform guess over the 256 bytes, and fall as the runs learn.'}
          </ToNotice>
        </>
      )}
      {show.includes('block-grads') && (
        <>
          <GradHeatmaps runs={runs} pairClass="te-pair" cardClass="te-card" testId={`te-grad-${id}`} />
          <ToNotice>{gradNotice(runs)}</ToNotice>
        </>
      )}
      {show.includes('lr') && (
        <>
          <LossPlot runs={runs} series={LR_SERIES} />
          <ToNotice> the learning rate is a schedule of the step alone: it does not look at the loss.</ToNotice>
        </>
      )}
      {show.includes('grad-norm') && (
        <>
          <LossPlot runs={runs} series={gradSeries(runs[0].train.clip)} />
          <ToNotice> every step above the dotted line had its whole gradient scaled down onto it before AdamW saw it.</ToNotice>
        </>
      )}
      {show.includes('probes') && e.probes.length > 0 && <ProbeTable e={e} runs={runs} />}
    </div>
  );
}
