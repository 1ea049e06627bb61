// The inspector's one-tensor-at-a-time bindings (compute, snapshot, rowRms,
// difference, tensorNorm, displayByte) against the full run() of the same text.
// The test recomputes RMS, differences and norms in JS only to check the core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GlassError, Model, type Glass, type ModelRun } from '../../web/src/core';
import { loadTestGlass } from './load';

const cli = new URL('../../build/native/glassllm', import.meta.url).pathname;

describe('the model, one tensor at a time', () => {
  let glass: Glass;
  let model: Model;
  let full: ModelRun;
  const text = 'And God saw the light, that it was góod.';

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the native preset first (npm run build:native)`);
    const dir = mkdtempSync(join(tmpdir(), 'glass-inspect-'));
    execFileSync(cli, ['init', '--out', join(dir, 'w.safetensors'), '--seed', '3']);
    glass = await loadTestGlass();
    model = Model.create(glass);
    model.loadWeights(readFileSync(join(dir, 'w.safetensors')));
  });
  afterAll(() => model?.dispose());

  it('refuses to show tensors before anything has run', () => {
    expect(() => model.snapshot('embed')).toThrow(/nothing has run/);
  });

  for (const dtype of ['float32', 'float64'] as const) {
    it(`compute + snapshot equal run() in ${dtype}`, () => {
      full = model.run(text, { dtype, eps: 1e-6 });
      const loss = model.compute(text, { dtype, eps: 1e-6 });
      expect(loss).toBe(full.loss);
      expect(model.snapshotNames()).toEqual(Object.keys(full.snapshots));
      for (const name of ['embed', 'blocks.3.resid.ffn', 'logits']) {
        const s = model.snapshot(name);
        expect(s.shape).toEqual(full.snapshots[name].shape);
        expect(s.data).toEqual(full.snapshots[name].data);
        expect(s.data).toBeInstanceOf(dtype === 'float32' ? Float32Array : Float64Array);
        expect(model.snapshot(name, { grad: true }).data).toEqual(full.grads![name].data);
      }
      // a TransformerLens alias names the same tensor
      expect(model.snapshot('blocks.1.hook_resid_mid').data).toEqual(full.snapshots['blocks.1.resid.attn'].data);
    });
  }

  it('gives per-position RMS, differences and norms computed by the core', () => {
    full = model.run(text, { dtype: 'float64', eps: 1e-6 });
    for (const [name, grad] of [['blocks.2.resid.attn', false], ['blocks.2.resid.attn', true], ['logits', false]] as const) {
      const t = grad ? full.grads![name] : full.snapshots[name];
      const [n, d] = t.shape;
      const rms = model.rowRms(name, { grad });
      expect(rms).toHaveLength(n);
      let total = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += t.data[i * d + j] ** 2;
        total += s;
        expect(rms[i]).toBeCloseTo(Math.sqrt(s / d), 12);
      }
      expect(model.tensorNorm(name, { grad })).toBeCloseTo(Math.sqrt(total), 10);
    }
    const a = full.snapshots['blocks.0.norm.attn'];
    const b = full.snapshots['blocks.0.resid.attn'];
    const diff = model.difference('blocks.0.norm.attn', 'blocks.0.resid.attn');
    expect(diff.shape).toEqual(a.shape);
    for (let i = 0; i < a.data.length; i++) expect(diff.data[i]).toBe(b.data[i] - a.data[i]);
    // after RMSNorm with gamma = 1 every position has RMS just under 1 (eps takes its share:
    // random-init embeddings are small, mean square ~4e-4 against eps 1e-6)
    for (const r of model.rowRms('blocks.0.norm.attn')) expect(r).toBeCloseTo(1, 2);
  });

  it('labels bytes as the core does', () => {
    expect(model.displayByte(32)).toBe('␣');
    expect(model.displayByte(101)).toBe('e');
    expect(model.displayByte(10)).toBe('\\n');
  });

  it('names the problem for a bad name, a missing gradient or a shape mismatch', () => {
    model.compute(text, { backward: false });
    expect(() => model.snapshot('embed', { grad: true })).toThrow(/no gradient/);
    expect(() => model.snapshot('blocks.9.attn')).toThrow(GlassError);
    expect(() => model.difference('embed', 'logits')).toThrow(GlassError);
    expect(model.snapshot('embed').shape[0]).toBe(new TextEncoder().encode(text).length);
  });
});
