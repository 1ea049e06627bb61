// One vocabulary: every tensor the model records and every parameter has one
// learner-facing name, the same in the inspector and the lessons, with the code
// name beside it where it helps.
import { describe, expect, it } from 'vitest';
import { snapshotNames } from '../../web/src/app/inspectorSettings';
import { depthNames, paramName, tensorName, withCode } from '../../web/src/app/tensorNames';
import { depthNames as workerDepthNames } from '../../web/src/worker/inspector';
import { needModel } from '../../web/src/worker/state';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

describe('snapshot names', () => {
  const names = snapshotNames();

  it('the examples of the issue: RMSNorm₁ (blocks.1.norm.attn), "after attention +" on the depth plot', () => {
    expect(withCode('blocks.1.norm.attn')).toBe('RMSNorm₁ of block 1 (blocks.1.norm.attn)');
    expect(tensorName('blocks.1.resid.attn').short).toBe('after attention +');
    expect(tensorName('blocks.2.resid.ffn').short).toBe('after SwiGLU +');
    expect(tensorName('blocks.3.norm.ffn').name).toBe('RMSNorm₂ of block 3');
  });

  it('every snapshot has a learner name that is not its code name, and no two snapshots share one', () => {
    expect(names).toHaveLength(27);
    for (const n of names) {
      const t = tensorName(n);
      expect(t.code).toBe(n);
      expect(t.name, n).not.toBe(n);
      expect(t.short.length, n).toBeGreaterThan(0);
      expect(t.what.length, n).toBeGreaterThan(t.short.length);
      expect(withCode(n)).toBe(`${t.name} (${n})`);
    }
    expect(new Set(names.map((n) => tensorName(n).name)).size).toBe(names.length);
    expect(new Set(names.map((n) => tensorName(n).what)).size).toBe(names.length);
  });

  it('the block and the residual stream: embed and the two sums of each block; norm.final is not part of it', () => {
    expect(names.filter((n) => tensorName(n).stream)).toEqual(depthNames(4).filter((n) => n !== 'norm.final'));
    expect(tensorName('norm.final').stream).toBe(false);
    expect(tensorName('norm.final').what).toMatch(/not part of the stream/);
    expect(tensorName('blocks.2.attn').block).toBe(2);
    expect(tensorName('embed').block).toBeNull();
    expect(depthNames(4)).toEqual(['embed', ...[0, 1, 2, 3].flatMap((i) => [`blocks.${i}.resid.attn`, `blocks.${i}.resid.ffn`]), 'norm.final']);
    expect(workerDepthNames).toBe(depthNames); // the worker's depth plot and the lessons use the same list
  });

  it('an unknown name is shown as itself, not renamed', () => {
    expect(tensorName('blocks.9.nope').name).toBe('blocks.9.nope');
    expect(withCode('whatever')).toBe('whatever');
  });
});

describe('parameter names, against the loaded model', () => {
  let w: WorkerState;
  withShippedModel((s) => (w = s));

  it('every parameter of the model has a layer and a learner name for its part', () => {
    const m = needModel(w);
    m.model.compute('In the beginning', { backward: true });
    const params = Object.keys(m.model.paramGradNorms());
    expect(params.length).toBeGreaterThan(30);
    const seen = new Set<string>();
    for (const p of params) {
      const n = paramName(p);
      expect(n.layer, p).not.toBe('other');
      expect(n.part, p).not.toBe(p);
      seen.add(`${n.layer} / ${n.part}`);
    }
    expect(seen.size).toBe(params.length);
    expect(paramName('blocks.2.attn.wq.weight')).toEqual({ code: 'blocks.2.attn.wq.weight', layer: 'block 2', part: 'W_q, attention queries' });
    expect(paramName('norm_final.gamma').layer).toBe('final RMSNorm');
  });
});
