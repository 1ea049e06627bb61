// sample-compare: the trained model beside a freshly initialised model of the
// same shape (random weights, never trained), on the learner's prompt: each
// one's loss on it and a sample of each, at the same temperature and seed. The
// core computes both (the 'generationCompare' request).
import { fmt } from '../../app/format';
import type { LessonWidgets, WidgetProps } from '../../lessons/widgetTypes';
import type { CompareResult, ModelSample } from '../../protocol/lessons/generation';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { PromptField, usePrompt } from './PromptField';
import { settingsFromArgs, settingsText } from './SampleControls';
import { WidgetShell } from './WidgetShell';
import './Generation.css';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'sample-compare': SampleCompare };

function notice(r: CompareResult): string {
  return `the untrained model's loss, ${fmt(r.fresh.loss, 4)} nats, is within ${fmt(Math.abs(r.uniform - r.fresh.loss), 2)} of ln 256 = ${fmt(r.uniform, 5)}: it guesses as if every byte were equally likely, and its sample is bytes drawn almost uniformly. The trained model's loss is ${fmt(r.trained.loss, 4)}, and its sample reads like the text it learned from.`;
}

function Column({ name, m, testId }: { name: string; m: ModelSample; testId: string }) {
  return (
    <div data-testid={testId}>
      <h4>{name}</h4>
      <dl class="loss-figures">
        <div>
          <dt>loss on your prompt</dt>
          <dd data-testid={`${testId}-loss`} data-value={String(m.loss)}>
            {fmt(m.loss, 4)} nats
          </dd>
        </div>
        <div>
          <dt>as unsure as a fair pick among</dt>
          <dd data-testid={`${testId}-choices`} data-value={String(m.choices)}>
            {fmt(m.choices, 3)} bytes
          </dd>
        </div>
        <div>
          <dt>its likeliest next byte gets</dt>
          <dd data-testid={`${testId}-top`} data-value={String(m.topProb)}>
            {fmt(100 * m.topProb, 3)}%
          </dd>
        </div>
      </dl>
      <p class="gen-text" data-testid={`${testId}-sample`}>
        <span class="gen-prompt">{m.sample.promptText}</span>
        <span class="gen-new">{m.sample.sampleText}</span>
      </p>
    </div>
  );
}

export function SampleCompare({ args }: WidgetProps) {
  const start = settingsFromArgs(args, { temperature: 1, length: 48 });
  const text = usePrompt();
  const ok = typeof start !== 'string';
  const answer = useLessonOp(
    'generationCompare',
    { text, length: ok ? start.length : 1, temperature: ok ? start.temperature : 1, seed: ok ? start.seed : 1 },
    [text],
    { keepLast: true, channel: 'sample-compare', skip: !ok },
  );
  if (!ok)
    return (
      <p class="lesson-error" role="alert">
        {start}
      </p>
    );
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-sample-compare">
      <PromptField testId="compare-prompt" />
      <WidgetShell answer={answer} errorTestId="compare-error" pendingText="Both models are writing…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              The same prompt, {settingsText({ ...start, topK: 0 })}, {start.length} bytes each. A uniform guess over 256 bytes has loss ln 256 ={' '}
              <span class="num">{fmt(r.uniform, 5)}</span> nats.
            </p>
            <div class="gen-columns">
              <Column name="The trained model (the one the app ships)" m={r.trained} testId="compare-trained" />
              <Column name={`A fresh model: random weights (initialisation seed ${r.initSeed}), never trained`} m={r.fresh} testId="compare-fresh" />
            </div>
            <ToNotice testId="compare-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
