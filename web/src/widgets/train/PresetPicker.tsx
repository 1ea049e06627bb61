// The experiments: pick one and both runs take its settings. Each says what to
// expect and why, so the learner knows what the plots should show.
import type { Preset } from '../../app/trainPresets';
import './PresetPicker.css';

interface Props {
  presets: readonly Preset[];
  chosen: string;
  locked: boolean;
  onChoose: (id: string) => void;
}

export function PresetPicker({ presets, chosen, locked, onChoose }: Props) {
  const p = presets.find((x) => x.id === chosen) ?? presets[0];
  return (
    <div class="preset-picker">
      <label for="train-preset">Experiment</label>
      <select id="train-preset" value={p.id} disabled={locked} onChange={(e) => onChoose(e.currentTarget.value)} data-testid="train-preset">
        {presets.map((x) => (
          <option key={x.id} value={x.id}>
            {x.title}
          </option>
        ))}
      </select>
      <p class="pp-expect" data-testid="train-expect">
        <strong>What to expect:</strong> {p.expect}
      </p>
      <p class="pp-runs">
        Run A: {p.a.label} · Run B: {p.b.label}
      </p>
      {locked && <p class="pp-note">Stop or reset both runs to pick another experiment.</p>}
    </div>
  );
}
