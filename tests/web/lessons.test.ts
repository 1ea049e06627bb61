// Lesson content: every file parses, every widget name resolves, every check's
// answer is computed by the real core (wasm in Node, the worker's own code) and
// judged fairly at the precision its question asks for, and the seed example's
// code cell prints the verified output.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { formatArray, formatScalar } from '../../web/src/common/numpyFormat';
import { isRight, judge, lessonChecks, parseAnswerNumber, parseLesson, stepExpressions, type CheckSpec, type Lesson, type Precision } from '../../web/src/lessons/parse';
import type { ValueOutcome } from '../../web/src/protocol/base';
import { readLessonUrl, withLesson, writeLessonUrl } from '../../web/src/lessons/lessonUrl';
import { PROGRESS_KEY, PROGRESS_KEY_V1, readProgress } from '../../web/src/lessons/progress';
import { WIDGET_NAMES, WIDGETS_BY_MODULE, isWidgetName } from '../../web/src/lessons/widgets';
import { evaluate, runCode } from '../../web/src/worker/lessonOps/code';
import { broadcastShapes as computeBroadcast, autogradGraph as computeGraph } from '../../web/src/worker/lessonOps/autograd';
import { withShippedModel } from './load';
import { runExperiment } from './experimentRuns';
import { EXPERIMENTS } from '../../web/src/app/lessonExperiments';
import { experimentsRead, type ExperimentRuns } from '../../web/src/viewmodels/experiments';
import type { WorkerState } from '../../web/src/worker/state';

const dir = new URL('../../web/src/lessons/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
const lessons: Lesson[] = files.map((f) => parseLesson(f.replace(/\.md$/, ''), readFileSync(new URL(f, dir), 'utf8')));

describe('lesson files', () => {
  it('there is at least the RMSNorm lesson, and every file parses with title, order, summary and steps', () => {
    expect(lessons.map((l) => l.slug)).toContain('rmsnorm');
    for (const l of lessons) {
      expect(l.title.length).toBeGreaterThan(0);
      expect(l.steps.length).toBeGreaterThan(0);
    }
  });
  it('every widget name resolves in the registry', () => {
    for (const l of lessons)
      for (const s of l.steps) for (const b of s.blocks) if (b.kind === 'widget') expect(isWidgetName(b.name), `${l.slug}: ${b.name}`).toBe(true);
    expect(isWidgetName('no-such-widget')).toBe(false);
  });
  it('the registry finds every widget module, and no two modules claim one name', () => {
    const claimed = Object.values(WIDGETS_BY_MODULE).flat();
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed].sort()).toEqual(WIDGET_NAMES);
    expect(WIDGET_NAMES).toContain('row-norm');
    expect(WIDGET_NAMES.length).toBeGreaterThanOrEqual(21);
  });
  it('the RMSNorm lesson has its 11 sections, each with a widget and at least two checks', () => {
    const l = lessons.find((x) => x.slug === 'rmsnorm')!;
    expect(l.steps).toHaveLength(11);
    for (const s of l.steps) {
      expect(s.blocks.some((b) => b.kind === 'widget'), s.title).toBe(true);
      expect(s.blocks.filter((b) => b.kind === 'check').length, s.title).toBeGreaterThanOrEqual(2);
    }
  });
  it('the lesson path counts every check the file has (each ```check block, read from the file itself)', () => {
    for (const f of files) {
      const source = readFileSync(new URL(f, dir), 'utf8');
      const fences = source.split('\n').filter((line) => /^```check\s*$/.test(line)).length;
      const l = lessons.find((x) => x.slug === f.replace(/\.md$/, ''))!;
      expect(lessonChecks(l).length, f).toBe(fences);
      expect(new Set(lessonChecks(l).map((c) => c.id)).size, f).toBe(fences);
    }
    // RMSNorm: 19 checks, then 5 more that probe misconceptions and ask for predictions
    // (one node or a chain; centring; unit variance; RMSNorm(2x) = RMSNorm(x) exactly; depth compounds),
    // and 3 on I + J_F measured on the real model (the gradient ledger on the learner's prompt),
    // then 6 answered from the learner's own runs (pre-norm vs post-norm, the residual switch);
    // then the story (issue 15): the opening question on the learner's prompt (2), LayerNorm's op count
    // and a centred input (2), ε in float32 (2), the sphere and the gradient at right angles (a new step, 5),
    // the branch inputs, the trained γ and the scaled init (6), post-norm's stream (1), the recap (2)
    const rms = lessons.find((x) => x.slug === 'rmsnorm')!;
    expect(rms.steps.map((s) => s.blocks.filter((b) => b.kind === 'check').length)).toEqual([4, 3, 6, 6, 5, 9, 7, 2, 7, 2, 2]);
  });
  it('a check answered from the learner’s runs never hides the experiment it needs (it could never be answered)', () => {
    let read = 0;
    for (const l of lessons)
      for (const c of lessonChecks(l))
        if (experimentsRead(c.answer).length > 0) {
          read++;
          expect(c.hides, `${l.slug}: ${c.id}`).not.toContain('train-experiment');
        }
    expect(read).toBeGreaterThanOrEqual(20);
  });
  it('a bad file is refused with a message naming the problem', () => {
    expect(() => parseLesson('x', 'no frontmatter')).toThrow(/frontmatter/);
    // a quoted value (YAML style, for a title with a colon) loses its quotes
    expect(parseLesson('x', '---\ntitle: "A: b"\norder: 1\nsummary: \'s\'\n---\n## A\ntext\n').title).toBe('A: b');
    const withCheck = (body: string, after = '') => `---\ntitle: a\norder: 1\nsummary: s\n---\n## A\n\`\`\`check\nid: a\n${body}\n\`\`\`\n${after}`;
    expect(() => parseLesson('x', withCheck('kind: read'))).toThrow(/no question/);
    expect(() => parseLesson('x', withCheck('question: q\nanswer: 1'))).toThrow(/no kind/);
    expect(() => parseLesson('x', withCheck('kind: guess\nquestion: q\nanswer: 1'))).toThrow(/kind "guess" is not one of read, compute, predict, misconception/);
    expect(() => parseLesson('x', withCheck('kind: predict\nquestion: q\nanswer: 1'))).toThrow(/must say what it hides/);
    expect(() => parseLesson('x', withCheck('kind: read\nquestion: q\nanswer: 1\nhides: row-norm', '```widget row-norm\n```\n'))).toThrow(/a read check hides nothing/);
    expect(() => parseLesson('x', withCheck('kind: predict\nquestion: q\nanswer: 1\nhides: row-norm'))).toThrow(/hides the widget row-norm, but none comes after it/);
    expect(() => parseLesson('x', withCheck('kind: predict\nquestion: q\nanswer: 1\nhides: code'))).toThrow(/hides a code cell, but none comes after it/);
    expect(() => parseLesson('x', withCheck('kind: read\nquestion: q (Four decimals.)\nanswer: 1\nprecision: four'))).toThrow(/bad precision "four"/);
    expect(() => parseLesson('x', withCheck('kind: read\nquestion: q\nanswer: 1\nprecision: sig 3\ntolerance: abs 1'))).toThrow(/precision or tolerance, not both/);
    // a prediction hides the widget after it
    const ok = parseLesson('x', withCheck('kind: predict\nquestion: q\nanswer: 1\nhides: row-norm, code', '```widget row-norm\n```\n```glass\nprint(1)\n```\n'));
    expect(lessonChecks(ok)[0]).toMatchObject({ kind: 'predict', hides: ['row-norm', 'code'], precision: null });
    expect(() => parseLesson('x', '---\ntitle: a\norder: 1\nsummary: s\n---\n## A\n```glass\nprint(1)\n')).toThrow(/never closed/);
  });
});

describe('numbers as code cells print them (numpy style)', () => {
  it('fixed and scientific notation', () => {
    expect(formatArray([[0.848528, 1.131371]])).toBe('[[0.848528, 1.131371]]');
    expect(formatArray([[1, 2], [3, -4.5]])).toBe('[[ 1. ,  2. ],\n [ 3. , -4.5]]');
    expect(formatScalar(1152)).toBe('1152.');
    expect(formatArray([NaN, 1])).toBe('[nan,  1.]');
  });
  it('answers are read generously', () => {
    expect(parseAnswerNumber('1,152')).toBe(1152);
    expect(parseAnswerNumber(' 2.55e-8 ')).toBe(2.55e-8);
    expect(parseAnswerNumber('−0.5')).toBe(-0.5);
    expect(parseAnswerNumber('abc')).toBeNull();
  });
});

describe('lesson addresses and progress', () => {
  const steps = (s: string) => (s === 'rmsnorm' ? 8 : null);
  it('reads and validates lesson and step', () => {
    expect(readLessonUrl('?view=lessons&lesson=rmsnorm&step=3', steps)).toEqual({ route: { slug: 'rmsnorm', step: 2 }, problems: [] });
    expect(readLessonUrl('?lesson=rmsnorm&step=99', steps).route).toEqual({ slug: 'rmsnorm', step: 0 });
    expect(readLessonUrl('?lesson=rmsnorm&step=99', steps).problems[0]).toMatch(/step=/);
    expect(readLessonUrl('?lesson=nope', steps).route.slug).toBeNull();
    expect(writeLessonUrl({ slug: 'rmsnorm', step: 4 }, '?view=lab&x=3,4')).toBe('?view=lessons&x=3,4&lesson=rmsnorm&step=5');
  });
  it('a link from a step to another view keeps the lesson and step in the address', () => {
    const here = '?view=lessons&lesson=rmsnorm&step=7';
    expect(withLesson('?view=inspector&compare=a,b', here)).toBe('?view=inspector&compare=a,b&lesson=rmsnorm&step=7');
    expect(withLesson('?view=lessons', here)).toBe('?view=lessons');
    expect(withLesson('?view=lab', '?view=lessons')).toBe('?view=lab');
  });
  it('garbage in storage reads as no progress, never throws, in either version', () => {
    const steps = (slug: string) => (slug === 'rmsnorm' ? ['a', 'b'] : null);
    for (const key of [PROGRESS_KEY, PROGRESS_KEY_V1])
      for (const junk of ['{', 'null', '[]', '42', '{"lessons": 7}', '{"lessons": {"rmsnorm": {"seen": "x", "passed": [1, "a"], "last": -3}}}']) {
        const p = readProgress({ getItem: (k) => (k === key ? junk : null) }, steps);
        expect(typeof p).toBe('object');
        if (p.rmsnorm) expect(p.rmsnorm).toEqual({ seen: [], passed: ['a'], last: '', time: 0 });
      }
    expect(readProgress({ getItem: () => { throw new Error('denied'); } }, steps)).toEqual({});
  });
});

describe('lessons against the real core', () => {
  let w: WorkerState;
  let glass: Glass;
  /** Every check with the value the core computed for its answer, and every step's expressions. */
  let answered: { where: string; check: CheckSpec; value: ValueOutcome }[];
  let expressions: { where: string; expr: string; value: ValueOutcome }[];
  /** The lessons' experiments, trained as the page trains them: what `runs` is in their checks. */
  const runs: Record<string, ExperimentRuns> = {};
  withShippedModel((s) => ((w = s), (glass = s.glass)));
  beforeAll(async () => {
    const read = new Set(lessons.flatMap((l) => l.steps.flatMap((s) => stepExpressions(s).flatMap(experimentsRead))));
    for (const id of read) runs[id] = (await runExperiment(glass, id)).runs;
  }, 600_000);
  beforeAll(() => {
    answered = [];
    expressions = [];
    for (const l of lessons)
      for (const s of l.steps) {
        const where = `${l.slug} / ${s.title}`;
        const values = new Map(stepExpressions(s).map((e) => [e, evaluate(w, [e], { runs })[0]]));
        for (const [expr, value] of values) expressions.push({ where, expr, value });
        for (const b of s.blocks) if (b.kind === 'check') answered.push({ where, check: b.check, value: values.get(b.check.answer)! });
      }
    // every expression of every lesson, run by the core: it grows with the lessons (the generation lesson's samples are hundreds of runs of the model)
  }, 300_000);

  it('every check has a computed answer, and the right answer is accepted, a wrong one refused', () => {
    expect(answered.length).toBe(lessons.reduce((n, l) => n + lessonChecks(l).length, 0));
    // the step's expressions include the live numbers of check questions, hints and explanations
    for (const { where, expr, value } of expressions) expect(value.ok, `${where}: ${expr}: ${value.ok ? '' : value.error.message}`).toBe(true);
    for (const { check, value: v } of answered) {
      if (!v.ok) continue;
      if (check.choices !== null) {
        expect(check.choices, check.id).toContain(v.value);
        expect(isRight(check, v.value, String(v.value))).toBe(true);
        expect(isRight(check, v.value, check.choices.find((c) => c !== v.value)!)).toBe(false);
      } else {
        expect(typeof v.value, check.id).toBe('number');
        const a = v.value as number;
        expect(Number.isFinite(a), check.id).toBe(true);
        expect(isRight(check, a, String(a)), check.id).toBe(true);
        expect(isRight(check, a, String(a === 0 ? 1 : a * 1.5)), check.id).toBe(false);
      }
    }
  });

  it('fairness: every numeric answer, cut or rounded to the precision its question asks for, is accepted; a slip is told apart from a wrong idea', () => {
    let numeric = 0;
    for (const { where, check, value } of answered) {
      if (check.choices !== null || !value.ok) continue;
      const a = value.value as number;
      const label = `${where}: ${check.id} (exact ${a})`;
      numeric++;
      if (check.precision === null) {
        // no precision asked: an integer, or a value a learner writes in full (1e-12, 1, 0); six significant digits suffice
        expect(judge(check, a, String(Number(a.toPrecision(6)))).kind, label).toBe('right');
        continue;
      }
      const { cut, rounded, decimals } = atPrecision(a, check.precision);
      expect(judge(check, a, cut).kind, `${label}: cut ${cut}`).toBe('right');
      expect(judge(check, a, rounded).kind, `${label}: rounded ${rounded}`).toBe('right');
      // with a typographic minus and more digits than asked, still right
      expect(judge(check, a, a.toPrecision(12).replace('-', '−')).kind, label).toBe('right');
      // a clearly wrong value gets the check's own hint
      expect(judge(check, a, String(a * 1.5)).kind, `${label}: ×1.5`).toBe('wrong');
      expect(judge(check, a, String(-a)).kind, `${label}: −a`).toBe('wrong');
      // off by 3 in the last place asked for: refused, with the rounding message
      const unit = 10 ** -decimals;
      const off = (Number(rounded) + 3 * unit * Math.sign(a)).toFixed(Math.max(0, decimals));
      const slip = judge(check, a, off);
      expect(slip.kind, `${label}: ${off}`).toBe('slip');
      if (slip.kind === 'slip') expect(slip.message).toMatch(new RegExp(`rounding slip: the question asks for ${describe_(check.precision)}`));
      // right to one digit fewer than asked: when that is refused, it is a slip too
      const fewer = atPrecision(a, { ...check.precision, digits: check.precision.digits - 1 }).rounded;
      const verdict = judge(check, a, fewer).kind;
      if (verdict !== 'right' && Number(fewer) !== 0) expect(verdict, `${label}: ${fewer}`).toBe('slip');
    }
    expect(numeric).toBeGreaterThan(40);
  });

  it("every experiment a lesson reads exists, is shown by a widget in the step that asks about it, and trained to its end", () => {
    const ids = EXPERIMENTS.map((e) => e.id);
    for (const l of lessons)
      for (const s of l.steps) {
        const shown = new Set(s.blocks.flatMap((b) => (b.kind === 'widget' && b.name === 'train-experiment' ? [b.args.experiment] : [])));
        for (const id of stepExpressions(s).flatMap(experimentsRead)) {
          expect(ids, `${l.slug} / ${s.title}: runs.${id}`).toContain(id);
          expect(shown.has(id), `${l.slug} / ${s.title}: runs.${id} needs its widget in the step`).toBe(true);
        }
      }
    expect(Object.keys(runs).sort()).toEqual([...ids].sort());
    for (const [id, r] of Object.entries(runs))
      for (const run of [r.A, r.B]) {
        expect(run.steps, `${id} ${run.label}`).toBe(EXPERIMENTS.find((e) => e.id === id)!.a.train.steps);
        expect(run.divergedAt).toBeNull();
        expect(run.valLoss).not.toBeNull();
      }
  });

  it('checks read the learner’s runs: a different run gives a different answer (not a value typed into the lesson)', () => {
    const swapped = Object.fromEntries(Object.entries(runs).map(([id, r]) => [id, { A: r.B, B: r.A }]));
    let differs = 0;
    let read = 0;
    for (const l of lessons)
      for (const s of l.steps)
        for (const b of s.blocks) {
          if (b.kind !== 'check' || experimentsRead(b.check.answer).length === 0) continue;
          read++;
          const [mine, other] = [evaluate(w, [b.check.answer], { runs })[0], evaluate(w, [b.check.answer], { runs: swapped })[0]];
          if (mine.ok && other.ok && JSON.stringify(mine.value) !== JSON.stringify(other.value)) differs++;
        }
    expect(read).toBeGreaterThanOrEqual(20);
    // most answers change when run A and run B trade places; the rest ask about one run's own settings
    expect(differs).toBeGreaterThan(read / 2);
    // without the runs an answer that reads them is an error, never a stale number
    const [none] = evaluate(w, ['runs.prenorm.A.valLoss']);
    expect(none.ok).toBe(false);
  });

  it('the pre-norm vs post-norm runs show the claims of the RMSNorm lesson', () => {
    const last = (g: number[][]) => g[g.length - 1];
    const post = last(runs.prenorm.B.blockGradNorms);
    const pre = last(runs.prenorm.A.blockGradNorms);
    // post-norm: the last block's gradient is several times the first's; pre-norm: not so
    expect(post[post.length - 1] / post[0]).toBeGreaterThan(3);
    expect(pre[pre.length - 1] / pre[0]).toBeLessThan(3);
    // without residuals nothing reaches block 0, and the loss stays at ln 256
    expect(last(runs.residual.B.blockGradNorms)[0]).toBeLessThan(1e-6);
    expect(runs.residual.B.losses.at(-1)!).toBeCloseTo(Math.log(256), 2);
    // AdamW after one step: m² / v = (1 − β₁)² / (1 − β₂) = 0.2 whatever the gradient
    const p = runs.adamw.A.probes[0];
    expect(p.m[0] ** 2 / p.v[0]).toBeCloseTo(0.2, 4);
    // the embedding of byte 0 never gets a gradient: only weight decay moves it, by 1 − lr λ a step
    const e = runs.adamw.B.probes[2];
    expect(e.m.every((x) => x === 0) && e.v.every((x) => x === 0)).toBe(true);
    for (const t of [5, 50, 100]) expect(e.value[t] / e.value[t - 1]).toBeCloseTo(1 - runs.adamw.B.lr[t] * runs.adamw.B.weightDecay, 6);
    // γ (a vector) is not decayed: with a zero gradient it would not move at all; it moves by its gradient only
    expect(runs.adamw.A.probes[1].m.some((x) => x !== 0)).toBe(true);
  });

  it('the figures of the seed come out of the live model: 9 norms, 1,152 parameters', () => {
    const [norms, params, d] = evaluate(w, ['model.info().norms', "model.info().parameterTable.find(g => g.kind === 'norm').params", 'model.info().d']);
    expect(norms).toEqual({ ok: true, value: 9 });
    expect(params).toEqual({ ok: true, value: 1152 });
    expect(d).toEqual({ ok: true, value: 128 });
  });

  it('lesson code reads parameters and their gradients from the loaded model', () => {
    const [shape, row, gradShape, missing] = evaluate(w, [
      "model.param('tok_emb.weight').shape",
      "model.param('tok_emb.weight', 'float64').slice(0, 65, 66).reshape([128]).sub(glass.tensor(model.run('A', { backward: false }).snapshots.embed.data, { dtype: 'float64' })).square().sum().item()",
      "(model.run('AB'), model.paramGrad('head.weight').shape)",
      "model.param('nope')",
    ]);
    expect(shape).toEqual({ ok: true, value: [256, 128] });
    // the embedding of byte 65 ("A") is row 65 of tok_emb, exactly
    expect(row).toEqual({ ok: true, value: 0 });
    expect(gradShape).toEqual({ ok: true, value: [256, 128] });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.message).toMatch(/no parameter named "nope"/);
  });

  it("the example's code cell prints the seed's verified output", () => {
    const l = lessons.find((x) => x.slug === 'rmsnorm')!;
    const cell = l.steps[3].blocks.find((b) => b.kind === 'code');
    expect(cell?.kind).toBe('code');
    const out = runCode(w, (cell as { code: string }).code);
    expect(out.error).toBeNull();
    expect(out.output).toBe('[[0.848528, 1.131371]]\n[[2.54558422e-08, 3.39411230e-08]]');
  });

  it('every code cell runs without an error', () => {
    for (const l of lessons)
      for (const s of l.steps)
        for (const b of s.blocks) if (b.kind === 'code') expect(runCode(w, b.code).error, `${l.slug}: ${s.title}`).toBeNull();
  });

  it('the autograd-graph widget: the recorded graph with values and gradients (a used twice: b + 1)', () => {
    const { y, nodes } = computeGraph(glass, { expression: 'mul-add', a: [1, 2, 3], b: [4, 5, 6] });
    expect(y).toBe(4 + 10 + 18 + 6);
    expect(nodes.map((n) => n.op)).toEqual(['leaf', 'leaf', 'mul', 'add', 'sum']);
    expect(nodes.find((n) => n.name === 'a')!.grad).toEqual([5, 6, 7]);
    expect(nodes.find((n) => n.name === 'b')!.grad).toEqual([1, 2, 3]);
    expect(nodes.at(-1)!.grad).toEqual([1]);
    expect(() => computeGraph(glass, { expression: 'sq-mean', a: [1, 2], b: [1] })).toThrow(/same length/);
  });

  it('the broadcasting widget: shapes from the core, its error for shapes that do not fit', () => {
    expect(computeBroadcast(glass, { a: [4, 1, 3], b: [2, 1] })).toEqual({ shape: [4, 2, 3], numel: 24 });
    expect(computeBroadcast(glass, { a: [], b: [5] })).toEqual({ shape: [5], numel: 5 });
    expect(() => computeBroadcast(glass, { a: [3], b: [4] })).toThrow(/broadcast/);
    expect(() => computeBroadcast(glass, { a: [1000], b: [1] })).toThrow(/0 to 64/);
  });

  it('a failing code cell reports the error as data and keeps what it printed', () => {
    const out = runCode(w, "print(1.5); glass.tensor([1, 2]).add(glass.tensor([1, 2, 3]));");
    expect(out.output).toBe('1.5');
    expect(out.error?.message).toMatch(/shape|broadcast/i);
  });
});

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const describe_ = (p: Precision) => `${WORDS[p.digits]} ${p.kind === 'decimals' ? (p.digits === 1 ? 'decimal' : 'decimals') : p.digits === 1 ? 'significant digit' : 'significant digits'}`;

/**
 * The exact value written to a precision two ways, from the digits of its exact
 * decimal expansion (independent of the judge's arithmetic): cut after the last
 * digit asked for, and rounded there. `decimals`: the places after the point.
 */
function atPrecision(a: number, p: Precision): { cut: string; rounded: string; decimals: number } {
  const decimals = p.kind === 'decimals' ? p.digits : p.digits - 1 - Math.floor(Math.log10(Math.abs(a)));
  if (decimals < 0) {
    // left of the point (138.8 to two significant digits: 130 and 140)
    const unit = 10 ** -decimals;
    return { cut: String(Math.trunc(a / unit) * unit), rounded: String(Math.round(a / unit) * unit), decimals };
  }
  const long = a.toFixed(Math.min(100, decimals + 30)); // exact enough: a carry would need 30 nines in a row
  const cut = decimals === 0 ? long.slice(0, long.indexOf('.')) : long.slice(0, long.indexOf('.') + 1 + decimals);
  return { cut, rounded: a.toFixed(decimals), decimals };
}
