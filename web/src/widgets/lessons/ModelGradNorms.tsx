// The loaded model's gradient norms along the residual stream (and at the final
// RMSNorm, which is not part of it), from a real forward and backward pass of
// the next-byte loss in the worker.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { tensorName } from '../../app/tensorNames';
import type { ModelGradsResult } from '../../protocol/lessons/rmsnorm';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'model-grad-norms': ModelGradNorms };

/** "after attention + of block 0", "embedding", "final RMSNorm". */
function label(name: string): string {
  const t = tensorName(name);
  return t.block === null ? t.short : `block ${t.block}, ${t.short}`;
}

/** What to see in the bars, read from their own values. */
function notice(r: ModelGradsResult): string {
  const stream = r.names.map((name, i) => ({ name, v: r.norms[i] })).filter((x) => tensorName(x.name).stream);
  const bottom = stream[0];
  const top = stream[stream.length - 1];
  const zero = stream.filter((x) => x.v === 0).length;
  const compare = bottom.v > top.v ? 'larger than' : bottom.v < top.v ? 'smaller than' : 'equal to';
  const path =
    zero === 0
      ? 'No bar of the stream is zero: each residual add passes the gradient down unchanged and adds what comes back through its branch.'
      : `${zero} bar${zero > 1 ? 's' : ''} of the stream ${zero > 1 ? 'are' : 'is'} zero.`;
  return `the gradient reaching the ${label(bottom.name)} (${fmt(bottom.v, 4)}) is ${compare} the one after the last block (${fmt(top.v, 4)}). ${path}`;
}

export function ModelGradNorms() {
  const [text, setText] = useState('In the beginning God created the heaven and the earth.');
  const answer = useLessonOp('modelGrads', { text }, [text], { keepLast: true });
  const r = answer.result;
  const max = r ? Math.max(...r.norms) : 1;
  return (
    <div class="lesson-widget" data-testid="widget-model-grad-norms">
      <label class="widget-row">
        Text:{' '}
        <input class="wide" data-testid="grad-text" value={text} maxLength={128} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <WidgetShell answer={answer} pendingText="Running the model forward and backward…" keepLast dim={false}>
        {(r) => (
          <>
            <p class="widget-lead">
              Loss <span class="num" data-testid="grad-loss">{fmt(r.loss ?? NaN, 5)}</span> nats over {r.n} bytes. ‖∂loss/∂tensor‖ along the residual
              stream, input end first, then at the final RMSNorm:
            </p>
            <ul class="bars" data-testid="grad-bars">
              {r.names.map((name, i) => (
                <li key={name} data-name={name}>
                  <span class="bar-name" title={name}>
                    {label(name)}
                    {!tensorName(name).stream && ' (not part of the stream)'}
                  </span>
                  <span class="bar" style={{ width: `${Math.max(1, (r.norms[i] / max) * 100)}%` }} />
                  <span class="num" data-value={String(r.norms[i])}>{fmt(r.norms[i], 4)}</span>
                </li>
              ))}
            </ul>
            <ToNotice testId="grad-bars-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
