// ||RMSNorm(c·x) − RMSNorm(x)|| across c on log–log axes (the core computed
// every point), with the current c marked and the crossover c* = √(ε / mean(x²))
// where ε/c² equals the energy of x: left of it epsilon takes over. A log axis
// has no 0, so distances that are exactly 0 (always the one at c = 1) sit on a
// separate bottom line marked "0", never on a spike towards -Infinity.
import { fmt, fmtScale } from '../../app/format';
import type { LabResult } from '../../protocol/lab';
import { ToNotice } from '../ToNotice';
import { CrossoverText, CurveNotes, PlateauText } from './ScalePlotCaption';
import './ScaleInvariancePlot.css';
import './ScalePlotMarks.css';

const W = 560;
const H = 260;
const PAD = { left: 58, right: 16, top: 14, bottom: 40 };
/** The line for exact zeros sits this far below the lowest decade of the log axis. */
const ZERO_GAP = 18;
const C_MIN = -8;
const C_MAX = 8;
const MAX_Y_TICKS = 7;

/** A small diamond around (x, y). */
const diamond = (x: number, y: number, r = 4.5) => `M${x.toFixed(1)},${(y - r).toFixed(1)}l${r},${r}l${-r},${r}l${-r},${-r}z`;

export function ScaleInvariancePlot({ result, c }: { result: LabResult; c: number }) {
  const { curve } = result;
  const positive = curve.distance.filter((v) => Number.isFinite(v) && v > 0);
  const topLog = Math.max(1, Math.ceil(Math.log10(Math.max(1, ...positive)) + 0.3));
  const bottomLog = Math.min(topLog - 3, positive.length > 0 ? Math.floor(Math.log10(Math.min(...positive))) : topLog - 3);
  const logBottomY = H - PAD.bottom - ZERO_GAP;
  const zeroY = H - PAD.bottom;
  const px = (logC: number) => PAD.left + ((logC - C_MIN) / (C_MAX - C_MIN)) * (W - PAD.left - PAD.right);
  /** y of a distance: on the log axis if positive, on the zero line if exactly 0. */
  const py = (v: number) => (v === 0 ? zeroY : PAD.top + ((topLog - Math.log10(v)) / (topLog - bottomLog)) * (logBottomY - PAD.top));

  // The curve as path segments, broken where the core returned NaN / Infinity
  // and at exact zeros (drawn as marks on the zero line instead).
  const segments: { x: number; y: number }[][] = [];
  let current: { x: number; y: number }[] | null = null;
  const zeros: number[] = [];
  curve.c.forEach((cv, i) => {
    const v = curve.distance[i];
    if (v === 0) zeros.push(px(Math.log10(cv)));
    if (!(Number.isFinite(v) && v > 0)) {
      current = null;
      return;
    }
    if (current === null) segments.push((current = []));
    current.push({ x: px(Math.log10(cv)), y: py(v) });
  });
  const path = segments
    .filter((s) => s.length > 1)
    .map((s) => s.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(''))
    .join('');
  const lonePoints = segments.filter((s) => s.length === 1).map((s) => s[0]);
  const undefinedPoints = curve.distance.filter((v) => !Number.isFinite(v)).length;
  const oneX = px(0);
  const zeroAtOne = curve.c.some((cv, i) => cv === 1 && curve.distance[i] === 0);

  const tickStep = 3 * Math.max(1, Math.ceil((topLog - bottomLog) / 3 / MAX_Y_TICKS));
  const yTicks: number[] = [];
  for (let l = topLog; l >= bottomLog; l -= tickStep) yTicks.push(l);
  const xTicks = [-8, -4, 0, 4, 8];
  const cx = px(Math.log10(c));
  const cy = Number.isFinite(result.distance) && result.distance >= 0 ? py(result.distance) : null;
  const star = result.crossoverC !== null && result.crossoverC >= 1e-8 && result.crossoverC <= 1e8 ? result.crossoverC : null;
  const distanceText = result.distance === 0 ? 'exactly 0' : fmt(result.distance, 4);

  return (
    <figure class="scale-plot" data-testid="scale-plot" data-plateau={result.plateau.kind}>
      <figcaption>
        <strong>Scale invariance and where ε takes over.</strong> Distance ‖RMSNorm(c·x) − RMSNorm(x)‖ for {curve.c.length} values
        of c (both axes logarithmic). At the current c = {fmtScale(c)} it is{' '}
        <span class="num" data-testid="plot-distance" data-value={String(result.distance)}>
          {distanceText}
        </span>
        .
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`distance between RMSNorm of c times x and RMSNorm of x, for c from 1e-8 to 1e8; at c = ${fmtScale(c)} it is ${distanceText}${
          zeros.length > 0 ? `; ${zeros.length} points are exactly 0, marked on the bottom line` : ''
        }`}
      >
        {star !== null && (
          <g class="scale-plot-eps-zone">
            <rect x={PAD.left} y={PAD.top} width={px(Math.log10(star)) - PAD.left} height={zeroY - PAD.top} />
            <line x1={px(Math.log10(star))} x2={px(Math.log10(star))} y1={PAD.top} y2={zeroY} />
            <text x={px(Math.log10(star)) + 4} y={PAD.top + 12}>
              c*
            </text>
          </g>
        )}
        {yTicks.map((l) => (
          <g key={l} class="scale-plot-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={py(10 ** l)} y2={py(10 ** l)} />
            <text x={PAD.left - 6} y={py(10 ** l) + 4} text-anchor="end">
              1e{l}
            </text>
          </g>
        ))}
        <g class="scale-plot-zero-axis">
          <line x1={PAD.left} x2={W - PAD.right} y1={zeroY} y2={zeroY} />
          <text x={PAD.left - 6} y={zeroY + 4} text-anchor="end">
            0
          </text>
        </g>
        {xTicks.map((l) => (
          <g key={l} class="scale-plot-grid">
            <line x1={px(l)} x2={px(l)} y1={PAD.top} y2={zeroY} />
            <text x={px(l)} y={H - PAD.bottom + 16} text-anchor="middle">
              1e{l}
            </text>
          </g>
        ))}
        <text class="scale-plot-axis" x={(PAD.left + W - PAD.right) / 2} y={H - 4} text-anchor="middle">
          scale c
        </text>
        <path class="scale-plot-curve" d={path} />
        {lonePoints.map((p, i) => (
          <circle key={i} class="scale-plot-lone" cx={p.x} cy={p.y} r={2} />
        ))}
        {zeros.map((x, i) => (
          <path key={i} class="scale-plot-zero" d={diamond(x, zeroY)} data-testid="plot-zero-mark" />
        ))}
        {zeroAtOne && (
          <text class="scale-plot-zero-label" x={oneX + 7} y={zeroY - 6}>
            0 at c = 1
          </text>
        )}
        <line class="scale-plot-current" x1={cx} x2={cx} y1={PAD.top} y2={zeroY} />
        {cy !== null && <circle class="scale-plot-dot" cx={cx} cy={cy} r={5} />}
      </svg>
      <p class="scale-plot-legend">
        <span class="scale-plot-key-curve" aria-hidden="true" /> distance computed by the core{' '}
        <span class="scale-plot-key-current" aria-hidden="true" /> current c
        {star !== null && (
          <>
            {' '}
            <span class="scale-plot-key-zone" aria-hidden="true" /> c &lt; c*, where ε takes over
          </>
        )}
        {zeros.length > 0 && (
          <>
            {' '}
            <span class="scale-plot-key-zero" aria-hidden="true">
              ◇
            </span>{' '}
            exactly 0
          </>
        )}
      </p>
      <ToNotice testId="plot-caption">
        <CrossoverText result={result} /> <PlateauText result={result} />
        <CurveNotes result={result} />
      </ToNotice>
      {undefinedPoints > 0 && (
        <p class="scale-plot-note">
          {undefinedPoints} of {curve.c.length} points are NaN or Infinity (see the notes above) and are left out of the curve.
        </p>
      )}
    </figure>
  );
}
