// One column per predicted byte: the bar is −log p of that byte given the bytes
// before it (the worker's numbers), the dashed line the loss of knowing nothing.
// Clicking a column opens the prediction that produced it.
import { fmt } from '../../app/format';
import type { NextByteLossResult } from '../../protocol/lessons/loss';
import './LossWidget.css';

export function LossStrip({ r, onPick }: { r: NextByteLossResult; onPick: (position: number) => void }) {
  // the taller of the worst surprise and ln 256 fills the strip
  const top = Math.max(r.uniform, ...r.surprise.filter(Number.isFinite));
  const height = (v: number) => `${Math.max(1, Math.min(100, (v / top) * 100))}%`;
  return (
    <div class="loss-strip" data-testid="loss-strip">
      <div class="loss-strip-plot">
        <span class="loss-uniform-line" style={{ bottom: height(r.uniform) }} title={`ln 256 = ${fmt(r.uniform, 5)} nats`} />
        {r.bytes.map((b, i) => {
          const t = i - 1; // byte i was predicted at position i − 1
          const v = t >= 0 ? r.surprise[t] : null;
          return (
            <button
              key={i}
              type="button"
              class={`loss-col${t === r.position ? ' picked' : ''}`}
              disabled={v === null}
              data-testid={`loss-col-${i}`}
              data-value={v === null ? '' : String(v)}
              title={v === null ? 'the first byte is never predicted' : `−log p(${b.label}) = ${fmt(v, 5)} nats`}
              onClick={() => onPick(t)}
            >
              {v !== null && <span class="loss-bar" style={{ height: height(v) }} />}
            </button>
          );
        })}
      </div>
      <div class="loss-strip-labels">
        {r.bytes.map((b, i) => (
          <span key={i} class={`loss-label${i - 1 === r.position ? ' picked' : ''}`}>
            {b.label}
          </span>
        ))}
      </div>
    </div>
  );
}
