// The lesson file format accepts what docs/lesson-format.md describes and refuses
// everything else with a message that names the problem: generated bad variants of
// a good file, and of every check in the real lessons.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLesson } from '../../web/src/lessons/parse';

const GOOD = [
  '---',
  'title: A lesson',
  'order: 3',
  'summary: One line.',
  'recap: What you can do now.',
  '---',
  '## First step',
  'Prose with {{ 1 + 1 | int }}.',
  '```widget row-norm x=1,2',
  '```',
  '```check',
  'id: two',
  'kind: compute',
  'question: What is 1 + 1?',
  'answer: 1 + 1',
  'hint: add',
  'explain: two',
  '```',
  '```check',
  'id: p',
  'kind: predict',
  'question: Guess, then look.',
  'answer: 0.5',
  'precision: decimals 1',
  'hides: code',
  '```',
  '```glass',
  'print(1)',
  '```',
].join('\n');

const replaceLine = (from: string, to: string) => GOOD.replace(from, to);

describe('the lesson format', () => {
  it('accepts the good file', () => {
    const l = parseLesson('x', GOOD);
    expect(l.recap).toBe('What you can do now.');
    expect(l.steps[0].blocks.map((b) => b.kind)).toEqual(['markdown', 'widget', 'check', 'check', 'code']);
  });

  const bad: [string, string, RegExp][] = [
    ['unknown frontmatter key', replaceLine('order: 3', 'order: 3\nauthor: me'), /unknown frontmatter key author/],
    ['frontmatter key twice', replaceLine('order: 3', 'order: 3\norder: 4'), /order twice/],
    ['missing title', replaceLine('title: A lesson\n', ''), /no title/],
    ['order not a number', replaceLine('order: 3', 'order: three'), /not a number/],
    ['no frontmatter', GOOD.slice(4), /frontmatter/],
    ['text before the first step', replaceLine('## First step', 'stray text\n## First step'), /before the first/],
    ['unclosed fence', GOOD + '\n```glass\nprint(2)', /never closed/],
    ['widget without a name', replaceLine('```widget row-norm x=1,2', '```widget'), /has no name/],
    ['widget argument without =', replaceLine('```widget row-norm x=1,2', '```widget row-norm x'), /not key=value/],
    ['widget argument twice', replaceLine('```widget row-norm x=1,2', '```widget row-norm x=1 x=2'), /given twice/],
    ['text inside a widget block', replaceLine('```widget row-norm x=1,2\n```', '```widget row-norm\nx=1\n```'), /holds no text/],
    ['misspelt check field', replaceLine('hint: add', 'hnit: add'), /unknown field hnit/],
    ['check field twice', replaceLine('hint: add', 'hint: add\nhint: again'), /given twice/],
    ['text before the first field', replaceLine('id: two', 'stray\nid: two'), /before the first field/],
    ['check without id', replaceLine('id: two\n', ''), /no id/],
    ['check without kind', replaceLine('kind: compute\n', ''), /no kind/],
    ['unknown kind', replaceLine('kind: compute', 'kind: quiz'), /not one of/],
    ['bad precision', replaceLine('precision: decimals 1', 'precision: 3 places'), /bad precision/],
    ['precision and tolerance', replaceLine('precision: decimals 1', 'precision: decimals 1\ntolerance: 0.1'), /not both/],
    ['bad tolerance', replaceLine('hint: add', 'tolerance: lots\nhint: add'), /bad tolerance/],
    ['one choice', replaceLine('hint: add', 'choices: yes\nhint: add'), /at least two/],
    ['prediction that hides nothing', replaceLine('hides: code\n', ''), /must say what it hides/],
    ['a compute check that hides', replaceLine('hint: add', 'hides: row-norm\nhint: add'), /hides nothing/],
    ['hidden block before its check', replaceLine('hides: code', 'hides: row-norm'), /hides the widget row-norm, but none comes after it/],
    ['two checks with one id', replaceLine('id: p', 'id: two'), /two checks have the id two/],
    ['an empty step', GOOD + '\n## Empty', /is empty/],
  ];
  for (const [what, source, message] of bad)
    it(`refuses: ${what}`, () => {
      expect(() => parseLesson('x', source)).toThrow(message);
      expect(() => parseLesson('x', source)).toThrow(/^lesson x: /);
    });

  it('refuses a misspelt field in any check of the real lessons (generated from the files)', () => {
    const dir = new URL('../../web/src/lessons/', import.meta.url);
    let n = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.md'))) {
      const source = readFileSync(new URL(f, dir), 'utf8');
      const lines = source.split('\n');
      lines.forEach((line, i) => {
        const m = /^(id|kind|question|answer|precision|tolerance|choices|hides|hint|explain):/.exec(line);
        if (m === null || i === 0) return;
        const broken = [...lines.slice(0, i), line.replace(m[1], `${m[1]}x`), ...lines.slice(i + 1)].join('\n');
        expect(() => parseLesson('y', broken), `${f}:${i + 1}`).toThrow(/unknown field|no (id|kind|question|answer)|must say/);
        n++;
      });
    }
    expect(n).toBeGreaterThan(300);
  });
});
