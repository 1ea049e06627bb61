// The lesson path (home) or the lesson the address names.
import { LESSONS, lessonBySlug } from './index';
import { GlossaryPage } from './GlossaryPage';
import { LessonView } from './LessonView';
import { lessonChecks, stepIds } from './parse';
import { LessonDone, LessonLink } from './LessonDone';
import { isFinished, lessonProgress, resumeAt, seenCount } from './progress';
import { goTo, lessonRoute, progress, resetProgress } from './route';
import './lessons.css';

export function LessonsPage() {
  const route = lessonRoute.value;
  if (route.glossary !== undefined) return <GlossaryPage />;
  const lesson = route.slug === null ? null : lessonBySlug(route.slug);
  if (lesson !== null) return <LessonView lesson={lesson} />;
  return <LessonPath />;
}

function LessonPath() {
  const all = progress.value;
  return (
    <section class="lessons-home" aria-labelledby="lessons-title" data-testid="lesson-path">
      <h1 id="lessons-title">Lessons</h1>
      <p>Guided steps through the model. Every number on them is computed live by the core in your browser.</p>
      <p class="lessons-glossary">
        <a
          href="?view=lessons&glossary="
          data-testid="open-glossary"
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            goTo({ slug: null, step: 0, glossary: '' });
          }}
        >
          The glossary
        </a>
        : every word the lessons use, with its names in the code.
      </p>
      <ol class="lessons-list">
        {LESSONS.map((entry, i) => {
          if (entry.lesson === null)
            return (
              <li key={entry.slug} class="lessons-card" role="alert">
                <h2>{entry.slug}</h2>
                <p class="lesson-error">This lesson could not be read: {entry.problem}</p>
              </li>
            );
          const l = entry.lesson;
          const n = i + 1;
          const p = lessonProgress(all, l.slug);
          const checkIds = lessonChecks(l).map((c) => c.id);
          const checks = checkIds.length;
          const right = p.passed.filter((id) => checkIds.includes(id)).length;
          const ids = stepIds(l);
          const seen = seenCount(p, ids);
          const started = seen > 0;
          const finished = isFinished(p, ids);
          const resume = resumeAt(p, ids);
          const name = `lesson ${n}, ${l.title}`;
          return (
            <li key={l.slug} class={`lessons-card${finished ? ' finished' : ''}`} data-testid={`lesson-card-${l.slug}`}>
              <p class="lessons-number">Lesson {n}</p>
              <h2>
                <LessonLink slug={l.slug} step={started && !finished ? resume : 0}>
                  {l.title}
                </LessonLink>
              </h2>
              <p>{l.summary}</p>
              <p class="lessons-status" data-testid={`progress-${l.slug}`}>
                {l.steps.length} steps · {checks} checks ·{' '}
                {started ? `${seen} of ${l.steps.length} steps opened, ${right} of ${checks} checks right` : 'not started'}
              </p>
              <div class="lessons-bar" aria-hidden="true">
                <span style={{ width: `${(100 * seen) / l.steps.length}%` }} />
              </div>
              {finished && <LessonDone lesson={l} />}
              {finished ? (
                <button type="button" class="quiet" aria-label={`Review from step 1: ${name}`} onClick={() => goTo({ slug: l.slug, step: 0 })}>
                  Review from step 1
                </button>
              ) : (
                <button
                  type="button"
                  aria-label={`${started ? `Continue at step ${resume + 1}` : 'Start'}: ${name}`}
                  onClick={() => goTo({ slug: l.slug, step: started ? resume : 0 })}
                >
                  {started ? `Continue at step ${resume + 1}` : 'Start'}
                </button>
              )}{' '}
              {started && (
                <button type="button" class="quiet" aria-label={`Reset progress: ${name}`} onClick={() => resetProgress(l.slug)}>
                  Reset progress
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export { startLessons } from './route';
