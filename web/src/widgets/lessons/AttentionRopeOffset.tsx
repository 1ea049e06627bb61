// RoPE's offset invariance, computed by the core in float64: two fixed random
// head-width vectors q and k, rotated to a query and a key position, and their
// dot product for the same offset at other places in the text, and for other
// offsets from the same query.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { RopeOffsetResult, RopeOffsetRow } from '../../protocol/lessons/attention';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { extremes } from '../inspector/inspectorNotices';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import './Attention.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'rope-offset': AttentionRopeOffset };

const field = (s: string) => (s.trim() === '' ? NaN : Number(s));

function Rows({ rows, testId, mark }: { rows: RopeOffsetRow[]; testId: string; mark: (r: RopeOffsetRow) => boolean }) {
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th>query</th>
          <th>key</th>
          <th>offset</th>
          <th>rope(q)·rope(k)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={`${r.query}-${r.key}`} class={mark(r) ? 'attn-chosen' : ''}>
            <td class="num">{r.query}</td>
            <td class="num">{r.key}</td>
            <td class="num">{r.query - r.key}</td>
            <td class="num" data-testid={`${testId}-${i}`} data-value={String(r.dot)}>
              {fmt(r.dot, 12)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AttentionRopeOffset() {
  const [query, setQuery] = useState('5');
  const [key, setKey] = useState('2');
  // the RoPE base comes from the loaded model's configuration
  const answer = useLessonOp('ropeOffset', { query: field(query), key: field(key) }, [query, key], { keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-rope-offset">
      <div class="widget-row">
        <label>
          query position <input data-testid="rope-query" size={4} value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <label>
          key position <input data-testid="rope-key" size={4} value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        </label>
      </div>
      <WidgetShell answer={answer} errorTestId="rope-error" keepLast>
        {(r) => <RopeTables r={r} />}
      </WidgetShell>
    </div>
  );
}

function RopeTables({ r }: { r: RopeOffsetResult }) {
  const chosen = r.shifted[0]; // the chosen pair comes first
  return (
    <>
      <p class="widget-lead">
        q and k: two fixed random vectors of {r.headDim} numbers (float64). Unrotated, q·k ={' '}
        <span class="num" data-testid="rope-plain">{fmt(r.plain, 12)}</span>. Rotated to positions {chosen.query} and {chosen.key} (base{' '}
        {r.base}): <span class="num" data-testid="rope-dot" data-value={String(chosen.dot)}>{fmt(chosen.dot, 12)}</span>.
      </p>
      <div class="attn-tables">
        <div>
          <p class="widget-note">The same offset, moved along the text:</p>
          <Rows rows={r.shifted} testId="rope-shift" mark={(x) => x === chosen} />
        </div>
        <div>
          <p class="widget-note">The same query, other offsets:</p>
          <Rows rows={r.offsets} testId="rope-offsets" mark={(x) => x.query - x.key === chosen.query - chosen.key} />
        </div>
      </div>
      <ToNotice testId="rope-notice">{notice(r)}</ToNotice>
    </>
  );
}

/** The two tables' point, read from the core's dot products (smallest and largest of each). */
function notice(r: RopeOffsetResult): string {
  const span = (rows: RopeOffsetRow[]) => {
    const e = extremes(rows.map((x) => x.dot))!;
    if (e.min === e.max) return `exactly ${fmt(e.min, 12)} in every row`;
    if (fmt(e.min, 12) === fmt(e.max, 12)) return `${fmt(e.min, 12)} in every row, to the 12 digits shown`;
    return `between ${fmt(e.min, 12)} and ${fmt(e.max, 12)}`;
  };
  return `for the same offset the dot product is ${span(r.shifted)}: the same up to float64 rounding, wherever the pair sits. Other offsets give other values, ${span(r.offsets)}.`;
}
