// An (n, d) input normalized by one RMSNorm call: each row (a position) gets its
// own r(x). Editing one row changes only that row's output; the rows whose
// output changed at the last edit are marked. Computed by the core in the worker.
import { useRef, useState } from 'preact/hooks';
import { useWeights } from '../../viewmodels/model';
import { parseNumber } from '../../app/labSettings';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { RowsResult } from '../../protocol/lessons/rmsnorm';
import { fmt } from '../../app/format';
import { ToNotice } from '../ToNotice';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'row-norm': RowNorm };

const START = [
  [3, 4, 0, 0],
  [1, -1, 1, -1],
  [0.01, 0.02, -0.03, 0.04],
];

export function RowNorm() {
  const [rows, setRows] = useState(START);
  const [drafts, setDrafts] = useState(() => START.map((r) => r.map(String)));
  const [parseError, setParseError] = useState<string | null>(null);
  const op = useLessonOp('rmsnormRows', { rows, eps: 1e-6 }, [rows], { needsModel: false, keepLast: true });
  const result = op.result;
  const error = parseError ?? op.error;

  // Which rows' outputs moved with the newest result (the core's numbers compared,
  // nothing computed), worked out in the render that first shows that result.
  const seen = useRef<{ result: RowsResult | null; changed: boolean[] }>({ result: null, changed: [] });
  if (result !== null && result !== seen.current.result) {
    const before = seen.current.result;
    seen.current = { result, changed: result.output.map((row, i) => before !== null && row.some((v, j) => v !== before.output[i][j])) };
  }
  const changed = seen.current.changed;

  const edit = (i: number, j: number, text: string) => {
    const d = drafts.map((r) => r.slice());
    d[i][j] = text;
    setDrafts(d);
    const p = parseNumber(text, `x[${i}][${j}]`);
    setParseError(p.ok ? null : p.message);
    if (!p.ok) return;
    setRows(rows.map((r, a) => (a === i ? r.map((v, b) => (b === j ? p.value : v)) : r)));
  };

  const w = useWeights();
  return (
    <div class="lesson-widget row-norm" data-testid="widget-row-norm">
      <p class="widget-lead">
        Three positions, d = 4{w.status === 'ready' ? ` (the model's rows have d = ${w.info.d})` : ''}. One RMSNorm call, ε = 1e-6, γ = ones. Edit any
        number.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">position</th>
            <th scope="col" colSpan={4}>input x (n, d)</th>
            <th scope="col">r(x)</th>
            <th scope="col" colSpan={4}>RMSNorm(x)</th>
          </tr>
        </thead>
        <tbody>
          {drafts.map((row, i) => (
            <tr key={i} class={changed[i] ? 'changed' : undefined} data-testid={`row-${i}`} data-changed={changed[i] ? 'yes' : 'no'}>
              <th scope="row">{i}</th>
              {row.map((t, j) => (
                <td key={j}>
                  <input class="cell" aria-label={`x[${i}][${j}]`} value={t} onInput={(e) => edit(i, j, e.currentTarget.value)} />
                </td>
              ))}
              <td class="num" data-testid={`row-${i}-r`}>{result ? fmt(result.r[i], 4) : "…"}</td>
              {/* no value until the core's result is in: a placeholder 0 would read as an output */}
              {(result?.output[i] ?? [0, 0, 0, 0]).map((v, j) => (
                <td key={j} class="num out" data-testid={`row-${i}-y-${j}`} data-value={result ? String(v) : undefined}>
                  {result ? fmt(v, 4) : "…"}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {error !== null && <p class="lesson-error" role="alert">{error}</p>}
      <ToNotice testId="row-norm-notice">
        {changed.some(Boolean)
          ? `outputs that changed at your last edit: row ${changed.map((c, i) => (c ? i : -1)).filter((i) => i >= 0).join(', ')} (highlighted). ${changed.every(Boolean) ? '' : 'The other rows did not move: the norm never looks across positions.'}`
          : 'each row has its own r(x). Change one number and watch which rows of the output move.'}
      </ToNotice>
    </div>
  );
}
