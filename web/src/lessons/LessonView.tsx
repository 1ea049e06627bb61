// One lesson, one step at a time: ← → (or j / k) and the buttons move between
// steps; every step has its own address (?view=lessons&lesson=…&step=…).
// The step's inline values and check answers are computed by the core in one
// request when the step opens (after loading the model's weights if they use it),
// and again when the learner's prompt changes if they read it (`prompt`); those that
// read the learner's experiment runs (`runs`) once both runs have ended.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { experimentsRead, finishedRuns } from '../viewmodels/experiments';
import { NEEDS_RUN } from './runValues';
import { CheckCard } from './CheckCard';
import { CodeCell, cellError } from './CodeCell';
import { askLesson, modelReadyFor } from '../viewmodels/lessonOp';
import { lessonPrompt } from '../viewmodels/lessonPrompt';
import { Markdown, type Values } from './Markdown';
import type { ValueOutcome } from '../protocol/base';
import { stepExpressions, stepIds, type Lesson } from './parse';
import { goTo, lessonRoute, markSeen, progress } from './route';
import { LessonWidget } from './widgets';
import { LessonDone } from './LessonDone';
import { usePredictionGates } from './PredictionGate';
import { isFinished, lessonProgress } from './progress';
import './lessons.css';

/** How long the typing of a prompt pauses before the step's values are computed for it. */
const PROMPT_PAUSE_MS = 400;

export function LessonView({ lesson }: { lesson: Lesson }) {
  const stepIndex = Math.min(lessonRoute.value.step, lesson.steps.length - 1);
  const step = lesson.steps[stepIndex];
  // Values belong to the step they were computed for: on the first render of a
  // new step the previous step's map must not answer its checks.
  const stepKey = `${lesson.slug}-${stepIndex}`;
  // A step whose expressions read the learner's prompt: its values belong to that prompt too, so a
  // check is never judged against the answer for the prompt before.
  const prompt = stepExpressions(step).some((e) => /\bprompt\b/.test(e)) ? lessonPrompt.value : null;
  const valuesKey = prompt === null ? stepKey : `${stepKey}|${prompt}`;
  const [computed, setComputed] = useState<{ key: string; values: Values; error: string | null }>({ key: '', values: null, error: null });
  // Expressions that read the learner's experiment runs are asked once those runs have ended (and again after a new run).
  const [fromRuns, setFromRuns] = useState<{ key: string; values: Map<string, ValueOutcome> }>({ key: '', values: new Map() });
  const done = finishedRuns.value;
  const base = computed.key === valuesKey ? computed.values : null;
  const values = useMemo(
    () => (base === null ? null : fromRuns.key === stepKey ? new Map([...base, ...fromRuns.values]) : base),
    [base, fromRuns, stepKey],
  );
  const valuesError = computed.key === valuesKey ? computed.error : null;
  const p = lessonProgress(progress.value, lesson.slug);
  const gates = usePredictionGates(step, stepKey, p.passed);
  const total = lesson.steps.length;
  const go = (i: number) => {
    if (i >= 0 && i < total && i !== stepIndex) goTo({ slug: lesson.slug, step: i });
  };

  useEffect(() => {
    markSeen(lesson.slug, step.id);
    document.title = `${step.title} · ${lesson.title} · GlassLLM`;
  }, [lesson.slug, stepIndex]);

  const opened = useRef('');
  useEffect(() => {
    const exprs = stepExpressions(step).filter((e) => experimentsRead(e).length === 0);
    if (exprs.length === 0) {
      setComputed({ key: valuesKey, values: new Map(), error: null });
      return;
    }
    let live = true;
    const ask = () =>
      void modelReadyFor(exprs).then(() =>
        askLesson('evaluate', prompt === null ? { exprs } : { exprs, prompt }, 'step-values').then((o) => {
          if (!live) return;
          if (o.status === 'ok') setComputed({ key: valuesKey, values: new Map(exprs.map((e, i) => [e, o.value[i]])), error: null });
          else if (o.status === 'error') setComputed({ key: valuesKey, values: null, error: cellError(o.error) });
        }),
      );
    // at once when the step opens; a prompt being typed is asked about once the typing pauses
    const typing = opened.current === stepKey;
    opened.current = stepKey;
    const timer = typing ? setTimeout(ask, PROMPT_PAUSE_MS) : (ask(), undefined);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [lesson.slug, stepIndex, prompt]);

  useEffect(() => {
    const exprs = stepExpressions(step).filter((e) => experimentsRead(e).length > 0);
    const waiting = (e: string): ValueOutcome => ({
      ok: false,
      error: { name: NEEDS_RUN, message: `run the experiment ${experimentsRead(e).filter((id) => !Object.hasOwn(done, id)).join(' and ')} first` },
    });
    const ready = exprs.filter((e) => experimentsRead(e).every((id) => Object.hasOwn(done, id)));
    const outcomes = new Map(exprs.map((e) => [e, waiting(e)]));
    setFromRuns({ key: stepKey, values: new Map(outcomes) });
    if (ready.length === 0) return;
    let live = true;
    const runs = Object.fromEntries([...new Set(ready.flatMap(experimentsRead))].map((id) => [id, done[id]]));
    void askLesson('evaluate', { exprs: ready, runs }, 'step-run-values').then((o) => {
      if (!live) return;
      if (o.status === 'ok') ready.forEach((e, i) => outcomes.set(e, o.value[i]));
      else if (o.status === 'error') ready.forEach((e) => outcomes.set(e, { ok: false, error: o.error }));
      else return;
      setFromRuns({ key: stepKey, values: outcomes });
    });
    return () => {
      live = false;
    };
  }, [lesson.slug, stepIndex, done]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.closest('input, textarea, select, [contenteditable="true"]') || t.getAttribute('role') === 'slider')) return;
      if (e.key === 'ArrowRight' || e.key === 'j') go(stepIndex + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'k') go(stepIndex - 1);
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [stepIndex, total]);

  // In the commit, not after paint: a later focus would pull the caret out of
  // an answer field the learner has already started typing into.
  useLayoutEffect(() => {
    document.getElementById('lesson-step-title')?.focus({ preventScroll: true });
    scrollTo(0, 0);
  }, [stepIndex]);

  return (
    <article class="lesson" data-testid="lesson" data-step={stepIndex + 1} data-values={values !== null ? 'ready' : valuesError !== null ? 'error' : 'pending'}>
      <nav class="lesson-top" aria-label="Lesson">
        <a
          href="?view=lessons"
          onClick={(e) => {
            e.preventDefault();
            goTo({ slug: null, step: 0 });
          }}
        >
          ← All lessons
        </a>
        <span class="lesson-name">{lesson.title}</span>
        <ol class="lesson-dots" aria-label="Steps">
          {lesson.steps.map((s, i) => (
            <li key={i}>
              <a
                href={`?view=lessons&lesson=${lesson.slug}&step=${i + 1}`}
                title={s.title}
                aria-current={i === stepIndex ? 'step' : undefined}
                class={p.seen.includes(s.id) ? 'seen' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  go(i);
                }}
              >
                {i + 1}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <header class="lesson-step-head">
        <p class="lesson-step-count">
          Step {stepIndex + 1} of {total}
        </p>
        <h1 id="lesson-step-title" tabIndex={-1}>
          {step.title}
        </h1>
      </header>

      {valuesError !== null && (
        <p class="lesson-error" role="alert">
          The core could not compute this step’s numbers: {valuesError}
        </p>
      )}

      <div class="lesson-body" key={stepKey}>
        {step.blocks.map((b, i) => {
          switch (b.kind) {
            case 'markdown':
              return <Markdown key={i} text={b.text} values={values} />;
            case 'widget':
              return gates.gate(i, 'widget', <LessonWidget key={i} name={b.name} args={b.args} />);
            case 'code':
              return gates.gate(i, 'code', <CodeCell key={i} code={b.code} channel={`code-${lesson.slug}-${stepIndex}-${i}`} />);
            case 'check':
              return <CheckCard key={i} slug={lesson.slug} check={b.check} values={values} passed={p.passed.includes(b.check.id)} onAnswered={gates.answered} />;
          }
        })}
      </div>

      {stepIndex + 1 === total && (isFinished(p, stepIds(lesson)) ? (
        <LessonDone lesson={lesson} />
      ) : (
        <p class="lesson-unfinished" data-testid="lesson-unfinished">
          This is the last step. Steps not opened yet:{' '}
          {lesson.steps.flatMap((s, i) => (p.seen.includes(s.id) ? [] : [i + 1])).join(', ')} — the lesson counts as
          completed once every step has been opened.
        </p>
      ))}

      <nav class="lesson-bottom" aria-label="Steps">
        <button type="button" disabled={stepIndex === 0} onClick={() => go(stepIndex - 1)}>
          ← Previous
        </button>
        <span class="lesson-keys">Keys: ← → or j k</span>
        {stepIndex + 1 < total ? (
          <button type="button" class="primary" onClick={() => go(stepIndex + 1)}>
            Next: {lesson.steps[stepIndex + 1].title} →
          </button>
        ) : (
          <button type="button" class="primary" onClick={() => goTo({ slug: null, step: 0 })}>
            Back to the lesson path
          </button>
        )}
      </nav>
    </article>
  );
}
