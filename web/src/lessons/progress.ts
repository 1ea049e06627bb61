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
  return p[slug] ?? { seen: [], passed: [], last: 0 };
}
