// The RMSNorm and epsilon lab: controls on the left, the core's numbers on the
// right, then RMSNorm vs LayerNorm, the seed example and the autograd graph.
// Every number shown comes from the worker (app/state.ts sends the settings).
// The lab's settings, result and actions come in as a view-model (viewmodels/lab.ts:
// the app's labSettings, mirrored in the address); the controls are the same
// components the lesson widgets use with their own settings.
import { useState } from 'preact/hooks';
import { C_LOG10, DEFAULT_LAB, DTYPES } from '../../app/labSettings';
import { fmtScale } from '../../app/format';
import type { LabViewModel } from '../../viewmodels/lab';
import { EpsilonControl } from './EpsilonControl';
import { GammaEditor } from './GammaEditor';
import { LabTiming } from './LabTiming';
import { LogSlider } from './LogSlider';
import { NormComparison } from './NormComparison';
import { NumericsNote } from './NumericsNote';
import { RmsNormGraph } from './RmsNormGraph';
import { RmsNormReadout } from './RmsNormReadout';
import { ScaleInvariancePlot } from './ScaleInvariancePlot';
import { SeedExample } from './SeedExample';
import { VectorEditor } from './VectorEditor';
import './EpsilonLab.css';

export function EpsilonLab({ lab }: { lab: LabViewModel }) {
  const settings = lab.settings.value;
  const { set, setX } = lab;
  const [openedAt] = useState(() => performance.now()); // results that arrived before this are not timed

  return (
    <section class="epsilon-lab" aria-labelledby="lab-title">
      <header class="epsilon-lab-head">
        <h1 id="lab-title">RMSNorm and epsilon</h1>
        <p class="epsilon-lab-formula">
          <code>r(x) = √(mean(x²) + ε)</code>, <code>RMSNorm(x) = γ ⊙ x / r(x)</code>. For c &gt; 0,{' '}
          <code>RMSNorm(c·x) = γ ⊙ x / √(mean(x²) + ε/c²)</code>: scale invariant when ε is negligible next to the energy
          of x.
        </p>
      </header>

      <div class="epsilon-lab-grid">
        <div class="epsilon-lab-controls">
          <VectorEditor x={settings.x} onX={setX} idPrefix="lab" />
          <GammaEditor gamma={settings.gamma} d={settings.x.length} onGamma={(gamma) => set({ gamma })} idPrefix="lab" />
          <fieldset class="epsilon-lab-box">
            <legend>ε and scale</legend>
            <EpsilonControl id="lab-eps" eps={settings.eps} onEps={(eps) => set({ eps })} zeroTestid="eps-zero" />
            <LogSlider
              id="lab-c"
              label="scale c applied to x (log scale)"
              symbol="c"
              log10Min={C_LOG10.min}
              log10Max={C_LOG10.max}
              step={0.05}
              value={settings.c}
              onValue={(c) => set({ c })}
            />
          </fieldset>
          <fieldset class="epsilon-lab-box epsilon-lab-dtype">
            <legend>dtype</legend>
            {DTYPES.map((dt) => (
              <label key={dt}>
                <input type="radio" name="lab-dtype" value={dt} checked={settings.dtype === dt} onChange={() => set({ dtype: dt })} />{' '}
                {dt}
              </label>
            ))}
          </fieldset>
          <button type="button" class="epsilon-lab-reset" onClick={lab.reset}>
            Reset to x = [{DEFAULT_LAB.x.join(', ')}], ε = {fmtScale(DEFAULT_LAB.eps)}, {DEFAULT_LAB.dtype}
          </button>
        </div>

        <LabResults lab={lab} openedAt={openedAt} />
      </div>
      <LabDetails lab={lab} />
    </section>
  );
}

// The results read only labOutcome, so a new result re-renders them and not the
// controls, and moving a control re-renders the controls and not them.
function LabResults({ lab, openedAt }: { lab: LabViewModel; openedAt: number }) {
  const outcome = lab.outcome.value;
  return (
    <div class="epsilon-lab-results" aria-live="polite" aria-busy={outcome === null}>
      {outcome?.error != null && (
        <p class="epsilon-lab-error" role="alert" data-testid="lab-error">
          The core refused these settings — {outcome.error.name}: {outcome.error.message}
          {outcome.result !== null && '. Showing the last result that worked.'}
        </p>
      )}
      {outcome === null && lab.coreStatus.value !== 'failed' && <p>Computing…</p>}
      {outcome?.result != null && (
        <>
          <RmsNormReadout result={outcome.result} c={outcome.settings.c} />
          <NumericsNote result={outcome.result} settings={outcome.settings} />
          <ScaleInvariancePlot result={outcome.result} c={outcome.settings.c} />
          <LabTiming outcome={outcome} openedAt={openedAt} />
        </>
      )}
    </div>
  );
}

function LabDetails({ lab }: { lab: LabViewModel }) {
  const outcome = lab.outcome.value;
  const seed = lab.seed.value;
  if (outcome?.result == null) return null;
  return (
    <div class="epsilon-lab-lower">
      <div class="epsilon-lab-panel">
        <NormComparison result={outcome.result} eps={outcome.settings.eps} />
      </div>
      <div class="epsilon-lab-panel">
        <SeedExample rows={seed.rows} error={seed.error} />
      </div>
      <div class="epsilon-lab-panel epsilon-lab-wide">
        <RmsNormGraph result={outcome.result} onGrad={(grad) => lab.set({ grad })} />
      </div>
    </div>
  );
}
