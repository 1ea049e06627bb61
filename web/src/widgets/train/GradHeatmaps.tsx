// Run A's and run B's gradient norm of each block, by step: two block x step
// heatmaps on one colour scale, so a colour means the same number in both.
// The Train view and the lessons' experiments (widgets/lessons/TrainExperiment.tsx) show the same pair.
import type { StepReport } from '../../protocol/train';
import type { RunState } from '../../viewmodels/train';
import { StepHeatmap } from './StepHeatmap';
import { logDecades } from './plotScale';

/** One colour scale for both runs' maps of a quantity, so a colour means the same number in each. */
export function sharedScale(runs: readonly RunState[], pick: (p: StepReport) => readonly number[]): { lo: number; hi: number } | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of runs)
    for (const p of r.reports) {
      const d = logDecades(pick(p));
      if (d !== null) [lo, hi] = [Math.min(lo, d.lo), Math.max(hi, d.hi)];
    }
  return lo === Infinity ? null : { lo, hi };
}

export const blockNames = (n: number) => Array.from({ length: n }, (_, i) => `block ${i}`);

interface Props {
  runs: readonly RunState[];
  /** The pair's grid and each map's card (the Train view's layout, or a lesson's). */
  pairClass: string;
  cardClass: string;
  /** Prefix of the maps' test ids: `${testId}-A`. */
  testId?: string;
}

export function GradHeatmaps({ runs, pairClass, cardClass, testId = 'grad-heatmap' }: Props) {
  const scale = sharedScale(runs, (p) => p.blockGradNorms);
  return (
    <div class={pairClass}>
      {runs.map((r) => (
        <div class={cardClass} key={r.id}>
          <StepHeatmap
            title={`Run ${r.id}: gradient norm of each block, by step`}
            quantity="gradient norm (before clipping)"
            reports={r.reports}
            total={r.reports.at(-1)?.total ?? r.train.steps}
            pick={(p) => p.blockGradNorms}
            scale={scale}
            rowNames={blockNames(r.info?.config.blocks ?? r.config.blocks)}
            testId={`${testId}-${r.id}`}
          />
        </div>
      ))}
    </div>
  );
}
