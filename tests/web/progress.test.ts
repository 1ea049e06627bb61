// Lesson progress as the start page and the lesson path read it: a finished
// lesson (every step opened), "continue where you left off", and what a stored
// record may hold (the visit time is read defensively like the rest).
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLesson } from '../../web/src/lessons/parse';
import { PROGRESS_KEY, continueTarget, isFinished, lessonProgress, readProgress, type Progress } from '../../web/src/lessons/progress';

const store = (value: unknown) => ({ getItem: (k: string) => (k === PROGRESS_KEY ? JSON.stringify(value) : null) });
const entry = (seen: number[], last: number, time: number) => ({ seen, passed: [], last, time });
const path = [
  { slug: 'a', steps: 3 },
  { slug: 'b', steps: 2 },
  { slug: 'c', steps: 4 },
];

describe('finished lessons and where to continue', () => {
  it('a lesson is finished when every step was opened, in any order', () => {
    expect(isFinished(entry([2, 0, 1], 1, 1), 3)).toBe(true);
    expect(isFinished(entry([0, 2], 2, 1), 3)).toBe(false);
    expect(isFinished(entry([0, 1, 2, 7], 1, 1), 3)).toBe(true); // a stale index past the end does not matter
    expect(isFinished(entry([], 0, 0), 0)).toBe(false);
  });
  it('nothing to continue before any lesson was opened', () => {
    expect(continueTarget({}, path)).toBeNull();
    expect(continueTarget({ zz: entry([0], 0, 5) }, path)).toBeNull(); // progress of a lesson that no longer exists
  });
  it('the most recently opened lesson, at its last step', () => {
    const p: Progress = { a: entry([0, 1], 1, 10), c: entry([0, 1, 2], 2, 20) };
    expect(continueTarget(p, path)).toEqual({ slug: 'c', step: 2 });
    expect(continueTarget({ ...p, a: entry([0, 1], 1, 30) }, path)).toEqual({ slug: 'a', step: 1 });
  });
  it('after a finished lesson, the next unfinished one on the path (wrapping round)', () => {
    expect(continueTarget({ a: entry([0, 1, 2], 2, 10) }, path)).toEqual({ slug: 'b', step: 0 });
    expect(continueTarget({ a: entry([0, 1, 2], 2, 10), b: entry([0, 1], 1, 5) }, path)).toEqual({ slug: 'c', step: 0 });
    expect(continueTarget({ c: entry([0, 1, 2, 3], 3, 10), a: entry([0], 0, 5) }, path)).toEqual({ slug: 'a', step: 0 });
    const all: Progress = { a: entry([0, 1, 2], 0, 1), b: entry([0, 1], 0, 2), c: entry([0, 1, 2, 3], 0, 3) };
    expect(continueTarget(all, path)).toBeNull();
  });
  it('a last step past the end of a lesson that got shorter is clamped', () => {
    expect(continueTarget({ b: entry([0], 9, 1) }, path)).toEqual({ slug: 'b', step: 1 });
  });
});

describe('stored progress', () => {
  it('keeps a valid visit time and drops anything else', () => {
    const read = readProgress(store({ version: 1, lessons: { a: { seen: [0], passed: [], last: 0, time: 1234 } } }));
    expect(read.a.time).toBe(1234);
    for (const bad of ['1234', -5, null, Number.NaN, {}, []])
      expect(readProgress(store({ version: 1, lessons: { a: { seen: [0], last: 0, time: bad } } })).a.time, String(bad)).toBe(0);
    expect(readProgress(store({ version: 1, lessons: { a: { seen: [0], last: 0 } } })).a.time).toBe(0); // written before times were kept
    expect(lessonProgress({}, 'x')).toEqual({ seen: [], passed: [], last: 0, time: 0 });
  });
});

describe('lesson recaps', () => {
  it('every lesson file has a recap for its finished state, in plain words', () => {
    const dir = new URL('../../web/src/lessons/', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      const l = parseLesson(f.replace(/\.md$/, ''), readFileSync(new URL(f, dir), 'utf8'));
      expect(l.recap.length, f).toBeGreaterThan(40);
      expect(l.recap, f).not.toMatch(/web\/src|\.tsx?\b|\{\{/);
    }
  });
  it('recap is optional in the format', () => {
    expect(parseLesson('x', '---\ntitle: a\norder: 1\nsummary: s\n---\n## A\ntext\n').recap).toBe('');
  });
});
