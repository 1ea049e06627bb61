// gamma: all ones (the initial value in the model) or one value per coordinate.
// gamma and its setter are props (the lab and lesson widgets own their own).
import { NumberGrid } from './NumberGrid';
import './VectorEditor.css';

interface Props {
  /** null: all ones. */
  gamma: readonly number[] | null;
  /** The width of x (a new per-coordinate gamma starts as d ones). */
  d: number;
  onGamma: (gamma: number[] | null) => void;
  /** Name of the radio group (unique on the page). */
  idPrefix: string;
}

export function GammaEditor({ gamma, d, onGamma, idPrefix }: Props) {
  const perCoordinate = gamma !== null;
  return (
    <fieldset class="gamma-editor">
      <legend>gamma (γ)</legend>
      <div class="gamma-choice">
        <label>
          <input type="radio" name={`${idPrefix}-gamma-mode`} checked={!perCoordinate} onChange={() => onGamma(null)} /> all ones
        </label>
        <label>
          <input type="radio" name={`${idPrefix}-gamma-mode`} checked={perCoordinate} onChange={() => onGamma(Array(d).fill(1))} />{' '}
          one per coordinate
        </label>
      </div>
      {gamma !== null && <NumberGrid name="gamma" values={gamma} onValid={onGamma} />}
    </fieldset>
  );
}
