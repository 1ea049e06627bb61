// The real attention pattern of the loaded model: a prompt, a block and a head;
// the worker runs that block's own attention code (the function the forward
// pass runs) and returns the head's (n, n) softmax weights and their row sums.
import { useEffect, useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { AttentionPatternResult } from '../../protocol/lessons/attention';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import { AttentionHeatmap } from './AttentionHeatmap';
import './Attention.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'attention-pattern': AttentionPattern };

const DEFAULT_TEXT = 'In the beginning God created the heaven';

/** What the map shows, read from the core's weights. */
function notice(r: AttentionPatternResult, row: number): string {
  const w = r.weights[row];
  let best = 0;
  for (let j = 1; j <= row; j++) if (w[j] > w[best]) best = j;
  const above = r.maxAbove === 0 ? 'every weight above the diagonal is exactly 0 (no query sees a later byte)' : `the largest weight above the diagonal is ${fmt(r.maxAbove)}`;
  return `${above}, and every row sums to 1${r.rowSumDev === 0 ? ' exactly' : ` up to ${fmt(r.rowSumDev, 3)}`}. Query ${row} “${r.labels[row]}” puts its largest weight, ${fmt(w[best], 4)}, on key ${best} “${r.labels[best]}”${best === row ? ', itself' : ''}.`;
}

export function AttentionPattern({ args }: { args: Record<string, string> }) {
  const [text, setText] = useState(args.text ?? DEFAULT_TEXT);
  const [block, setBlock] = useState(args.block ?? '0');
  const [head, setHead] = useState(args.head ?? '0');
  const [row, setRow] = useState<number | null>(null);

  useEffect(() => setRow(null), [text]); // a new prompt opens on its last row

  // empty or non-numeric fields go to the worker as NaN: it refuses them with a message
  const input = { text, block: block.trim() === '' ? NaN : Number(block), head: head.trim() === '' ? NaN : Number(head) };
  const answer = useLessonOp('attentionPattern', input, [text, block, head], { keepLast: true });
  const r = answer.result;

  const n = r?.labels.length ?? 0;
  const shownRow = r === null ? null : Math.min(row ?? n - 1, n - 1);
  // bar lengths relative to the row's largest weight (display scaling only)
  const rowMax = shownRow === null || r === null ? 1 : Math.max(...r.weights[shownRow]);
  return (
    <div class="lesson-widget attention-pattern" data-testid="widget-attention-pattern">
      <label class="widget-row">
        Prompt{' '}
        <input class="wide" data-testid="pattern-text" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <div class="widget-row">
        <label>
          block <input data-testid="pattern-block" size={3} value={block} onInput={(e) => setBlock(e.currentTarget.value)} />
        </label>
        <label>
          head <input data-testid="pattern-head" size={3} value={head} onInput={(e) => setHead(e.currentTarget.value)} />
        </label>
        {['0', '1', '2', '3'].map((h) => (
          <button key={h} type="button" aria-pressed={h === head} onClick={() => setHead(h)}>
            head {h}
          </button>
        ))}
      </div>
      <WidgetShell answer={answer} errorTestId="pattern-error" pendingText="Running the model…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              Block {block}, head {head}: it reads columns {r.columns[0]}…{r.columns[1]} of q, k and v. Row i is the query at position i, column j the key
              it looks at; each cell is a softmax weight, computed by the model's own attention code.
            </p>
            <div class="attn-layout">
              <AttentionHeatmap weights={r.weights} labels={r.labels} row={shownRow} onRow={setRow} />
              {shownRow !== null && (
                <div class="attn-row" data-testid="pattern-row" tabIndex={0} role="group" aria-label={`Query ${shownRow}: its weight on each key`}>
                  <p class="attn-row-title">
                    Query {shownRow} <span class="num">“{r.labels[shownRow]}”</span> spreads its weight over keys 0…{shownRow} (row sum{' '}
                    <span class="num" data-testid="pattern-row-sum">{fmt(r.rowSums[shownRow], 7)}</span>; bars scaled to the row's largest weight):
                  </p>
                  <ul class="attn-bars">
                    {r.weights[shownRow].slice(0, shownRow + 1).map((v, j) => (
                      <li key={j}>
                        <span class="num attn-key">
                          {j} {r.labels[j]}
                        </span>
                        <span class="attn-bar" style={{ width: `${Math.max(0.5, (v / rowMax) * 100)}%` }} />
                        <span class="num" data-testid={`pattern-w-${shownRow}-${j}`} data-value={String(v)}>
                          {fmt(v, 4)}
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
            <dl class="attn-facts">
              <div>
                <dt>largest weight above the diagonal</dt>
                <dd class="num" data-testid="pattern-above">{fmt(r.maxAbove)}</dd>
              </div>
              <div>
                <dt>largest |row sum − 1|</dt>
                <dd class="num" data-testid="pattern-rowsum-dev">{fmt(r.rowSumDev, 3)}</dd>
              </div>
            </dl>
            {shownRow !== null && <ToNotice testId="pattern-notice">{notice(r, shownRow)}</ToNotice>}
          </>
        )}
      </WidgetShell>
    </div>
  );
}
