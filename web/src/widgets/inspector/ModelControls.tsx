// Model-wide settings: eps of every RMSNorm (the same slider range as the lab,
// or exactly 0) and float32 / float64 for every parameter and activation.
import { DEFAULT_MODEL_EPS, type InspectorSettings } from '../../app/inspectorSettings';
import { DTYPES, EPS_LOG10 } from '../../app/labSettings';
import type { DTypeName } from '../../protocol/base';
import { LogSlider } from '../lab/LogSlider';
import './ModelControls.css';

interface Props {
  settings: InspectorSettings;
  /** How many RMSNorms the loaded model has (counted by the core), or null before it loads. */
  norms: number | null;
  onChange: (patch: Partial<InspectorSettings>) => void;
}

export function ModelControls({ settings: s, norms: count, onChange: set }: Props) {
  // how many norms the slider reaches: counted by the core from the loaded model
  const norms = count !== null ? `all ${count} RMSNorms` : 'every RMSNorm';
  return (
    <div class="model-controls">
      <LogSlider
        id="model-eps"
        label={`eps in ${norms}`}
        symbol="eps"
        log10Min={EPS_LOG10.min}
        log10Max={EPS_LOG10.max}
        step={0.25}
        value={s.eps}
        disabled={s.eps === 0}
        onValue={(eps) => set({ eps })}
      >
        <div class="model-eps-extra">
          <label>
            <input type="checkbox" checked={s.eps === 0} onChange={(e) => set({ eps: e.currentTarget.checked ? 0 : DEFAULT_MODEL_EPS })} /> eps = 0
          </label>
          <button type="button" disabled={s.eps === DEFAULT_MODEL_EPS} onClick={() => set({ eps: DEFAULT_MODEL_EPS })}>
            Reset to the trained 1e-6
          </button>
        </div>
      </LogSlider>
      <fieldset class="model-dtype">
        <legend>Precision of the whole model</legend>
        {DTYPES.map((d: DTypeName) => (
          <label key={d}>
            <input type="radio" name="model-dtype" value={d} checked={s.dtype === d} onChange={() => set({ dtype: d })} /> {d}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
