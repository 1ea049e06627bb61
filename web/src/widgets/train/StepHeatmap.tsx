// One number per row per step as colours on a log scale: a run's per-block
// gradient norms (block x step), or its residual stream's RMS by depth
// (depth x step). Columns fill in as the run trains; the legend gives the
// decades. Hover (or focus and use the arrow keys) to read one cell.
import { useMemo, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { StepReport } from '../../protocol/train';
import { MatrixCanvas, type Cell } from '../MatrixCanvas';
import { NON_FINITE_RGB, ZERO_RGB, decadeLabel, logLegendGradient, logRgb } from './plotScale';
import './StepHeatmap.css';

const MAX_COLUMNS = 1000; // longer runs share columns (the latest step in a column wins; display only)
const NOT_YET = -1; // a cell whose step has not run (norms and RMS are never negative)
const NOT_YET_RGB = [255, 255, 255];

interface Props {
  title: string;
  /** What one cell is, for the readout: "gradient norm". */
  quantity: string;
  reports: readonly StepReport[];
  total: number;
  /** The row values of one report. */
  pick: (r: StepReport) => readonly number[];
  /** The rows' names, top to bottom. */
  rowNames: readonly string[];
  testId: string;
  /** The colour scale's decades, shared by run A's and run B's maps so their colours compare (null: no values yet). */
  scale: { lo: number; hi: number } | null;
}

export function StepHeatmap({ title, quantity, reports, total, pick, rowNames, testId, scale }: Props) {
  const rows = rowNames.length;
  const lastStep = reports.at(-1)?.step ?? 0;
  const steps = Math.max(total, lastStep, 1);
  const cols = Math.min(steps, MAX_COLUMNS);
  const colOf = (step: number) => Math.min(cols - 1, Math.floor(((step - 1) * cols) / steps));
  const count = reports.length;
  const { values, stepAt } = useMemo(() => {
    const v = new Float64Array(rows * cols).fill(NOT_YET);
    const s = new Int32Array(cols);
    for (const r of reports) {
      const c = colOf(r.step);
      const row = pick(r);
      for (let k = 0; k < rows; k++) v[k * cols + c] = row[k] ?? NOT_YET;
      s[c] = r.step;
    }
    return { values: v, stepAt: s };
    // reports grows in place: its length (and the last step) say when it changed
  }, [count, lastStep, rows, cols, reports]);
  const found = count === 0 ? null : scale;
  const decades = found ?? { lo: -3, hi: 0 };
  const colour = useMemo(() => (v: number) => (v === NOT_YET ? NOT_YET_RGB : logRgb(v, decades.lo, decades.hi)), [decades.lo, decades.hi]);
  const [cursor, setCursor] = useState<Cell | null>(null);
  const cell = cursor === null ? null : { row: rowNames[cursor.row], step: stepAt[cursor.col], v: values[cursor.row * cols + cursor.col] };
  const powers = Array.from({ length: decades.hi - decades.lo + 1 }, (_, k) => decades.lo + k);
  const hasZero = values.some((x) => x === 0);
  const hasBad = values.some((x) => !Number.isFinite(x));
  const height = Math.max(60, Math.min(14 * rows, 240));

  return (
    <figure class="step-heatmap" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <div class="sh-body">
        <ol class="sh-rows" aria-hidden="true" style={{ gridTemplateRows: `repeat(${rows}, 1fr)`, height: `${height + 2}px` }}>
          {rowNames.map((n, i) => (
            <li key={i} class={cursor?.row === i ? 'is-row' : ''}>
              {n}
            </li>
          ))}
        </ol>
        <div class="sh-map">
          <MatrixCanvas
            rows={rows}
            cols={cols}
            values={values}
            colour={colour}
            width={480}
            height={height}
            cursor={cursor}
            onCursor={setCursor}
            keyStart={{ row: 0, col: lastStep > 0 ? colOf(lastStep) : 0 }}
            clearOnLeave
            label={`${title}: rows ${rowNames[0]} to ${rowNames[rows - 1]}, one column per step, log colour scale. Use the arrow keys to read a cell.`}
            class="sh-canvas"
          />
          <div class="sh-steps num" aria-hidden="true">
            <span>step 1</span>
            <span>step {steps.toLocaleString('en')}</span>
          </div>
        </div>
      </div>
      <p class="sh-readout" aria-live="polite">
        {count === 0
          ? 'The map fills in, one column per step, as the run trains.'
          : cell === null
          ? 'Hover a cell (or focus the map and use the arrow keys) to read it.'
          : cell.v === NOT_YET || cell.step === 0
            ? `${cell.row}: this step has not run yet`
            : `${cell.row}, step ${cell.step.toLocaleString('en')}: ${quantity} ${fmt(cell.v, 4)}`}
      </p>
      {found !== null && <div class="sh-legend">
        <span class="sh-bar-wrap">
          <span class="sh-bar" style={{ background: logLegendGradient }} />
          <span class="sh-decades num">
            {powers.map((p) => (
              <span key={p}>{decadeLabel(p)}</span>
            ))}
          </span>
        </span>
        <span class="sh-key">log scale, the same for run A and run B: darker is larger</span>
        {hasZero && (
          <span class="sh-key">
            <span class="sh-swatch" style={{ background: `rgb(${ZERO_RGB.join(', ')})` }} /> exactly 0
          </span>
        )}
        {hasBad && (
          <span class="sh-key">
            <span class="sh-swatch" style={{ background: `rgb(${NON_FINITE_RGB.join(', ')})` }} /> NaN or infinite
          </span>
        )}
      </div>}
    </figure>
  );
}
