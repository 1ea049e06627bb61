// Lesson widgets made of the RMSNorm lab's own components. Each widget owns its
// settings: they start from the widget's example (the lab's defaults, or the
// key=value pairs on its line in the lesson file), are remembered for the
// session per lesson, step and widget (going back to a step shows what was done
// there), are computed on the widget's own channel, and never reach the lab's
// settings or the address, except through "Open these settings in the RMSNorm
// lab", which hands them over because the learner asked for that.
import { useMemo, useState } from 'preact/hooks';
import { fmtScale } from '../../app/format';
import { C_LOG10, DEFAULT_LAB, parseLabArgs, presetVector, withX, type LabSettings } from '../../app/labSettings';
import type { ComponentChildren } from 'preact';
import type { LabResult } from '../../protocol/lab';
import { useSeed } from '../../viewmodels/lab';
import { openInLab, useLabResult, type WidgetResult } from '../../viewmodels/lessonLab';
import { useWidgetPlace } from '../../viewmodels/lessonPlace';
import { EpsilonControl } from '../lab/EpsilonControl';
import { LogSlider } from '../lab/LogSlider';
import { NormComparison } from '../lab/NormComparison';
import { RmsNormGraph } from '../lab/RmsNormGraph';
import { RmsNormReadout } from '../lab/RmsNormReadout';
import { ScaleInvariancePlot } from '../lab/ScaleInvariancePlot';
import { SeedExample } from '../lab/SeedExample';
import { VectorEditor } from '../lab/VectorEditor';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = {
  'rmsnorm-graph': RmsNormGraphWidget,
  'norm-compare': NormCompareWidget,
  'epsilon-lab': EpsilonLabWidget,
  'seed-example': SeedExampleWidget,
};

type Args = { args: Record<string, string> };

/** What the learner did in each widget, by "lesson/step/widget", for this page's session. */
const memory = new Map<string, LabSettings>();

/** The widget's own settings (remembered per lesson, step and widget) and its result. */
function useWidgetLab(widget: string, args: Record<string, string>) {
  const key = useWidgetPlace(widget);
  const argsKey = JSON.stringify(args);
  const parsed = useMemo(() => parseLabArgs(args), [argsKey]);
  const defaults = parsed.ok ? parsed.value : DEFAULT_LAB;
  const [, rerender] = useState(0);
  const settings = memory.get(key) ?? defaults;
  const update = (change: (s: LabSettings) => LabSettings) => {
    memory.set(key, change(memory.get(key) ?? defaults));
    rerender((n) => n + 1);
  };
  const reset = () => {
    memory.delete(key);
    rerender((n) => n + 1);
  };
  const set = (patch: Partial<LabSettings>) => update((s) => ({ ...s, ...patch }));
  const answer = useLabResult(`lesson:${key}`, settings);
  return { settings, defaults, argsError: parsed.ok ? null : parsed.message, update, set, reset, answer };
}

function ArgsError({ widget, message }: { widget: string; message: string }) {
  return (
    <p class="lesson-error" role="alert">
      This lesson gives the {widget} widget a setting it cannot use ({message}); it starts from x = [3, 4] instead.
    </p>
  );
}

/** The widget's result and the settings it was computed from, or the core's refusal, through the shell. */
function LabAnswer({ answer, children }: { answer: WidgetResult; children: (result: LabResult, settings: LabSettings) => ComponentChildren }) {
  const both = answer.result !== null && answer.settings !== null ? { result: answer.result, settings: answer.settings } : null;
  const error = answer.error === null ? null : `The core refused these settings: ${answer.error.message}`;
  return (
    <WidgetShell answer={{ result: both, error }} pendingText="Computing…" keepLast dim={false}>
      {(b) => children(b.result, b.settings)}
    </WidgetShell>
  );
}

function OpenLab({ settings }: { settings: LabSettings }) {
  return (
    <button type="button" class="widget-link" onClick={() => openInLab(settings)}>
      Open these settings in the RMSNorm lab →
    </button>
  );
}

const vectorText = (x: readonly number[]) => `[${x.join(', ')}]`;

export function RmsNormGraphWidget({ args }: Args) {
  const { settings, argsError, update, set, answer } = useWidgetLab('rmsnorm-graph', args);
  return (
    <div class="lesson-widget" data-testid="widget-rmsnorm-graph">
      {argsError !== null && <ArgsError widget="rmsnorm-graph" message={argsError} />}
      <VectorEditor x={settings.x} onX={(x) => update((s) => withX(s, x))} idPrefix="lesson-graph" />
      <LabAnswer answer={answer}>{(result) => <RmsNormGraph result={result} onGrad={(grad) => set({ grad })} />}</LabAnswer>
    </div>
  );
}

export function NormCompareWidget({ args }: Args) {
  const { settings: s, defaults, argsError, update, set, answer } = useWidgetLab('norm-compare', args);
  const epsBack = defaults.eps > 0 ? defaults.eps : DEFAULT_LAB.eps; // unticking "ε = 0" returns here
  const preset = (name: 'seed' | 'constant' | 'zeros') => update((now) => withX(now, presetVector(name, name === 'seed' ? 2 : 4)));
  return (
    <div class="lesson-widget" data-testid="widget-norm-compare">
      {argsError !== null && <ArgsError widget="norm-compare" message={argsError} />}
      <div class="widget-row">
        <span>Input x:</span>
        <button type="button" data-testid="preset-seed" onClick={() => preset('seed')}>
          [3, 4]
        </button>
        <button type="button" data-testid="preset-constant" onClick={() => preset('constant')}>
          a constant vector
        </button>
        <button type="button" data-testid="preset-zeros" onClick={() => preset('zeros')}>
          all zeros
        </button>
        <label>
          <input type="checkbox" data-testid="lesson-eps-zero" checked={s.eps === 0} onChange={(e) => set({ eps: e.currentTarget.checked ? 0 : epsBack })} /> ε = 0
          exactly
        </label>
        <span class="num" data-testid="norm-compare-settings">
          x = {vectorText(s.x)}, ε = {fmtScale(s.eps)}
        </span>
      </div>
      <LabAnswer answer={answer}>{(result, computed) => <NormComparison result={result} eps={computed.eps} />}</LabAnswer>
      <OpenLab settings={s} />
    </div>
  );
}

export function EpsilonLabWidget({ args }: Args) {
  const { settings: s, defaults, argsError, set, reset, answer } = useWidgetLab('epsilon-lab', args);
  return (
    <div class="lesson-widget" data-testid="widget-epsilon-lab">
      {argsError !== null && <ArgsError widget="epsilon-lab" message={argsError} />}
      <div class="widget-columns">
        <div>
          <p class="num" data-testid="epsilon-lab-settings">
            x = {vectorText(s.x)}, γ = {s.gamma === null ? 'ones' : vectorText(s.gamma)}
          </p>
          <EpsilonControl id="lesson-eps" eps={s.eps} onEps={(eps) => set({ eps })} zeroTestid="epsilon-lab-eps-zero" />
          <LogSlider id="lesson-c" label="scale c applied to x (log scale)" symbol="c" log10Min={C_LOG10.min} log10Max={C_LOG10.max} step={0.05} value={s.c} onValue={(c) => set({ c })} />
          <button type="button" onClick={reset}>
            Back to x = {vectorText(defaults.x)}, ε = {fmtScale(defaults.eps)}, c = {fmtScale(defaults.c)}
          </button>{' '}
          <OpenLab settings={s} />
        </div>
        <div>
          <LabAnswer answer={answer}>{(result, computed) => <RmsNormReadout result={result} c={computed.c} />}</LabAnswer>
        </div>
      </div>
      {answer.result && answer.settings && <ScaleInvariancePlot result={answer.result} c={answer.settings.c} />}
    </div>
  );
}

export function SeedExampleWidget() {
  const seed = useSeed();
  return (
    <div class="lesson-widget" data-testid="widget-seed-example">
      <SeedExample rows={seed.rows} error={seed.error} />
    </div>
  );
}
