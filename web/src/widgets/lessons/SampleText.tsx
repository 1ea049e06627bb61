// sample-text: the shipped model writes after the learner's prompt, one byte at
// a time, with the settings of the widget line (temperature, top-k, seed) and the
// controls it allows. The core samples (the 'generationSample' request: the same
// sampler as `glassllm generate`); this file lays the text out.
import { fmt } from '../../app/format';
import type { LessonWidgets, WidgetProps } from '../../lessons/widgetTypes';
import type { SampleResult } from '../../protocol/lessons/generation';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { SampleControls, settingsFromArgs, settingsText, useSampling, type WidgetSettings } from './SampleControls';
import { WidgetShell } from './WidgetShell';
import './Generation.css';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'sample-text': SampleText };

function notice(r: SampleResult): string {
  const how = r.temperature === 0 ? 'greedy decoding took the likeliest byte every time' : `each byte was drawn at ${settingsText(r)}`;
  const rep =
    r.repeat.length >= 10
      ? ` The stretch “${r.repeat.text}” (${r.repeat.length} bytes) occurs twice in it.`
      : ` No stretch longer than ${Math.max(r.repeat.length, 1)} bytes occurs twice in it.`;
  return `${r.sample.length} new bytes, one run of the model each: ${how}.${rep}`;
}

export function SampleText({ args }: WidgetProps) {
  const start = settingsFromArgs(args, { temperature: 0.8, length: 80 });
  if (typeof start === 'string')
    return (
      <p class="lesson-error" role="alert">
        {start}
      </p>
    );
  return <SampleTextWith start={start} />;
}

function SampleTextWith({ start }: { start: WidgetSettings }) {
  const text = usePrompt();
  const [s, set] = useSampling(start);
  const answer = useLessonOp('generationSample', { text, ...s, length: start.length }, [text, s.temperature, s.topK, s.seed], {
    keepLast: true,
    channel: 'sample-text',
  });
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-sample-text">
      <PromptField testId="sample-prompt" />
      <SampleControls id="sample" value={s} onChange={set} controls={start.controls} />
      <WidgetShell answer={answer} errorTestId="sample-error" pendingText="The model is writing…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              Your prompt (grey), then {r.sample.length} bytes the model wrote, {settingsText(r)}:
            </p>
            <p class="gen-text" data-testid="sample-output" data-repeat={String(r.repeat.length)}>
              <span class="gen-prompt">{r.promptText}</span>
              <span class="gen-new">{r.sampleText}</span>
            </p>
            <p class="rs-loss">
              Longest stretch written twice:{' '}
              <span class="num" data-testid="sample-repeat" data-value={String(r.repeat.length)}>
                {fmt(r.repeat.length)}
              </span>{' '}
              bytes.
            </p>
            <ToNotice testId="sample-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
