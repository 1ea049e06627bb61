// Checks: judged fairly at the precision their question asks for (pure logic from
// parse.ts, no core), and lesson files that ask for understanding: every question
// that names a precision declares it, and at least a third of each lesson's
// checks ask for a prediction or probe a misconception. (The fairness test
// against every answer the real core computes is in lessons.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  describePrecision,
  formatAtPrecision,
  gatedBlocks,
  judge,
  lessonChecks,
  parseLesson,
  precisionInText,
  writtenPrecision,
  type CheckSpec,
  type Lesson,
  type Precision,
} from '../../web/src/lessons/parse';

const dir = new URL('../../web/src/lessons/', import.meta.url);
const lessons: Lesson[] = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .map((f) => parseLesson(f.replace(/\.md$/, ''), readFileSync(new URL(f, dir), 'utf8')));

const numeric = (precision: Precision | null, tolerance: CheckSpec['tolerance'] = { kind: 'rel', value: 1e-9 }): CheckSpec => ({
  id: 'c',
  kind: 'compute',
  question: 'q',
  answer: 'a',
  precision,
  tolerance,
  choices: null,
  hides: [],
  hint: 'the hint',
  explain: '',
});
const verdict = (p: Precision | null, exact: number, given: string) => judge(numeric(p), exact, given).kind;
const decimals = (digits: number): Precision => ({ kind: 'decimals', digits });
const sig = (digits: number): Precision => ({ kind: 'sig', digits });

describe('judging at the precision the question asks for', () => {
  it('six decimals of 0.999999875: cut 0.999999 and rounded 1.000000 are right (and 1, its value)', () => {
    for (const g of ['0.999999', '1.000000', '1', '0.9999999', '0.999999875']) expect(verdict(decimals(6), 0.999999875, g), g).toBe('right');
    for (const g of ['0.999998', '1.000001', '0.99999']) expect(verdict(decimals(6), 0.999999875, g), g).not.toBe('right');
  });
  it('a value the prose rounds first: z = −1.27846… to three decimals accepts −1.278 and −1.279, not −1.277 or −1.280', () => {
    const z = -1.2784645427610735;
    for (const g of ['-1.278', '-1.279', '−1.279', '-1.2785', '-1.27846']) expect(verdict(decimals(3), z, g), g).toBe('right');
    for (const g of ['-1.277', '-1.280', '1.278']) expect(verdict(decimals(3), z, g), g).not.toBe('right');
  });
  it('a widget reading 1.3995 (exact 1.39950787) answered to three decimals: 1.399 and 1.400 are right', () => {
    const exact = 1.3995078691177876;
    expect(verdict(decimals(3), exact, '1.399')).toBe('right');
    expect(verdict(decimals(3), exact, '1.400')).toBe('right');
    expect(verdict(decimals(3), exact, '1.4')).toBe('right'); // the same number as 1.400
    expect(verdict(decimals(3), exact, '1.398')).toBe('slip');
  });
  it('significant digits scale with the value: 2.5456e-8 to three accepts 2.54e-8, 2.55e-8, 2.55×10^-8 and 0.0000000255', () => {
    const d = 2.5455842211918878e-8;
    for (const g of ['2.54e-8', '2.55e-8', '2.55×10^-8', '0.0000000255', '2.5456e-8']) expect(verdict(sig(3), d, g), g).toBe('right');
    expect(verdict(sig(3), d, '2.56e-8')).toBe('slip');
    expect(verdict(sig(3), d, '2.5e-8')).toBe('slip'); // right to two digits
    expect(verdict(sig(3), d, '2.55e-7')).toBe('wrong');
    expect(verdict(sig(3), 138.80779814044098, '138')).toBe('right');
    expect(verdict(sig(3), 138.80779814044098, '139')).toBe('right');
    expect(verdict(sig(3), 138.80779814044098, '140')).toBe('slip');
  });
  it('an exact value on the grid is not widened by binary rounding: 0.5 to four decimals refuses 0.5001', () => {
    expect(verdict(decimals(4), 0.5, '0.5')).toBe('right');
    expect(verdict(decimals(4), 0.5, '0.5001')).not.toBe('right');
    expect(verdict(decimals(4), 0.5, '0.4999')).not.toBe('right');
  });
  it('a rounding slip is told apart from a wrong idea', () => {
    const exact = 0.7310585786300049; // four decimals: 0.7310 or 0.7311
    const slip = judge(numeric(decimals(4)), exact, '0.73');
    expect(slip).toEqual({ kind: 'slip', message: 'This looks like a rounding slip: the question asks for four decimals, and your answer has two.' });
    const last = judge(numeric(decimals(4)), exact, '0.7314');
    expect(last.kind).toBe('slip');
    if (last.kind === 'slip') expect(last.message).toMatch(/^This looks like a rounding slip: the question asks for four decimals\. Check your last digit or two/);
    // far off, the wrong sign, or zero: a wrong idea, which gets the check's hint
    for (const g of ['0.5', '0.8', '-0.7311', '0', '7.311']) expect(verdict(decimals(4), exact, g), g).toBe('wrong');
    // the mean of RMSNorm([2, 2, 2, 2]) is not 0: answering 0 (LayerNorm's answer) is a wrong idea, not a slip
    expect(verdict(decimals(6), 0.999999875, '0')).toBe('wrong');
    expect(verdict(decimals(6), 0.999999875, '0.9')).toBe('slip');
    const sigSlip = judge(numeric(sig(4)), 0.04525485119277378, '0.045');
    expect(sigSlip).toEqual({ kind: 'slip', message: 'This looks like a rounding slip: the question asks for four significant digits, and your answer has two.' });
  });
  it('no precision: integers exactly, otherwise the tolerance; choices by their text; unreadable text is said so', () => {
    expect(verdict(null, 1152, '1,152')).toBe('right');
    expect(verdict(null, 1152, '1151')).toBe('wrong'); // a count off by one is a wrong idea, never a slip
    expect(judge(numeric(null, { kind: 'abs', value: 1e-6 }), 0.9999999999999999, '1').kind).toBe('right');
    expect(verdict(null, 1152, 'about 1152')).toBe('unreadable');
    const choice = { ...numeric(null), choices: ['yes', 'no'] };
    expect(judge(choice, 'no', 'no').kind).toBe('right');
    expect(judge(choice, 'no', 'yes').kind).toBe('wrong');
  });
  it('helpers: what a typed number shows, the precision in words, the value written at a precision', () => {
    expect(writtenPrecision('0.0560')).toEqual({ decimals: 4, sig: 3 });
    expect(writtenPrecision('2.55e-8')).toEqual({ decimals: 10, sig: 3 });
    expect(writtenPrecision('1,152')).toEqual({ decimals: 0, sig: 4 });
    expect(writtenPrecision('x')).toBeNull();
    expect(describePrecision(decimals(1))).toBe('one decimal');
    expect(describePrecision(sig(3))).toBe('three significant digits');
    expect(formatAtPrecision(0.999999875, decimals(6))).toBe('1.000000');
    expect(formatAtPrecision(2.5455842211918878e-8, sig(3))).toBe('2.55e-8');
    expect(formatAtPrecision(138.80779814044098, sig(3))).toBe('139');
    expect(precisionInText('What is r? (Four decimals are enough.)')).toEqual(decimals(4));
    expect(precisionInText('Give three significant digits, e.g. 1.23e-8.')).toEqual(sig(3));
    expect(precisionInText('How many rows?')).toBeNull();
  });
});

describe('the lesson files ask for understanding', () => {
  const all = lessons.flatMap((l) => lessonChecks(l).map((c) => ({ slug: l.slug, c })));

  it('every question that asks for N decimals or N significant digits declares that precision, and only those do', () => {
    expect(all.filter(({ c }) => c.precision !== null).length).toBeGreaterThan(30);
    for (const { slug, c } of all) expect(c.precision, `${slug}: ${c.id}: “${c.question}”`).toEqual(precisionInText(c.question));
  });

  it('at least a third of each lesson’s checks ask for a prediction or probe a misconception', () => {
    expect(lessons.length).toBeGreaterThanOrEqual(8);
    for (const l of lessons) {
      const checks = lessonChecks(l);
      const probing = checks.filter((c) => c.kind === 'predict' || c.kind === 'misconception');
      expect(probing.length * 3, `${l.slug}: ${probing.length} of ${checks.length}`).toBeGreaterThanOrEqual(checks.length);
      expect(checks.some((c) => c.kind === 'predict'), `${l.slug} has a prediction`).toBe(true);
    }
  });

  it('every prediction hides what would give it away, placed after it in its step', () => {
    for (const l of lessons)
      for (const s of l.steps) {
        const gates = gatedBlocks(s);
        s.blocks.forEach((b, i) => {
          if (b.kind !== 'check' || b.check.hides.length === 0) return;
          const hidden = [...gates].filter(([, ids]) => ids.includes(b.check.id)).map(([j]) => j);
          expect(hidden.length, `${l.slug}: ${b.check.id}`).toBe(b.check.hides.length);
          for (const j of hidden) {
            expect(j).toBeGreaterThan(i);
            expect(['widget', 'code']).toContain(s.blocks[j].kind);
          }
        });
      }
  });

  it('the RMSNorm lesson probes the misconceptions of its reference text: unit variance, centring, RMSNorm(2x) = RMSNorm(x) exactly', () => {
    const rms = lessonChecks(lessons.find((l) => l.slug === 'rmsnorm')!);
    const probe = (id: string) => rms.find((c) => c.id === id)!;
    expect(probe('rms-unit-variance')).toMatchObject({ kind: 'misconception', choices: ['yes, the variance is 1', 'no, it is not 1'] });
    expect(probe('rms-centre').kind).toBe('misconception');
    expect(probe('rms-double-exact')).toMatchObject({ kind: 'misconception', hides: ['code'] });
    // every answer is an expression for the core, never a typed-in choice
    for (const id of ['rms-unit-variance', 'rms-centre', 'rms-double-exact']) expect(probe(id).answer).toMatch(/norm\(/);
  });
});
