// The RMSNorm and epsilon lab: controls on the left, the core's numbers on the
// right, then RMSNorm vs LayerNorm, the seed example and the autograd graph.
// Every number shown comes from the worker (app/state.ts sends the settings).
// The lab's settings are the app's labSettings (mirrored in the address); the
// controls are the same components the lesson widgets use with their own.
import { useState } from 'preact/hooks';
import { C_LOG10, DEFAULT_LAB, DTYPES, withX } from '../../app/labSettings';
import { fmtScale } from '../../app/format';
import { coreStatus, labOutcome, labSettings, resetLab } from '../../app/state';
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

const set = (patch: Partial<typeof labSettings.value>) => (labSettings.value = { ...labSettings.peek(), ...patch });
const setX = (x: number[]) => (labSettings.value = withX(labSettings.peek(), x));
const setGrad = (grad: typeof labSettings.value.grad) => set({ grad });

export function EpsilonLab() {
  const settings = labSettings.value;
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
          <button type="button" class="epsilon-lab-reset" onClick={resetLab}>
            Reset to x = [{DEFAULT_LAB.x.join(', ')}], ε = {fmtScale(DEFAULT_LAB.eps)}, {DEFAULT_LAB.dtype}
          </button>
        </div>

        <LabResults openedAt={openedAt} />
      </div>
      <LabDetails />
    </section>
  );
}

// The results read only labOutcome, so a new result re-renders them and not the
// controls, and moving a control re-renders the controls and not them.
function LabResults({ openedAt }: { openedAt: number }) {
  const outcome = labOutcome.value;
  return (
    <div class="epsilon-lab-results" aria-live="polite" aria-busy={outcome === null}>
      {outcome?.error != null && (
        <p class="epsilon-lab-error" role="alert" data-testid="lab-error">
          The core refused these settings — {outcome.error.name}: {outcome.error.message}
          {outcome.result !== null && '. Showing the last result that worked.'}
        </p>
      )}
      {outcome === null && coreStatus.value !== 'failed' && <p>Computing…</p>}
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

function LabDetails() {
  const outcome = labOutcome.value;
  if (outcome?.result == null) return null;
  return (
    <div class="epsilon-lab-lower">
      <div class="epsilon-lab-panel">
        <NormComparison result={outcome.result} eps={outcome.settings.eps} />
      </div>
      <div class="epsilon-lab-panel">
        <SeedExample />
      </div>
      <div class="epsilon-lab-panel epsilon-lab-wide">
        <RmsNormGraph result={outcome.result} onGrad={setGrad} />
      </div>
    </div>
  );
}
