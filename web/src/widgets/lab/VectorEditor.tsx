// The input vector x: presets, its width d, the whole vector as text, and one
// field per coordinate. Bad text gets a message; the last valid x stays. The
// vector and its setter are props: the lab and each lesson widget own their x.
import { useState } from 'preact/hooks';
import { D_MAX, D_MIN, PRESETS, parseNumber, parseVector, presetVector, type PresetName } from '../../app/labSettings';
import { randomVector } from '../../viewmodels/lab';
import { NumberGrid } from './NumberGrid';
import './VectorEditor.css';

interface Props {
  x: readonly number[];
  onX: (x: number[]) => void;
  /** Prefix of the fields' element ids (unique on the page). */
  idPrefix: string;
}

export function VectorEditor({ x, onX, idPrefix }: Props) {
  const d = x.length;
  const [listText, setListText] = useState<string | null>(null); // null: mirror x
  const [dText, setDText] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [randomSeed, setRandomSeed] = useState(1);

  const setX = (next: number[]) => {
    onX(next);
    setMessage(null);
    setListText(null);
    setDText(null);
  };

  const applyPreset = (name: PresetName) => {
    if (name !== 'random') {
      setX(presetVector(name, name === 'seed' ? 2 : d));
      return;
    }
    const seed = randomSeed;
    setRandomSeed(seed + 1);
    void randomVector(d, seed).then((o) => {
      if (o.status === 'ok') setX(o.value);
      else if (o.status === 'error') setMessage(`random: ${o.error.message}`);
    });
  };

  const applyList = (e: Event) => {
    e.preventDefault();
    const r = parseVector(listText ?? x.join(', '), 'x');
    if (r.ok) setX(r.value);
    else setMessage(r.message);
  };

  const applyD = (e: Event) => {
    e.preventDefault();
    const r = parseNumber(dText ?? String(d), 'd');
    if (!r.ok) return setMessage(r.message);
    if (!Number.isInteger(r.value) || r.value < D_MIN || r.value > D_MAX) {
      return setMessage(`d must be a whole number from ${D_MIN} to ${D_MAX}, got ${r.value}`);
    }
    setX(Array.from({ length: r.value }, (_, i) => x[i] ?? 1)); // new coordinates start at 1
  };

  return (
    <fieldset class="vector-editor">
      <legend>Input vector x</legend>
      <div class="vector-presets" role="group" aria-label="presets for x">
        {PRESETS.map((p) => (
          <button key={p.name} type="button" title={p.what} data-testid={`preset-${p.name}`} onClick={() => applyPreset(p.name)}>
            {p.label}
          </button>
        ))}
      </div>
      <div class="vector-forms">
        <form class="vector-d" onSubmit={applyD}>
          <label for={`${idPrefix}-d`}>d (2–128)</label>
          <input id={`${idPrefix}-d`} type="text" inputMode="numeric" value={dText ?? String(d)} onInput={(e) => setDText(e.currentTarget.value)} />
          <button type="submit">Set d</button>
        </form>
        <form class="vector-list" onSubmit={applyList}>
          <label for={`${idPrefix}-x-list`}>x as a list</label>
          <input
            id={`${idPrefix}-x-list`}
            type="text"
            spellcheck={false}
            value={listText ?? x.join(', ')}
            onInput={(e) => setListText(e.currentTarget.value)}
          />
          <button type="submit">Use this x</button>
        </form>
      </div>
      {message !== null && (
        <p class="field-error" role="alert" data-testid="x-form-error">
          {message}. The lab keeps the last valid x.
        </p>
      )}
      <NumberGrid name="x" values={x} onValid={setX} />
    </fieldset>
  );
}
