// The lesson keys in the address, validated when read (like app/urlState.ts):
//   ?view=lessons&lesson=rmsnorm&step=3      (step counts from 1; no lesson: the lesson path)
//   ?view=lessons&glossary=rmsnorm           (the glossary at one term; glossary= the whole page;
//                                             lesson and step kept beside it: where "back" returns)
// A bad key is reported and corrected in the address bar (correctLessonUrl).
import { duplicateKeys, quoted } from '../app/addressText';

export interface LessonRoute {
  slug: string | null;
  /** 0-based step index. */
  step: number;
  /** Set: the glossary page is shown, at this term ('' for the top); slug and step are where it was opened from. */
  glossary?: string;
}

export function readLessonUrl(search: string, stepsOf: (slug: string) => number | null): { route: LessonRoute; problems: string[] } {
  const params = new URLSearchParams(search);
  const problems: string[] = duplicateKeys(params, ['lesson', 'step', 'glossary']);
  const read = readRoute(params, stepsOf, problems);
  const glossary = params.get('glossary');
  return { route: glossary === null ? read : { ...read, glossary }, problems };
}

function readRoute(params: URLSearchParams, stepsOf: (slug: string) => number | null, problems: string[]): LessonRoute {
  const slug = params.get('lesson');
  const stepText = params.get('step');
  if (slug === null || slug === '') {
    if (slug === '') problems.push('The address has an empty lesson=; showing the lesson path.');
    if (stepText !== null) problems.push(`The address has step=${quoted(stepText)} but no lesson; showing the lesson path.`);
    return { slug: null, step: 0 };
  }
  const steps = stepsOf(slug);
  if (steps === null) {
    problems.push(`The address has lesson=${quoted(slug)}: no such lesson; showing the lesson path.`);
    return { slug: null, step: 0 };
  }
  let step = 0;
  if (stepText !== null) {
    const n = /^\d{1,4}$/.test(stepText) ? Number(stepText) : NaN;
    if (n >= 1 && n <= steps) step = n - 1;
    else problems.push(`The address has step=${quoted(stepText)}: not a step from 1 to ${steps}; using step 1.`);
  }
  return { slug, step };
}

/** The glossary key as the route has it: set, or removed. */
function writeGlossary(params: URLSearchParams, route: LessonRoute) {
  if (route.glossary === undefined) params.delete('glossary');
  else params.set('glossary', route.glossary);
}

/**
 * The address with the lesson keys as read (a bad lesson or step replaced, a
 * second copy of a key dropped), every other key and the view kept: what the
 * address bar shows after a bad link, as the lab corrects its own keys.
 */
export function correctLessonUrl(route: LessonRoute, currentSearch: string): string {
  const params = new URLSearchParams(currentSearch);
  params.delete('lesson');
  params.delete('step');
  if (route.slug !== null) {
    params.set('lesson', route.slug);
    params.set('step', String(route.step + 1));
  }
  writeGlossary(params, route);
  return `?${params.toString().replace(/%2C/g, ',')}`;
}

export function writeLessonUrl(route: LessonRoute, currentSearch: string): string {
  const params = new URLSearchParams(currentSearch);
  params.set('view', 'lessons');
  if (route.slug === null) {
    params.delete('lesson');
    params.delete('step');
  } else {
    params.set('lesson', route.slug);
    params.set('step', String(route.step + 1));
  }
  writeGlossary(params, route);
  return `?${params.toString().replace(/%2C/g, ',')}`;
}

/** A link from a lesson to another view keeps `lesson` and `step` (the Lessons tab returns there). */
export function withLesson(target: string, current: string): string {
  const to = new URLSearchParams(target);
  const from = new URLSearchParams(current);
  const lesson = from.get('lesson');
  if (to.get('view') === 'lessons' || to.has('lesson') || lesson === null) return target;
  to.set('lesson', lesson);
  const step = from.get('step');
  if (step !== null) to.set('step', step);
  return `?${to.toString().replace(/%2C/g, ',')}`;
}
