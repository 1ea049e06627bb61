// The residual ledger on the learner's prompt: the last stream split into what
// was added to it (the embedding, each block's attention and SwiGLU output),
// each part's norm and its share of the stream, over all positions or at one,
// and the live check that the parts add up to the stream. From the core's
// residual ledger (the worker's residualLedger).
import { useState } from 'preact/hooks';
import { ScrollBox } from '../../app/ScrollBox';
import { fmt } from '../../app/format';
import { withCode } from '../../app/tensorNames';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { DType, LedgerResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { contributionName, pct } from './residualLabels';
import { WidgetShell } from './WidgetShell';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'residual-ledger': ResidualLedger };

/** What to see in the table, from its own numbers. */
function notice(r: LedgerResult, at: number | null): string {
  const terms = r.ledger.terms;
  const share = (i: number) => (at === null ? terms[i].totalShare : terms[i].share[at]) ?? NaN;
  const norm = (i: number) => (at === null ? terms[i].totalNorm : terms[i].norm[at]) ?? NaN;
  const byShare = terms.map((_, i) => i).sort((a, b) => share(b) - share(a));
  const byNorm = terms.map((_, i) => i).sort((a, b) => norm(b) - norm(a));
  const top = byShare[0];
  const negative = terms.filter((_, i) => share(i) < 0).map((t) => contributionName(t.name));
  const where = at === null ? 'over the whole prompt' : `at position ${at}`;
  const first = `${where}, ${contributionName(terms[top].name)} has the largest share (${pct(share(top))}) of the final stream.`;
  const second =
    byNorm[0] !== top
      ? ` The largest norm is ${contributionName(terms[byNorm[0]].name)}'s, yet its share is ${pct(share(byNorm[0]))}: a part can be long and still point across the stream rather than along it.`
      : '';
  const third =
    negative.length > 0
      ? ` ${negative.length === 1 ? 'One part has' : `${negative.length} parts have`} a negative share (${negative.join(', ')}): ${negative.length === 1 ? 'it pulls' : 'they pull'} the stream back against its final direction.`
      : ' No share is negative here.';
  return ` ${first}${second}${third}`;
}

export function ResidualLedger() {
  const text = usePrompt();
  const [dtype, setDtype] = useState<DType>('float32');
  const [at, setAt] = useState<number | null>(null);
  const answer = useLessonOp('residualLedger', { text, dtype }, [text, dtype], { keepLast: true, channel: 'residual-ledger' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-residual-ledger">
      <PromptField testId="ledger-prompt" />
      <WidgetShell answer={answer} errorTestId="ledger-error" pendingText="Running the model and splitting its stream…" keepLast>
        {(r) => {
          const n = r.labels.length;
          const t = at !== null && at < n ? at : null;
          const terms = r.ledger.terms;
          const norm = (i: number) => (t === null ? terms[i].totalNorm : terms[i].norm[t]);
          const share = (i: number) => (t === null ? terms[i].totalShare : terms[i].share[t]);
          const maxNorm = Math.max(...terms.map((_, i) => norm(i) ?? 0));
          return (
            <>
              <div class="widget-row">
                <label>
                  Read{' '}
                  <select data-testid="ledger-position" value={t === null ? 'all' : String(t)} onChange={(e) => setAt(e.currentTarget.value === 'all' ? null : Number(e.currentTarget.value))}>
                    <option value="all">all {n} positions together</option>
                    {r.labels.map((l, i) => (
                      <option key={i} value={i}>
                        position {i} “{l}”
                      </option>
                    ))}
                  </select>
                </label>
                <span role="group" aria-label="Number type" class="rs-toggle">
                  {(['float32', 'float64'] as const).map((d) => (
                    <button key={d} type="button" aria-pressed={d === dtype} onClick={() => setDtype(d)}>
                      {d}
                    </button>
                  ))}
                </span>
              </div>
              <p class="widget-lead">
                The final stream, {withCode(r.ledger.totalName)}, on your prompt ({n} bytes), split into the {terms.length} parts that were added to
                make it. Norm: the part's length ‖c‖. Share: ⟨c, x⟩ / ‖x‖², how much of the stream x lies along it (the shares add up to 100%).
              </p>
              <ScrollBox label="The residual ledger">
                <table class="rs-table" data-testid="ledger-table">
                  <thead>
                    <tr>
                      <th scope="col" class="rs-left">part</th>
                      <th scope="col">norm ‖c‖</th>
                      <th scope="col">share of the stream</th>
                      <th scope="col" class="rs-bar-col" aria-label="norm as a bar" />
                    </tr>
                  </thead>
                  <tbody>
                    {terms.map((term, i) => (
                      <tr key={term.name} data-name={term.name}>
                        <th scope="row" title={term.name}>
                          {contributionName(term.name)}
                        </th>
                        <td class="num" data-value={String(norm(i))}>
                          {norm(i) === null ? '—' : fmt(norm(i)!, 4)}
                        </td>
                        <td class="num" data-value={String(share(i))}>
                          {pct(share(i))}
                        </td>
                        <td class="rs-bar-col">
                          <span class="rs-bar" style={{ width: `${Math.max(1, ((norm(i) ?? 0) / (maxNorm || 1)) * 100)}%` }} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
              <p class="rs-check" data-testid="ledger-sum">
                The check, computed live: embedding + every branch output − the final stream, largest difference over every number of the stream:{' '}
                <span class="num" data-value={String(r.ledger.maxAbsDiff)}>
                  {r.ledger.maxAbsDiff === null ? 'not a number' : fmt(r.ledger.maxAbsDiff, 3)}
                </span>{' '}
                (added in {r.dtype}, in the order the model added them).
              </p>
              <ToNotice testId="ledger-notice">{notice(r, t)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
