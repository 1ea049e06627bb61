// The RMSNorm lesson's story ops (issue 15) against the real wasm core and the
// shipped model, each checked against an independent float64 computation in
// plain JavaScript: LayerNorm's recorded graph and values, the circle / sphere
// of radius √d and its stretch by γ, the gradient at right angles to x and its
// 1/‖x‖ shrink, what float32 keeps of ε, the stream's RMS by depth, the nine
// trained γ, and two fresh models with and without the scaled output projections.
import { describe, expect, it } from 'vitest';
import { Model } from '../../web/src/core';
import { handlers } from '../../web/src/worker/handlers';
import type { WorkerState } from '../../web/src/worker/state';
import { errorOf } from './errorOf';
import { withShippedModel } from './load';

let w: WorkerState;
withShippedModel((s) => (w = s));

const PROMPT = 'In the beginning God created the heaven and the earth.';
const sum = (a: number[]) => a.reduce((s, v) => s + v, 0);
const mean = (a: number[]) => sum(a) / a.length;
const rms = (a: ArrayLike<number>) => Math.sqrt(mean(Array.from(a, (v) => v * v)));
const len = (a: number[]) => Math.hypot(...a);
const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));

describe('RMSNorm against LayerNorm: the graphs the core records', () => {
  it('RMSNorm records 6 operations, the core’s LayerNorm 9: the centring (mean, sub) and β (add) are the extra three', () => {
    const r = handlers.normOpCounts(w, { x: [3, 4, 0, 0] });
    expect(r.rms).toEqual(['square', 'mean', 'add_scalar', 'sqrt', 'div', 'mul']);
    expect(r.layer).toEqual(['mean', 'sub', 'square', 'mean', 'add_scalar', 'sqrt', 'div', 'mul', 'add']);
    expect(errorOf(() => handlers.normOpCounts(w, { x: [1] }))).toMatch(/at least 2 coordinates/);
  });

  it('glass.layernorm (nn::LayerNorm in the core) gives (x − μ)/√(σ² + ε), and equals RMSNorm on a centred row', () => {
    const x = [3, -1, 0.5, 7.25];
    const got = w.glass.scope(() => Array.from(w.glass.layernorm(w.glass.tensor([x], { dtype: 'float64' }), { eps: 1e-6 }).data()));
    const mu = mean(x);
    const s = Math.sqrt(mean(x.map((v) => (v - mu) ** 2)) + 1e-6);
    x.forEach((v, i) => close(got[i], (v - mu) / s));
    const c = [1, -1, 2, -2];
    const [ln, rn] = w.glass.scope(() => {
      const t = w.glass.tensor([c], { dtype: 'float64' });
      return [Array.from(w.glass.layernorm(t).data()), Array.from(w.glass.rmsnorm(4, { dtype: 'float64' }).call(t).data())];
    });
    ln.forEach((v, i) => close(v, rn[i]));
    expect(errorOf(() => w.glass.scope(() => w.glass.layernorm(w.glass.tensor([[1, 2]], { dtype: 'float64' }), { eps: -1 })))).toMatch(/eps/);
  });
});

describe('the sphere of radius √d', () => {
  it('d = 2: every point of the circle has length √2, the stretched outline is γ times it, and the outputs are x / rms(x) (times γ)', () => {
    const x = [-2.5, 0.75];
    const gamma = [2, 0.5];
    const g = handlers.normGeometry(w, { x, gamma });
    const r = rms(x);
    close(g.yOnes[0], x[0] / r);
    close(g.yOnes[1], x[1] / r);
    close(g.y[0], (gamma[0] * x[0]) / r);
    close(g.onesNorm, Math.SQRT2);
    close(g.sqrtD, Math.SQRT2);
    close(g.norm, len([(gamma[0] * x[0]) / r, (gamma[1] * x[1]) / r]));
    close(g.rms, rms(g.y));
    expect(g.sphere).toHaveLength(1);
    for (const [a, b] of g.sphere[0]) close(len([a, b]), Math.SQRT2, 1e-12);
    g.sphere[0].forEach(([a, b], k) => {
      close(g.stretched[0][k][0], gamma[0] * a);
      close(g.stretched[0][k][1], gamma[1] * b);
    });
    expect(g.xAt).toEqual(x);
  });

  it('d = 3: the globe is projected after the norm; one point checked by hand', () => {
    const g = handlers.normGeometry(w, { x: [1, -2, 5], gamma: [1.5, 1, 0.5] });
    close(g.onesNorm, Math.sqrt(3));
    const P = [
      [1, 0.45, 0],
      [0, 0.35, 1],
    ];
    const project = (v: number[]) => P.map((row) => sum(row.map((p, i) => p * v[i])));
    const x = [1, -2, 5];
    const y1 = x.map((v) => v / rms(x));
    project(y1).forEach((v, i) => close(g.yOnesAt[i], v));
    // the first parallel's first point: direction (1, 0, −0.6)
    const dir = [1, 0, -0.6];
    const on = dir.map((v) => v / rms(dir));
    project(on).forEach((v, i) => close(g.sphere[0][0][i], v));
    project(on.map((v, i) => v * [1.5, 1, 0.5][i])).forEach((v, i) => close(g.stretched[0][0][i], v));
    expect(errorOf(() => handlers.normGeometry(w, { x: [1, 2, 3, 4], gamma: [1, 1, 1, 1] }))).toMatch(/d = 2 or d = 3/);
    expect(errorOf(() => handlers.normGeometry(w, { x: [1, 2], gamma: [1] }))).toMatch(/γ needs 2 numbers/);
  });
});

describe('the gradient of RMSNorm', () => {
  /** ∂ sum(x / √(mean x² + ε)) / ∂x, by hand: 1/r − x_j · (Σx) / (d r³). */
  const byHand = (x: number[], eps: number) => {
    const d = x.length;
    const r = Math.sqrt(mean(x.map((v) => v * v)) + eps);
    return x.map((v) => 1 / r - (v * sum(x)) / (d * r ** 3));
  };

  it('with ε = 0 the seed’s gradient at [3, 4] is orthogonal to x, and shrinks as 1/‖x‖', () => {
    const rows = handlers.normGradient(w, { x: [3, 4], eps: 0, scales: [0.5, 1, 2, 4] });
    for (const r of rows) {
      byHand(r.input, 0).forEach((v, i) => close(r.grad[i], v));
      expect(Math.abs(r.dot)).toBeLessThan(1e-14);
      close(r.inputNorm, 5 * r.c);
      close(r.product, rows[1].product);
    }
    close(rows[2].gradNorm, rows[1].gradNorm / 2);
    expect(errorOf(() => handlers.normGradient(w, { x: [3, 4], eps: 0, scales: Array(13).fill(1) }))).toMatch(/at most 12/);
  });

  it('with ε > 0 x · ∇ is no longer zero: (Σx) ε / (r (mean x² + ε))', () => {
    const [r] = handlers.normGradient(w, { x: [3, 4], eps: 1e-6, scales: [1] });
    byHand([3, 4], 1e-6).forEach((v, i) => close(r.grad[i], v));
    const ms = 12.5;
    close(r.dot, (7 * 1e-6) / (Math.sqrt(ms + 1e-6) * (ms + 1e-6)), 1e-6);
  });
});

describe('ε in float32 and float64', () => {
  it('float32 keeps one grid step of ε next to 12.5 and none next to 50; float64 keeps it', () => {
    const f = Math.fround;
    const r32 = handlers.epsDtype(w, { x: [3, 4], eps: 1e-6, dtype: 'float32' });
    expect(r32.rows[0].survived).toBe(f(f(12.5) + f(1e-6)) - 12.5);
    expect(r32.rows[0].survived).toBe(2 ** -20);
    expect(r32.rows[1].survived).toBe(0);
    expect(r32.rows[1].withEps).toBe(50);
    const r64 = handlers.epsDtype(w, { x: [3, 4], eps: 1e-6, dtype: 'float64' });
    close(r64.rows[0].survived, 1e-6, 1e-9);
    close(r64.rows[1].survived, 1e-6, 1e-8);
    // the seed's float64 difference, by hand
    close(r64.difference[0], 6 / Math.sqrt(50 + 1e-6) - 3 / Math.sqrt(12.5 + 1e-6), 1e-7);
  });
});

describe('the model: the stream, the nine γ, the scaled init', () => {
  it('the stream’s RMS by depth is the RMS of each snapshot; it grows; the branch inputs stay in a narrow range', () => {
    const r = handlers.streamRms(w, { text: PROMPT });
    const run = handlers.modelRun(w, { text: PROMPT, eps: 1e-6, dtype: 'float32', backward: false, patterns: false, interventions: [] });
    expect(r.stream.map((x) => x.name)).toEqual(['embed', ...[0, 1, 2, 3].flatMap((i) => [`blocks.${i}.resid.attn`, `blocks.${i}.resid.ffn`])]);
    for (const row of [...r.stream, ...r.branchInputs]) close(row.rms, rms(run.snapshots[row.name].data), 1e-9);
    close(r.growth, r.stream[8].rms / r.stream[0].rms);
    expect(r.growth).toBeGreaterThan(3);
    close(r.branchRange[0], Math.min(...r.branchInputs.map((x) => x.rms)));
    close(r.branchRange[1], Math.max(...r.branchInputs.map((x) => x.rms)));
    expect(r.n).toBe(new TextEncoder().encode(PROMPT).length);
  });

  it('the nine γ: read from the weights, summarised as by hand', () => {
    const gs = handlers.trainedGammas(w, null);
    expect(gs.map((g) => g.name)).toEqual([...[0, 1, 2, 3].flatMap((i) => [`blocks.${i}.norm_attn.gamma`, `blocks.${i}.norm_ffn.gamma`]), 'norm_final.gamma']);
    for (const g of gs) {
      const v = Array.from(w.shipped!.model.param(g.name).data);
      expect(g.values).toEqual(v);
      close(g.mean, mean(v), 1e-12);
      expect(g.min).toBe(Math.min(...v));
      expect(g.max).toBe(Math.max(...v));
      expect(v[g.argmin]).toBe(g.min);
      expect(v[g.argmax]).toBe(g.max);
      close(g.moved, rms(v.map((x) => x - 1)), 1e-12);
      expect(g.amplified).toBe(v.filter((x) => x > 1).length);
    }
    // training moved them: none is still all ones
    for (const g of gs) expect(g.moved).toBeGreaterThan(0.05);
  });

  it('two fresh models of the loaded shape: the output projections start 1/√8 smaller, and the stream grows less', () => {
    const before = handlers.modelRun(w, { text: PROMPT, eps: 1e-6, dtype: 'float32', backward: false, patterns: false, interventions: [] });
    const r = handlers.initGrowth(w, { text: PROMPT, seed: 1 });
    close(r.factor, 1 / Math.sqrt(8));
    // measured std of the 8 output projections: about 0.02 / √8 and 0.02
    expect(Math.abs(r.depth.outStd / (0.02 / Math.sqrt(8)) - 1)).toBeLessThan(0.05);
    expect(Math.abs(r.flat.outStd / 0.02 - 1)).toBeLessThan(0.05);
    // independently: the same fresh weights as a file, loaded into a second model, run, and summed here in float64
    for (const run of [r.depth, r.flat]) {
      const m = Model.create(w.glass);
      try {
        m.loadWeights(w.shipped!.model.freshWeightsLike(run.initScale, 1));
        const got = m.run(PROMPT, { backward: false });
        run.stream.forEach((row) => close(row.rms, rms(got.snapshots[row.name].data), 1e-12));
        const outs = [0, 1, 2, 3].flatMap((i) => [`blocks.${i}.attn.wo.weight`, `blocks.${i}.ffn.w_down.weight`]).flatMap((n) => Array.from(m.param(n).data));
        const mu = mean(outs);
        close(run.outStd, Math.sqrt(mean(outs.map((x) => (x - mu) ** 2))), 1e-9);
      } finally {
        m.dispose();
      }
    }
    // same seed, same embedding: the first row is the same in both
    expect(r.depth.stream[0].rms).toBe(r.flat.stream[0].rms);
    close(r.depth.growth, r.depth.stream[8].rms / r.depth.stream[0].rms);
    expect(r.flat.growth).toBeGreaterThan(1.5 * r.depth.growth);
    // the loaded model is untouched: a run of it gives the same numbers as before
    expect(w.shipped!.info.initScale).toBe('depth');
    const after = handlers.modelRun(w, { text: PROMPT, eps: 1e-6, dtype: 'float32', backward: false, patterns: false, interventions: [] });
    expect(after.loss).toBe(before.loss);
    expect(Array.from(after.snapshots['blocks.3.resid.ffn'].data)).toEqual(Array.from(before.snapshots['blocks.3.resid.ffn'].data));
    // asked again (a step's checks do), the same answer without a second pair of models
    expect(handlers.initGrowth(w, { text: PROMPT, seed: 1 })).toBe(r);
    expect(errorOf(() => handlers.initGrowth(w, { text: PROMPT, seed: -1 }))).toMatch(/seed/);
    expect(errorOf(() => handlers.initGrowth(w, { text: '', seed: 1 }))).toMatch(/empty/);
    expect(errorOf(() => handlers.initGrowth(w, { text: 'x'.repeat(200), seed: 1 }))).toMatch(/context holds 128/);
  });
});
