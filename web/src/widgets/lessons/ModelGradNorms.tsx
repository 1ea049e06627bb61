// The loaded model's gradient norms along the residual stream, from a real
// forward and backward pass of the next-byte loss in the worker.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { weights } from '../../app/inspectorState';
import { useLessonOp } from '../../lessons/useLessonOp';
import './lessonWidgets.css';

export function ModelGradNorms() {
  const [text, setText] = useState('In the beginning God created the heaven and the earth.');
  const { result: r, error } = useLessonOp('model-grads', { op: 'modelGrads', input: { text } }, [text], { keepLast: true });
  const max = r ? Math.max(...r.norms) : 1;
  const w = weights.value;
  return (
    <div class="lesson-widget" data-testid="widget-model-grad-norms">
      <label class="widget-row">
        Text:{' '}
        <input class="wide" data-testid="grad-text" value={text} maxLength={128} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      {w.status === 'failed' && <p class="lesson-error">{w.message}</p>}
      {error !== null && <p class="lesson-error" role="alert">{error}</p>}
      {r === null && error === null && <p>Running the model forward and backward…</p>}
      {r && (
        <>
          <p class="widget-lead">
            Loss <span class="num" data-testid="grad-loss">{fmt(r.loss ?? NaN, 5)}</span> nats over {r.n} bytes. ‖∂loss/∂tensor‖ along the residual
            stream, input end first:
          </p>
          <ul class="bars" data-testid="grad-bars">
            {r.names.map((name, i) => (
              <li key={name}>
                <span class="bar-name num">{name}</span>
                <span class="bar" style={{ width: `${Math.max(1, (r.norms[i] / max) * 100)}%` }} />
                <span class="num" data-value={String(r.norms[i])}>{fmt(r.norms[i], 4)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
