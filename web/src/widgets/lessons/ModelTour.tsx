// The tour lesson's widgets: the whole model on the learner's prompt, drawn from
// the loaded model (as many blocks as it has), each stage with its output's shape,
// its RMS and the parameters it holds; and where the parameters sit.
import type { ComponentChildren } from 'preact';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { TourResult, TourStage } from '../../protocol/lessons/tour';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { WidgetShell } from './WidgetShell';
import './ModelTour.css';

export const lessonWidgets: LessonWidgets = { 'model-tour': ModelTour, 'parameter-budget': ParameterBudget };

const int = (v: number) => v.toLocaleString('en-US');
const shapeText = (shape: number[]) => (shape.length === 0 ? 'one number' : `(${shape.join(', ')})`);

/** What each stage is called on the page, and what it does, in a learner's words. */
const STAGE: Record<TourStage['kind'], { name: string; does: string }> = {
  bytes: { name: 'bytes', does: 'your prompt as UTF-8 bytes, one position each' },
  embedding: { name: 'embedding', does: 'one learned row of numbers per byte: the residual stream starts here' },
  norm: { name: 'RMSNorm', does: 'rescales each position before the branch reads it' },
  attention: { name: 'attention', does: 'each position gathers from the positions before it' },
  ffn: { name: 'SwiGLU', does: 'works on each position on its own' },
  add: { name: 'add', does: 'the branch’s output is added to the stream' },
  'final-norm': { name: 'final RMSNorm', does: 'rescales each position once more' },
  head: { name: 'head', does: 'one score (a logit) per possible next byte' },
  loss: { name: 'next-byte loss', does: 'the mean surprise at the byte that really came next' },
};

function StageRow({ st, r }: { st: TourStage; r: TourResult }) {
  const s = STAGE[st.kind];
  const value = st.kind === 'loss' ? (r.loss === null ? 'none: one byte predicts nothing' : `${fmt(r.loss, 5)} nats`) : shapeText(st.shape);
  return (
    <li class={`tour-stage tour-${st.kind}`} data-testid={`tour-stage-${st.snapshot || st.kind}`}>
      <span class="tour-name">{s.name}</span>
      {st.snapshot !== '' && <code class="tour-code">{st.snapshot}</code>}
      <span class="tour-does">{s.does}</span>
      <span class="tour-facts">
        <span class="num">{value}</span>
        {st.rms !== null && st.kind !== 'head' && <span> · RMS <span class="num">{fmt(st.rms, 4)}</span></span>}
        <span> · {st.params === 0 ? 'no parameters' : <><span class="num">{int(st.params)}</span> parameters</>}</span>
      </span>
    </li>
  );
}

function Block({ b, children }: { b: number; children: ComponentChildren }) {
  return (
    <li class="tour-block" data-testid={`tour-block-${b}`}>
      <p class="tour-block-title">block {b}</p>
      <ol class="tour-stages">{children}</ol>
    </li>
  );
}

/** What to look for in the flow: the stream grows while every norm hands its branch a steady size (the core's RMS values, read off). */
function growth({ growth: g }: TourResult): string {
  return ` the stream's RMS goes from ${fmt(g.embed, 3)} at the embedding to ${fmt(g.last, 3)} after the last block, as each branch adds to it; the copies the norms hand the branches stay between ${fmt(g.normMin, 3)} and ${fmt(g.normMax, 3)}.`;
}

export function ModelTour() {
  const text = usePrompt();
  const answer = useLessonOp('tourModel', { text }, [text], { keepLast: true, channel: 'model-tour' });
  return (
    <div class="lesson-widget tour-widget" data-testid="widget-model-tour">
      <PromptField testId="tour-prompt" />
      <WidgetShell answer={answer} errorTestId="tour-error" pendingText="Running the model on your prompt…" keepLast>
        {(r) => {
          const outside = (kinds: TourStage['kind'][]) => r.stages.filter((st) => st.block === null && kinds.includes(st.kind));
          return (
            <>
              <p class="widget-lead" data-testid="tour-summary">
                {r.labels.length} bytes in, {r.blocks} blocks, {int(r.total)} parameters in all. Shapes are (positions, numbers per position); RMS is
                the root mean square of the stage’s output, a measure of its size.
              </p>
              <ol class="tour-flow" data-testid="tour-flow">
                {outside(['bytes', 'embedding']).map((st) => <StageRow key={st.kind} st={st} r={r} />)}
                {Array.from({ length: r.blocks }, (_, b) => (
                  <Block key={b} b={b}>
                    {r.stages.filter((st) => st.block === b).map((st) => <StageRow key={st.snapshot} st={st} r={r} />)}
                  </Block>
                ))}
                {outside(['final-norm', 'head', 'loss']).map((st) => <StageRow key={st.kind} st={st} r={r} />)}
              </ol>
              <ToNotice testId="tour-notice">{growth(r)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}

const PART: Record<TourResult['budget'][number]['part'], string> = {
  embedding: 'embedding (tok_emb.weight)',
  attention: 'attention, every block (wq, wk, wv, wo)',
  ffn: 'SwiGLU, every block (w_gate, w_up, w_down)',
  norm: 'norms, every γ (the blocks’ and the final one)',
  head: 'head (head.weight)',
};

export function ParameterBudget() {
  const text = usePrompt();
  const answer = useLessonOp('tourModel', { text }, [text], { keepLast: true, channel: 'parameter-budget' });
  return (
    <div class="lesson-widget tour-widget" data-testid="widget-parameter-budget">
      <WidgetShell answer={answer} errorTestId="budget-error" pendingText="Counting the model’s parameters…" keepLast>
        {(r) => (
          <>
            <table class="tour-budget" data-testid="tour-budget">
              <thead>
                <tr>
                  <th scope="col">where</th>
                  <th scope="col">parameters</th>
                  <th scope="col">share</th>
                  <th scope="col" class="tour-bar-col" aria-hidden="true" />
                </tr>
              </thead>
              <tbody>
                {r.budget.map((row) => (
                  <tr key={row.part} data-testid={`budget-${row.part}`}>
                    <th scope="row">{PART[row.part]}</th>
                    <td class="num">{int(row.params)}</td>
                    <td class="num">{(row.share * 100).toFixed(1)}%</td>
                    <td class="tour-bar-col" aria-hidden="true">
                      <span class="tour-bar" style={{ width: `${row.share * 100}%` }} />
                    </td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">all</th>
                  <td class="num" data-testid="budget-total">{int(r.total)}</td>
                  <td class="num">100%</td>
                  <td />
                </tr>
              </tbody>
            </table>
            <ToNotice testId="budget-notice">
              {' '}
              the largest part is {PART[r.largest].replace(/ \(.*$/, '')}; the norms, in every block, hold{' '}
              {(r.budget.find((b) => b.part === 'norm')!.share * 100).toFixed(2)}% of the parameters.
            </ToNotice>
            <p class="widget-note" data-testid="budget-block">
              One block: attention <span class="num">{int(r.perBlock.attention)}</span>, SwiGLU <span class="num">{int(r.perBlock.ffn)}</span>, its two
              norms <span class="num">{int(r.perBlock.norm)}</span>: <span class="num">{int(r.perBlock.all)}</span> in all. The additions hold none.
            </p>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
