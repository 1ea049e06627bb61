// softmax-temperature: the model's next byte after a text, with its logits
// divided by a temperature T before softmax. The worker runs the model and
// computes both distributions (T and 1) and their entropy in bits with core ops
// (the 'softmaxTemperature' request); this file lays the numbers out.
import { useState } from 'preact/hooks';
import { fmt, fmtScale } from '../../app/format';
import type { LessonWidgets } from '../../lessons/widgetTypes';
import type { ResponseOf } from '../../protocol/api';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { LogSlider } from '../lab/LogSlider';
import { ToNotice } from '../ToNotice';
import { TextPresets } from './TextPresets';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import './LossWidget.css';

export const lessonWidgets: LessonWidgets = { 'softmax-temperature': SoftmaxTemperature };

type Result = ResponseOf<'softmaxTemperature'>;

const TEXTS = ['And God said, ', 'In the beginning God created the heaven and the eart', 'The LORD is my '];

const percent = (p: number) => `${fmt(100 * p, 3)}%`;

/** What moved, read from the core's numbers: the leader's share and the uncertainty against T = 1. */
function notice(r: Result): string {
  const lead = r.top[0];
  if (r.temperature === 1)
    return `at T = 1 this is the model's own distribution: “${lead.label}” leads with ${percent(lead.prob)}. Move T below 1 and the leader takes more; above 1 the 256 bytes draw level.`;
  const sharper = r.temperature < 1;
  return `dividing the logits by T = ${fmtScale(r.temperature)} ${sharper ? 'stretches' : 'shrinks'} their differences, so “${lead.label}” ${
    lead.prob > lead.probAtOne ? 'rises' : 'falls'
  } from ${percent(lead.probAtOne)} to ${percent(lead.prob)} and the uncertainty ${r.bits < r.bitsAtOne ? 'drops' : 'grows'} from ${fmt(r.bitsAtOne, 3)} to ${fmt(
    r.bits,
    3,
  )} bits. The order of the bytes never changes: T only rescales the scores.`;
}

export function SoftmaxTemperature() {
  const [text, setText] = useState(TEXTS[0]);
  const [temperature, setTemperature] = useState(1);
  const answer = useLessonOp('softmaxTemperature', { text, temperature }, [text, temperature], { keepLast: true });
  return (
    <div class="lesson-widget" data-testid="widget-softmax-temperature">
      <TextPresets value={text} onText={setText} testId="temperature-text" presets={TEXTS.slice(1).map((t) => [`…${t.slice(-8)}`, t] as const)} />
      <LogSlider id="temperature" label="temperature T (log scale)" symbol="T" log10Min={-1} log10Max={1} step={0.05} value={temperature} onValue={setTemperature}>
        <div class="widget-row">
          {[0.5, 1, 2].map((t) => (
            <button key={t} type="button" aria-pressed={t === temperature} onClick={() => setTemperature(t)}>
              T = {t}
            </button>
          ))}
        </div>
      </LogSlider>
      <WidgetShell answer={answer} errorTestId="temperature-error" pendingText="Running the model…" keepLast>
        {(r) => (
          <>
            <p class="widget-lead">
              The next byte after “{r.after}”: the {r.top.length} likeliest of 256 at T = {fmtScale(r.temperature)} (bars), and the same bytes at T = 1.
            </p>
            <table data-testid="temperature-top">
              <thead>
                <tr>
                  <th scope="col">next byte</th>
                  <th scope="col">probability at T = {fmtScale(r.temperature)}</th>
                  <th scope="col">at T = 1</th>
                </tr>
              </thead>
              <tbody>
                {r.top.map((g, i) => (
                  <tr key={g.byte}>
                    <th scope="row" class="num">“{g.label}”</th>
                    <td class="num" data-testid={`temperature-p-${i}`} data-value={String(g.prob)}>
                      <span class="bar" style={{ display: 'inline-block', verticalAlign: 'middle', marginRight: '0.4rem', width: `${Math.max(0.1, g.prob * 8)}rem` }} />
                      {percent(g.prob)}
                    </td>
                    <td class="num">{percent(g.probAtOne)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl class="loss-figures">
              <div>
                <dt>uncertainty at T = {fmtScale(r.temperature)}</dt>
                <dd data-testid="temperature-bits" data-value={String(r.bits)}>
                  {fmt(r.bits, 3)} bits
                </dd>
              </div>
              <div>
                <dt>as uncertain as a fair pick among</dt>
                <dd>{fmt(r.choices, 3)} bytes</dd>
              </div>
              <div>
                <dt>at T = 1</dt>
                <dd data-testid="temperature-bits-one">{fmt(r.bitsAtOne, 3)} bits</dd>
              </div>
              <div>
                <dt>at most (all 256 alike)</dt>
                <dd>{fmt(r.maxBits, 3)} bits</dd>
              </div>
            </dl>
            <ToNotice testId="temperature-notice">{notice(r)}</ToNotice>
          </>
        )}
      </WidgetShell>
    </div>
  );
}
