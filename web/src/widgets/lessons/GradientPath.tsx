// y = x + F(x) with F a small linear map s·A: the Jacobian I + s·A and its
// singular values, against the branch alone (s·A); a depth slider multiplies L
// such Jacobians. Singular values by core ops in the worker (matmul + power iteration).
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { PathResult } from '../../protocol/lessons/rmsnorm';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'gradient-path': GradientPath };

const MAPS: Record<string, { label: string; matrix: number[][] }> = {
  shear: { label: 'a shear-and-stretch', matrix: [[0.5, 1], [0, -0.3]] },
  rotation: { label: 'a quarter turn', matrix: [[0, -1], [1, 0]] },
  minus: { label: 'minus the identity (F(x) = −s·x)', matrix: [[-1, 0], [0, -1]] },
  three: { label: 'a 3×3 map', matrix: [[0.2, -0.4, 0.1], [0.3, 0.1, -0.5], [-0.2, 0.6, 0.3]] },
};

/** What the table and the plot show for this map, read from the core's singular values. */
function notice(r: PathResult, depth: number): string {
  if (r.residual[r.residual.length - 1] < 1e-9)
    return 'I + s·A is singular here: a direction of the gradient is cancelled completely, residual or not.';
  const [max, min] = r.residualDepth[r.residualDepth.length - 1];
  const [bmax] = r.branchDepth[r.branchDepth.length - 1];
  const fate = (v: number) => (v > 1 ? 'grows' : v < 1 ? 'shrinks' : 'keeps its size');
  return `after L = ${depth} layers, the gradient along the most stretched direction ${fate(max)} (σmax ${fmt(max, 5)}) and along the least stretched one ${fate(min)} (σmin ${fmt(min, 5)}); through the branches alone, σmax would be ${fmt(bmax, 5)}. A singular value of 1 passes a gradient through unchanged, and over many layers the product compounds.`;
}

export function GradientPath() {
  const [map, setMap] = useState('shear');
  const [scale, setScale] = useState(0.5);
  const [depth, setDepth] = useState(8);
  const answer = useLessonOp('gradientPath', { matrix: MAPS[map].matrix, scale, depth }, [map, scale, depth], { needsModel: false, keepLast: true });
  const m = MAPS[map].matrix;
  return (
    <div class="lesson-widget gradient-path" data-testid="widget-gradient-path">
      <div class="widget-row">
        <label>
          A ={' '}
          <select data-testid="path-map" value={map} onChange={(e) => setMap(e.currentTarget.value)}>
            {Object.entries(MAPS).map(([k, v]) => (
              <option key={k} value={k}>{v.label}</option>
            ))}
          </select>
        </label>
        <span class="num">A = [{m.map((row) => `[${row.join(', ')}]`).join(', ')}]</span>
      </div>
      <label class="widget-slider">
        scale s of F(x) = s·A x: <output class="num" data-testid="path-scale">{scale}</output>
        <input type="range" min={-2} max={2} step={0.05} value={scale} data-testid="path-scale-slider" onInput={(e) => setScale(Number(e.currentTarget.value))} />
      </label>
      <label class="widget-slider">
        depth L (layers of the same map): <output class="num" data-testid="path-depth">{depth}</output>
        <input type="range" min={1} max={48} step={1} value={depth} data-testid="path-depth-slider" onInput={(e) => setDepth(Number(e.currentTarget.value))} />
      </label>
      <WidgetShell answer={answer} keepLast dim={false}>
        {(r) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col"></th>
                  <th scope="col">singular values of one layer</th>
                  <th scope="col">product of L = {depth}: σmax</th>
                  <th scope="col">σmin</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">with the residual: I + s·A</th>
                  <td class="num" data-testid="sv-residual">{r.residual.map((v) => fmt(v, 5)).join(', ')}</td>
                  <td class="num" data-testid="depth-residual-max">{fmt(r.residualDepth.at(-1)![0], 5)}</td>
                  <td class="num" data-testid="depth-residual-min">{fmt(r.residualDepth.at(-1)![1], 5)}</td>
                </tr>
                <tr>
                  <th scope="row">branch alone: s·A</th>
                  <td class="num" data-testid="sv-branch">{r.branch.map((v) => fmt(v, 5)).join(', ')}</td>
                  <td class="num">{fmt(r.branchDepth.at(-1)![0], 5)}</td>
                  <td class="num">{fmt(r.branchDepth.at(-1)![1], 5)}</td>
                </tr>
              </tbody>
            </table>
            <DepthPlot r={r} />
            <ToNotice testId="path-notice">{notice(r, depth)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}

/** log10 of σmax and σmin of the products, by depth (the core's numbers). */
function DepthPlot({ r }: { r: PathResult }) {
  const W = 560;
  const H = 170;
  const L = r.residualDepth.length;
  const logs = [...r.residualDepth, ...r.branchDepth].flat().map((v) => (v > 0 ? Math.log10(v) : -12));
  const top = Math.max(1, Math.ceil(Math.max(...logs)));
  const bottom = Math.min(-1, Math.floor(Math.max(-12, Math.min(...logs))));
  const px = (l: number) => 50 + ((l - 1) / Math.max(1, L - 1)) * (W - 70);
  const py = (v: number) => 10 + ((top - (v > 0 ? Math.max(-12, Math.log10(v)) : -12)) / (top - bottom)) * (H - 40);
  const line = (pts: number[]) => pts.map((v, i) => `${i ? 'L' : 'M'}${px(i + 1).toFixed(1)},${py(v).toFixed(1)}`).join('');
  return (
    <svg class="depth-plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="singular values of the products by depth, log scale">
      <line x1="50" x2={W - 20} y1={py(1)} y2={py(1)} class="dp-one" />
      <text x="44" y={py(1) + 4} class="dp-tick">1</text>
      <text x="44" y={py(10 ** top) + 8} class="dp-tick">1e{top}</text>
      <text x="44" y={py(10 ** bottom)} class="dp-tick">1e{bottom}</text>
      <path d={line(r.residualDepth.map((p) => p[0]))} class="dp-res" />
      <path d={line(r.residualDepth.map((p) => p[1]))} class="dp-res dp-min" />
      <path d={line(r.branchDepth.map((p) => p[0]))} class="dp-branch" />
      <path d={line(r.branchDepth.map((p) => p[1]))} class="dp-branch dp-min" />
      <text x="50" y={H - 8} class="dp-tick-l">depth 1</text>
      <text x={W - 20} y={H - 8} class="dp-tick">depth {L}</text>
      <text x={W / 2} y={H - 8} class="dp-legend">blue: I + s·A · orange: s·A alone · solid σmax, dashed σmin</text>
    </svg>
  );
}
