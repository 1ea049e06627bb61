// What a finished lesson says, on its card and under its last step: that it is
// done, what the learner can now do (the file's `recap`), and where to go next.
import type { ComponentChildren } from 'preact';
import { ViewLink } from '../app/ViewLink';
import { LESSONS } from './index';
import type { Lesson } from './parse';
import { goTo } from './route';
import './LessonDone.css';

/** The lessons that could be read, in path order, with their number on the path (1-based). */
export function pathLessons(): { lesson: Lesson; number: number }[] {
  return LESSONS.flatMap((e, i) => (e.lesson === null ? [] : [{ lesson: e.lesson, number: i + 1 }]));
}

export function nextLesson(slug: string): { lesson: Lesson; number: number } | null {
  const path = pathLessons();
  const i = path.findIndex((p) => p.lesson.slug === slug);
  return i >= 0 && i + 1 < path.length ? path[i + 1] : null;
}

/** A link that opens a lesson step in place (a real href: it also works in a new tab). */
export function LessonLink({ slug, step = 0, children, label }: { slug: string; step?: number; children: ComponentChildren; label?: string }) {
  return (
    <a
      href={`?view=lessons&lesson=${slug}&step=${step + 1}`}
      aria-label={label}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        goTo({ slug, step });
      }}
    >
      {children}
    </a>
  );
}

export function LessonDone({ lesson }: { lesson: Lesson }) {
  const next = nextLesson(lesson.slug);
  return (
    <div class="lesson-done" data-testid={`lesson-done-${lesson.slug}`}>
      <p class="lesson-done-badge">
        <span aria-hidden="true">✓</span> Lesson completed
      </p>
      {lesson.recap !== '' && <p class="lesson-done-recap">{lesson.recap}</p>}
      {next !== null ? (
        <p class="lesson-done-next">
          Next:{' '}
          <LessonLink slug={next.lesson.slug}>
            Lesson {next.number}: {next.lesson.title} →
          </LessonLink>
        </p>
      ) : (
        <p class="lesson-done-next">
          That was the last lesson. Try your own inputs in the <ViewLink to="lab">RMSNorm lab</ViewLink> or your own prompt in the{' '}
          <ViewLink to="inspector">inspector</ViewLink>.
        </p>
      )}
    </div>
  );
}
