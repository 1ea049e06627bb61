// Issue 12's worker requests against the real wasm core and the shipped
// weights: attention pattern snapshots (asked for, the model's own softmax,
// rows summing to 1 over the causal positions), the residual ledger, the logit
// lens (its last depth is the model's logits), interventions (before/after,
// what changed, the weights untouched, bad names refused with what exists),
// the gradient check, and the same numbers as the native `glassllm interp`.
// A post-norm file shows the ledger's refusal and that the rest works on
// every variant.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { interventionText, type ModelRun, type NamedTensor } from '../../web/src/core';
import type { ModelRunSettings } from '../../web/src/protocol/model';
import { handlers } from '../../web/src/worker/handlers';
import { loadModel, needModel, type WorkerState } from '../../web/src/worker/state';
import { errorOf } from './errorOf';
import { withShippedModel } from './load';

const cli = new URL('../../build/native/glassllm', import.meta.url).pathname;
const shipped = new URL('../../public/weights/glass-kjv.safetensors', import.meta.url).pathname;
const TEXT = 'In the beginning God created the heaven and the earth.';
const N = new TextEncoder().encode(TEXT).length;
const f64: ModelRunSettings = { text: TEXT, eps: 1e-6, dtype: 'float64' };
const f32: ModelRunSettings = { text: TEXT, eps: 1e-6, dtype: 'float32' };

let w: WorkerState;
withShippedModel((s) => (w = s));

const run = (settings: ModelRunSettings, extra: { patterns?: boolean; interventions?: unknown[] } = {}): ModelRun =>
  handlers.modelRun(w, { ...settings, backward: true, ...extra } as Parameters<typeof handlers.modelRun>[1]);

function allWeights(): Map<string, Float32Array | Float64Array> {
  const { model } = needModel(w);
  const out = new Map<string, Float32Array | Float64Array>();
  for (const name of Object.keys(model.paramGradNorms())) out.set(name, model.param(name).data.slice());
  return out;
}

function at(t: NamedTensor, ...index: number[]): number {
  let flat = 0;
  for (let a = 0; a < index.length; a++) flat = flat * t.shape[a] + index[a];
  return t.data[flat];
}

describe('attention patterns', () => {
  it('are snapshots only when asked for, (heads, n, n), from the softmax the layer mixes with', () => {
    const plain = run(f64);
    expect(Object.keys(plain.snapshots).some((k) => k.includes('pattern'))).toBe(false);
    const r = run(f64, { patterns: true });
    expect(r.loss).toBe(plain.loss); // recording changes no number
    const names = Object.keys(r.snapshots);
    expect(names.indexOf('blocks.0.attn.pattern')).toBe(names.indexOf('blocks.0.attn') - 1);
    for (let b = 0; b < 4; b++) {
      const p = r.snapshots[`blocks.${b}.attn.pattern`];
      expect(p.shape).toEqual([4, N, N]);
      expect(r.grads?.[`blocks.${b}.attn.pattern`].shape).toEqual([4, N, N]);
      let rowErr = 0;
      let above = 0;
      for (let h = 0; h < 4; h++)
        for (let t = 0; t < N; t++) {
          let s = 0;
          for (let j = 0; j < N; j++) (j <= t ? (s += at(p, h, t, j)) : (above = Math.max(above, Math.abs(at(p, h, t, j)))));
          rowErr = Math.max(rowErr, Math.abs(s - 1));
        }
      expect(rowErr).toBeLessThanOrEqual(1e-12);
      expect(above).toBe(0);
    }
    // the attention lesson's Attention::parts on the same input computes the same weights, bit for bit
    const weights = needModel(w).model.attentionParts(2).weights;
    expect(Array.from(r.snapshots['blocks.2.attn.pattern'].data)).toEqual(Array.from(weights.data));
  });

  it('each head summarised by its definition, and the checks in float64', () => {
    const h = handlers.interpHeads(w, { run: f64 });
    expect(h.patterns).toHaveLength(4);
    expect(h.summary.heads).toHaveLength(16);
    expect(h.summary.rowSumMaxError).toBeLessThanOrEqual(1e-12);
    expect(h.summary.aboveDiagonalMax).toBe(0);
    const p = h.patterns[1];
    let prev = 0;
    let dist = 0;
    for (let t = 1; t < N; t++) {
      prev += at(p, 3, t, t - 1);
      for (let j = 0; j <= t; j++) dist += at(p, 3, t, j) * (t - j);
    }
    const s = h.summary.heads[4 + 3];
    expect([s.block, s.head]).toEqual([1, 3]);
    expect(s.previous).toBeCloseTo(prev / (N - 1), 14);
    expect(s.meanDistance).toBeCloseTo(dist / (N - 1), 12);
    expect(h.labels[0]).toBe('I');
  });
});

describe('the logit lens and the residual ledger', () => {
  it('the lens at the last depth is the model, and reads every depth', () => {
    for (const settings of [f64, f32]) {
      const r = handlers.interpLens(w, { run: settings, logits: true });
      const { lens } = r;
      expect(lens.depths).toEqual(['embed', ...[0, 1, 2, 3].flatMap((b) => [`blocks.${b}.resid.attn`, `blocks.${b}.resid.ffn`])]);
      expect(lens.lastDepthMaxAbs).toBe(0);
      expect(lens.top[8][N - 1]).toEqual(needModel(w).model.topNext(5));
      expect(lens.logits?.shape).toEqual([9, N, 256]);
      expect(lens.loss[0]).toHaveLength(N - 1);
      // the last depth's mean loss is the model's loss
      expect(lens.meanLoss[8]).toBeCloseTo(run(settings).loss ?? NaN, settings.dtype === 'float64' ? 12 : 5);
      // the embedding alone predicts worse than the whole model
      expect(lens.meanLoss[0]).toBeGreaterThan(lens.meanLoss[8] ?? Infinity);
    }
  });

  it('the stream is embed + every branch, and dL/d embed splits into the residual path and each branch (float64 to 1e-12)', () => {
    const L = handlers.interpLedger(w, { run: f64 });
    if ('refused' in L) throw new Error(L.refused);
    expect(L.totalName).toBe('blocks.3.resid.ffn');
    expect(L.terms.map((t) => t.name)).toEqual(['embed', ...[0, 1, 2, 3].flatMap((b) => [`blocks.${b}.attn`, `blocks.${b}.ffn`])]);
    expect(L.maxAbsDiff).toBeLessThanOrEqual(1e-12);
    for (let t = 0; t < N; t++) expect(L.terms.reduce((s, x) => s + (x.share[t] ?? NaN), 0)).toBeCloseTo(1, 12);
    const g = L.grad;
    if (g === null) throw new Error('no gradient side');
    expect(g.terms[0].name).toBe('residual path');
    const scale = Math.max(...g.totalNorm.map((x) => x ?? 0));
    expect(g.maxAbsDiff ?? Infinity).toBeLessThanOrEqual(1e-12 * scale);
    expect(g.terms.reduce((s, x) => s + (x.totalShare ?? NaN), 0)).toBeCloseTo(1, 12);
    expect(g.throughIdentity).toHaveLength(8);
  });
});

describe('interventions', () => {
  const issueExamples = [
    { zero: 'blocks.2.ffn' },
    { scale: 'blocks.0.attn', by: 0.5 },
    { ablateHead: { block: 1, head: 2 } },
    { eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } },
    { identityNorm: 'norm_final' },
    { unitGamma: 'blocks.0.norm_attn' },
  ];

  it('each of the issue’s examples: loss and top-5 before and after, what changed, the weights untouched', () => {
    const plain = run(f32);
    const before = allWeights();
    for (const iv of issueExamples) {
      const r = run(f32, { interventions: [iv] });
      const rep = r.intervention;
      if (rep === undefined) throw new Error('no report');
      expect(rep.interventions).toEqual([interventionText(iv)]);
      expect(rep.before.loss).toBe(plain.loss);
      expect(rep.after.loss).toBe(r.loss);
      expect(rep.after.loss).not.toBe(rep.before.loss);
      expect(rep.before.top).toHaveLength(5);
      expect(rep.changes.map((c) => c.name)).toEqual(Object.keys(r.snapshots));
      expect(rep.changes[0]).toMatchObject({ name: 'embed', changed: false, maxAbs: 0 });
      expect(rep.changes.at(-1)).toMatchObject({ name: 'logits', changed: true });
    }
    // what changed starts where the intervention is
    const z = handlers.interpIntervene(w, { run: f32, interventions: [{ zero: 'blocks.2.ffn' }] });
    const changed = z.changes.filter((c) => c.changed).map((c) => c.name);
    expect(changed[0]).toBe('blocks.2.ffn');
    expect(changed).not.toContain('blocks.2.resid.attn');
    // no weight moved, and the plain run afterwards is the same run
    const after = allWeights();
    for (const [name, v] of before) expect(Array.from(after.get(name) ?? []), name).toEqual(Array.from(v));
    expect(run(f32).loss).toBe(plain.loss);
  });

  it('an ablated head adds nothing: ablating every head of a block is zeroing its attention', () => {
    const all = [0, 1, 2, 3].map((head) => ({ ablateHead: { block: 1, head } }));
    const a = run(f64, { interventions: all });
    const z = run(f64, { interventions: [{ zero: 'blocks.1.attn' }] });
    expect(a.loss).toBe(z.loss);
    expect(Array.from(a.snapshots['blocks.1.attn'].data).every((x) => x === 0)).toBe(true);
  });

  it('refuses bad names with what exists, and malformed objects with the forms', () => {
    expect(errorOf(() => run(f32, { interventions: [{ zero: 'blocks.4.ffn' }] }))).toContain('branches are blocks.0.attn, blocks.0.ffn');
    expect(errorOf(() => run(f32, { interventions: [{ ablateHead: { block: 1, head: 4 } }] }))).toContain('heads 0 to 3');
    expect(errorOf(() => run(f32, { interventions: [{ eps: { norm: 'blocks.3.norm_mlp', value: 1e-2 } }] }))).toContain(
      'norms are blocks.0.norm_attn, blocks.0.norm_ffn',
    );
    expect(errorOf(() => run(f32, { interventions: [{ scale: 'blocks.0.attn' }] }))).toContain('expected exactly the keys scale, by');
    expect(errorOf(() => run(f32, { interventions: [{ flip: 'blocks.0.attn' }] }))).toContain("the forms are { zero: 'blocks.2.ffn' }");
    // a refused request leaves the model usable
    expect(run(f32).loss).toBeGreaterThan(0);
  });

  it('the lens and the ledger read the intervened run', () => {
    const L = handlers.interpLedger(w, { run: f64, interventions: [{ zero: 'blocks.2.ffn' }] });
    if ('refused' in L) throw new Error(L.refused);
    expect(L.terms.find((t) => t.name === 'blocks.2.ffn')?.totalNorm).toBe(0);
    expect(L.maxAbsDiff).toBeLessThanOrEqual(1e-12);
    expect(handlers.interpLens(w, { run: f64, interventions: [{ identityNorm: 'norm_final' }] }).lens.lastDepthMaxAbs).toBe(0);
  });
});

describe('the gradient check', () => {
  it('g·δ against the central difference in float32 and float64, for a parameter, a snapshot and a pattern', () => {
    const before = allWeights();
    for (const [target, index] of [
      ['blocks.1.attn.wv.weight', 77],
      ['blocks.0.resid.attn', 3 * 128 + 5],
      ['blocks.2.attn.pattern', 10 * N + 4],
    ] as const) {
      const g = handlers.interpGradCheck(w, { run: f32, target, index });
      expect(g.float64.delta).toBe(1e-6);
      expect(g.float32.delta).toBe(1e-3);
      const p = g.float64.predicted ?? NaN;
      expect(Math.abs((g.float64.actual ?? NaN) - p)).toBeLessThanOrEqual(1e-6 * Math.abs(p));
      expect(Math.abs((g.float32.actual ?? NaN) - (g.float32.predicted ?? NaN))).toBeLessThanOrEqual(0.05 * Math.abs(g.float32.predicted ?? NaN) + 1e-6);
    }
    const after = allWeights();
    for (const [name, v] of before) expect(Array.from(after.get(name) ?? []), name).toEqual(Array.from(v));
    expect(errorOf(() => handlers.interpGradCheck(w, { run: f32, target: 'blocks.0.mlp', index: 0 }))).toContain('neither a snapshot nor a parameter');
    expect(errorOf(() => handlers.interpGradCheck(w, { run: f32, target: 'embed', index: N * 128 }))).toContain('does not exist');
  });
});

describe('against the native CLI and on a post-norm model', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the native preset first`);
    dir = mkdtempSync(join(tmpdir(), 'glass-interp-'));
  });

  it('an intervention and the lens give what `glassllm interp` gives (float64)', () => {
    const out = join(dir, 'interp.json');
    execFileSync(cli, ['interp', '--weights', shipped, '--text', TEXT, '--dtype', 'f64', '--intervene', 'ablateHead:1:2,scale:blocks.0.attn:0.5', '--json', out]);
    const native = JSON.parse(readFileSync(out, 'utf8')) as { loss: number; lens: { mean_loss: number[] }; baseline_loss: number };
    const r = run(f64, { interventions: ['ablateHead:1:2', { scale: 'blocks.0.attn', by: 0.5 }] });
    expect(Math.abs((r.loss ?? NaN) - native.loss)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs((r.intervention?.before.loss ?? NaN) - native.baseline_loss)).toBeLessThanOrEqual(1e-12);
    const lens = handlers.interpLens(w, { run: f64, interventions: ['ablateHead:1:2', 'scale:blocks.0.attn:0.5'] }).lens;
    lens.meanLoss.forEach((l, k) => expect(Math.abs((l ?? NaN) - native.lens.mean_loss[k])).toBeLessThanOrEqual(1e-12));
  });

  it('a post-norm model: the ledger refuses and says why; patterns, lens and interventions work', () => {
    const file = join(dir, 'post.safetensors');
    execFileSync(cli, ['init', '--out', file, '--seed', '3', '--blocks', '2', '--d', '32', '--heads', '2', '--norm', 'post']);
    loadModel(w, readFileSync(file));
    try {
      const settings: ModelRunSettings = { text: 'post-norm', eps: 1e-6, dtype: 'float64' };
      const L = handlers.interpLedger(w, { run: settings });
      expect('refused' in L && L.refused).toContain('post-norm block normalises each residual sum');
      expect(handlers.interpLens(w, { run: settings }).lens.depths).toEqual(['embed', 'blocks.0.norm.attn', 'blocks.0.norm.ffn', 'blocks.1.norm.attn', 'blocks.1.norm.ffn']);
      expect(handlers.interpLens(w, { run: settings }).lens.lastDepthMaxAbs).toBe(0);
      expect(handlers.interpHeads(w, { run: settings }).patterns[0].shape).toEqual([2, 9, 9]);
      expect(errorOf(() => handlers.interpIntervene(w, { run: settings, interventions: [{ identityNorm: 'norm_final' }] }))).toContain(
        'norms are blocks.0.norm_attn, blocks.0.norm_ffn, blocks.1.norm_attn, blocks.1.norm_ffn',
      );
      expect(handlers.interpIntervene(w, { run: settings, interventions: [{ unitGamma: 'blocks.1.norm_ffn' }] }).after.loss).not.toBeNull();
    } finally {
      loadModel(w, readFileSync(shipped));
    }
  });
});
