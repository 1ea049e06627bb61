// next-byte: one step of sampling after the learner's prompt. The model's own
// probabilities for the ten likeliest next bytes, the distribution actually
// drawn from after temperature and top-k, its uncertainty in bits, and where
// the seeded draw u landed. The core computes all of it (the 'generationNext'
// request); this file lays it out.
import { fmt } from '../../app/format';
import type { LessonWidgets, WidgetProps } from '../../lessons/widgetTypes';
import type { NextByteResult } from '../../protocol/lessons/generation';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { SampleControls, settingsFromArgs, settingsText, useSampling, type WidgetSettings } from './SampleControls';
import { WidgetShell } from './WidgetShell';
import './Generation.css';
import './LossWidget.css';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'next-byte': NextByte };

const percent = (p: number) => `${fmt(100 * p, 3)}%`;

function notice(r: NextByteResult): string {
  const lead = r.top[0];
  const kept = r.possible === 256 ? 'every one of the 256 bytes can be drawn' : `only ${r.possible} of the 256 bytes can be drawn`;
  if (r.temperature === 0) return `greedy takes “${r.greedy.label}”, the largest score, every time: nothing is drawn, so the seed changes nothing.`;
  return `at ${settingsText(r)}: ${kept}; “${lead.label}” holds ${percent(lead.prob)} (the model's own: ${percent(lead.probAtOne)}), and the uncertainty is ${fmt(r.bits, 3)} bits against the model's own ${fmt(r.bitsAtOne, 3)}. The order of the rows never changes.`;
}

export function NextByte({ args }: WidgetProps) {
  const start = settingsFromArgs(args, { temperature: 1 });
  if (typeof start === 'string')
    return (
      <p class="lesson-error" role="alert">
        {start}
      </p>
    );
  return <NextByteWith start={start} />;
}

function NextByteWith({ start }: { start: WidgetSettings }) {
  const text = usePrompt();
  const [s, set] = useSampling(start);
  const answer = useLessonOp('generationNext', { text, ...s }, [text, s.temperature, s.topK, s.seed], { keepLast: true, channel: 'next-byte' });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-next-byte">
      <PromptField testId="next-prompt" />
      <SampleControls id="next" value={s} onChange={set} controls={start.controls} />
      <WidgetShell answer={answer} errorTestId="next-error" pendingText="Running the model…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              The byte after “{r.bytes.at(-1)!.label}”: the 10 likeliest of 256, {settingsText(r)}.
            </p>
            <table class="rs-table" data-testid="next-table">
              <thead>
                <tr>
                  <th scope="col">next byte</th>
                  <th scope="col">drawn from</th>
                  <th scope="col" class="rs-bar-col">
                    <span class="visually-hidden">bar</span>
                  </th>
                  <th scope="col">the model's own (T = 1, all)</th>
                  <th scope="col">score (logit)</th>
                </tr>
              </thead>
              <tbody>
                {r.top.map((c, i) => (
                  <tr key={c.byte} class={c.byte === r.chosen.byte ? 'is-on' : ''}>
                    <th scope="row">
                      <span class={`rs-chip${c.byte === r.chosen.byte ? ' is-right' : ''}`}>{c.label}</span>
                    </th>
                    <td class="num" data-testid={`next-p-${i}`} data-value={String(c.prob)}>
                      {percent(c.prob)}
                    </td>
                    <td class="rs-bar-col">
                      <span class="rs-bar" style={{ width: `${Math.max(0.5, 100 * c.prob)}%` }} />
                    </td>
                    <td class="num" data-testid={`next-own-${i}`} data-value={String(c.probAtOne)}>
                      {percent(c.probAtOne)}
                    </td>
                    <td class="num">{fmt(c.logit, 4)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl class="loss-figures">
              <div>
                <dt>bytes that can be drawn</dt>
                <dd data-testid="next-possible" data-value={String(r.possible)}>
                  {r.possible} of 256
                </dd>
              </div>
              <div>
                <dt>uncertainty drawn from</dt>
                <dd data-testid="next-bits" data-value={String(r.bits)}>
                  {fmt(r.bits, 4)} bits
                </dd>
              </div>
              <div>
                <dt>the model's own</dt>
                <dd data-testid="next-bits-one" data-value={String(r.bitsAtOne)}>
                  {fmt(r.bitsAtOne, 4)} bits
                </dd>
              </div>
            </dl>
            {r.u === null ? (
              <p class="gen-draw" data-testid="next-draw">
                Greedy: no draw; the byte is “{r.chosen.label}”.
              </p>
            ) : (
              <>
                <p class="gen-draw" data-testid="next-draw" data-value={String(r.u)}>
                  Seed {r.seed} drew u = <span class="num">{fmt(r.u, 4)}</span>. Laid end to end in byte order, the bytes before “{r.chosen.label}” hold{' '}
                  {fmt(r.below, 4)} of the probability and “{r.chosen.label}” the next {fmt(r.chosen.prob, 4)}: u lands in its stretch, so “{r.chosen.label}” is
                  written.
                </p>
                <div class="gen-strip" aria-hidden="true">
                  <span style={{ width: `${100 * r.below}%`, background: 'transparent' }} />
                  <span class="is-chosen" style={{ width: `${100 * r.chosen.prob}%` }} />
                  <span class="gen-u" style={{ left: `${100 * r.u}%` }} />
                </div>
              </>
            )}
            <ToNotice testId="next-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
