// The row most lesson widgets open with: a text field and buttons that fill it
// with examples.
import './lessonWidgets.css';

interface Props {
  value: string;
  onText: (text: string) => void;
  /** data-testid of the field. */
  testId: string;
  /** [button label, the text it fills in]. */
  presets: readonly (readonly [string, string])[];
  label?: string;
}

export function TextPresets({ value, onText, testId, presets, label = 'Text' }: Props) {
  return (
    <div class="widget-row">
      <label>
        {label} <input class="wide" data-testid={testId} value={value} onInput={(e) => onText(e.currentTarget.value)} />
      </label>
      {presets.map(([name, text]) => (
        <button key={name} type="button" onClick={() => onText(text)}>
          {name}
        </button>
      ))}
    </div>
  );
}
