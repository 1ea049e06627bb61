// A check: a question whose right answer the core computed (the step's values).
// A number is judged at the precision the question asks for (parse.ts: judge);
// choices by the text the answer expression returned.
//
// The card shows one state at a time, so a tick and a wrong try never meet:
//   open     not passed yet (or a later try after a pass went wrong and is being edited)
//   passed   passed on an earlier visit (progress remembers it), nothing tried since
//   right    the answer just given is right
//   slip     refused, but close: a rounding message instead of the hint
//   wrong    refused: the check's hint
//   unreadable  not a number
import { useState } from 'preact/hooks';
import { fmt } from '../app/format';
import { formatValue } from './format';
import { inline, type Values } from './Markdown';
import { describePrecision, formatAtPrecision, judge, type CheckSpec, type Verdict } from './parse';
import { markPassed } from './route';
import { needsRun } from './runValues';

type Status = 'open' | 'passed' | Verdict['kind'];

const TAGS: Record<Status, string> = {
  open: 'Check',
  passed: '✓ Passed',
  right: '✓ Right',
  slip: 'Close',
  wrong: '✗ Not yet',
  unreadable: 'Check',
};

export function CheckCard({
  slug,
  check,
  values,
  passed,
  onAnswered,
}: {
  slug: string;
  check: CheckSpec;
  values: Values;
  passed: boolean;
  /** Told when the learner has committed to an answer (right or not) or asked for the core's: a prediction's hidden blocks may show. */
  onAnswered?: (id: string) => void;
}) {
  const [given, setGiven] = useState('');
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  // once a try after a pass went wrong, the old tick is not shown again until a right answer
  const [retrying, setRetrying] = useState(false);
  const [reveal, setReveal] = useState(false);
  const answer = values?.get(check.answer);
  const ready = answer !== undefined && answer.ok;
  const status: Status = verdict?.kind ?? (passed && !retrying ? 'passed' : 'open');
  const submit = (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    const v = judge(check, answer.value, given);
    setVerdict(v);
    if (v.kind === 'unreadable') return;
    setRetrying(v.kind !== 'right');
    if (v.kind === 'right') markPassed(slug, check.id);
    onAnswered?.(check.id);
  };
  const edit = (value: string) => {
    setGiven(value);
    setVerdict(null);
  };
  const showAnswer = () => {
    setReveal(true);
    onAnswered?.(check.id);
  };
  const id = `check-${check.id}`;
  // a question asked before what it hides is shown: a prediction
  const tag = check.hides.length > 0 && status === 'open' ? 'Predict' : TAGS[status];
  const exact = ready && typeof answer.value === 'number' ? answer.value : null;
  return (
    <form
      class={`check-card check-${status}`}
      data-testid={id}
      data-passed={passed ? 'yes' : 'no'}
      data-status={status}
      data-kind={check.kind}
      data-hides={check.hides.join(' ') || undefined}
      onSubmit={submit}
    >
      <p class="check-question" id={`${id}-q`}>
        <span class="check-tag" data-testid={`${id}-tag`}>
          {tag}
        </span>{' '}
        {inline(check.question, values)}
      </p>
      {check.choices === null ? (
        <input
          type="text"
          inputMode="decimal"
          aria-labelledby={`${id}-q`}
          value={given}
          placeholder="your answer"
          onInput={(e) => edit(e.currentTarget.value)}
        />
      ) : (
        <div class="check-choices" role="radiogroup" aria-labelledby={`${id}-q`}>
          {check.choices.map((c) => (
            <label key={c}>
              <input type="radio" name={id} value={c} checked={given === c} onChange={() => edit(c)} /> {c}
            </label>
          ))}
        </div>
      )}
      <button type="submit" disabled={!ready || given === ''}>
        Check
      </button>
      {needsRun(answer) ? (
        <p class="check-feedback check-needs-run" data-testid={`${id}-needs-run`}>
          Run the experiment in this step first: this question is answered from your own runs.
        </p>
      ) : (
        answer !== undefined &&
        !answer.ok && (
          <p class="check-feedback" role="alert">
            The core could not compute this answer: {answer.error.message}
          </p>
        )
      )}
      <div aria-live="polite">
        {status === 'right' && (
          <p class="check-feedback right" data-testid={`${id}-right`}>
            Right{exact !== null && check.precision !== null ? ` (the core’s value is ${fmt(exact, 12)})` : ''}. {check.explain && inline(check.explain, values)}
          </p>
        )}
        {(status === 'wrong' || status === 'slip') && (
          <p class={`check-feedback ${status}`} data-testid={`${id}-wrong`}>
            {verdict?.kind === 'slip' ? (
              <span data-testid={`${id}-slip`}>Close. {verdict.message}</span>
            ) : (
              <>Not quite. {check.hint && inline(check.hint, values)}</>
            )}{' '}
            {!reveal && (
              <button type="button" class="link" onClick={showAnswer}>
                Show the core’s answer
              </button>
            )}
          </p>
        )}
        {status === 'unreadable' && <p class="check-feedback wrong">Type a number (for example 1152, 0.85 or 2.5e-8).</p>}
        {reveal && ready && (
          <p class="check-feedback">
            {exact !== null && check.precision !== null ? (
              <>
                The core computed {fmt(exact, 12)}: to {describePrecision(check.precision)},{' '}
                <span class="num" data-testid={`${id}-answer`}>
                  {formatAtPrecision(exact, check.precision)}
                </span>
                .
              </>
            ) : (
              <>
                The core computed{' '}
                <span class="num" data-testid={`${id}-answer`}>
                  {exact !== null ? fmt(exact, 12) : formatValue(answer.value, 'auto')}
                </span>
                .
              </>
            )}
          </p>
        )}
      </div>
    </form>
  );
}
