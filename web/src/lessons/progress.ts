// Progress through the lessons, kept in localStorage. Steps are kept by id
// (parse.ts stepId: from the title), so a step added to a lesson leaves the
// others as they were; version 1 kept step numbers, which an added step
// shifted (a finished lesson then showed as unfinished). A version 1 record is
// read while there is no version 2 one, its numbers taken as today's steps,
// and written back as version 2 at the next change.
export const PROGRESS_KEY = 'glassllm.lessons.v2';
export const PROGRESS_KEY_V1 = 'glassllm.lessons.v1';

export interface LessonProgress {
  /** Ids of the steps opened. */
  seen: string[];
  /** Check ids answered right. */
  passed: string[];
  /** Id of the step the learner was on last ('' before any). */
  last: string;
  /** When a step of this lesson was last opened (ms since 1970; 0: never): "continue where you left off". */
  time: number;
}
export type Progress = Record<string, LessonProgress>;
/** A lesson's step ids in order, or null for a lesson that does not exist (any more). */
export type StepIds = (slug: string) => readonly string[] | null;

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1000;
const isId = (v: unknown): v is string => typeof v === 'string' && /^[a-z0-9-]{1,64}$/.test(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length < 100;

function parse(text: string | null): Record<string, Record<string, unknown>> | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const lessons = (raw as { lessons?: unknown }).lessons;
  if (typeof lessons !== 'object' || lessons === null || Array.isArray(lessons)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [slug, entry] of Object.entries(lessons as Record<string, unknown>))
    if (/^[a-z0-9-]{1,64}$/.test(slug) && typeof entry === 'object' && entry !== null && !Array.isArray(entry)) out[slug] = entry as Record<string, unknown>;
  return out;
}

const visitTime = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const unique = <T>(xs: T[]) => [...new Set(xs)];

/**
 * The stored progress. Whatever is stored (another app's data, a corrupt string,
 * an old version) is read defensively: anything that does not fit is ignored,
 * never thrown. `steps` turns a version 1 record's step numbers into ids.
 */
export function readProgress(storage: Pick<Storage, 'getItem'> | null, steps: StepIds): Progress {
  const read = (key: string) => {
    try {
      return parse(storage?.getItem(key) ?? null);
    } catch {
      return {}; // storage disabled
    }
  };
  const out: Progress = {};
  const v2 = read(PROGRESS_KEY);
  if (v2 !== null) {
    for (const [slug, e] of Object.entries(v2))
      out[slug] = {
        seen: Array.isArray(e.seen) ? unique(e.seen.filter(isId)) : [],
        passed: Array.isArray(e.passed) ? unique(e.passed.filter(isText)) : [],
        last: isId(e.last) ? e.last : '',
        time: visitTime(e.time),
      };
    return out;
  }
  for (const [slug, e] of Object.entries(read(PROGRESS_KEY_V1) ?? {})) {
    const ids = steps(slug);
    if (ids === null) continue; // a lesson that no longer exists
    const idAt = (i: number) => (i < ids.length ? ids[i] : null);
    out[slug] = {
      seen: Array.isArray(e.seen) ? unique(e.seen.filter(isIndex).map(idAt).filter((id): id is string => id !== null)) : [],
      passed: Array.isArray(e.passed) ? unique(e.passed.filter(isText)) : [],
      last: isIndex(e.last) ? (idAt(e.last) ?? '') : '',
      time: visitTime(e.time),
    };
  }
  return out;
}

export function writeProgress(storage: Pick<Storage, 'setItem'> | null, progress: Progress): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify({ version: 2, lessons: progress }));
  } catch {
    // storage full or disabled: progress lives for this page only
  }
}

export function lessonProgress(p: Progress, slug: string): LessonProgress {
  return p[slug] ?? { seen: [], passed: [], last: '', time: 0 };
}

/** How many of a lesson's steps (ids, in order) were opened; ids of steps it no longer has do not count. */
export function seenCount(p: LessonProgress, steps: readonly string[]): number {
  return steps.filter((id) => p.seen.includes(id)).length;
}

/** A lesson is finished once every one of its steps has been opened. */
export function isFinished(p: LessonProgress, steps: readonly string[]): boolean {
  return steps.length > 0 && seenCount(p, steps) === steps.length;
}

/** Where to resume a lesson (a step number): its last step, or its first when it has no such step (any more). */
export const resumeAt = (p: LessonProgress, steps: readonly string[]) => Math.max(0, steps.indexOf(p.last));

/**
 * Where "continue where you left off" goes: the lesson opened most recently, at
 * its last step; once that lesson is finished, the next unfinished lesson in path
 * order (from its last step, or its first). null when nothing was opened yet, or
 * when every lesson is finished.
 */
export function continueTarget(p: Progress, path: readonly { slug: string; steps: readonly string[] }[]): { slug: string; step: number } | null {
  let recent: { slug: string; steps: readonly string[] } | null = null;
  for (const l of path) if (lessonProgress(p, l.slug).time > (recent === null ? 0 : lessonProgress(p, recent.slug).time)) recent = l;
  if (recent === null) return null;
  const r = lessonProgress(p, recent.slug);
  if (!isFinished(r, recent.steps)) return { slug: recent.slug, step: resumeAt(r, recent.steps) };
  const from = path.indexOf(recent);
  for (let k = 1; k <= path.length; k++) {
    const l = path[(from + k) % path.length];
    const q = lessonProgress(p, l.slug);
    if (!isFinished(q, l.steps)) return { slug: l.slug, step: resumeAt(q, l.steps) };
  }
  return null;
}
