// One text field per coordinate (x[0], x[1], … or gamma[0], …). Text fields
// rather than type=number so that what the learner typed stays visible and a
// bad entry (letters, NaN, Infinity, empty) gets a message naming it while the
// last valid vector keeps being shown.
import { useEffect, useState } from 'preact/hooks';
import { parseNumber } from '../../app/labSettings';
import './NumberGrid.css';

interface Props {
  name: string; // "x" or "gamma"
  values: readonly number[];
  onValid: (values: number[]) => void;
}

export function NumberGrid({ name, values, onValid }: Props) {
  const [drafts, setDrafts] = useState<string[]>(() => values.map(String));
  const [errors, setErrors] = useState<(string | null)[]>(() => values.map(() => null));

  // Values changed elsewhere (a preset, the address, resizing): show them,
  // unless they are what the drafts already say.
  useEffect(() => {
    const same = drafts.length === values.length && drafts.every((t, i) => {
      const r = parseNumber(t, '');
      return r.ok && r.value === values[i];
    });
    if (!same) {
      setDrafts(values.map(String));
      setErrors(values.map(() => null));
    }
  }, [values]);

  const edit = (i: number, text: string) => {
    const nextDrafts = drafts.slice();
    nextDrafts[i] = text;
    const parsed = nextDrafts.map((t, j) => parseNumber(t, `${name}[${j}]`));
    setDrafts(nextDrafts);
    setErrors(parsed.map((r) => (r.ok ? null : r.message)));
    if (parsed.every((r) => r.ok)) onValid(parsed.map((r) => (r as { value: number }).value));
  };

  const problems = errors.filter((e): e is string => e !== null);
  return (
    <div class="number-grid">
      <div class="number-grid-cells" role="group" aria-label={`coordinates of ${name}`}>
        {drafts.map((text, i) => (
          <label key={i} class="number-grid-cell">
            <span class="number-grid-index">
              {name}[{i}]
            </span>
            <input
              type="text"
              inputMode="decimal"
              spellcheck={false}
              value={text}
              aria-invalid={errors[i] !== null}
              aria-label={`${name}[${i}]`}
              data-testid={`${name}-${i}`}
              onInput={(e) => edit(i, e.currentTarget.value)}
            />
          </label>
        ))}
      </div>
      {problems.length > 0 && (
        <p class="field-error" role="alert" data-testid={`${name}-error`}>
          {problems[0]}
          {problems.length > 1 && ` (and ${problems.length - 1} more)`}. The results below still use the last valid {name}.
        </p>
      )}
    </div>
  );
}
