// byte-steps: a text written the way the model writes, one byte at a time. Its
// UTF-8 bytes (a character such as “é” is two, “—” three), how much of it reads
// as text after the first k bytes (a character cut in half shows as “�”), and
// what the trained model expects after those k bytes. The core computes it (the
// 'generationPrefix' request); this file lays it out.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { PrefixResult } from '../../protocol/lessons/generation';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { ToNotice } from '../ToNotice';
import { TextPresets } from './TextPresets';
import { WidgetShell } from './WidgetShell';
import './Generation.css';
import './ResidualStream.css';

export const lessonWidgets: LessonWidgets = { 'byte-steps': ByteSteps };

const TEXTS: readonly (readonly [string, string])[] = [
  ['é', 'The café'],
  ['— and ï', 'Noah — naïve'],
  ['ASCII only', 'And God said'],
];

const ROLE: Record<string, string> = {
  ascii: 'a whole character',
  lead2: 'starts a 2-byte character',
  lead3: 'starts a 3-byte character',
  lead4: 'starts a 4-byte character',
  continuation: 'continues a character',
  invalid: 'never valid in UTF-8',
};

function notice(r: PrefixResult): string {
  const last = r.bytes[r.upto - 1];
  const cut =
    r.unfinished > 0
      ? `the last ${r.unfinished === 1 ? 'byte' : `${r.unfinished} bytes`} (${last.hex}) ${r.unfinished === 1 ? 'starts' : 'start'} a character that is not finished, so the text shows “�” for it.`
      : `the text so far ends on a whole character.`;
  return `after ${r.upto} of ${r.bytes.length} bytes, ${cut} The model gives the continuation bytes 0x80–0xBF ${fmt(100 * r.next.continuationMass, 3)}% of its probability.`;
}

export function ByteSteps() {
  const [text, setText] = useState(TEXTS[0][1]);
  const n = new TextEncoder().encode(text).length;
  const [upto, setUpto] = useState(Math.max(1, n - 1));
  const k = Math.min(Math.max(1, upto), Math.max(1, n));
  const answer = useLessonOp('generationPrefix', { text, upto: k }, [text, k], { keepLast: true, channel: 'byte-steps' });
  const choose = (t: string) => {
    setText(t);
    setUpto(Math.max(1, new TextEncoder().encode(t).length - 1));
  };
  return (
    <div class="lesson-widget residual-widget" data-testid="widget-byte-steps">
      <TextPresets value={text} onText={choose} testId="byte-steps-text" presets={TEXTS} label="Text" />
      <div class="widget-row widget-slider">
        <label for="byte-steps-upto">bytes written so far</label>
        <input id="byte-steps-upto" data-testid="byte-steps-upto" type="range" min={1} max={Math.max(1, n)} step={1} value={k} onInput={(e) => setUpto(Number(e.currentTarget.value))} />
        <output for="byte-steps-upto" class="num">
          {k} of {answer.result?.bytes.length ?? '…'}
        </output>
      </div>
      <WidgetShell answer={answer} errorTestId="byte-steps-error" pendingText="Running the model…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              “{text}” is {r.characters} characters in {r.bytes.length} bytes. The model writes them one at a time; the blue ones are written:
            </p>
            <div class="gen-bytes" data-testid="byte-steps-bytes">
              {r.bytes.map((b, i) => (
                <span
                  key={i}
                  class={`gen-byte${i < r.upto ? ' is-written' : ''}${b.role !== 'ascii' ? ' is-multi' : ''}${i < r.upto && i >= r.upto - r.unfinished ? ' is-unfinished' : ''}`}
                  title={ROLE[b.role]}
                >
                  {b.label}
                  <small>{b.hex}</small>
                </span>
              ))}
            </div>
            <p class="rs-loss">
              As text so far:{' '}
              <span class="gen-text" data-testid="byte-steps-so-far" data-unfinished={String(r.unfinished)}>
                {r.text}
              </span>
            </p>
            <p class="widget-lead">What the trained model expects next, at T = 1 (its 5 likeliest):</p>
            <table class="rs-table" data-testid="byte-steps-next">
              <thead>
                <tr>
                  <th scope="col">next byte</th>
                  <th scope="col">probability</th>
                </tr>
              </thead>
              <tbody>
                {r.next.top.slice(0, 5).map((c) => (
                  <tr key={c.byte}>
                    <th scope="row">
                      <span class="rs-chip">{c.label}</span>
                    </th>
                    <td class="num">{fmt(100 * c.prob, 4)}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="rs-loss">
              All the bytes that can continue a character (0x80–0xBF) together:{' '}
              <span class="num" data-testid="byte-steps-continuation" data-value={String(r.next.continuationMass)}>
                {fmt(100 * r.next.continuationMass, 3)}%
              </span>
              .
            </p>
            <ToNotice testId="byte-steps-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
