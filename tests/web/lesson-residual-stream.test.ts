// The residual-stream lesson's worker ops (and the RMSNorm lesson's gradient
// ledger) against independent computations from the model's own snapshots in
// plain float64 JavaScript: the ledger's norms and shares and both of its sum
// checks, the lens's ranks and counts against its top 5, every ablation's loss
// against a run with that intervention through the console's modelRun, and the
// heads' summary against the pattern snapshots. Then the lesson's checks on a
// prompt other than the default: the `prompt` a step's expressions read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NamedTensor } from '../../web/src/core';
import { lessonChecks, parseLesson } from '../../web/src/lessons/parse';
import { DEFAULT_PROMPT } from '../../web/src/protocol/lessons/residual';
import { handlers } from '../../web/src/worker/handlers';
import { evaluate } from '../../web/src/worker/lessonOps/code';
import { residualAblations, residualHeads, residualLedger, residualLens } from '../../web/src/worker/lessonOps/residual';
import type { WorkerState } from '../../web/src/worker/state';
import { withShippedModel } from './load';

const OTHER = 'And God said, Let there be light: and there was light.';

let w: WorkerState;
withShippedModel((s) => (w = s));

const run = (text: string, dtype: 'float32' | 'float64', interventions: string[] = [], patterns = false) =>
  handlers.modelRun(w, { text, eps: 1e-6, dtype, backward: true, patterns, interventions });

/** Row t of a (n, d) snapshot as float64 numbers. */
const row = (t: NamedTensor, i: number) => Array.from(t.data.subarray(i * t.shape[1], (i + 1) * t.shape[1]));
const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('the residual ledger (forward and gradient)', () => {
  it('norms and shares against the snapshots, the shares adding up to 1, the sum check exact in float64', () => {
    const r = residualLedger(w, { text: DEFAULT_PROMPT, dtype: 'float64' });
    const snap = run(DEFAULT_PROMPT, 'float64');
    const x = snap.snapshots['blocks.3.resid.ffn'];
    const n = x.shape[0];
    expect(r.labels).toHaveLength(n);
    expect(r.ledger.terms.map((t) => t.name)).toEqual(['embed', ...[0, 1, 2, 3].flatMap((i) => [`blocks.${i}.attn`, `blocks.${i}.ffn`])]);
    let xx = 0;
    for (let t = 0; t < n; t++) xx += dot(row(x, t), row(x, t));
    let shares = 0;
    for (const term of r.ledger.terms) {
      const c = snap.snapshots[term.name];
      let cc = 0;
      let cx = 0;
      for (let t = 0; t < n; t++) {
        cc += dot(row(c, t), row(c, t));
        cx += dot(row(c, t), row(x, t));
      }
      expect(term.totalNorm).toBeCloseTo(Math.sqrt(cc), 9);
      expect(term.totalShare).toBeCloseTo(cx / xx, 12);
      shares += term.totalShare!;
    }
    expect(shares).toBeCloseTo(1, 12);
    expect(r.ledger.maxAbsDiff).toBeLessThanOrEqual(1e-12);
    // gradient side: the routes add up to ∂loss/∂embedding (its norm from the snapshot's gradient)
    const g0 = snap.grads!['embed'];
    let gg = 0;
    for (let t = 0; t < n; t++) gg += dot(row(g0, t), row(g0, t));
    expect(r.gradNorm).toBeCloseTo(Math.sqrt(gg), 12);
    expect(r.ledger.grad.maxAbsDiff).toBeLessThanOrEqual(1e-12);
    expect(r.ledger.grad.terms.reduce((s, t) => s + t.totalShare!, 0)).toBeCloseTo(1, 12);
    // the residual path's term is the gradient at the last stream, unchanged
    const gK = snap.grads!['blocks.3.resid.ffn'];
    let kk = 0;
    for (let t = 0; t < n; t++) kk += dot(row(gK, t), row(gK, t));
    expect(r.ledger.grad.terms[0].totalNorm).toBeCloseTo(Math.sqrt(kk), 12);
    expect(r.ledger.grad.throughIdentity.at(-1)).toBeCloseTo(Math.sqrt(kk), 12);
    // the largest branch and gradient term, and their names
    const norms = r.ledger.terms.slice(1).map((t) => t.totalNorm!);
    expect(r.largestBranch).toBe(1 + norms.indexOf(Math.max(...norms)));
    expect(r.largestBranchLabel).toMatch(/^block [0-3] (attention|SwiGLU)$/);
    const gnorms = r.ledger.grad.terms.slice(1).map((t) => t.totalNorm!);
    expect(r.largestGradBranch).toBe(1 + gnorms.indexOf(Math.max(...gnorms)));
  });
  it('in float32 the forward sum, added in the forward order, is exact; the gradient sum is at rounding level', () => {
    const r = residualLedger(w, { text: OTHER });
    expect(r.dtype).toBe('float32');
    expect(r.ledger.maxAbsDiff).toBe(0);
    expect(r.ledger.grad.maxAbsDiff).toBeGreaterThanOrEqual(0);
    expect(r.ledger.grad.maxAbsDiff).toBeLessThan(1e-5 * r.gradNorm);
  });
  it('refuses a prompt with no next byte, one too long, a bad dtype', () => {
    expect(() => residualLedger(w, { text: 'A' })).toThrow(/at least two bytes/);
    expect(() => residualLedger(w, { text: 'x'.repeat(129) })).toThrow(/129 bytes; the model reads at most 128/);
    expect(() => residualLedger(w, { text: 'AB', dtype: 'float16' as 'float32' })).toThrow(/float32 or float64/);
  });
});

describe('the logit lens', () => {
  it('ranks, hits and the first hit read off its own top 5; the last depth is the model', () => {
    const ids = Array.from(new TextEncoder().encode(DEFAULT_PROMPT));
    const r = residualLens(w, { text: DEFAULT_PROMPT });
    expect(r.position).toBe(ids.length - 2);
    expect(r.depths).toHaveLength(9);
    expect(r.lastDepthMaxAbs).toBe(0);
    for (const d of r.depths) {
      expect(d.top).toHaveLength(5);
      const i = d.top.findIndex((p) => p.byte === ids.at(-1));
      expect(d.rank).toBe(i < 0 ? null : i + 1);
    }
    expect(r.hits).toBe(r.depths.filter((d) => d.rank !== null).length);
    expect(r.firstHit).toBe(r.depths.findIndex((d) => d.rank !== null));
    // the model's own top 5 after that position (a run of the prompt without its last byte)
    handlers.modelRun(w, { text: DEFAULT_PROMPT.slice(0, -1), eps: 1e-6, dtype: 'float32', backward: false });
    const top = (w.shipped!.model.topNext(5));
    expect(r.depths.at(-1)!.top.map((p) => p.byte)).toEqual(top.map((p) => p.byte));
    // the model's loss is the lens's mean loss at the last depth
    expect(r.depths.at(-1)!.meanLoss).toBeCloseTo(run(DEFAULT_PROMPT, 'float32').loss!, 5);
    const means = r.depths.map((d) => d.meanLoss!);
    expect(r.bestDepth).toBe(means.indexOf(Math.min(...means)));
  });
  it('reads any position before the last, and refuses others', () => {
    const r = residualLens(w, { text: 'abcabc', position: 2 });
    expect(r.position).toBe(2);
    expect(r.next).toBe('a');
    expect(() => residualLens(w, { text: 'abcabc', position: 5 })).toThrow(/from 0 to 4/);
    expect(() => residualLens(w, { text: 'abcabc', position: 1.5 })).toThrow(/whole number/);
  });
});

describe('the heads', () => {
  it("each head's summary against its pattern snapshot; the previous-byte head is the largest in its block", () => {
    const r = residualHeads(w, { text: DEFAULT_PROMPT });
    const snap = run(DEFAULT_PROMPT, 'float32', [], true);
    const n = r.labels.length;
    for (const s of r.summary.heads) {
      const p = snap.snapshots[`blocks.${s.block}.attn.pattern`];
      const at = (t: number, j: number) => p.data[(s.head * n + t) * n + j];
      let prev = 0;
      let dist = 0;
      for (let t = 1; t < n; t++) {
        prev += at(t, t - 1);
        for (let j = 0; j <= t; j++) dist += at(t, j) * (t - j);
      }
      expect(s.previous).toBeCloseTo(prev / (n - 1), 5);
      expect(s.meanDistance).toBeCloseTo(dist / (n - 1), 4);
    }
    for (let b = 0; b < 4; b++) {
      const prev = r.summary.heads.filter((h) => h.block === b).map((h) => h.previous!);
      expect(r.previousHead[b]).toBe(prev.indexOf(Math.max(...prev)));
    }
    expect(r.patterns[1].shape).toEqual([4, n, n]);
  });
});

describe('ablations', () => {
  it("every part's loss is the loss of a run with that intervention; costs, the worst and the helpful ones follow", () => {
    const text = 'In the beginning God created';
    const r = residualAblations(w, { text });
    expect(r.loss).toBe(run(text, 'float32').loss);
    expect(r.blocks).toHaveLength(4);
    expect(r.branches).toHaveLength(8);
    expect(r.heads).toHaveLength(16);
    for (const a of [...r.blocks, ...r.branches, ...r.heads]) {
      expect(a.loss).toBe(run(text, 'float32', a.what.split(' + ')).loss);
      expect(a.cost).toBe(a.loss - r.loss);
    }
    expect(r.blocks[2].what).toBe('zero:blocks.2.attn + zero:blocks.2.ffn');
    expect(r.heads[5]).toMatchObject({ what: 'ablateHead:1:1', label: 'block 1 head 1' });
    expect(r.branches[1].label).toBe('block 0 SwiGLU');
    const worst = (xs: { cost: number }[]) => xs.map((a) => a.cost).indexOf(Math.max(...xs.map((a) => a.cost)));
    expect(r.worstBlock).toBe(worst(r.blocks));
    expect(r.worstBranch).toBe(worst(r.branches));
    expect(r.worstHead).toBe(worst(r.heads));
    expect(r.helpful).toBe([...r.branches, ...r.heads].filter((a) => a.cost < 0).length);
  });
  it('a result kept for a prompt is forgotten when other weights are loaded', () => {
    const a = residualAblations(w, { text: OTHER });
    expect(residualAblations(w, { text: OTHER })).toBe(a); // the same prompt again: kept
    const loaded = w.shipped!;
    w.shipped = { ...loaded }; // what loadModel does: a new slot
    try {
      expect(residualAblations(w, { text: OTHER })).not.toBe(a);
      expect(residualAblations(w, { text: OTHER })).toEqual(a);
    } finally {
      w.shipped = loaded;
    }
  });
});

describe("the lessons' checks on the learner's own prompt", () => {
  const read = (slug: string) => parseLesson(slug, readFileSync(new URL(`../../web/src/lessons/${slug}.md`, import.meta.url), 'utf8'));
  const reading = (slug: string) => lessonChecks(read(slug)).filter((c) => /\bprompt\b/.test(c.answer));

  it('every check that reads `prompt` has an answer for another prompt, computed from that prompt', () => {
    const checks = [...reading('residual-stream'), ...reading('rmsnorm')];
    expect(checks.length).toBeGreaterThanOrEqual(15);
    for (const text of [OTHER, 'The quick brown fox jumps over the lazy dog.']) {
      const values = evaluate(w, checks.map((c) => c.answer), { prompt: text });
      checks.forEach((c, i) => {
        const v = values[i];
        expect(v.ok, `${c.id}: ${v.ok ? '' : v.error.message}`).toBe(true);
        if (!v.ok) return;
        if (c.choices !== null) expect(c.choices, c.id).toContain(v.value);
        else expect(Number.isFinite(v.value as number), c.id).toBe(true);
      });
    }
  });
  it('the answers follow the prompt: which block costs the most, and how much', () => {
    for (const text of [DEFAULT_PROMPT, OTHER]) {
      const a = residualAblations(w, { text });
      const [block, cost, previous] = evaluate(
        w,
        ['model.ablations(prompt).worstBlock', '(a => a.blocks[a.worstBlock].cost)(model.ablations(prompt))', 'model.heads(prompt).previousHead[1]'],
        { prompt: text },
      );
      expect(block).toEqual({ ok: true, value: a.worstBlock });
      expect(cost).toEqual({ ok: true, value: a.blocks[a.worstBlock].cost });
      expect(previous).toEqual({ ok: true, value: residualHeads(w, { text }).previousHead[1] });
    }
    // without a prompt, expressions read the default one
    expect(evaluate(w, ['prompt'])).toEqual([{ ok: true, value: DEFAULT_PROMPT }]);
    // a prompt the model cannot read: the check says why
    const [bad] = evaluate(w, ['model.ablations(prompt).worstBlock'], { prompt: 'A' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/at least two bytes/);
  });
});
