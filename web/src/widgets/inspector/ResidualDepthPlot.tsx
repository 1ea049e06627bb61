// The residual stream by depth: the core's per-position RMS of embed, each
// block's resid.attn and resid.ffn, and norm.final, one line per position
// (log scale). The chosen position is drawn on top.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import './ResidualDepthPlot.css';

interface Props {
  names: readonly string[];
  rms: readonly ArrayLike<number>[]; // per depth: (n,)
  labels: readonly string[];
  title: string;
  testId?: string;
}

const W = 620;
const H = 250;
const PAD = { left: 54, right: 60, top: 12, bottom: 58 };

const short = (name: string) =>
  name === 'embed' ? 'embed' : name === 'norm.final' ? 'norm.final' : name.replace(/^blocks\.(\d+)\.resid\.(attn|ffn)$/, '$1·$2');

export function ResidualDepthPlot({ names, rms, labels, title, testId }: Props) {
  const n = rms[0]?.length ?? 0;
  const [chosen, setChosen] = useState(n - 1);
  const pos = Math.min(chosen, n - 1);
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
  const x = (k: number) => PAD.left + (k * (W - PAD.left - PAD.right)) / Math.max(1, names.length - 1);
  const y = (v: number) => PAD.top + ((d1 - Math.log10(v)) * (H - PAD.top - PAD.bottom)) / (d1 - d0);
  const line = (i: number) =>
    names
      .map((_, k) => (rms[k][i] > 0 && Number.isFinite(rms[k][i]) ? `${k === 0 ? 'M' : 'L'} ${x(k).toFixed(1)} ${y(rms[k][i]).toFixed(1)}` : ''))
      .join(' ');
  const decades = Array.from({ length: d1 - d0 + 1 }, (_, k) => d0 + k);
  return (
    <figure class="depth-plot" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: RMS of each position at each depth, log scale`}>
        {decades.map((e) => (
          <g key={e}>
            <line class="dp-grid" x1={PAD.left} x2={W - PAD.right} y1={y(10 ** e)} y2={y(10 ** e)} />
            <text class="dp-tick" x={PAD.left - 6} y={y(10 ** e) + 4} text-anchor="end">
              1e{e}
            </text>
          </g>
        ))}
        {names.map((name, k) => (
          <text key={name} class="dp-tick" transform={`translate(${x(k) + 4}, ${H - PAD.bottom + 10}) rotate(40)`}>
            {short(name)}
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
        <span class="num dp-values">{names.map((nm, k) => `${short(nm)} ${fmt(rms[k][pos], 3)}`).join(' · ')}</span>
      </label>
    </figure>
  );
}
