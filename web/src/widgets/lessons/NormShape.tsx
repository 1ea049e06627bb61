// The RMSNorm lesson's small-vector widgets (worker: rmsnormShape.ts): the two
// norms' recorded graphs side by side, the sphere of radius √d and what γ does
// to it (d = 2, drag the point; d = 3, a projected globe), the gradient against
// x at several scales, and ε in float32 against float64. The page draws and
// formats; the core computes every number and every point of every outline.
import { useRef, useState } from 'preact/hooks';
import { fmt, fmtVector } from '../../app/format';
import { parseVector } from '../../app/labSettings';
import type { EpsDtypeResult, GeometryResult, NormGradRow, OpCountsResult } from '../../protocol/lessons/rmsnorm';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import './NormLesson.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = {
  'norm-op-counts': NormOpCounts,
  'norm-geometry': NormGeometry,
  'norm-gradient': NormGradient,
  'eps-dtype': EpsDtype,
};

/** A text field holding a vector: the last readable value is used; a bad one shows why. */
function useVectorField(start: number[], label: string, length?: number) {
  const [text, setText] = useState(start.join(', '));
  const [value, setValue] = useState(start);
  const [error, setError] = useState<string | null>(null);
  const onText = (t: string) => {
    setText(t);
    const r = parseVector(t, label, length);
    setError(r.ok ? null : r.message);
    if (r.ok) setValue(r.value);
  };
  const set = (v: number[]) => {
    setValue(v);
    setText(v.join(', '));
    setError(null);
  };
  return { text, value, error, onText, set };
}

const OP_WORDS: Record<string, string> = {
  square: 'square each coordinate',
  mean: 'mean over the coordinates',
  add_scalar: 'add ε',
  sqrt: 'square root',
  div: 'divide',
  mul: 'multiply by γ',
  sub: 'subtract the mean',
  add: 'add β',
};

export function NormOpCounts() {
  const x = useVectorField([3, 4, 0, 0], 'x');
  const answer = useLessonOp('normOpCounts', { x: x.value }, [x.value.join(',')], { needsModel: false, keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-norm-op-counts">
      <label class="widget-row">
        Input x:{' '}
        <input class="wide" data-testid="ops-x" value={x.text} onInput={(e) => x.onText(e.currentTarget.value)} />
      </label>
      {x.error !== null && (
        <p class="lesson-error" role="alert">
          {x.error}
        </p>
      )}
      <WidgetShell answer={answer} pendingText="Recording both graphs…" keepLast>
        {(r: OpCountsResult) => (
          <>
            <div class="nl-ops">
              {(['rms', 'layer'] as const).map((k) => (
                <div key={k} data-testid={`ops-${k}`}>
                  <h4>
                    {k === 'rms' ? 'RMSNorm' : 'LayerNorm'}: <span class="num" data-testid={`ops-${k}-count`}>{r[k].length}</span> operations
                  </h4>
                  <ol>
                    {r[k].map((op, i) => (
                      <li key={i}>
                        {op} <span class="widget-note">({OP_WORDS[op] ?? op})</span>
                      </li>
                    ))}
                  </ol>
                </div>
              ))}
            </div>
            <ToNotice testId="ops-notice">
              both graphs as the core recorded them for this input (γ = 1, β = 0). LayerNorm's extra steps are the centring — a mean and a subtraction
              before the squares — and adding β. Everything else is the same chain.
            </ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}

/** A point the drawing can place (the zero input with ε = 0 gives NaN, shown in the readout only). */
const drawable = (p: readonly number[]) => p.every(Number.isFinite);

/** The drawing's half-width: everything drawn fits, with a margin. */
function extentOf(r: GeometryResult): number {
  let m = 0;
  for (const line of [...r.sphere, ...r.stretched]) for (const [a, b] of line) m = Math.max(m, Math.abs(a), Math.abs(b));
  for (const [a, b] of [r.xAt, r.yAt, r.yOnesAt]) if (drawable([a, b])) m = Math.max(m, Math.abs(a), Math.abs(b));
  return Math.max(2, m * 1.12);
}

const path = (line: [number, number][]) => line.map(([a, b], i) => `${i === 0 ? 'M' : 'L'}${a} ${-b}`).join(' ');

export function NormGeometry({ args }: { args: Record<string, string> }) {
  const d = args.d === '3' ? 3 : 2;
  const x = useVectorField(d === 2 ? [3, 4] : [1, -2, 5], 'x', d);
  const gamma = useVectorField(d === 2 ? [2, 0.5] : [1.5, 1, 0.5], 'γ', d);
  const answer = useLessonOp('normGeometry', { x: x.value, gamma: gamma.value }, [x.value.join(','), gamma.value.join(',')], {
    needsModel: false,
    keepLast: true,
    channel: `geometry-${d}`,
  });
  const svg = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const extent = useRef(2);
  const moveTo = (e: PointerEvent) => {
    const s = svg.current;
    const m = s?.getScreenCTM();
    if (!s || !m) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const lim = extent.current;
    const clamp = (v: number) => Math.round(Math.max(-lim, Math.min(lim, v)) * 100) / 100;
    x.set([clamp(p.x), clamp(-p.y)]);
  };
  const t = d === 2 ? 'Drag the black point, or type x' : 'Type x and γ';
  return (
    <div class="lesson-widget" data-testid={`widget-norm-geometry-${d}`}>
      <div class="widget-row">
        <label>
          x ({d} numbers): <input data-testid={`geo${d}-x`} value={x.text} onInput={(e) => x.onText(e.currentTarget.value)} />
        </label>
        <label>
          γ: <input data-testid={`geo${d}-gamma`} value={gamma.text} onInput={(e) => gamma.onText(e.currentTarget.value)} />
        </label>
        <button type="button" data-testid={`geo${d}-ones`} onClick={() => gamma.set(Array(d).fill(1))}>
          γ = ones
        </button>
      </div>
      {(x.error ?? gamma.error) !== null && (
        <p class="lesson-error" role="alert">
          {x.error ?? gamma.error}
        </p>
      )}
      <WidgetShell answer={answer} pendingText="Drawing with the core…" keepLast>
        {(r: GeometryResult) => {
          const e = extentOf(r);
          extent.current = e;
          const dot = e * 0.035;
          return (
            <div class={`nl-geo nl-geo-${d}`}>
              <div>
                <svg
                  ref={svg}
                  viewBox={`${-e} ${-e} ${2 * e} ${2 * e}`}
                  role="img"
                  aria-label={`RMSNorm in ${d} dimensions: the sphere of radius √${d}, stretched by γ`}
                  data-testid={`geo${d}-svg`}
                  onPointerDown={
                    d === 2
                      ? (ev) => {
                          dragging.current = true;
                          (ev.currentTarget as SVGSVGElement).setPointerCapture(ev.pointerId);
                          moveTo(ev);
                        }
                      : undefined
                  }
                  onPointerMove={d === 2 ? (ev) => dragging.current && moveTo(ev) : undefined}
                  onPointerUp={() => (dragging.current = false)}
                >
                  <line class="nl-axis" x1={-e} y1={0} x2={e} y2={0} vector-effect="non-scaling-stroke" />
                  <line class="nl-axis" x1={0} y1={-e} x2={0} y2={e} vector-effect="non-scaling-stroke" />
                  {r.sphere.map((l, i) => (
                    <path key={`s${i}`} class="nl-sphere" d={path(l)} vector-effect="non-scaling-stroke" />
                  ))}
                  {r.stretched.map((l, i) => (
                    <path key={`g${i}`} class="nl-stretched" d={path(l)} vector-effect="non-scaling-stroke" />
                  ))}
                  <line class="nl-ray" x1={0} y1={0} x2={r.xAt[0]} y2={-r.xAt[1]} vector-effect="non-scaling-stroke" />
                  {drawable(r.yOnesAt) && <circle class="nl-y1" cx={r.yOnesAt[0]} cy={-r.yOnesAt[1]} r={dot * 0.8} />}
                  {drawable(r.yAt) && <circle class="nl-y" cx={r.yAt[0]} cy={-r.yAt[1]} r={dot} data-testid={`geo${d}-y`} />}
                  <circle class="nl-x" cx={r.xAt[0]} cy={-r.xAt[1]} r={dot} data-testid={`geo${d}-x-point`} />
                </svg>
                <p class="nl-key">
                  <span class="k-sphere">γ = 1: the {d === 2 ? 'circle' : 'sphere'} of radius √{d}</span>
                  <span class="k-stretched">this γ</span>
                  <span class="k-x">x</span>
                </p>
              </div>
              <div>
                <p class="widget-note">ε = 0. {t}.</p>
                <dl data-testid={`geo${d}-readout`}>
                  <dt>RMSNorm(x), γ = 1</dt>
                  <dd>{fmtVector(r.yOnes, 5)}</dd>
                  <dt>its length</dt>
                  <dd data-testid={`geo${d}-ones-norm`}>{fmt(r.onesNorm, 6)}</dd>
                  <dt>√{d}</dt>
                  <dd data-testid={`geo${d}-sqrtd`}>{fmt(r.sqrtD, 6)}</dd>
                  <dt>RMSNorm(x), this γ</dt>
                  <dd data-testid={`geo${d}-y-value`}>{fmtVector(r.y, 5)}</dd>
                  <dt>its length</dt>
                  <dd data-testid={`geo${d}-norm`}>{fmt(r.norm, 6)}</dd>
                  <dt>its RMS</dt>
                  <dd data-testid={`geo${d}-rms`}>{fmt(r.rms, 6)}</dd>
                </dl>
              </div>
            </div>
          );
        }}
      </WidgetShell>
      <ToNotice testId={`geo${d}-notice`}>
        {d === 2
          ? 'wherever you put x (except the origin), the grey point lands on the dashed circle: only the direction of x survives. γ then stretches the circle along the axes into the orange ellipse, and the orange point sits on it.'
          : 'every direction lands on the grey globe of radius √3; γ squeezes and stretches it along the three axes. The drawing tilts the third axis up and back.'}
      </ToNotice>
    </div>
  );
}

const SCALES = [0.5, 1, 2, 4];

export function NormGradient() {
  const x = useVectorField([3, 4], 'x');
  const [eps, setEps] = useState(0);
  const answer = useLessonOp('normGradient', { x: x.value, eps, scales: SCALES }, [x.value.join(','), eps], { needsModel: false, keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-norm-gradient">
      <div class="widget-row">
        <label>
          x: <input data-testid="ngrad-x" value={x.text} onInput={(e) => x.onText(e.currentTarget.value)} />
        </label>
        <label>
          <input type="radio" name="ngrad-eps" data-testid="ngrad-eps-0" checked={eps === 0} onChange={() => setEps(0)} /> ε = 0
        </label>
        <label>
          <input type="radio" name="ngrad-eps" data-testid="ngrad-eps-model" checked={eps === 1e-6} onChange={() => setEps(1e-6)} /> ε = 1e-6
        </label>
      </div>
      {x.error !== null && (
        <p class="lesson-error" role="alert">
          {x.error}
        </p>
      )}
      <WidgetShell answer={answer} pendingText="Running backward in the core…" keepLast>
        {(rows: NormGradRow[]) => (
          <>
            <p class="widget-lead">The gradient of sum(RMSNorm(c·x)) with respect to its input, γ = 1, in float64:</p>
            <table data-testid="ngrad-table">
              <thead>
                <tr>
                  <th scope="col">c</th>
                  <th scope="col">input c·x</th>
                  <th scope="col">gradient ∇</th>
                  <th scope="col">input · ∇</th>
                  <th scope="col">‖∇‖</th>
                  <th scope="col">‖∇‖ · ‖input‖</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.c} data-testid={`ngrad-row-${i}`}>
                    <th scope="row">{r.c}</th>
                    <td class="num">{fmtVector(r.input, 4)}</td>
                    <td class="num">{fmtVector(r.grad, 5)}</td>
                    <td class="num" data-testid={`ngrad-dot-${i}`}>
                      {fmt(r.dot, 3)}
                    </td>
                    <td class="num" data-testid={`ngrad-norm-${i}`}>
                      {fmt(r.gradNorm, 5)}
                    </td>
                    <td class="num">{fmt(r.product, 6)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ToNotice testId="ngrad-notice">
              the column “input · ∇” is zero up to rounding (about 1e-16) with ε = 0: the gradient is at right angles to the input. Doubling the input
              halves ‖∇‖, so their product stays the same. With ε = 1e-6 the dot product is no longer zero, but still tiny for this x.
            </ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}

export function EpsDtype() {
  const x = useVectorField([3, 4], 'x');
  const [dtype, setDtype] = useState<'float32' | 'float64'>('float64');
  const answer = useLessonOp('epsDtype', { x: x.value, eps: 1e-6, dtype }, [x.value.join(','), dtype], { needsModel: false, keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-eps-dtype">
      <div class="widget-row">
        <label>
          x: <input data-testid="epsd-x" value={x.text} onInput={(e) => x.onText(e.currentTarget.value)} />
        </label>
        <span>ε = 1e-6, computed in</span>
        {(['float64', 'float32'] as const).map((t) => (
          <label key={t}>
            <input type="radio" name="epsd-dtype" data-testid={`epsd-${t}`} checked={dtype === t} onChange={() => setDtype(t)} /> {t}
          </label>
        ))}
      </div>
      {x.error !== null && (
        <p class="lesson-error" role="alert">
          {x.error}
        </p>
      )}
      <WidgetShell answer={answer} pendingText="Computing…" keepLast>
        {(r: EpsDtypeResult) => (
          <>
            <table data-testid="epsd-table">
              <thead>
                <tr>
                  <th scope="col">input</th>
                  <th scope="col">mean square</th>
                  <th scope="col">mean square + ε, as stored</th>
                  <th scope="col">what is left of ε</th>
                  <th scope="col">RMSNorm(input)</th>
                </tr>
              </thead>
              <tbody>
                {r.rows.map((row, i) => (
                  <tr key={i} data-testid={`epsd-row-${i}`}>
                    <th scope="row">{fmtVector(row.input, 6)}</th>
                    <td class="num">{fmt(row.meanSquare, 9)}</td>
                    <td class="num">{fmt(row.withEps, 12)}</td>
                    <td class="num" data-testid={`epsd-survived-${i}`}>
                      {fmt(row.survived, 4)}
                    </td>
                    <td class="num">{fmtVector(row.output, 9)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="widget-note">
              RMSNorm(2x) − RMSNorm(x) in {dtype}: <span class="num" data-testid="epsd-diff">{fmtVector(r.difference, 4)}</span>
            </p>
            <ToNotice testId="epsd-notice">
              {dtype === 'float32'
                ? 'float32 keeps about 7 significant digits. Next to a mean square of 12.5, ε = 1e-6 is about one step of its grid, so ε is rounded to that one step; next to 50 it is less than half a step and vanishes. The difference between the two outputs is then rounding, not ε.'
                : 'float64 keeps about 16 significant digits, so ε survives next to the mean square, and the small difference between the two outputs is ε’s doing.'}
            </ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
