// Model-wide settings: eps of every RMSNorm (the same slider range as the lab,
// or exactly 0) and float32 / float64 for every parameter and activation.
import { fmtScale } from '../../app/format';
import { DEFAULT_MODEL_EPS, type InspectorSettings } from '../../app/inspectorSettings';
import { DTYPES, EPS_LOG10 } from '../../app/labSettings';
import type { DTypeName } from '../../protocol/base';
import { LogSlider } from '../lab/LogSlider';
import './ModelControls.css';

interface Props {
  settings: InspectorSettings;
  /** How many norms the loaded model has (counted by the core), or null before it loads. */
  norms: number | null;
  onChange: (patch: Partial<InspectorSettings>) => void;
  /** The loaded model's norm kind and its own eps (the shipped model's by default). */
  normKind?: 'rms' | 'layer';
  modelEps?: number;
}

export function ModelControls({ settings: s, norms: count, onChange: set, normKind = 'rms', modelEps = DEFAULT_MODEL_EPS }: Props) {
  // how many norms the slider reaches: counted by the core from the loaded model
  const word = normKind === 'layer' ? 'LayerNorm' : 'RMSNorm';
  const norms = count !== null ? `all ${count} ${word}s` : `every ${word}`;
  if (count === 0)
    return (
      <div class="model-controls">
        <p class="model-no-norms" data-testid="model-no-norms">
          This model has no norms, so there is no eps to change.
        </p>
        <DtypeChoice dtype={s.dtype} set={set} />
      </div>
    );
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
            <input type="checkbox" checked={s.eps === 0} onChange={(e) => set({ eps: e.currentTarget.checked ? 0 : modelEps || DEFAULT_MODEL_EPS })} /> eps = 0
          </label>
          <button type="button" disabled={s.eps === modelEps} onClick={() => set({ eps: modelEps })}>
            Reset to the trained {fmtScale(modelEps)}
          </button>
        </div>
      </LogSlider>
      <DtypeChoice dtype={s.dtype} set={set} />
    </div>
  );
}

function DtypeChoice({ dtype, set }: { dtype: DTypeName; set: (patch: Partial<InspectorSettings>) => void }) {
  return (
    <fieldset class="model-dtype">
      <legend>Precision of the whole model</legend>
      {DTYPES.map((d: DTypeName) => (
        <label key={d}>
          <input type="radio" name="model-dtype" value={d} checked={dtype === d} onChange={() => set({ dtype: d })} /> {d}
        </label>
      ))}
    </fieldset>
  );
}
