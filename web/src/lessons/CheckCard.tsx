// A check: a question whose right answer the core computed (the step's values).
// A number is compared with the check's tolerance; choices by the text the
// answer expression returned.
import { useState } from 'preact/hooks';
import { formatValue } from './format';
import { inline, type Values } from './Markdown';
import { isRight, parseAnswerNumber, type CheckSpec } from './parse';
import { markPassed } from './route';

export function CheckCard({ slug, check, values, passed }: { slug: string; check: CheckSpec; values: Values; passed: boolean }) {
  const [given, setGiven] = useState('');
  const [verdict, setVerdict] = useState<'right' | 'wrong' | 'unreadable' | null>(null);
  const [reveal, setReveal] = useState(false);
  const answer = values?.get(check.answer);
  const ready = answer !== undefined && answer.ok;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    if (check.choices === null && parseAnswerNumber(given) === null) {
      setVerdict('unreadable');
      return;
    }
    const ok = isRight(check, answer.value, given);
    setVerdict(ok ? 'right' : 'wrong');
    if (ok) markPassed(slug, check.id);
  };
  const id = `check-${check.id}`;
  return (
    <form class={`check-card ${verdict ?? ''}`} data-testid={id} data-passed={passed ? 'yes' : 'no'} onSubmit={submit}>
      <p class="check-question" id={`${id}-q`}>
        <span class="check-tag">{passed ? '✓ Check' : 'Check'}</span> {inline(check.question, values)}
      </p>
      {check.choices === null ? (
        <input
          type="text"
          inputMode="decimal"
          aria-labelledby={`${id}-q`}
          value={given}
          placeholder="your answer"
          onInput={(e) => {
            setGiven(e.currentTarget.value);
            setVerdict(null);
          }}
        />
      ) : (
        <div class="check-choices" role="radiogroup" aria-labelledby={`${id}-q`}>
          {check.choices.map((c) => (
            <label key={c}>
              <input
                type="radio"
                name={id}
                value={c}
                checked={given === c}
                onChange={() => {
                  setGiven(c);
                  setVerdict(null);
                }}
              />{' '}
              {c}
            </label>
          ))}
        </div>
      )}
      <button type="submit" disabled={!ready || given === ''}>
        Check
      </button>
      {answer !== undefined && !answer.ok && (
        <p class="check-feedback" role="alert">
          The core could not compute this answer: {answer.error.message}
        </p>
      )}
      <div aria-live="polite">
        {verdict === 'right' && (
          <p class="check-feedback right" data-testid={`${id}-right`}>
            Right. {check.explain && inline(check.explain, values)}
          </p>
        )}
        {verdict === 'wrong' && (
          <p class="check-feedback wrong" data-testid={`${id}-wrong`}>
            Not quite. {check.hint && inline(check.hint, values)}{' '}
            {!reveal && (
              <button type="button" class="link" onClick={() => setReveal(true)}>
                Show the core’s answer
              </button>
            )}
          </p>
        )}
        {verdict === 'unreadable' && <p class="check-feedback wrong">Type a number (for example 1152, 0.85 or 2.5e-8).</p>}
        {reveal && ready && (
          <p class="check-feedback">
            The core computed <span class="num" data-testid={`${id}-answer`}>{formatValue(answer.value, 'auto')}</span>.
          </p>
        )}
      </div>
    </form>
  );
}
