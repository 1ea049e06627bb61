// Each attention head's summary on the learner's prompt, as the core computed it
// (HeadSummary): weight on the byte just before, on the byte itself, on the
// first byte, and the mean distance back. The residual-stream lesson lists
// every head (a block column, a row picks the head); Look inside lists one
// block's heads.
import type { HeadSummary } from '../core';
import { fmt } from '../app/format';
import { pct } from './lessons/residualLabels';

interface Props {
  rows: HeadSummary[];
  /** The head on show (its row is marked). */
  block: number;
  head: number;
  caption: string;
  class: string;
  testId: string;
  /** Show the block column (the table lists heads of several blocks). */
  withBlock?: boolean;
  /** A click on a row shows that head. */
  onPick?: (block: number, head: number) => void;
  /** Test id of a row, and of its "on the byte before" cell, if the view's tests address them. */
  rowTestId?: (s: HeadSummary) => string;
  previousTestId?: (s: HeadSummary) => string;
}

export function HeadSummaryTable(p: Props) {
  return (
    <table class={p.class} data-testid={p.testId}>
      <caption>{p.caption}</caption>
      <thead>
        <tr>
          {p.withBlock === true && <th scope="col">block</th>}
          <th scope="col">head</th>
          <th scope="col">on the byte before</th>
          <th scope="col">on the byte itself</th>
          <th scope="col">on the first byte</th>
          <th scope="col">mean distance back</th>
        </tr>
      </thead>
      <tbody>
        {p.rows.map((s) => (
          <tr
            key={`${s.block}-${s.head}`}
            class={s.block === p.block && s.head === p.head ? 'is-on' : ''}
            data-testid={p.rowTestId?.(s)}
            onClick={p.onPick === undefined ? undefined : () => p.onPick!(s.block, s.head)}
          >
            {p.withBlock === true && <td class="num">{s.block}</td>}
            {p.withBlock === true ? <td class="num">{s.head}</td> : <th scope="row">{s.head}</th>}
            <td class="num" data-value={String(s.previous)} data-testid={p.previousTestId?.(s)}>
              {pct(s.previous)}
            </td>
            <td class="num">{pct(s.same)}</td>
            <td class="num">{pct(s.first)}</td>
            <td class="num">{s.meanDistance === null ? '—' : `${fmt(s.meanDistance, 3)} bytes`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
