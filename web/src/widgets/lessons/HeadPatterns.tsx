// Every attention head of the model on the learner's prompt: one head's
// pattern (the model's own softmax weights) with the prompt's bytes along both
// edges, and every head's summary: weight on the byte just before, on the byte
// itself, on the first byte, and the mean distance back. From the core's
// attention patterns and summary (the worker's residualHeads).
import { useState } from 'preact/hooks';
import { ScrollBox } from '../../app/ScrollBox';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { HeadsResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { AttentionHeatmap } from './AttentionHeatmap';
import { PromptField, usePrompt } from './PromptField';
import { pct } from './residualLabels';
import { WidgetShell } from './WidgetShell';
import './Attention.css';
import './ResidualStream.css';
import { HeadPicker, headRows } from '../HeadPicker';
import { HeadSummaryTable } from '../HeadSummaryTable';

export const lessonWidgets: LessonWidgets = { 'head-patterns': HeadPatterns };

function notice(r: HeadsResult, block: number, head: number): string {
  const s = r.summary.heads.find((h) => h.block === block && h.head === head)!;
  const p = r.previousHead[block];
  const best = r.summary.heads.find((h) => h.block === block && h.head === p)!;
  const sums = r.summary.rowSumMaxError === 0 ? 'exactly' : `up to ${fmt(r.summary.rowSumMaxError ?? NaN, 2)}`;
  return (
    ` in block ${block}, head ${p} puts the most weight on the byte just before (${pct(best.previous)} on average). ` +
    `Head ${head} looks back ${fmt(s.meanDistance ?? NaN, 3)} bytes on average. Every row of every pattern sums to 1 ${sums}, and no weight falls on a later byte.`
  );
}

export function HeadPatterns() {
  const text = usePrompt();
  const [block, setBlock] = useState(1);
  const [head, setHead] = useState(1);
  const [row, setRow] = useState<number | null>(null);
  const answer = useLessonOp('residualHeads', { text }, [text], { keepLast: true, channel: 'head-patterns' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-head-patterns">
      <PromptField testId="heads-prompt" />
      <WidgetShell answer={answer} errorTestId="heads-error" pendingText="Running the model with its attention patterns…" keepLast>
        {(r) => {
          const blocks = r.patterns.length;
          const b = Math.min(block, blocks - 1);
          const p = r.patterns[b];
          const [heads, n] = p.shape;
          const h = Math.min(head, heads - 1);
          const weights = headRows(p, h);
          return (
            <>
              <HeadPicker
                class="widget-row"
                blocks={blocks}
                heads={heads}
                block={b}
                head={h}
                onBlock={setBlock}
                onHead={setHead}
                blockTestId="heads-block"
                headTestId={(i) => `heads-head-${i}`}
              />
              <p class="widget-lead">
                Head {h} of block {b}: row t is how position t spreads its attention over positions 0 … t (the model's own softmax weights).
              </p>
              <ScrollBox label={`Attention weights of head ${h} in block ${b}`}>
                <AttentionHeatmap weights={weights} labels={r.labels} row={row} onRow={setRow} />
              </ScrollBox>
              <ScrollBox label="Every head's summary">
                <HeadSummaryTable
                  class="rs-table"
                  testId="heads-table"
                  caption={`Every head, averaged over positions 1 … ${n - 1}`}
                  rows={r.summary.heads}
                  block={b}
                  head={h}
                  withBlock
                  onPick={(block, head) => {
                    setBlock(block);
                    setHead(head);
                  }}
                  rowTestId={(s) => `heads-row-${s.block}-${s.head}`}
                  previousTestId={(s) => `heads-prev-${s.block}-${s.head}`}
                />
              </ScrollBox>
              <ToNotice testId="heads-notice">{notice(r, b, h)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
