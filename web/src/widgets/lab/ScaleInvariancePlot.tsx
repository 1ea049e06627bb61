// ||RMSNorm(c·x) − RMSNorm(x)|| across c on log–log axes (the core computed
// every point), with the current c marked and the crossover c* = √(ε / mean(x²))
// where ε/c² equals the energy of x: left of it epsilon takes over.
import { fmt, fmtScale } from '../../app/format';
import type { LabResult } from '../../app/protocol';
import './ScaleInvariancePlot.css';

const W = 560;
const H = 250;
const PAD = { left: 58, right: 16, top: 14, bottom: 40 };
const C_MIN = -8;
const C_MAX = 8;
/** Distances below this (including exact 0) are drawn on the floor line, labelled "≤ 1e-18". */
const FLOOR_LOG = -18;

export function ScaleInvariancePlot({ result, c }: { result: LabResult; c: number }) {
  const { curve } = result;
  const finite = curve.distance.filter((v) => Number.isFinite(v) && v > 0);
  const topLog = Math.max(1, Math.ceil(Math.log10(Math.max(1, ...finite)) + 0.3));
  const px = (logC: number) => PAD.left + ((logC - C_MIN) / (C_MAX - C_MIN)) * (W - PAD.left - PAD.right);
  const py = (v: number) => {
    const l = v > 0 ? Math.max(FLOOR_LOG, Math.log10(v)) : FLOOR_LOG;
    return PAD.top + ((topLog - l) / (topLog - FLOOR_LOG)) * (H - PAD.top - PAD.bottom);
  };

  // The curve as path segments, broken where the core returned NaN / Infinity.
  let d = '';
  let pen = false;
  curve.c.forEach((cv, i) => {
    const v = curve.distance[i];
    if (!Number.isFinite(v)) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${px(Math.log10(cv)).toFixed(1)},${py(v).toFixed(1)}`;
    pen = true;
  });
  const undefinedPoints = curve.distance.filter((v) => !Number.isFinite(v)).length;

  const yTicks: number[] = [];
  for (let l = topLog; l >= FLOOR_LOG; l -= 3) yTicks.push(l);
  const xTicks = [-8, -4, 0, 4, 8];
  const cx = px(Math.log10(c));
  const cy = Number.isFinite(result.distance) ? py(result.distance) : null;
  const star = result.crossoverC !== null && result.crossoverC >= 1e-8 && result.crossoverC <= 1e8 ? result.crossoverC : null;

  return (
    <figure class="scale-plot" data-testid="scale-plot">
      <figcaption>
        <strong>Scale invariance and where ε takes over.</strong> Distance ‖RMSNorm(c·x) − RMSNorm(x)‖ for 61 values of c
        (both axes logarithmic). At the current c = {fmtScale(c)} it is{' '}
        <span class="num" data-testid="plot-distance" data-value={String(result.distance)}>
          {fmt(result.distance, 4)}
        </span>
        .
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`distance between RMSNorm of c times x and RMSNorm of x, for c from 1e-8 to 1e8; at c = ${fmtScale(c)} it is ${fmt(result.distance, 4)}`}>
        {star !== null && (
          <g class="scale-plot-eps-zone">
            <rect x={PAD.left} y={PAD.top} width={px(Math.log10(star)) - PAD.left} height={H - PAD.top - PAD.bottom} />
            <line x1={px(Math.log10(star))} x2={px(Math.log10(star))} y1={PAD.top} y2={H - PAD.bottom} />
            <text x={px(Math.log10(star)) + 4} y={H - PAD.bottom - 6}>
              c*
            </text>
          </g>
        )}
        {yTicks.map((l) => (
          <g key={l} class="scale-plot-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={py(10 ** l)} y2={py(10 ** l)} />
            <text x={PAD.left - 6} y={py(10 ** l) + 4} text-anchor="end">
              {l === FLOOR_LOG ? `≤1e${l}` : `1e${l}`}
            </text>
          </g>
        ))}
        {xTicks.map((l) => (
          <g key={l} class="scale-plot-grid">
            <line x1={px(l)} x2={px(l)} y1={PAD.top} y2={H - PAD.bottom} />
            <text x={px(l)} y={H - PAD.bottom + 16} text-anchor="middle">
              1e{l}
            </text>
          </g>
        ))}
        <text class="scale-plot-axis" x={(PAD.left + W - PAD.right) / 2} y={H - 4} text-anchor="middle">
          scale c
        </text>
        <path class="scale-plot-curve" d={d} />
        <line class="scale-plot-current" x1={cx} x2={cx} y1={PAD.top} y2={H - PAD.bottom} />
        {cy !== null && <circle class="scale-plot-dot" cx={cx} cy={cy} r={5} />}
      </svg>
      <p class="scale-plot-legend">
        <span class="scale-plot-key-curve" aria-hidden="true" /> distance computed by the core{' '}
        <span class="scale-plot-key-current" aria-hidden="true" /> current c{' '}
        {star !== null ? (
          <>
            <span class="scale-plot-key-zone" aria-hidden="true" /> c &lt; c* = √(ε / mean(x²)) = {fmtScale(star)}: ε/c² exceeds
            mean(x²) and epsilon takes over (the output shrinks towards 0). Far right of c*, RMSNorm(c·x) ≈ RMSNorm(x) up to
            rounding.
          </>
        ) : result.energy === Infinity || (result.energy === 0 && result.x.some((v) => v !== 0)) ? (
          <>mean(x²) {result.energy === 0 ? 'underflows to 0' : 'overflows to Infinity'} here (see the note above), so no crossover c* can be computed.</>
        ) : result.energy === 0 ? (
          <>x = 0: every c·x is 0 too, so there is nothing to compare across scales.</>
        ) : (
          <>with ε = 0 there is no crossover: the ideal expression is exactly scale invariant for nonzero x.</>
        )}
      </p>
      {undefinedPoints > 0 && (
        <p class="scale-plot-note">
          {undefinedPoints} of {curve.c.length} points are NaN or Infinity (see the notes above) and are left out of the curve.
        </p>
      )}
    </figure>
  );
}
