// One row of ∂loss/∂logits as 256 thin bars, byte 0 on the left: every byte the
// model gave some probability pushes up (positive), the byte that really came
// next pulls down (negative). The values are the model's own backward pass.
import { fmt } from '../../app/format';
import type { NextByteLossResult } from '../../protocol/lessons/loss';
import { ToNotice } from '../ToNotice';
import './LossWidget.css';

const W = 512;
const H = 120;

/** Which entries push up and which pull down, counted from the model's own gradient row. */
function notice(r: NextByteLossResult): string {
  const negative = r.gradRow.filter((g) => g < 0).length;
  const positive = r.gradRow.filter((g) => g > 0).length;
  const only = negative === 1 && r.gradRow[r.target.byte] < 0;
  return only
    ? `only “${r.target.label}”, the byte that came next, has a negative entry: raising its score would lower the loss. The other ${positive} entries are positive, each the probability the model wasted on that byte, divided by n − 1.`
    : `${negative} entries are negative and ${positive} positive; the byte that came next, “${r.target.label}”, has ${fmt(r.target.grad, 4)}.`;
}

export function LogitsGradRow({ r }: { r: NextByteLossResult }) {
  const span = Math.max(...r.gradRow.map(Math.abs)) || 1;
  const mid = H / 2;
  const bar = W / r.gradRow.length;
  return (
    <figure class="logits-grad" data-testid="logits-grad-row">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`∂loss/∂logits at position ${r.position}: 256 entries`}>
        <line class="lg-zero" x1={0} x2={W} y1={mid} y2={mid} />
        {r.gradRow.map((g, v) => {
          const h = (Math.abs(g) / span) * (mid - 4);
          return (
            <rect
              key={v}
              class={v === r.target.byte ? 'lg-target' : 'lg-other'}
              x={v * bar}
              width={Math.max(bar - 0.3, 0.6)}
              y={g >= 0 ? mid - h : mid}
              height={Math.max(h, 0.4)}
            >
              <title>{`byte ${v}: ${fmt(g, 4)}`}</title>
            </rect>
          );
        })}
        <text class="lg-tick" x={2} y={H - 2}>byte 0</text>
        <text class="lg-tick" x={W - 2} y={H - 2} text-anchor="end">255</text>
      </svg>
      <figcaption>
        Row sum <span class="num" data-testid="grad-row-sum">{fmt(r.gradRowSum, 3)}</span>; the entry of “{r.target.label}”, the byte that came next, is{' '}
        <span class="num lg-neg" data-testid="grad-target">{fmt(r.target.grad, 5)}</span>. Largest gap to (softmax − one-hot)/(n − 1) over the whole (n, 256)
        gradient: <span class="num" data-testid="grad-gap">{fmt(r.formulaGap, 3)}</span>. Last row (nothing to predict): norm{' '}
        <span class="num" data-testid="grad-last">{fmt(r.lastRowNorm, 3)}</span>.
      </figcaption>
      <ToNotice testId="grad-row-notice">{notice(r)}</ToNotice>
    </figure>
  );
}
