// The inspector for any config (issue 11): the snapshot names derived from a
// model's config (protocol/modelNames.ts) are exactly the core's for every kind
// of variant, the stream is the core's own (the logit lens reads
// Snapshots::stream()), every name and parameter has learner words of its own,
// and the address is checked against the loaded model: blocks.11 is a name of a
// 12-block model and not of the shipped one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrainSession, type TrainModelConfig, type TrainOptions } from '../../web/src/core/trainSession';
import { DEFAULT_INSPECTOR, defaultCompare, defaultTensor, fitToModel, readInspectorUrl, snapshotNames } from '../../web/src/app/inspectorSettings';
import { paramName, tensorName, withCode } from '../../web/src/app/tensorNames';
import type { ModelInfo } from '../../web/src/protocol/model';
import { SHIPPED_SHAPE, depthNames, snapshotNamesOf, streamNames, type ModelShape } from '../../web/src/protocol/modelNames';
import { DEFAULT_MODEL_CONFIG } from '../../web/src/protocol/trainSettings';
import { depthNotice, snapshotGradNotice, tensorNotice } from '../../web/src/widgets/inspector/inspectorNotices';
import { modelSummary } from '../../web/src/widgets/inspector/WeightsStatus';
import { inspect } from '../../web/src/worker/inspector';
import { interpLens } from '../../web/src/worker/interp';
import { loadModel, needModel, type WorkerState } from '../../web/src/worker/state';
import { loadTestWorker } from './load';

const TEXT = Array.from({ length: 40 }, (_, i) => `In the beginning ${i} God created the heaven and the earth. `).join('');
const OPTIONS: TrainOptions = { steps: 1, batch: 2, lr: 1e-3, warmup: 0, clip: 1, weightDecay: 0.1, seed: 1, evalEvery: 0 };
const SMALL: TrainModelConfig = { ...DEFAULT_MODEL_CONFIG, blocks: 2, d: 16, heads: 2, ctx: 16 };

/** Every kind of variant the issue names, small (the 12-block post-norm one at full depth). */
const VARIANTS: Record<string, TrainModelConfig> = {
  'pre-norm': SMALL,
  'pre-norm, no residuals': { ...SMALL, residual: false },
  'post-norm, 12 blocks': { ...SMALL, blocks: 12, norm: 'post' },
  'post-norm, no residuals': { ...SMALL, norm: 'post', residual: false },
  'no norms': { ...SMALL, norm: 'none' },
  'no norms, no residuals': { ...SMALL, norm: 'none', residual: false },
  LayerNorm: { ...SMALL, normKind: 'layer' },
  'post-norm LayerNorm': { ...SMALL, norm: 'post', normKind: 'layer' },
};

let w: WorkerState;
const weights = new Map<string, Uint8Array>();
beforeAll(async () => {
  w = await loadTestWorker();
  for (const [label, config] of Object.entries(VARIANTS)) {
    const s = TrainSession.create(w.glass, config, OPTIONS, TEXT);
    weights.set(label, s.weights());
    s.dispose();
  }
});
afterAll(() => {
  w.shipped?.model.dispose();
  expect(w.glass.liveHandles()).toBe(0);
});

/** Loads a variant's weights as the inspector does and runs the prompt forward and backward. */
function load(label: string): ModelInfo {
  return loadModel(w, weights.get(label)!);
}
const RUN = { text: 'In the beginning', eps: 1e-6, dtype: 'float32' as const };

describe('snapshot names from the config are the core’s, for every variant', () => {
  for (const label of Object.keys(VARIANTS))
    it(label, () => {
      const info = load(label);
      const r = inspect(w, { run: RUN, show: { kind: 'single', name: defaultTensor(info), grad: true } });
      expect(r.names).toEqual(snapshotNamesOf(info)); // the core's list after the run
      expect(needModel(w).model.snapshotNames()).toEqual(snapshotNames(info));
      // the stream: the core's own (the lens reads it), and the depth plot adds the final norm where there is one
      expect(interpLens(w, { run: RUN }).lens.depths).toEqual(streamNames(info));
      expect(r.depth.names).toEqual(depthNames(info));
      expect(r.depth.names.includes('norm.final')).toBe(info.norm === 'pre');
      expect(r.shown[0].shape).toEqual([16, info.d]);
      // learner words: one of its own for every snapshot, and the stream flag says what the core streams
      for (const n of r.names) {
        const t = tensorName(n, info);
        expect(t.name, n).not.toBe(n);
        expect(withCode(n, info)).toBe(`${t.name} (${n})`);
      }
      expect(new Set(r.names.map((n) => tensorName(n, info).name)).size).toBe(r.names.length);
      expect(new Set(r.names.map((n) => tensorName(n, info).what)).size).toBe(r.names.length);
      expect(r.names.filter((n) => tensorName(n, info).stream)).toEqual(streamNames(info));
      // every parameter in the model's words (LayerNorm's β too), none twice
      const params = Object.keys(r.paramGradNorms!);
      const seen = new Set(params.map((p) => `${paramName(p, info).layer} / ${paramName(p, info).part}`));
      expect(seen.size).toBe(params.length);
      for (const p of params) expect(paramName(p, info).layer, p).not.toBe('other');
      if (info.normKind === 'layer') expect(paramName('blocks.0.norm_attn.beta', info).part).toBe('β of LayerNorm₁');
      // the default tensor and comparison exist in this model and have the same shape
      for (const n of defaultCompare(defaultTensor(info), info)) expect(r.names).toContain(n);
      const [a, b] = defaultCompare('blocks.1.ffn', info);
      const c = inspect(w, { run: RUN, show: { kind: 'compare', a, b, grad: false } });
      expect(c.shown[0].shape).toEqual(c.shown[1].shape);
    });
});

describe('the words follow the variant', () => {
  it('post-norm: a norm output is the stream, the sum before it is not; the gradient passes the add unchanged', () => {
    const info = load('post-norm, 12 blocks');
    expect(info.blocks).toBe(12);
    expect(tensorName('blocks.11.norm.ffn', info)).toMatchObject({ block: 11, stream: true, name: 'X′ of block 11, RMSNorm₂ after SwiGLU' });
    expect(tensorName('blocks.11.sum.attn', info)).toMatchObject({ stream: false, short: 'X + attention' });
    expect(tensorName('norm.final', info).name).toBe('norm.final'); // there is none
    const r = inspect(w, { run: RUN, show: { kind: 'single', name: 'blocks.11.norm.ffn', grad: false } });
    const line = tensorNotice(r.shown[0], r.labels, info);
    expect(line).toContain('post-norm model this normalized tensor is the stream itself');
    expect(line).not.toContain('never normalized');
    const norms = r.snapshotGradNorms!;
    expect(norms['blocks.11.attn']).toBe(norms['blocks.11.sum.attn']);
    expect(snapshotGradNotice(norms, info)).toMatch(/^each branch output has exactly the gradient norm of the sum it is added into/);
    const depth = depthNotice(r.depth.names, r.depth.rms, 3, r.labels, false, info);
    expect(depth).toContain('after RMSNorm₂ of the last block');
    expect(depth).toContain('no final norm');
    expect(modelSummary(info)).toBe('12 blocks, post-norm RMSNorm, d 16, 2 heads, context 16 bytes');
  });

  it('no residuals: the branch output is the stream, and no sum is claimed', () => {
    const info = load('pre-norm, no residuals');
    expect(tensorName('blocks.1.attn', info)).toMatchObject({ stream: true, name: 'H of block 1, the attention output' });
    const r = inspect(w, { run: RUN, show: { kind: 'single', name: 'blocks.1.attn', grad: true } });
    expect(tensorNotice(r.shown[0], r.labels, info)).not.toContain('residual add');
    expect(snapshotGradNotice(r.snapshotGradNorms!, info)).toMatch(/^each bar is the total derivative/);
    expect(modelSummary(info)).toContain('pre-norm RMSNorm, no residuals');
  });

  it('no norms and LayerNorm: the norms are named for what they are', () => {
    const none = load('no norms');
    const r = inspect(w, { run: RUN, show: { kind: 'single', name: 'blocks.1.resid.ffn', grad: false } });
    expect(tensorNotice(r.shown[0], r.labels, none)).toContain('no norms');
    const layer = load('LayerNorm');
    expect(tensorName('blocks.0.norm.attn', layer).name).toBe('LayerNorm₁ of block 0');
    expect(tensorName('norm.final', layer).short).toBe('final LayerNorm');
    const n = inspect(w, { run: RUN, show: { kind: 'single', name: 'blocks.0.norm.attn', grad: false } });
    expect(tensorNotice(n.shown[0], n.labels, layer)).toContain('mean subtracted');
  });

  it('the shipped model keeps its words', () => {
    expect(snapshotNames()).toEqual(snapshotNamesOf(SHIPPED_SHAPE));
    expect(tensorName('blocks.1.norm.attn')).toEqual(tensorName('blocks.1.norm.attn', SHIPPED_SHAPE));
    expect(defaultTensor()).toBe(DEFAULT_INSPECTOR.tensor);
    expect(defaultCompare('blocks.1.resid.ffn')).toEqual(['blocks.1.norm.attn', 'blocks.1.resid.attn']);
  });
});

describe('the address is checked against the loaded model', () => {
  const twelvePost: ModelShape = { blocks: 12, d: 64, norm: 'post', normKind: 'rms', residual: true };

  it('before the model is known only the form of a name is checked', () => {
    const r = readInspectorUrl('?tensor=blocks.11.norm.ffn&compare=blocks.11.sum.attn,blocks.11.norm.attn', null);
    expect(r.problems).toEqual([]);
    expect(r.settings.tensor).toBe('blocks.11.norm.ffn');
    for (const bad of ['blocks.24.attn', 'blocks.1.nope', 'blocks.01.attn', 'norm', 'blocks.1.attn.pattern']) {
      const b = readInspectorUrl(`?tensor=${bad}`, null);
      expect(b.settings.tensor, bad).toBe(DEFAULT_INSPECTOR.tensor);
      expect(b.problems[0], bad).toMatch(/tensor=.*not a snapshot name/);
    }
  });

  it('blocks.11 is valid in a 12-block model, and refused with what exists in the shipped one', () => {
    const read = readInspectorUrl('?tensor=blocks.11.norm.ffn&compare=blocks.11.sum.attn,blocks.11.norm.attn', null).settings;
    expect(fitToModel(read, twelvePost)).toEqual({ settings: read, problems: [] });
    expect(readInspectorUrl('?tensor=blocks.11.norm.ffn', twelvePost).problems).toEqual([]);
    const shipped = fitToModel(read, SHIPPED_SHAPE);
    expect(shipped.settings.tensor).toBe('blocks.0.resid.attn');
    expect(shipped.settings.compare).toBeNull();
    expect(shipped.problems).toHaveLength(2);
    expect(shipped.problems[0]).toBe(
      'The address has tensor="blocks.11.norm.ffn": not a snapshot name of this model (blocks.0 … blocks.3: norm.attn, attn, resid.attn, norm.ffn, ffn, resid.ffn; embed, norm.final, logits); using blocks.0.resid.attn.',
    );
    for (const p of shipped.problems) expect(p.length).toBeLessThanOrEqual(240);
  });

  it('a pre-norm name in a post-norm model is refused, and its default is the post-norm H', () => {
    const fit = fitToModel({ ...DEFAULT_INSPECTOR, tensor: 'blocks.2.resid.attn' }, twelvePost);
    expect(fit.settings.tensor).toBe('blocks.0.norm.attn');
    expect(fit.problems[0]).toContain('blocks.0 … blocks.11: attn, sum.attn, norm.attn, ffn, sum.ffn, norm.ffn; embed, logits');
    const none: ModelShape = { ...twelvePost, norm: 'none', residual: false };
    expect(fitToModel({ ...DEFAULT_INSPECTOR, tensor: 'blocks.5.ffn' }, none).problems).toEqual([]);
    expect(fitToModel({ ...DEFAULT_INSPECTOR, tensor: 'norm.final' }, none).settings.tensor).toBe('blocks.0.attn');
  });
});
