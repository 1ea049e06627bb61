// Progress through the lessons, kept in localStorage under one key. Whatever is
// stored there (another app's data, a corrupt string, an old version) is read
// defensively: anything that does not fit is ignored, never thrown.
export const PROGRESS_KEY = 'glassllm.lessons.v1';

export interface LessonProgress {
  /** Steps opened (0-based). */
  seen: number[];
  /** Check ids answered right. */
  passed: string[];
  /** The step the learner was on last. */
  last: number;
  /** When a step of this lesson was last opened (ms since 1970; 0: never): "continue where you left off". */
  time: number;
}
export type Progress = Record<string, LessonProgress>;

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1000;

export function readProgress(storage: Pick<Storage, 'getItem'> | null): Progress {
  let raw: unknown;
  try {
    const text = storage?.getItem(PROGRESS_KEY) ?? null;
    if (text === null) return {};
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const lessons = (raw as { lessons?: unknown }).lessons;
  if (typeof lessons !== 'object' || lessons === null || Array.isArray(lessons)) return {};
  const out: Progress = {};
  for (const [slug, entry] of Object.entries(lessons as Record<string, unknown>)) {
    if (!/^[a-z0-9-]{1,64}$/.test(slug) || typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    out[slug] = {
      seen: Array.isArray(e.seen) ? [...new Set(e.seen.filter(isIndex))] : [],
      passed: Array.isArray(e.passed) ? [...new Set(e.passed.filter((p): p is string => typeof p === 'string' && p.length < 100))] : [],
      last: isIndex(e.last) ? e.last : 0,
      time: typeof e.time === 'number' && Number.isFinite(e.time) && e.time > 0 ? e.time : 0,
    };
  }
  return out;
}

export function writeProgress(storage: Pick<Storage, 'setItem'> | null, progress: Progress): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify({ version: 1, lessons: progress }));
  } catch {
    // storage full or disabled: progress lives for this page only
  }
}

export function lessonProgress(p: Progress, slug: string): LessonProgress {
  return p[slug] ?? { seen: [], passed: [], last: 0, time: 0 };
}

/** A lesson is finished once every one of its steps has been opened. */
export function isFinished(p: LessonProgress, steps: number): boolean {
  for (let i = 0; i < steps; i++) if (!p.seen.includes(i)) return false;
  return steps > 0;
}

/**
 * Where "continue where you left off" goes: the lesson opened most recently, at
 * its last step; once that lesson is finished, the next unfinished lesson in path
 * order (from its last step, or its first). null when nothing was opened yet, or
 * when every lesson is finished.
 */
export function continueTarget(p: Progress, path: readonly { slug: string; steps: number }[]): { slug: string; step: number } | null {
  let recent: { slug: string; steps: number } | null = null;
  for (const l of path) if (lessonProgress(p, l.slug).time > (recent === null ? 0 : lessonProgress(p, recent.slug).time)) recent = l;
  if (recent === null) return null;
  const r = lessonProgress(p, recent.slug);
  if (!isFinished(r, recent.steps)) return { slug: recent.slug, step: Math.min(r.last, recent.steps - 1) };
  const from = path.indexOf(recent);
  for (let k = 1; k <= path.length; k++) {
    const l = path[(from + k) % path.length];
    const q = lessonProgress(p, l.slug);
    if (!isFinished(q, l.steps)) return { slug: l.slug, step: q.seen.length > 0 ? Math.min(q.last, l.steps - 1) : 0 };
  }
  return null;
}
