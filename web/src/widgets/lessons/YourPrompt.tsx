// The residual-stream lesson's first widget: the learner's prompt and what the
// model makes of it: its loss, and its 5 likeliest bytes before the prompt's
// last byte (the last depth of the logit lens, which is the model itself).
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { LensResult } from '../../protocol/lessons/residual';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { WidgetShell } from './WidgetShell';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'your-prompt': YourPrompt };

function notice(r: LensResult): string {
  const d = r.depths[r.depths.length - 1];
  const said = d.rank === null ? `“${r.next}” is not among its 5 guesses` : d.rank === 1 ? `its first guess, “${r.next}”, is right` : `the right byte, “${r.next}”, is its guess number ${d.rank}`;
  return ` before the last byte the model's guesses are ${d.top.map((p) => `“${p.label}”`).join(', ')}: ${said}. Nothing here says which of its parts made that guess.`;
}

export function YourPrompt() {
  const text = usePrompt();
  const answer = useLessonOp('residualLens', { text }, [text], { keepLast: true, channel: 'your-prompt' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-your-prompt">
      <PromptField testId="your-prompt" />
      <WidgetShell answer={answer} errorTestId="your-prompt-error" pendingText="Running the model…" keepLast>
        {(r) => {
          const d = r.depths[r.depths.length - 1];
          return (
            <>
              <p class="rs-loss">
                {r.labels.length} bytes; the model's mean loss over its {r.labels.length - 1} predictions:{' '}
                <span class="num" data-testid="your-prompt-loss">{d.meanLoss === null ? '—' : fmt(d.meanLoss, 5)}</span> nats.
              </p>
              <p class="widget-lead">
                What the model expected after position {r.position} “{r.labels[r.position]}”, before it read your last byte:
              </p>
              <table class="rs-table" data-testid="your-prompt-top">
                <thead>
                  <tr>
                    <th scope="col">byte</th>
                    <th scope="col">probability</th>
                  </tr>
                </thead>
                <tbody>
                  {d.top.map((p, i) => (
                    <tr key={p.byte} class={d.rank === i + 1 ? 'is-on' : ''}>
                      <th scope="row">
                        <span class={`rs-chip${d.rank === i + 1 ? ' is-right' : ''}`}>{p.label}</span>
                      </th>
                      <td class="num">{(p.prob * 100).toFixed(2)}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ToNotice testId="your-prompt-notice">{notice(r)}</ToNotice>
            </>
          );
        }}
      </WidgetShell>
    </div>
  );
}
