// silu-gate: a gate pre-activation z and an up value u. The worker's core gives
// σ(z), silu(z), silu(z)·u, d silu/dz by autograd and by the formula, the curve
// over a range and silu's minimum ('siluGate' lesson op). This file only maps
// those numbers to text and pixels.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { SiluGateResult } from '../../protocol/lessons/swiglu';
import { ToNotice } from '../ToNotice';
import './lessonWidgets.css';
import './Swiglu.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'silu-gate': SwigluSiluGate };

const RANGE = { lo: -6, hi: 4, points: 201 };

/** A typed number, or null when the text is not one. */
export function readNumber(text: string): number | null {
  const t = text.trim().replace('−', '-');
  if (t === '') return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

export function SwigluSiluGate() {
  const [zText, setZText] = useState('-1.2785');
  const [uText, setUText] = useState('2');
  const z = readNumber(zText);
  const u = readNumber(uText);

  const { result: r, error } = useLessonOp('siluGate', { z: z ?? 0, u: u ?? 0, ...RANGE }, [z, u], { needsModel: false, keepLast: true, skip: z === null || u === null });

  const unreadable = z === null || u === null;
  return (
    <div class="lesson-widget silu-gate" data-testid="widget-silu-gate">
      <div class="widget-row">
        <label>
          gate z <input data-testid="silu-z" value={zText} size={9} onInput={(e) => setZText(e.currentTarget.value)} />
        </label>
        <input
          type="range"
          aria-label="z"
          min={RANGE.lo}
          max={RANGE.hi}
          step={0.01}
          value={z ?? 0}
          data-testid="silu-z-slider"
          onInput={(e) => setZText(e.currentTarget.value)}
        />
        <label>
          up u <input data-testid="silu-u" value={uText} size={7} onInput={(e) => setUText(e.currentTarget.value)} />
        </label>
        <input type="range" aria-label="u" min={-3} max={3} step={0.1} value={u ?? 0} data-testid="silu-u-slider" onInput={(e) => setUText(e.currentTarget.value)} />
      </div>
      {unreadable && (
        <p class="lesson-error" role="alert" data-testid="silu-bad">
          Type z and u as plain numbers, for example -1.2785 and 2.
        </p>
      )}
      {!unreadable && error !== null && (
        <p class="lesson-error" role="alert" data-testid="silu-bad">
          The core refuses: {error}
        </p>
      )}
      {r && (
        <div class="widget-columns">
          <table class={unreadable || error !== null ? 'stale' : ''}>
            <tbody>
              <tr>
                <th scope="row">σ(z)</th>
                <td class="num" data-testid="silu-sigmoid">{fmt(r.sigmoid, 6)}</td>
              </tr>
              <tr>
                <th scope="row">silu(z) = z·σ(z)</th>
                <td class="num" data-testid="silu-value">{fmt(r.silu, 6)}</td>
              </tr>
              <tr>
                <th scope="row">silu(z)·u, the hidden unit</th>
                <td class="num" data-testid="silu-gated">{fmt(r.gated, 6)}</td>
              </tr>
              <tr>
                <th scope="row">d silu/dz, autograd</th>
                <td class="num" data-testid="silu-grad">{fmt(r.grad, 8)}</td>
              </tr>
              <tr>
                <th scope="row">σ(z)(1 + z(1 − σ(z)))</th>
                <td class="num" data-testid="silu-grad-formula">{fmt(r.gradFormula, 8)}</td>
              </tr>
              <tr>
                <th scope="row">silu's minimum (where autograd's slope is 0)</th>
                <td class="num" data-testid="silu-min">
                  {fmt(r.minimum.value, 6)} at z = {fmt(r.minimum.z, 6)}
                </td>
              </tr>
            </tbody>
          </table>
          <SiluPlot r={r} z={z} />
        </div>
      )}
      {r === null ? (
        <p class="widget-note">Asking the core…</p>
      ) : (
        <ToNotice testId="silu-notice">
          {r.silu <= -0.05
            ? 'a negative gate: silu(z) is below zero, so the hidden unit has the opposite sign of u (a flip), and it stays small: silu never goes below its minimum.'
            : r.silu < 0.05
              ? 'silu(z) is within 0.05 of zero: this unit (nearly) blocks its up value.'
              : 'a positive gate: the up value passes, scaled by silu(z).'}{' '}
          On the plot, silu's lowest point (the dot, z = {fmt(r.minimum.z, 5)}) is where the orange slope crosses 0.
        </ToNotice>
      )}
    </div>
  );
}

/** silu and its autograd derivative over the core's grid, with the chosen z marked. */
function SiluPlot({ r, z }: { r: SiluGateResult; z: number | null }) {
  const W = 360;
  const H = 220;
  const pad = 28;
  const zs = r.curve.z;
  const lo = zs[0];
  const hi = zs[zs.length - 1];
  const all = [...r.curve.silu, ...r.curve.grad];
  const top = Math.max(...all);
  const bottom = Math.min(...all);
  const px = (v: number) => pad + ((v - lo) / (hi - lo)) * (W - 2 * pad);
  const py = (v: number) => pad / 2 + ((top - v) / (top - bottom)) * (H - 1.5 * pad);
  const line = (ys: number[]) => ys.map((y, i) => `${i ? 'L' : 'M'}${px(zs[i]).toFixed(1)},${py(y).toFixed(1)}`).join('');
  const inside = z !== null && z >= lo && z <= hi;
  return (
    <svg class="silu-plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="silu(z) and its derivative, computed by the core" data-testid="silu-plot">
      <line x1={pad} x2={W - pad} y1={py(0)} y2={py(0)} class="sg-axis" />
      <line x1={px(0)} x2={px(0)} y1={pad / 2} y2={H - pad} class="sg-axis" />
      <path d={line(r.curve.grad)} class="sg-grad" />
      <path d={line(r.curve.silu)} class="sg-silu" />
      <circle cx={px(r.minimum.z)} cy={py(r.minimum.value)} r={3} class="sg-min" />
      {inside && <circle cx={px(z)} cy={py(r.silu)} r={4.5} class="sg-here" data-testid="silu-marker" />}
      <text x={pad} y={H - 8} class="sg-tick">z = {lo}</text>
      <text x={W - pad} y={H - 8} class="sg-tick sg-end">z = {hi}</text>
      <text x={px(0) + 4} y={py(0) - 4} class="sg-tick">0</text>
      <text x={W / 2} y={H - 8} class="sg-legend">blue: silu(z) · orange: d silu/dz (autograd)</text>
      {!inside && (
        <text x={W / 2} y={pad} class="sg-legend">
          z is off this plot
        </text>
      )}
    </svg>
  );
}
