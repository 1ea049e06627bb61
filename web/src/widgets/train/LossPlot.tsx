// Training and validation loss of run A and run B on one plot (SVG). A is a
// solid line with round markers, B a dashed line with square markers, so the
// two read apart without colour; a divergence is marked with a cross at its
// step. Hover (or focus and use the arrow keys) to read one step of both.
// Another per-step number of the reports (the learning rate, the gradient
// norm) draws the same way with `series` (the training lesson's plots).
import { useEffect, useRef, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { StepReport } from '../../protocol/train';
import type { RunState } from '../../viewmodels/train';
import { finiteRange, linearAxis, stepAxis, thin } from './plotScale';
import './LossPlot.css';

const H = 300;
const PAD = { left: 52, right: 16, top: 14, bottom: 40 };

/** The plot's width in CSS pixels, so its text stays at its size on a phone (the SVG is drawn at 1:1). */
function useWidth(fallback: number): [ref: { current: HTMLElement | null }, width: number] {
  const ref = useRef<HTMLElement | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => setWidth(Math.max(280, Math.min(760, Math.floor(el.clientWidth)))));
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  return [ref, width];
}
const MAX_POINTS = 800; // a path per line; more steps are thinned evenly (display only)

/** What the plot draws for each run: one number of each step report, and whether validation losses are marked. */
export interface PlotSeries {
  /** The caption, bold part first: ["Loss", " (mean next-byte …)"]. */
  caption: [string, string];
  /** The quantity in the readout: "loss", "learning rate". */
  name: string;
  pick: (p: StepReport) => number;
  /** Mark the validation losses. */
  val: boolean;
  /** A horizontal line at a value the runs share (the clipping threshold), with its words. */
  level?: { value: number; label: string };
  testId: string;
}

export const LOSS_SERIES: PlotSeries = {
  caption: ['Loss', ' (mean next-byte cross-entropy, nats per byte): training loss of each step as a line, validation loss on held-out text as markers.'],
  name: 'loss',
  pick: (p) => p.loss,
  val: true,
  testId: 'loss-plot',
};

interface Props {
  runs: readonly RunState[];
  series?: PlotSeries;
}

const STYLE = {
  A: { cls: 'lp-a', dash: undefined, marker: 'circle' as const },
  B: { cls: 'lp-b', dash: '7 4', marker: 'square' as const },
};

function Marker({ kind, x, y, cls }: { kind: 'circle' | 'square'; x: number; y: number; cls: string }) {
  return kind === 'circle' ? <circle class={`lp-mark ${cls}`} cx={x} cy={y} r={3.6} /> : <rect class={`lp-mark ${cls}`} x={x - 3.4} y={y - 3.4} width={6.8} height={6.8} />;
}

export function LossPlot({ runs, series = LOSS_SERIES }: Props) {
  const [cursor, setCursor] = useState<number | null>(null);
  const [box, W] = useWidth(640);
  const { pick: valueOf, val: marks, level } = series;
  const total = Math.max(1, ...runs.map((r) => r.reports.at(-1)?.total ?? r.train.steps));
  const vals = (r: RunState) => (marks ? r.val : []);
  const range = finiteRange(runs.flatMap((r) => [r.reports.map(valueOf), vals(r).map((v) => v.loss), level === undefined ? [] : [level.value]]));
  const x = stepAxis(total, PAD.left, W - PAD.right);
  const y = linearAxis(range?.lo ?? 0, range?.hi ?? 1, H - PAD.bottom, PAD.top, 5);
  const bottom = H - PAD.bottom;
  const inside = (v: number) => Number.isFinite(v);

  const path = (r: RunState) => {
    const idx = thin(r.reports.length, MAX_POINTS);
    let d = '';
    let pen = false;
    for (const i of idx) {
      const p = r.reports[i];
      const v = valueOf(p);
      if (!inside(v)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'} ${x.at(p.step).toFixed(1)} ${y.at(v).toFixed(1)} `;
      pen = true;
    }
    return d;
  };

  const hovered = cursor === null ? null : runs.map((r) => ({ r, p: r.reports.find((q) => q.step === cursor) ?? null, v: vals(r).find((q) => q.step === cursor) ?? null }));
  const lastStep = Math.max(0, ...runs.map((r) => r.reports.at(-1)?.step ?? 0));
  const pick = (step: number) => setCursor(Math.max(1, Math.min(lastStep, step)));
  const onMove = (e: MouseEvent) => {
    const rect = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    const px = ((e.clientX - rect.left) / rect.width) * W;
    const step = Math.round(((px - PAD.left) / (W - PAD.left - PAD.right)) * (x.hi - x.lo) + x.lo);
    if (lastStep > 0) pick(step);
  };
  const onKey = (e: KeyboardEvent) => {
    const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : e.key === 'PageUp' ? 10 : e.key === 'PageDown' ? -10 : 0;
    if (by === 0 || lastStep === 0) return;
    e.preventDefault();
    pick((cursor ?? lastStep) + by);
  };

  return (
    <figure class="loss-plot" data-testid={series.testId} ref={box}>
      <figcaption>
        <strong>{series.caption[0]}</strong>
        {series.caption[1]}
      </figcaption>
      <ul class="lp-legend">
        {runs.map((r) => (
          <li key={r.id}>
            <svg width="52" height="14" aria-hidden="true">
              <line class={`lp-line ${STYLE[r.id].cls}`} x1="2" x2="50" y1="7" y2="7" stroke-dasharray={STYLE[r.id].dash} />
              <Marker kind={STYLE[r.id].marker} x={26} y={7} cls={STYLE[r.id].cls} />
            </svg>
            Run {r.id}: {r.label}
          </li>
        ))}
      </ul>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        tabIndex={0}
        aria-label={`${series.caption[0]} of run A and run B by step. Use the arrow keys to read a step.`}
        onMouseMove={onMove}
        onMouseLeave={() => setCursor(null)}
        onKeyDown={onKey}
      >
        {y.ticks.map((t) => (
          <g key={`y${t}`}>
            <line class="lp-grid" x1={PAD.left} x2={W - PAD.right} y1={y.at(t)} y2={y.at(t)} />
            <text class="lp-tick" x={PAD.left - 6} y={y.at(t) + 4} text-anchor="end">
              {fmt(t, 4)}
            </text>
          </g>
        ))}
        {x.ticks.map((t) => (
          <g key={`x${t}`}>
            <line class="lp-axis" x1={x.at(t)} x2={x.at(t)} y1={bottom} y2={bottom + 5} />
            <text class="lp-tick" x={x.at(t)} y={bottom + 18} text-anchor="middle">
              {t.toLocaleString('en')}
            </text>
          </g>
        ))}
        {level !== undefined && (
          <g class="lp-level">
            <line class="lp-level-line" x1={PAD.left} x2={W - PAD.right} y1={y.at(level.value)} y2={y.at(level.value)} />
            <text class="lp-tick" x={W - PAD.right - 4} y={y.at(level.value) - 5} text-anchor="end">
              {level.label}
            </text>
          </g>
        )}
        <line class="lp-axis" x1={PAD.left} x2={W - PAD.right} y1={bottom} y2={bottom} />
        <line class="lp-axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={bottom} />
        <text class="lp-tick" x={(PAD.left + W - PAD.right) / 2} y={H - 4} text-anchor="middle">
          step
        </text>
        {runs.map((r) => (
          <g key={r.id}>
            <path class={`lp-line ${STYLE[r.id].cls}`} d={path(r)} stroke-dasharray={STYLE[r.id].dash} />
            {vals(r).filter((v) => inside(v.loss)).map((v) => (
              <Marker key={v.step} kind={STYLE[r.id].marker} x={x.at(v.step)} y={y.at(v.loss)} cls={STYLE[r.id].cls} />
            ))}
            {r.diverged !== null && (
              <g class={`lp-diverged ${STYLE[r.id].cls}`}>
                <path d={`M ${x.at(r.diverged.step) - 6} ${PAD.top + 4} l 12 12 m -12 0 l 12 -12`} />
                <text x={x.at(r.diverged.step)} y={PAD.top + 30} text-anchor="middle">
                  {r.id} diverged
                </text>
              </g>
            )}
          </g>
        ))}
        {cursor !== null && <line class="lp-cursor" x1={x.at(cursor)} x2={x.at(cursor)} y1={PAD.top} y2={bottom} />}
      </svg>
      <p class="lp-readout" aria-live="polite" data-testid={`${series.testId === 'loss-plot' ? 'loss' : series.testId}-readout`}>
        {hovered === null
          ? 'Hover the plot (or focus it and use the arrow keys) to read one step of both runs.'
          : `Step ${cursor!.toLocaleString('en')}: ` +
            hovered
              .map(({ r, p, v }) => `run ${r.id} ${p === null ? 'not there yet' : `${series.name} ${fmt(valueOf(p), 5)}`}${v === null ? '' : `, validation ${fmt(v.loss, 5)}`}`)
              .join(' · ')}
      </p>
    </figure>
  );
}
