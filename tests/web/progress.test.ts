// Lesson progress as the start page and the lesson path read it: a finished
// lesson (every step opened, steps kept by id), "continue where you left off",
// what a stored record may hold (read defensively), and the version 1 records
// that kept step numbers.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLesson, stepId } from '../../web/src/lessons/parse';
import { PROGRESS_KEY, PROGRESS_KEY_V1, continueTarget, isFinished, lessonProgress, readProgress, resumeAt, seenCount, writeProgress, type Progress } from '../../web/src/lessons/progress';

const store = (value: unknown, key = PROGRESS_KEY) => ({ getItem: (k: string) => (k === key ? JSON.stringify(value) : null) });
const entry = (seen: string[], last: string, time: number) => ({ seen, passed: [], last, time });
const ids = (slug: string, n: number) => Array.from({ length: n }, (_, i) => `${slug}${i}`);
const path = [
  { slug: 'a', steps: ids('a', 3) },
  { slug: 'b', steps: ids('b', 2) },
  { slug: 'c', steps: ids('c', 4) },
];
const stepsOf = (slug: string) => path.find((l) => l.slug === slug)?.steps ?? null;

describe('finished lessons and where to continue', () => {
  it('a lesson is finished when every step was opened, in any order', () => {
    expect(isFinished(entry(['a2', 'a0', 'a1'], 'a1', 1), ids('a', 3))).toBe(true);
    expect(isFinished(entry(['a0', 'a2'], 'a2', 1), ids('a', 3))).toBe(false);
    expect(isFinished(entry(['a0', 'a1', 'a2', 'gone'], 'a1', 1), ids('a', 3))).toBe(true); // a step the lesson no longer has does not matter
    expect(isFinished(entry([], '', 0), [])).toBe(false);
    expect(seenCount(entry(['a0', 'gone', 'a2'], 'a2', 1), ids('a', 3))).toBe(2);
  });
  it('a step added to a finished lesson leaves every other step opened (kept by id, not by number)', () => {
    const before = ['question', 'norm', 'recap'];
    const p = entry(before, 'recap', 1);
    expect(isFinished(p, before)).toBe(true);
    const after = ['question', 'opening', 'norm', 'recap']; // a step inserted second
    expect(isFinished(p, after)).toBe(false);
    expect(seenCount(p, after)).toBe(3);
    expect(resumeAt(p, after)).toBe(3); // still at "recap", now the fourth step
  });
  it('nothing to continue before any lesson was opened', () => {
    expect(continueTarget({}, path)).toBeNull();
    expect(continueTarget({ zz: entry(['zz0'], 'zz0', 5) }, path)).toBeNull(); // progress of a lesson that no longer exists
  });
  it('the most recently opened lesson, at its last step', () => {
    const p: Progress = { a: entry(['a0', 'a1'], 'a1', 10), c: entry(['c0', 'c1', 'c2'], 'c2', 20) };
    expect(continueTarget(p, path)).toEqual({ slug: 'c', step: 2 });
    expect(continueTarget({ ...p, a: entry(['a0', 'a1'], 'a1', 30) }, path)).toEqual({ slug: 'a', step: 1 });
  });
  it('after a finished lesson, the next unfinished one on the path (wrapping round)', () => {
    expect(continueTarget({ a: entry(ids('a', 3), 'a2', 10) }, path)).toEqual({ slug: 'b', step: 0 });
    expect(continueTarget({ a: entry(ids('a', 3), 'a2', 10), b: entry(ids('b', 2), 'b1', 5) }, path)).toEqual({ slug: 'c', step: 0 });
    expect(continueTarget({ c: entry(ids('c', 4), 'c3', 10), a: entry(['a0'], 'a0', 5) }, path)).toEqual({ slug: 'a', step: 0 });
    const all: Progress = { a: entry(ids('a', 3), 'a0', 1), b: entry(ids('b', 2), 'b0', 2), c: entry(ids('c', 4), 'c0', 3) };
    expect(continueTarget(all, path)).toBeNull();
  });
  it('a last step the lesson no longer has resumes at its first step', () => {
    expect(continueTarget({ b: entry(['b0'], 'gone', 1) }, path)).toEqual({ slug: 'b', step: 0 });
  });
});

describe('stored progress', () => {
  it('keeps a valid visit time and drops anything else', () => {
    const read = readProgress(store({ version: 2, lessons: { a: { seen: ['a0'], passed: [], last: 'a0', time: 1234 } } }), stepsOf);
    expect(read.a).toEqual({ seen: ['a0'], passed: [], last: 'a0', time: 1234 });
    for (const bad of ['1234', -5, null, Number.NaN, {}, []])
      expect(readProgress(store({ version: 2, lessons: { a: { seen: ['a0'], last: 'a0', time: bad } } }), stepsOf).a.time, String(bad)).toBe(0);
    expect(readProgress(store({ version: 2, lessons: { a: { seen: ['a0'], last: 'a0' } } }), stepsOf).a.time).toBe(0);
    expect(readProgress(store({ version: 2, lessons: { a: { seen: ['a0', 3, 'Bad Id', 'a0'], last: 7 } } }), stepsOf).a).toEqual({ seen: ['a0'], passed: [], last: '', time: 0 });
    expect(lessonProgress({}, 'x')).toEqual({ seen: [], passed: [], last: '', time: 0 });
  });
  it('a version 1 record (step numbers) is read as today\'s steps; version 2, when present, wins', () => {
    const v1 = { version: 1, lessons: { a: { seen: [0, 2, 9, 2], passed: ['check'], last: 2, time: 50 }, gone: { seen: [0], last: 0, time: 60 }, c: { seen: [1], last: 8, time: 70 } } };
    expect(readProgress(store(v1, PROGRESS_KEY_V1), stepsOf)).toEqual({
      a: { seen: ['a0', 'a2'], passed: ['check'], last: 'a2', time: 50 }, // 9: past the end, dropped
      c: { seen: ['c1'], passed: [], last: '', time: 70 },
    });
    const both = { getItem: (k: string) => (k === PROGRESS_KEY_V1 ? JSON.stringify(v1) : k === PROGRESS_KEY ? JSON.stringify({ version: 2, lessons: { b: { seen: ['b1'], passed: [], last: 'b1', time: 5 } } }) : null) };
    expect(readProgress(both, stepsOf)).toEqual({ b: { seen: ['b1'], passed: [], last: 'b1', time: 5 } });
  });
  it('written as version 2, under its own key, and read back the same', () => {
    const kept = new Map<string, string>();
    const p: Progress = { a: entry(['a1', 'a0'], 'a0', 9) };
    writeProgress({ setItem: (k, v) => void kept.set(k, v) }, p);
    expect([...kept.keys()]).toEqual([PROGRESS_KEY]);
    expect(JSON.parse(kept.get(PROGRESS_KEY)!).version).toBe(2);
    expect(readProgress({ getItem: (k) => kept.get(k) ?? null }, stepsOf)).toEqual(p);
  });
});

describe('step ids', () => {
  it('from the title: lower-case letters and digits joined by "-", at most 64 characters, never empty', () => {
    expect(stepId('Not LayerNorm: no centring, no β')).toBe('not-layernorm-no-centring-no');
    expect(stepId('  ε and the 1e-6 floor  ')).toBe('and-the-1e-6-floor');
    expect(stepId('√ ∑')).toBe('step');
    expect(stepId('x'.repeat(80) + ' y').length).toBe(64);
    expect(stepId('a '.repeat(40))).not.toMatch(/-$/);
  });
  it('every step of every lesson has one, unique within its lesson; two steps with one id are refused', () => {
    const dir = new URL('../../web/src/lessons/', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      const l = parseLesson(f.replace(/\.md$/, ''), readFileSync(new URL(f, dir), 'utf8'));
      expect(new Set(l.steps.map((s) => s.id)).size, f).toBe(l.steps.length);
      for (const s of l.steps) expect(s.id, f).toBe(stepId(s.title));
    }
    expect(() => parseLesson('x', '---\ntitle: a\norder: 1\nsummary: s\n---\n## The Norm\ntext\n## the norm!\ntext\n')).toThrow(
      /steps "The Norm" and "the norm!" have the same id "the-norm"/,
    );
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
