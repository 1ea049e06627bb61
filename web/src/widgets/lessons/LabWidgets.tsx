// Lesson widgets made of the RMSNorm lab's own components, driven by the lab's
// settings (so "open in the lab" shows the same numbers).
import { EPS_LOG10, C_LOG10, presetVector, withX } from '../../app/labSettings';
import { labOutcome, labSettings, resetLab, view } from '../../app/state';
import { LogSlider } from '../lab/LogSlider';
import { NormComparison } from '../lab/NormComparison';
import { RmsNormGraph } from '../lab/RmsNormGraph';
import { RmsNormReadout } from '../lab/RmsNormReadout';
import { ScaleInvariancePlot } from '../lab/ScaleInvariancePlot';
import { SeedExample } from '../lab/SeedExample';
import { VectorEditor } from '../lab/VectorEditor';
import './lessonWidgets.css';

const set = (patch: Partial<typeof labSettings.value>) => (labSettings.value = { ...labSettings.peek(), ...patch });

function OpenLab() {
  return (
    <button type="button" class="widget-link" onClick={() => (view.value = 'lab')}>
      Open these settings in the RMSNorm lab →
    </button>
  );
}

export function RmsNormGraphWidget() {
  const o = labOutcome.value;
  return (
    <div class="lesson-widget" data-testid="widget-rmsnorm-graph">
      <VectorEditor />
      {o?.result ? <RmsNormGraph result={o.result} /> : <p>Computing…</p>}
    </div>
  );
}

export function NormCompareWidget() {
  const s = labSettings.value;
  const o = labOutcome.value;
  const preset = (name: 'seed' | 'constant' | 'zeros') => (labSettings.value = withX(labSettings.peek(), presetVector(name, name === 'seed' ? 2 : 4)));
  return (
    <div class="lesson-widget" data-testid="widget-norm-compare">
      <div class="widget-row">
        <span>Input x:</span>
        <button type="button" onClick={() => preset('seed')}>[3, 4]</button>
        <button type="button" data-testid="preset-constant" onClick={() => preset('constant')}>a constant vector</button>
        <button type="button" data-testid="preset-zeros" onClick={() => preset('zeros')}>all zeros</button>
        <label>
          <input type="checkbox" data-testid="lesson-eps-zero" checked={s.eps === 0} onChange={(e) => set({ eps: e.currentTarget.checked ? 0 : 1e-6 })} /> ε = 0
          exactly
        </label>
        <span class="num">x = [{s.x.join(', ')}], ε = {s.eps}</span>
      </div>
      {o?.error && <p class="lesson-error">{o.error.message}</p>}
      {o?.result ? <NormComparison result={o.result} eps={s.eps} /> : <p>Computing…</p>}
      <OpenLab />
    </div>
  );
}

export function EpsilonLabWidget() {
  const s = labSettings.value;
  const o = labOutcome.value;
  return (
    <div class="lesson-widget" data-testid="widget-epsilon-lab">
      <div class="widget-columns">
        <div>
          <p class="num">x = [{s.x.join(', ')}], γ = {s.gamma === null ? 'ones' : `[${s.gamma.join(', ')}]`}</p>
          <LogSlider id="lesson-eps" label="epsilon ε (log scale)" symbol="ε" log10Min={EPS_LOG10.min} log10Max={EPS_LOG10.max} step={0.05} value={s.eps} disabled={s.eps === 0} onValue={(eps) => set({ eps })} />
          <LogSlider id="lesson-c" label="scale c applied to x (log scale)" symbol="c" log10Min={C_LOG10.min} log10Max={C_LOG10.max} step={0.05} value={s.c} onValue={(c) => set({ c })} />
          <button type="button" onClick={resetLab}>Back to the seed example</button> <OpenLab />
        </div>
        <div>{o?.result ? <RmsNormReadout outcome={o} /> : <p>Computing…</p>}</div>
      </div>
      {o?.result && <ScaleInvariancePlot result={o.result} c={s.c} />}
    </div>
  );
}

export function SeedExampleWidget() {
  return (
    <div class="lesson-widget" data-testid="widget-seed-example">
      <SeedExample />
    </div>
  );
}
