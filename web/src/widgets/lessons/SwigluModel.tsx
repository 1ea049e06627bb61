// model-swiglu: the shipped model's feed-forward branch for one text, block and
// position. The worker runs the block's own SwiGLU code (the function the
// forward pass runs) on its input blocks.i.norm.ffn, counts gates and ranks
// units (the 'modelSwiglu' request). This file maps those numbers to text and pixels.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { useWeights } from '../../viewmodels/model';
import type { ModelSwigluResult } from '../../protocol/lessons/swiglu';
import { withCode } from '../../app/tensorNames';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import './Swiglu.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'model-swiglu': SwigluModel };

const LAST = 1_000_000; // a position past the end: the worker shows the last byte

/** The strip's largest unit and what its gate does, read from the worker's ranking and counts. */
function notice(r: ModelSwigluResult): string {
  const t = r.top[0];
  if (t === undefined) return 'no hidden unit to show.';
  const role = t.silu <= -r.threshold ? 'a flip: its negative gate turns the up value around' : t.silu < r.threshold ? 'nearly blocked' : 'a pass: its gate lets the up value through, scaled';
  return `the tallest bar is unit ${t.unit} (h = ${fmt(t.h, 4)}), ${role}. Of the ${r.hidden} units, ${r.counts.passed} pass, ${r.counts.blocked} block and ${r.counts.flipped} flip at this position.`;
}

export function SwigluModel() {
  const [text, setText] = useState('In the beginning God created the heaven and the earth.');
  const [block, setBlock] = useState(0);
  const [position, setPosition] = useState(LAST);
  const answer = useLessonOp('modelSwiglu', { text, block, position }, [text, block, position], { keepLast: true });
  const r = answer.result;

  const w = useWeights();
  const blocks = w.status === 'ready' ? w.info.blocks : 4;
  return (
    <div class="lesson-widget model-swiglu" data-testid="widget-model-swiglu">
      <label class="widget-row">
        Text:{' '}
        <input
          class="wide"
          data-testid="swiglu-text"
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setPosition(LAST);
          }}
        />
      </label>
      <div class="widget-row">
        <label>
          block{' '}
          <select data-testid="swiglu-block" value={block} onChange={(e) => setBlock(Number(e.currentTarget.value))}>
            {Array.from({ length: blocks }, (_, i) => (
              <option key={i} value={i}>{i}</option>
            ))}
          </select>
        </label>
        {r && (
          <label>
            position <output class="num" data-testid="swiglu-position">{r.position}</output> (byte{' '}
            <span class="num">{r.label}</span>){' '}
            <input
              type="range"
              min={0}
              max={r.n - 1}
              step={1}
              value={r.position}
              data-testid="swiglu-position-slider"
              onInput={(e) => setPosition(Number(e.currentTarget.value))}
            />
          </label>
        )}
      </div>
      <WidgetShell answer={answer} errorTestId="swiglu-error" errorPrefix="The core refuses: " pendingText="Running the model…" keepLast>
        {(r) => (
          <>
            <dl class="sw-counts">
              <div>
                <dt>negative gates (x W_gateᵀ &lt; 0)</dt>
                <dd data-testid="swiglu-negative">
                  {r.counts.negative} of {r.hidden}
                </dd>
                <dd class="sw-sub">{fmt(r.negativeFraction * 100, 3)}%</dd>
              </div>
              <div>
                <dt>flip: silu ≤ −{r.threshold}</dt>
                <dd data-testid="swiglu-flipped">{r.counts.flipped}</dd>
              </div>
              <div>
                <dt>block: |silu| &lt; {r.threshold}</dt>
                <dd data-testid="swiglu-blocked">{r.counts.blocked}</dd>
              </div>
              <div>
                <dt>pass: silu ≥ {r.threshold}</dt>
                <dd data-testid="swiglu-passed">{r.counts.passed}</dd>
              </div>
              <div>
                <dt>‖SwiGLU output‖ here</dt>
                <dd class="num">{fmt(r.outNorm, 5)}</dd>
              </div>
            </dl>
            <HiddenStrip r={r} />
            <ToNotice testId="swiglu-notice">{notice(r)}</ToNotice>
            <table>
              <caption>The {r.top.length} largest hidden units at this position, by |h|</caption>
              <thead>
                <tr>
                  <th scope="col">unit j</th>
                  <th scope="col">gate gⱼ = (x W_gateᵀ)ⱼ</th>
                  <th scope="col">silu(gate)</th>
                  <th scope="col">up uⱼ = (x W_upᵀ)ⱼ</th>
                  <th scope="col">h = silu(g)·u</th>
                </tr>
              </thead>
              <tbody data-testid="swiglu-top">
                {r.top.map((t) => (
                  <tr key={t.unit} class={t.gate < 0 ? 'sw-neg' : ''}>
                    <th scope="row" class="num">{t.unit}</th>
                    <td class="num">{fmt(t.gate, 5)}</td>
                    <td class="num">{fmt(t.silu, 5)}</td>
                    <td class="num">{fmt(t.up, 5)}</td>
                    <td class="num">{fmt(t.h, 5)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="widget-note" data-testid="swiglu-check">
              These are the model's own numbers: the worker runs block {block}'s feed-forward code, the same function the forward
              pass runs, on {withCode(`blocks.${block}.norm.ffn`)} and keeps its gate, up and h; its output is the model's{' '}
              {withCode(`blocks.${block}.ffn`)}.
            </p>
          </>
        )}
      </WidgetShell>
    </div>
  );
}

/**
 * The hidden activations h of the position, one bar per unit; orange where the
 * gate is negative. Bar height ∝ √|h|: one unit often dwarfs the rest, and a
 * linear scale would hide them.
 */
function HiddenStrip({ r }: { r: ModelSwigluResult }) {
  const W = 800;
  const H = 150;
  const left = 16;
  const bar = (W - 2 * left) / r.hidden;
  const top = Math.max(...r.h.map(Math.abs));
  const mid = H / 2;
  const py = (v: number) => mid - Math.sign(v) * Math.sqrt(Math.abs(v) / top) * (mid - 14);
  return (
    <svg class="sw-strip" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`the ${r.hidden} hidden activations of this position`} data-testid="swiglu-strip">
      <line x1={left} x2={W - left} y1={mid} y2={mid} class="sg-axis" />
      {r.h.map((v, j) => (
        <rect
          key={j}
          x={left + j * bar}
          width={Math.max(0.8, bar - 0.4)}
          y={Math.min(py(v), mid)}
          height={Math.max(0.5, Math.abs(py(v) - mid))}
          class={r.gateNegative[j] ? 'sw-bar sw-bar-neg' : 'sw-bar'}
        />
      ))}
      <text x={left} y={H - 2} class="sg-tick">unit 0</text>
      <text x={W - left} y={H - 2} class="sg-tick sg-end">unit {r.hidden - 1}</text>
      <text x={W / 2} y={11} class="sg-legend">h = silu(g) ⊙ u, bar height ∝ √|h|, largest |h| = {fmt(top, 4)} · blue: gate ≥ 0 · orange: gate &lt; 0</text>
    </svg>
  );
}
