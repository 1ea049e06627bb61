// The loaded model's gradient norms along the residual stream, from a real
// forward and backward pass of the next-byte loss in the worker.
import { useEffect, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { ensureWeights, weights } from '../../app/inspectorState';
import { ask } from '../../lessons/lessonCore';
import type { ModelGradsResult } from '../../lessons/protocol';
import './lessonWidgets.css';

export function ModelGradNorms() {
  const [text, setText] = useState('In the beginning God created the heaven and the earth.');
  const [r, setR] = useState<ModelGradsResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void ensureWeights().then((ok) => {
      if (!ok || !live) return;
      void ask('model-grads', { op: 'modelGrads', input: { text } }).then((o) => {
        if (o.status === 'ok') {
          setR(o.value.result);
          setError(null);
        } else if (o.status === 'error') setError(o.error.message);
      });
    });
    return () => {
      live = false;
    };
  }, [text]);
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
