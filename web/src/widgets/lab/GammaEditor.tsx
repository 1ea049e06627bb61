// gamma: all ones (the initial value in the model) or one value per coordinate.
import { labSettings } from '../../app/state';
import { NumberGrid } from './NumberGrid';
import './VectorEditor.css';

export function GammaEditor() {
  const settings = labSettings.value;
  const perCoordinate = settings.gamma !== null;
  const set = (gamma: number[] | null) => (labSettings.value = { ...labSettings.peek(), gamma });
  return (
    <fieldset class="gamma-editor">
      <legend>gamma (γ)</legend>
      <div class="gamma-choice">
        <label>
          <input type="radio" name="gamma-mode" checked={!perCoordinate} onChange={() => set(null)} /> all ones
        </label>
        <label>
          <input
            type="radio"
            name="gamma-mode"
            checked={perCoordinate}
            onChange={() => set(Array(settings.x.length).fill(1))}
          />{' '}
          one per coordinate
        </label>
      </div>
      {settings.gamma !== null && <NumberGrid name="gamma" values={settings.gamma} onValid={set} />}
    </fieldset>
  );
}
