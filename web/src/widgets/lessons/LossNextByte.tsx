// Type a text: the loaded model reads it, and for every byte after the first
// we see how surprised it was (−log p, nats), the loss and its conversions, the
// top guesses at one position and that row of ∂loss/∂logits. Everything is
// computed in the worker (the 'nextByteLoss' lesson op), in float64.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { NextByteLossResult } from '../../protocol/lessons/loss';
import { ToNotice } from '../ToNotice';
import { WidgetShell } from './WidgetShell';
import { LogitsGradRow } from './LogitsGradRow';
import { LossStrip } from './LossStrip';
import './LossWidget.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'next-byte-loss': NextByteLoss };

const PRESETS: [string, string][] = [
  ['a verse', 'In the beginning God created the heaven and the earth.'],
  ['German', 'Im Anfang schuf Gott Himmel und Erde.'],
  ['random', 'qx7#Zp!0vK2@mW9&rT4'],
  ['code', 'for (int i = 0; i < n; ++i) x[i] = 0;'],
];

/** "" -> null (the last prediction); a whole number as typed; anything else NaN, which the worker refuses. */
const readPosition = (s: string): number | null => (s.trim() === '' ? null : /^\s*-?\d+\s*$/.test(s) ? Number(s) : NaN);

/** 1 for the model's first guess, …; null when the actual next byte is not among the top guesses. */
const rank = (r: NextByteLossResult): number | null => {
  const i = r.top.findIndex((g) => g.byte === r.target.byte);
  return i < 0 ? null : i + 1;
};

/** The strip's most surprising byte and how many bytes cost more than knowing nothing, read from the core's numbers. */
function stripNotice(r: NextByteLossResult): string {
  let worst = 0;
  for (let t = 1; t < r.surprise.length; t++) if (r.surprise[t] > r.surprise[worst]) worst = t;
  const above = r.surprise.filter((v) => v > r.uniform).length;
  const label = r.bytes[worst + 1]?.label ?? '?';
  const mean =
    r.loss === r.modelLoss
      ? 'The mean of the bars is exactly the loss the model reports.'
      : `The mean of the bars, ${fmt(r.loss, 8)}, against the loss the model reports, ${fmt(r.modelLoss, 8)}.`;
  return `the tallest bar is “${label}”, predicted at position ${worst} (−log p = ${fmt(r.surprise[worst], 4)} nats): the byte the model least expected. ${above === 0 ? 'No byte' : `${above} of the ${r.surprise.length} bytes`} cost${above <= 1 ? 's' : ''} more than knowing nothing (above the dashed line)${above > 0 ? ': there the model was confidently wrong' : ''}. ${mean}`;
}

export function NextByteLoss() {
  const [text, setText] = useState(PRESETS[0][1]);
  const [positionText, setPositionText] = useState('');
  const position = readPosition(positionText);
  // on bad input the last result stays, dimmed, beside the message
  const answer = useLessonOp('nextByteLoss', { text, position }, [text, positionText], { keepLast: true });
  const r = answer.result;

  const choose = (s: string) => {
    setText(s);
    setPositionText(''); // a new text opens its last prediction
  };
  return (
    <div class="lesson-widget next-byte-loss" data-testid="widget-next-byte-loss">
      <div class="widget-row">
        <label class="loss-text-label">
          Text
          <input data-testid="loss-text" value={text} maxLength={400} onInput={(e) => choose(e.currentTarget.value)} />
        </label>
      </div>
      <div class="widget-row">
        {PRESETS.map(([name, s]) => (
          <button key={name} type="button" data-testid={`loss-preset-${name.replace(' ', '-')}`} onClick={() => choose(s)}>
            {name}
          </button>
        ))}
        <label>
          position t{' '}
          <input data-testid="loss-position" size={4} value={positionText} placeholder="last" onInput={(e) => setPositionText(e.currentTarget.value)} />
        </label>
      </div>
      <WidgetShell answer={answer} errorTestId="loss-error" pendingText="Running the model forward and backward…" keepLast>
        {(r) => (
          <>
            <dl class="loss-figures">
              <div>
                <dt>loss (mean of {r.surprise.length} predictions)</dt>
                <dd data-testid="loss-mean" data-value={String(r.loss)}>{fmt(r.loss, 5)} nats</dd>
              </div>
              <div>
                <dt>the model's own loss</dt>
                <dd data-testid="loss-model">{fmt(r.modelLoss, 5)} nats</dd>
              </div>
              <div>
                <dt>bits per byte (loss / ln 2)</dt>
                <dd data-testid="loss-bits">{fmt(r.bitsPerByte, 4)}</dd>
              </div>
              <div>
                <dt>perplexity e^loss</dt>
                <dd data-testid="loss-ppl">{fmt(r.perplexity, 4)}</dd>
              </div>
              <div>
                <dt>knowing nothing: ln 256</dt>
                <dd data-testid="loss-uniform">{fmt(r.uniform, 5)} nats</dd>
              </div>
            </dl>
            <p class="widget-note">−log p of each byte given the bytes before it (click a column to open that prediction; dashed line: ln 256):</p>
            <LossStrip r={r} onPick={(t) => setPositionText(String(t))} />
            <ToNotice testId="loss-strip-notice">{stripNotice(r)}</ToNotice>
            <div class="widget-columns">
              <div>
                <p class="widget-lead" data-testid="loss-context">
                  Position {r.position}, after “{r.bytes.slice(Math.max(0, r.position - 11), r.position + 1).map((b) => b.label).join('')}”: the model's top 5 guesses
                  for the next byte.
                </p>
                <table class="loss-guesses" data-testid="loss-guesses">
                  <thead>
                    <tr>
                      <th>next byte</th>
                      <th>p</th>
                      <th>−log p</th>
                      <th>∂loss/∂logit</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.top.map((g) => (
                      <tr key={g.byte} class={g.byte === r.target.byte ? 'loss-actual' : ''}>
                        <th class="num">{g.label}</th>
                        <td class="num">{fmt(g.prob, 4)}</td>
                        <td class="num">{g.byte === r.target.byte ? fmt(r.surprise[r.position], 4) : ''}</td>
                        <td class="num">{fmt(g.grad, 3)}</td>
                      </tr>
                    ))}
                    {!r.top.some((g) => g.byte === r.target.byte) && (
                      <tr class="loss-actual">
                        <th class="num">{r.target.label}</th>
                        <td class="num">{fmt(r.target.prob, 4)}</td>
                        <td class="num">{fmt(r.surprise[r.position], 4)}</td>
                        <td class="num">{fmt(r.target.grad, 3)}</td>
                      </tr>
                    )}
                  </tbody>
                </table>
                <ToNotice testId="loss-actual">
                  what really came next is “{r.target.label}”, p = {fmt(r.target.prob, 4)}, −log p = {fmt(r.surprise[r.position], 4)} nats
                  (highlighted):{' '}
                  {rank(r) === null ? `not among the model's top ${r.top.length} guesses.` : `the model's guess number ${rank(r)}.`}
                </ToNotice>
              </div>
              <LogitsGradRow r={r} />
            </div>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
