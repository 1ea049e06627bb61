// A log-scale slider: the range input moves log10(value); arrow keys step by
// `step` decades. The readout and aria-valuetext say the value itself.
import { fmtScale } from '../../app/format';
import './LogSlider.css';

interface Props {
  id: string;
  label: string;
  symbol: string; // "eps", "c"
  log10Min: number;
  log10Max: number;
  step: number;
  value: number;
  disabled?: boolean;
  onValue: (value: number) => void;
  children?: preact.ComponentChildren;
}

/** Slider position -> value, rounded to 3 significant digits so the address stays readable. */
const fromPosition = (p: number) => Number((10 ** p).toPrecision(3));

/**
 * The position as the range input itself holds it: on its steps, as a string
 * (toFixed(10) drops float noise such as -0.6499999999999999). log10 of the
 * rounded value is off the steps, and Preact would set it again on every render
 * (app/formValues.ts says what each set costs).
 */
const sliderPosition = (value: number, log10Min: number, log10Max: number, step: number) => {
  const p = value > 0 ? Math.min(log10Max, Math.max(log10Min, Math.log10(value))) : log10Min;
  return String(Number(Math.min(log10Max, log10Min + Math.round((p - log10Min) / step) * step).toFixed(10)));
};

export function LogSlider({ id, label, symbol, log10Min, log10Max, step, value, disabled, onValue, children }: Props) {
  const position = sliderPosition(value, log10Min, log10Max, step);
  return (
    <div class="log-slider">
      <div class="log-slider-head">
        <label for={id}>{label}</label>
        <output for={id} class="num" data-testid={`${id}-readout`}>
          {symbol} = {disabled ? '0' : fmtScale(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={log10Min}
        max={log10Max}
        step={step}
        value={position}
        disabled={disabled}
        aria-valuetext={`${symbol} = ${disabled ? '0' : fmtScale(value)}`}
        onInput={(e) => onValue(fromPosition(Number(e.currentTarget.value)))}
      />
      <div class="log-slider-ticks" aria-hidden="true">
        <span>1e{log10Min}</span>
        <span>1e{log10Max}</span>
      </div>
      {children}
    </div>
  );
}
