// The logit lens on the learner's prompt: the final RMSNorm and the head
// applied to the stream at every depth, read after one position: the top 5
// next bytes there (the byte that really comes next marked), its loss, and the
// mean loss over the prompt. At the last depth the lens is the model itself:
// the live difference from the model's logits is shown. From the core's logit
// lens (the worker's residualLens).
import { useState } from 'preact/hooks';
import { ScrollBox } from '../../app/ScrollBox';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { LensResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { depthName } from './residualLabels';
import { WidgetShell } from './WidgetShell';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'logit-lens': LogitLens };

function notice(r: LensResult): string {
  const hits = r.hits === 0 ? 'No depth has it in its top 5' : `${r.hits} of the ${r.depths.length} depths have it in their top 5`;
  const first = r.firstHit === null ? '' : `, the first at depth ${r.firstHit} (${depthName(r.depths[r.firstHit].name)})`;
  const rises = r.depths.filter((d, i) => i > 0 && (d.meanLoss ?? 0) > (r.depths[i - 1].meanLoss ?? 0)).length;
  const mean =
    rises === 0
      ? ' The mean loss falls at every depth.'
      : ` The mean loss does not fall at every depth: it rises ${rises === 1 ? 'once' : `${rises} times`} on the way up, and is lowest at depth ${r.bestDepth}.`;
  return ` the byte that comes next is “${r.next}”. ${hits}${first}.${mean}`;
}

export function LogitLens() {
  const text = usePrompt();
  const [position, setPosition] = useState<number | null>(null);
  const n = new TextEncoder().encode(text).length;
  // a position left over from a longer prompt reads the default one instead
  const t = position !== null && position < n - 1 ? position : undefined;
  const answer = useLessonOp('residualLens', t === undefined ? { text } : { text, position: t }, [text, t], { keepLast: true, channel: 'logit-lens' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-logit-lens">
      <PromptField testId="lens-prompt" />
      <WidgetShell answer={answer} errorTestId="lens-error" pendingText="Reading the stream at every depth…" keepLast>
        {(r) => {
          const last = r.depths.length - 1;
          return (
            <>
              <div class="widget-row">
                <label>
                  Read after{' '}
                  <select data-testid="lens-position" value={String(r.position)} onChange={(e) => setPosition(Number(e.currentTarget.value))}>
                    {r.labels.slice(0, -1).map((l, i) => (
                      <option key={i} value={i}>
                        position {i} “{l}” (next: “{r.labels[i + 1]}”)
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <p class="widget-lead">
                Each row applies the final RMSNorm and the head to the stream at one depth, as if the model stopped there, and reads its 5 likeliest
                next bytes after position {r.position} “{r.labels[r.position]}”. The byte that really comes next, “{r.next}”, is marked.
              </p>
              <ScrollBox label="The logit lens by depth">
                <table class="rs-table" data-testid="lens-table">
                  <thead>
                    <tr>
                      <th scope="col">depth</th>
                      <th scope="col" class="rs-left">the stream</th>
                      <th scope="col">top 5 next bytes</th>
                      <th scope="col">rank of “{r.next}”</th>
                      <th scope="col">its loss (nats)</th>
                      <th scope="col">mean loss</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.depths.map((d, i) => (
                      <tr key={d.name} data-name={d.name} class={i === last ? 'is-on' : ''}>
                        <td class="num">{i}</td>
                        <th scope="row" title={d.name}>
                          {depthName(d.name)}
                          {i === last ? ' (the model)' : ''}
                        </th>
                        <td>
                          <span class="rs-chips">
                            {d.top.map((p) => (
                              <span key={p.byte} class={`rs-chip${d.rank !== null && d.top[d.rank - 1].byte === p.byte ? ' is-right' : ''}`} title={`${(p.prob * 100).toFixed(1)}%`}>
                                {p.label}
                              </span>
                            ))}
                          </span>
                        </td>
                        <td class="num rs-nowrap" data-testid={`lens-rank-${i}`}>{d.rank === null ? 'not in top 5' : d.rank}</td>
                        <td class="num">{d.loss === null ? '—' : fmt(d.loss, 4)}</td>
                        <td class="num">{d.meanLoss === null ? '—' : fmt(d.meanLoss, 4)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
              <p class="rs-check" data-testid="lens-check">
                The last row against the model's own logits, largest difference over every position and byte:{' '}
                <span class="num" data-value={String(r.lastDepthMaxAbs)}>
                  {r.lastDepthMaxAbs === null ? 'not a number' : fmt(r.lastDepthMaxAbs, 3)}
                </span>
                .
              </p>
              <ToNotice testId="lens-notice">{notice(r)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
