// The first screen: what GlassLLM is, one clear way into the lessons (or back to
// where the learner left off), and the places to play. Lives with the lessons
// because it reads their path and progress; it needs no KaTeX.
import { ViewLink } from '../app/ViewLink';
import { LessonLink, pathLessons } from './LessonDone';
import { stepIds } from './parse';
import { continueTarget, isFinished, lessonProgress, seenCount } from './progress';
import { goTo, progress } from './route';
import './StartPage.css';

export function StartPage() {
  const all = progress.value;
  const path = pathLessons();
  const first = path[0] ?? null;
  const target = continueTarget(
    all,
    path.map((p) => ({ slug: p.lesson.slug, steps: stepIds(p.lesson) })),
  );
  const resume = target === null ? null : path.find((p) => p.lesson.slug === target.slug)!;
  const anyProgress = path.some((p) => seenCount(lessonProgress(all, p.lesson.slug), stepIds(p.lesson)) > 0);
  const allDone = path.length > 0 && path.every((p) => isFinished(lessonProgress(all, p.lesson.slug), stepIds(p.lesson)));
  return (
    <section class="start" aria-labelledby="start-title" data-testid="start-page">
      <h1 id="start-title">Watch a language model think, number by number</h1>
      <p class="start-intro">
        GlassLLM is a small but real language model, trained on the King James Bible, that runs entirely in this browser tab.
        Every number you see — in the lessons, the lab and the inspector — is computed live by the model itself, forward and
        backward, so you can change anything and watch what follows.
      </p>

      <div class="start-actions">
        {resume !== null && target !== null && anyProgress ? (
          <>
            <button type="button" class="start-primary" data-testid="start-continue" onClick={() => goTo(target)}>
              Continue where you left off: lesson {resume.number}, step {target.step + 1} →
            </button>
            <span class="start-where">{resume.lesson.title}</span>
            {first !== null && (
              <p class="start-secondary">
                or{' '}
                <LessonLink slug={first.lesson.slug}>start again with lesson 1: {first.lesson.title}</LessonLink>
              </p>
            )}
          </>
        ) : first !== null ? (
          <>
            <button type="button" class="start-primary" data-testid="start-first" onClick={() => goTo({ slug: first.lesson.slug, step: 0 })}>
              {allDone ? 'Review lesson 1' : 'Start with lesson 1'}: {first.lesson.title} →
            </button>
            {allDone && <p class="start-secondary">You have completed every lesson.</p>}
          </>
        ) : (
          <p role="alert">No lesson could be read.</p>
        )}
      </div>

      <h2>The lessons</h2>
      <ol class="start-path">
        {path.map(({ lesson, number }) => {
          const p = lessonProgress(all, lesson.slug);
          const ids = stepIds(lesson);
          const done = isFinished(p, ids);
          return (
            <li key={lesson.slug} data-testid={`start-lesson-${lesson.slug}`}>
              <LessonLink slug={lesson.slug}>
                Lesson {number}: {lesson.title}
              </LessonLink>{' '}
              <span class="start-status">
                {done ? '✓ completed' : seenCount(p, ids) > 0 ? `${seenCount(p, ids)} of ${lesson.steps.length} steps opened` : ''}
              </span>
            </li>
          );
        })}
      </ol>
      <p>
        <ViewLink to="lessons">All lessons, with what each one covers →</ViewLink>
      </p>

      <h2>Places to play</h2>
      <div class="start-places">
        <div class="start-place">
          <h3>
            <ViewLink to="lab">RMSNorm lab</ViewLink>
          </h3>
          <p>
            Type a vector, move epsilon and a scale factor, and watch RMSNorm respond — with its recorded graph and every
            gradient.
          </p>
        </div>
        <div class="start-place">
          <h3>
            <ViewLink to="inspector">Inspector</ViewLink>
          </h3>
          <p>
            Type a prompt and look inside the trained model: every layer's output and gradient, its next-byte guesses, and how
            epsilon changes them.
          </p>
        </div>
        <div class="start-place">
          <h3>
            <ViewLink to="train">Train</ViewLink>
          </h3>
          <p>
            Train two small models side by side in this tab — pre-norm against post-norm, with and without residuals — and
            watch their losses and gradients to test what the lessons claim.
          </p>
        </div>
      </div>
    </section>
  );
}

export { startLessons } from './route';
