// Two shapes, aligned from the right as numpy does; the core broadcasts zero
// tensors of those shapes with its own add and reports the result's shape, or
// the error it raises (the 'broadcastShapes' request). Nothing is computed here.
import { useState } from 'preact/hooks';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'broadcast-shapes': BroadcastExplorer };

/** "4, 1, 3" -> [4, 1, 3]; "" -> [] when empty is allowed (a scalar's shape); null if unreadable. */
export function parseList(text: string, allowEmpty: boolean): number[] | null {
  const t = text.trim().replace(/^[([]|[)\]]$/g, '').trim();
  if (t === '') return allowEmpty ? [] : null;
  const parts = t.split(/[\s,]+/).filter((p) => p !== '');
  const xs = parts.map(Number);
  return xs.every((x) => Number.isFinite(x)) ? xs : null;
}

/** "3" -> "(3,)", "2, 1" -> "(2, 1)". */
const label = (text: string) => (text.includes(',') ? `(${text})` : `(${text},)`);

const PRESETS: [string, string][] = [
  ['4, 1, 3', '2, 1'],
  ['2, 3', '3'],
  ['5, 128', '128'],
  ['3', '4'],
];

/**
 * Which axes of a and b the core's result stretched (size 1 or missing), or the
 * axis that cannot match: read from the two shapes and the core's answer.
 */
function notice(a: number[], b: number[], result: number[] | null): string {
  const width = Math.max(a.length, b.length);
  const at = (s: number[], i: number) => (i < width - s.length ? null : s[i - (width - s.length)]); // null: missing
  if (result === null) {
    for (let i = width - 1; i >= 0; i--) {
      const x = at(a, i);
      const y = at(b, i);
      if (x !== null && y !== null && x !== y && x !== 1 && y !== 1)
        return `aligned from the right, axis ${i} has size ${x} in a and ${y} in b: they differ and neither is 1, so nothing can be stretched.`;
    }
    return 'the core refused these shapes.';
  }
  const stretched = (s: number[]) =>
    result.flatMap((n, i) => {
      const v = at(s, i);
      return v === null || (v === 1 && n !== 1) ? [i] : [];
    });
  const sa = stretched(a);
  const sb = stretched(b);
  const say = (name: string, axes: number[]) => (axes.length === 0 ? '' : `${name} is read again along axis ${axes.join(', ')}`);
  const parts = [say('a', sa), say('b', sb)].filter((p) => p !== '');
  if (parts.length === 0) return 'the shapes are equal: nothing is stretched.';
  return `${parts.join(' and ')} (size 1 or missing there): the stretch copies nothing.`;
}

export function BroadcastExplorer() {
  const [aText, setAText] = useState(PRESETS[0][0]);
  const [bText, setBText] = useState(PRESETS[0][1]);
  const a = parseList(aText, true);
  const b = parseList(bText, true);

  const { result, error } = useLessonOp('broadcastShapes', { a: a ?? [], b: b ?? [] }, [aText, bText], { needsModel: false, skip: a === null || b === null });

  const width = Math.max(a?.length ?? 0, b?.length ?? 0, result?.shape.length ?? 0);
  const padded = (s: number[]) => [...Array(width - s.length).fill(''), ...s];
  return (
    <div class="lesson-widget" data-testid="widget-broadcast">
      <div class="widget-row">
        <label>
          shape of a <input data-testid="bc-a" value={aText} size={12} onInput={(e) => setAText(e.currentTarget.value)} />
        </label>
        <label>
          shape of b <input data-testid="bc-b" value={bText} size={12} onInput={(e) => setBText(e.currentTarget.value)} />
        </label>
        {PRESETS.map(([x, y]) => (
          <button key={x + y} type="button" onClick={() => (setAText(x), setBText(y))}>
            {label(x)} + {label(y)}
          </button>
        ))}
      </div>
      {a === null || b === null ? (
        <p class="lesson-error" role="alert">
          Type each shape as sizes separated by commas, for example 4, 1, 3 (empty for a scalar).
        </p>
      ) : (
        <table class="bc-table">
          <tbody>
            <tr>
              <th>a</th>
              {padded(a).map((n, i) => (
                <td key={i}>{n}</td>
              ))}
            </tr>
            <tr>
              <th>b</th>
              {padded(b).map((n, i) => (
                <td key={i}>{n}</td>
              ))}
            </tr>
            <tr class="bc-result">
              <th>a + b</th>
              {result !== null && error === null ? (
                padded(result.shape).map((n, i) => <td key={i}>{n}</td>)
              ) : (
                <td colSpan={Math.max(width, 1)}>—</td>
              )}
            </tr>
          </tbody>
        </table>
      )}
      <p class="widget-note" data-testid="bc-verdict" aria-live="polite">
        {error !== null
          ? `The core refuses: ${error}`
          : result !== null
            ? `The core's add gives shape (${result.shape.join(', ')}${result.shape.length === 1 ? ',' : ''}): ${result.numel.toLocaleString('en-US')} elements.`
            : ''}
      </p>
      {a !== null && b !== null && (error !== null || result?.shape.length === Math.max(a.length, b.length)) && (
        <ToNotice testId="bc-notice">{notice(a, b, error === null ? result!.shape : null)}</ToNotice>
      )}
    </div>
  );
}
