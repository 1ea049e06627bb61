// Ablations on the learner's prompt: the model's loss with one part taken out
// (a whole block, one branch, or one attention head), each beside what it
// costs against the model's own loss. The worker runs the model once per part
// (the core's interventions: a branch's output set to zero, a head's output
// before wo set to zero); the weights never change.
import { ScrollBox } from '../../app/ScrollBox';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { Ablation, AblationsResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { WidgetShell } from './WidgetShell';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'ablation-table': AblationTable };

const partName = (a: Ablation) => a.label;

const signed = (v: number) => `${v >= 0 ? '+' : '−'}${fmt(Math.abs(v), 4)}`;

function notice(r: AblationsResult): string {
  const b = r.blocks[r.worstBlock];
  const br = r.branches[r.worstBranch];
  const h = r.heads[r.worstHead];
  const helpful =
    r.helpful === 0
      ? ' Removing any branch or head raises the loss here.'
      : ` ${r.helpful === 1 ? 'One branch or head' : `${r.helpful} branches and heads`} even lower${r.helpful === 1 ? 's' : ''} the loss when taken out: on this prompt ${r.helpful === 1 ? 'it works' : 'they work'} against the right bytes.`;
  return ` taking out ${partName(b)} costs the most of the blocks (${signed(b.cost)} nats), ${partName(br)} the most of the branches (${signed(br.cost)}), ${partName(h)} the most of the heads (${signed(h.cost)}).${helpful}`;
}

function Table({ caption, rows, worst, max, testId }: { caption: string; rows: Ablation[]; worst: number; max: number; testId: string }) {
  return (
    <table class="rs-table" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" class="rs-left">taken out</th>
          <th scope="col">loss</th>
          <th scope="col">cost</th>
          <th scope="col" class="rs-bar-col" aria-label="cost as a bar" />
        </tr>
      </thead>
      <tbody>
        {rows.map((a, i) => (
          <tr key={a.what} class={i === worst ? 'is-on' : ''} title={a.what}>
            <th scope="row">{partName(a)}</th>
            <td class="num">{fmt(a.loss, 5)}</td>
            <td class="num" data-value={String(a.cost)}>{signed(a.cost)}</td>
            <td class="rs-bar-col">
              <span class={`rs-bar${a.cost < 0 ? ' is-neg' : ''}`} style={{ width: `${Math.max(1, (Math.abs(a.cost) / (max || 1)) * 100)}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AblationTable() {
  const text = usePrompt();
  const answer = useLessonOp('residualAblations', { text }, [text], { keepLast: true, channel: 'ablation-table' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-ablation-table">
      <PromptField testId="ablation-prompt" />
      <WidgetShell answer={answer} errorTestId="ablation-error" pendingText="Running the model once for every part taken out…" keepLast>
        {(r) => {
          const max = Math.max(...[...r.blocks, ...r.branches, ...r.heads].map((a) => Math.abs(a.cost)));
          return (
            <>
              <p class="rs-loss">
                The model's own loss on your prompt: <span class="num" data-testid="ablation-loss">{fmt(r.loss, 5)}</span> nats. Cost: the loss with the
                part taken out minus that (red bars: the loss went down).
              </p>
              <ScrollBox label="The loss with one part taken out">
                <div class="rs-tables">
                  <Table caption="A whole block (both branches zeroed)" rows={r.blocks} worst={r.worstBlock} max={max} testId="ablation-blocks" />
                  <Table caption="One branch zeroed" rows={r.branches} worst={r.worstBranch} max={max} testId="ablation-branches" />
                  <Table caption="One head zeroed" rows={r.heads} worst={r.worstHead} max={max} testId="ablation-heads" />
                </div>
              </ScrollBox>
              <ToNotice testId="ablation-notice">{notice(r)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
