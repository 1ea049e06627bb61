// The residual stream by depth: the core's per-position RMS of the embedding,
// the stream after each block's two additions, and (after a dashed line,
// because it is not part of the stream) the final RMSNorm, one line per
// position (log scale). The chosen position is drawn on top.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { tensorName } from '../../app/tensorNames';
import { SHIPPED_SHAPE, type ModelShape } from '../../protocol/modelNames';
import { ToNotice } from '../ToNotice';
import { depthNotice, lastNonzero } from './inspectorNotices';
import './ResidualDepthPlot.css';

interface Props {
  names: readonly string[];
  rms: readonly ArrayLike<number>[]; // per depth: (n,)
  labels: readonly string[];
  title: string;
  /** These are gradients (backward runs right to left). */
  grad?: boolean;
  testId?: string;
  /** The loaded model's config (its words); the shipped model's by default. */
  model?: ModelShape;
}

const MIN_W = 620;
/** At least this many units between two depths, so a 24-block model's rotated labels do not overlap. */
const MIN_STEP = 15;
const H = 330;
const PAD = { left: 54, right: 60, top: 26, bottom: 128 };

/** Does depth k start its block (the first of the block's two stream tensors)? */
const startsBlock = (names: readonly string[], k: number, m: ModelShape) => {
  const b = tensorName(names[k], m).block;
  return b !== null && (k === 0 || tensorName(names[k - 1], m).block !== b);
};

/** "embedding 1.02 · block 0: after attention + 1.1, after SwiGLU + 1.3 · … · final RMSNorm 0.98". */
function readout(names: readonly string[], rms: readonly ArrayLike<number>[], pos: number, m: ModelShape): string {
  const parts: string[] = [];
  names.forEach((name, k) => {
    const t = tensorName(name, m);
    const v = `${t.short} ${fmt(rms[k][pos], 3)}`;
    if (startsBlock(names, k, m)) parts.push(`block ${t.block}: ${v}`);
    else if (t.block !== null) parts[parts.length - 1] += `, ${v}`;
    else parts.push(v);
  });
  return parts.join(' · ');
}

export function ResidualDepthPlot({ names, rms, labels, title, grad = false, testId, model = SHIPPED_SHAPE }: Props) {
  const W = Math.max(MIN_W, PAD.left + PAD.right + (names.length - 1) * MIN_STEP);
  const n = rms[0]?.length ?? 0;
  // the last byte's gradient is exactly zero: open on the last position that has one
  const [chosen, setChosen] = useState<number | null>(null);
  const pos = Math.min(chosen ?? lastNonzero(rms, n), n - 1);
  // Axis range (display only): the decades that hold every finite positive value.
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rms)
    for (let i = 0; i < r.length; i++)
      if (r[i] > 0 && Number.isFinite(r[i])) {
        lo = Math.min(lo, r[i]);
        hi = Math.max(hi, r[i]);
      }
  if (!Number.isFinite(lo)) [lo, hi] = [1e-3, 1];
  const d0 = Math.floor(Math.log10(lo));
  const d1 = Math.max(Math.ceil(Math.log10(hi)), d0 + 1);
  const step = (W - PAD.left - PAD.right) / Math.max(1, names.length - 1);
  const x = (k: number) => PAD.left + k * step;
  const y = (v: number) => PAD.top + ((d1 - Math.log10(v)) * (H - PAD.top - PAD.bottom)) / (d1 - d0);
  const line = (i: number) =>
    names
      .map((_, k) => (rms[k][i] > 0 && Number.isFinite(rms[k][i]) ? `${k === 0 ? 'M' : 'L'} ${x(k).toFixed(1)} ${y(rms[k][i]).toFixed(1)}` : ''))
      .join(' ');
  const decades = Array.from({ length: d1 - d0 + 1 }, (_, k) => d0 + k);
  // a stream that dies out spans many decades: label every few, so the labels stay apart
  const every = Math.ceil(decades.length / 8);
  // each block's two sums share a shaded band labelled with the block
  const bands = names.flatMap((name, k) => (startsBlock(names, k, model) ? [{ block: tensorName(name, model).block!, k }] : []));
  const offStream = names.indexOf('norm.final'); // the only depth that is not part of the stream
  const bottom = H - PAD.bottom;
  return (
    <figure class="depth-plot" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        style={W > MIN_W ? { minWidth: `${Math.round(W * 0.8)}px` } : undefined}
        role="img"
        aria-label={`${title}: RMS of each position at each depth, log scale`}
      >
        {2 * step < 56 && bands.length > 0 && (
          // narrow bands carry only the block's number: say once what it counts
          <text class="dp-tick" x={x(bands[0].k) - step / 2} y={PAD.top - 5} text-anchor="end">
            block
          </text>
        )}
        {bands.map(({ block, k }) => (
          <g key={block}>
            <rect x={x(k) - step / 2 + 2} y={PAD.top - 16} width={2 * step - 4} height={bottom - PAD.top + 16} fill={block % 2 === 0 ? '#eef2fa' : '#f6f8fc'} />
            <text class="dp-tick" x={x(k) + step / 2} y={PAD.top - 5} text-anchor="middle">
              {2 * step < 56 ? block : `block ${block}`}
            </text>
          </g>
        ))}
        {offStream > 0 && (
          <g>
            <line x1={x(offStream) - step / 2} x2={x(offStream) - step / 2} y1={PAD.top - 16} y2={bottom} stroke="#5b6475" stroke-dasharray="4 3" />
            <text class="dp-tick" x={x(offStream) - step / 2 + 4} y={PAD.top + 10}>
              <tspan>not in</tspan>
              <tspan x={x(offStream) - step / 2 + 4} dy="1.2em">
                the stream
              </tspan>
            </text>
          </g>
        )}
        {decades.map((e) => (
          <g key={e}>
            <line class="dp-grid" x1={PAD.left} x2={W - PAD.right} y1={y(10 ** e)} y2={y(10 ** e)} />
            {(e - d0) % every === 0 && (
              <text class="dp-tick" x={PAD.left - 6} y={y(10 ** e) + 4} text-anchor="end">
                1e{e}
              </text>
            )}
          </g>
        ))}
        {names.map((name, k) => (
          // a quarter turn keeps "+" a plus (at 40-50 degrees it reads as a times sign)
          <text key={name} class="dp-tick" text-anchor="end" transform={`translate(${x(k) + 4}, ${bottom + 8}) rotate(-90)`}>
            {tensorName(name, model).short}
          </text>
        ))}
        {Array.from({ length: n }, (_, i) => (i === pos ? null : <path key={i} class="dp-line" d={line(i)} />))}
        {n > 0 && <path class="dp-line is-chosen" d={line(pos)} />}
        {n > 0 && names.map((_, k) => (rms[k][pos] > 0 ? <circle key={k} class="dp-dot" cx={x(k)} cy={y(rms[k][pos])} r={3} /> : null))}
      </svg>
      <label class="dp-choose">
        Highlight position{' '}
        <select value={pos} onChange={(e) => setChosen(Number(e.currentTarget.value))}>
          {labels.slice(0, n).map((l, i) => (
            <option key={i} value={i}>
              {i}: {l}
            </option>
          ))}
        </select>{' '}
        <span class="num dp-values">{readout(names, rms, pos, model)}</span>
      </label>
      {n > 0 && <ToNotice testId={testId === undefined ? undefined : `${testId}-notice`}>{depthNotice(names, rms, pos, labels, grad, model)}</ToNotice>}
    </figure>
  );
}
