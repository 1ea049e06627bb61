// A vector's values, the first few shown and the rest behind a button.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import './VectorView.css';

const SHOWN = 12;

export function VectorView({ values, testid, digits = 7 }: { values: readonly number[]; testid?: string; digits?: number }) {
  const [all, setAll] = useState(false);
  const shown = all ? values : values.slice(0, SHOWN);
  return (
    <span class="vector-view num" data-testid={testid}>
      [
      {shown.map((v, i) => (
        <span key={i} class="vector-view-item" data-value={String(v)} data-bad={Number.isFinite(v) ? undefined : 'true'}>
          {fmt(v, digits)}
          {i < values.length - 1 ? ', ' : ''}
        </span>
      ))}
      {values.length > SHOWN && (
        <button type="button" class="vector-view-more" onClick={() => setAll(!all)}>
          {all ? 'show fewer' : `… ${values.length - SHOWN} more`}
        </button>
      )}
      ]
    </span>
  );
}
