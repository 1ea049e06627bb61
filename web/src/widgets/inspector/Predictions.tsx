// The eps experiment's outcome: the top-5 next bytes after the prompt (with the
// core's probabilities) and the loss, at the weights' own eps and at the chosen one.
import { fmt, fmtScale } from '../../app/format';
import type { Outlook } from '../../protocol/model';
import { ToNotice } from '../ToNotice';
import './Predictions.css';

function Column({ title, o, testId }: { title: string; o: Outlook; testId: string }) {
  return (
    <div class="pred-col" data-testid={testId}>
      <h3>{title}</h3>
      <p class="pred-loss">
        loss <span class="num">{o.loss === null ? '—' : `${fmt(o.loss, 6)} nats`}</span>
      </p>
      <ol class="pred-list">
        {o.top.map((p) => (
          <li key={p.byte}>
            <span class="pred-byte num">{p.label}</span>
            <span class="pred-bar" style={{ width: `${Math.max(1, p.prob * 100)}%` }} />
            <span class="num pred-prob">{(p.prob * 100).toFixed(2)}%</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** What to read in the two columns, from their own numbers. */
function notice(baseline: Outlook, current: Outlook): string {
  const top = current.top[0];
  const guess = top === undefined ? '' : `“${top.label}” is the most likely next byte (${(top.prob * 100).toFixed(2)}%). `;
  if (baseline.eps === current.eps || baseline.loss === null || current.loss === null)
    return `${guess}These bars are for the byte after the prompt's last byte only; the loss averages the surprise over every position of the prompt.`;
  const moved = current.loss > baseline.loss ? 'higher than' : current.loss < baseline.loss ? 'lower than' : 'the same as';
  return `${guess}At eps = ${fmtScale(current.eps)} the loss is ${moved} at the trained ${fmtScale(baseline.eps)} (${fmt(current.loss, 6)} against ${fmt(baseline.loss, 6)} nats): eps changes what every RMSNorm outputs, and the weights were trained with the other value.`;
}

export function Predictions({ baseline, current }: { baseline: Outlook; current: Outlook }) {
  const same = baseline.eps === current.eps;
  return (
    <>
    <div class="predictions">
      <Column title={`eps = ${fmtScale(baseline.eps)} (trained)`} o={baseline} testId="pred-baseline" />
      {same ? (
        <p class="pred-hint">Move the eps slider: the prediction at the new eps appears here, beside the trained one.</p>
      ) : (
        <Column title={`eps = ${fmtScale(current.eps)} (now)`} o={current} testId="pred-current" />
      )}
    </div>
    <ToNotice testId="predictions-notice">{notice(baseline, current)}</ToNotice>
    </>
  );
}
