// Lesson view state: which lesson and step (mirrored in the address, each step
// its own URL and history entry) and the learner's progress (localStorage).
import { signal } from '@preact/signals';
import { urlProblems, view } from '../app/state';
import { lessonBySlug } from './index';
import { correctLessonUrl, readLessonUrl, withLesson, writeLessonUrl, type LessonRoute } from './lessonUrl';
import { stepIds } from './parse';
import { lessonProgress, readProgress, writeProgress, type Progress } from './progress';

const stepsOf = (slug: string) => lessonBySlug(slug)?.steps.length ?? null;
const storage = (() => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled
  }
})();

export const lessonRoute = signal<LessonRoute>({ slug: null, step: 0 });

let started = false;
/**
 * Reads the lesson and step from the address and follows Back/Forward (once):
 * called when the lessons' code has loaded (app/views/LessonsHome.tsx, Start.tsx),
 * before the first lesson page renders. Importing this module starts nothing.
 */
export function startLessons(): void {
  if (started) return;
  started = true;
  const initial = readLessonUrl(location.search, stepsOf);
  lessonRoute.value = initial.route;
  if (initial.problems.length > 0) {
    urlProblems.value = [...urlProblems.peek(), ...initial.problems];
    history.replaceState(null, '', correctLessonUrl(initial.route, location.search)); // the address shows what is shown
  }
  addEventListener('popstate', () => {
    const read = readLessonUrl(location.search, stepsOf);
    lessonRoute.value = read.route;
  });
}

export const progress = signal<Progress>(readProgress(storage, (slug) => {
  const lesson = lessonBySlug(slug);
  return lesson === null ? null : stepIds(lesson);
}));

function updateProgress(slug: string, change: (p: ReturnType<typeof lessonProgress>) => ReturnType<typeof lessonProgress>) {
  const next = { ...progress.peek(), [slug]: change(lessonProgress(progress.peek(), slug)) };
  progress.value = next;
  writeProgress(storage, next);
}

/** The learner opened this step (by its id, parse.ts Step.id). */
export function markSeen(slug: string, stepId: string): void {
  updateProgress(slug, (q) => ({ ...q, seen: q.seen.includes(stepId) ? q.seen : [...q.seen, stepId], last: stepId, time: Date.now() }));
}

export function markPassed(slug: string, checkId: string): void {
  if (lessonProgress(progress.peek(), slug).passed.includes(checkId)) return;
  updateProgress(slug, (q) => ({ ...q, passed: [...q.passed, checkId] }));
}

export function resetProgress(slug: string): void {
  updateProgress(slug, () => ({ seen: [], passed: [], last: '', time: 0 }));
}

/**
 * Opens a lesson step (or the lesson path, slug null) as one new history entry.
 * The address is written first: app/state.ts then sees the lessons view already
 * in it and pushes nothing more, even when coming from another view.
 */
export function goTo(route: LessonRoute): void {
  history.pushState(null, '', writeLessonUrl(route, location.search));
  lessonRoute.value = route;
  view.value = 'lessons';
}

/**
 * In-app navigation for links inside lessons (?view=inspector&...): the app reads
 * the address as on Back/Forward. A link to another view keeps the lesson and
 * step in the address, so the Lessons tab returns to the step it came from.
 */
export function openAddress(search: string): void {
  history.pushState(null, '', withLesson(search, location.search));
  dispatchEvent(new PopStateEvent('popstate'));
  scrollTo(0, 0);
}
