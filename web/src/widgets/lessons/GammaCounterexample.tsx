// A counterexample to "RMSNorm's output has a fixed norm / unit variance": the
// same inputs with γ = ones and with a non-uniform γ, and a small input where ε
// matters. Every figure is computed by the core.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import { parseVector } from '../../app/labSettings';
import { useLessonOp } from '../../viewmodels/lessonOp';
import type { GammaRow } from '../../protocol/lessons/rmsnorm';
import { ToNotice } from '../ToNotice';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'gamma-counterexample': GammaCounterexample };

const ROWS = [
  [3, 4, 0, 0],
  [0, 0, 3, 4],
  [1e-4, 2e-4, 0, 0],
];

/** What the table shows for this γ, read from its own numbers. */
function notice([r0, r1, r2]: GammaRow[]): string {
  const norms =
    r0.norm !== r1.norm
      ? `rows 0 and 1 have the same energy, yet with this γ their outputs have different norms, ${fmt(r0.norm, 6)} and ${fmt(r1.norm, 6)}: γ reweights coordinates, so the norm depends on where the energy sits.`
      : `with this γ rows 0 and 1 happen to get the same norm, ${fmt(r0.norm, 6)}; give the first two coordinates different gains from the last two and they part.`;
  const small =
    r2.onesMeanSquare < 1
      ? ` Row 2 is so small that ε is not negligible: even with γ = ones its mean square is ${fmt(r2.onesMeanSquare, 6)}, short of 1.`
      : '';
  return norms + small;
}

export function GammaCounterexample() {
  const [gammaText, setGammaText] = useState('2, 0.5, 1, 1');
  const [gamma, setGamma] = useState([2, 0.5, 1, 1]);
  const [parseError, setParseError] = useState<string | null>(null);
  const op = useLessonOp('gammaRows', { rows: ROWS, gamma, eps: 1e-6 }, [gamma], { needsModel: false, keepLast: true });
  const rows = op.result;
  const error = parseError ?? op.error;
  return (
    <div class="lesson-widget" data-testid="widget-gamma-counterexample">
      <label class="widget-row">
        γ (4 values):{' '}
        <input
          data-testid="gamma-input"
          value={gammaText}
          onInput={(e) => {
            const t = e.currentTarget.value;
            setGammaText(t);
            const r = parseVector(t, 'gamma', 4);
            setParseError(r.ok ? null : r.message);
            if (r.ok) setGamma(r.value);
          }}
        />
      </label>
      {error !== null && <p class="lesson-error" role="alert">{error}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">input x</th>
            <th scope="col">‖y‖, γ = ones</th>
            <th scope="col">mean(y²), γ = ones</th>
            <th scope="col">‖y‖, this γ</th>
            <th scope="col">mean(y²), this γ</th>
            <th scope="col">variance of y, this γ</th>
          </tr>
        </thead>
        <tbody>
          {rows?.map((r, i) => (
            <tr key={i} data-testid={`gamma-row-${i}`}>
              <td class="num">[{r.input.join(', ')}]</td>
              <td class="num">{fmt(r.onesNorm, 6)}</td>
              <td class="num">{fmt(r.onesMeanSquare, 6)}</td>
              <td class="num" data-testid={`gamma-norm-${i}`}>{fmt(r.norm, 6)}</td>
              <td class="num">{fmt(r.meanSquare, 6)}</td>
              <td class="num">{fmt(r.variance, 6)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows !== null && rows.length === 3 && <ToNotice testId="gamma-notice">{notice(rows)}</ToNotice>}
    </div>
  );
}
