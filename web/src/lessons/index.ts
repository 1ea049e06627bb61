// Every lesson file in this folder, parsed, in path order. A new lesson is a new
// <slug>.md here: nothing else to register.
import { parseLesson, type Lesson } from './parse';

const files = import.meta.glob('./*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface LessonEntry {
  slug: string;
  lesson: Lesson | null;
  /** Why the file could not be read (shown on the home page instead of the lesson). */
  problem: string | null;
}

export const LESSONS: LessonEntry[] = Object.entries(files)
  .map(([path, source]) => {
    const slug = path.replace(/^\.\//, '').replace(/\.md$/, '');
    try {
      return { slug, lesson: parseLesson(slug, source), problem: null };
    } catch (e) {
      return { slug, lesson: null, problem: e instanceof Error ? e.message : String(e) };
    }
  })
  .sort((a, b) => (a.lesson?.order ?? 1e9) - (b.lesson?.order ?? 1e9) || a.slug.localeCompare(b.slug));

export const lessonBySlug = (slug: string): Lesson | null => LESSONS.find((l) => l.slug === slug)?.lesson ?? null;
