// The inspector's "what to notice" lines, from the worker's real results: each
// one reads its numbers from the values the plot shows, and the facts it states
// hold for the data (the residual add passes the gradient through unchanged,
// the last byte gets no gradient, norm.final is not part of the stream).
import { describe, expect, it } from 'vitest';
import { fmt } from '../../web/src/app/format';
import type { TensorSelection } from '../../web/src/protocol/model';
import {
  compareNotice,
  depthNotice,
  extremes,
  lastNonzero,
  paramGradNotice,
  snapshotGradNotice,
  tensorNotice,
} from '../../web/src/widgets/inspector/inspectorNotices';
import { inspect } from '../../web/src/worker/inspector';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

describe('inspector notices, on the shipped model', () => {
  let w: WorkerState;
  const run = (text: string, show: TensorSelection) =>
    inspect(w, { run: { text, eps: 1e-6, dtype: 'float32' }, show });
  withShippedModel((s) => (w = s));

  it('a branch output and the sum it is added into have exactly the same gradient, in every block', () => {
    const r = run('In the beginning God created the heaven and the earth.', { kind: 'single', name: 'embed', grad: false });
    const norms = r.snapshotGradNorms!;
    for (let i = 0; i < 4; i++) {
      expect(norms[`blocks.${i}.attn`]).toBe(norms[`blocks.${i}.resid.attn`]);
      expect(norms[`blocks.${i}.ffn`]).toBe(norms[`blocks.${i}.resid.ffn`]);
    }
    const text = snapshotGradNotice(norms);
    expect(text).toMatch(/^each branch output has exactly the gradient norm of the sum it is added into/);
    expect(text).toContain(fmt(norms['blocks.0.attn'], 4));
    // made-up norms where a pair differs: the line says so instead
    expect(snapshotGradNotice({ ...norms, 'blocks.2.ffn': norms['blocks.2.ffn'] * 2 })).toMatch(/^7 of 8 branch outputs/);
  });

  it('the gradient of every snapshot is exactly 0 at the last position, and the notice says so from the data', () => {
    const text = 'Let there be light';
    for (const name of ['blocks.1.norm.attn', 'blocks.2.attn', 'logits', 'embed']) {
      const r = run(text, { kind: 'single', name, grad: true });
      const t = r.shown[0];
      expect(t.rowRms[t.shape[0] - 1]).toBe(0);
      const line = tensorNotice(t, r.labels);
      expect(line).toContain(`the last row (position ${t.shape[0] - 1} “t”) is exactly 0`);
      if (name === 'blocks.2.attn') expect(line).toContain('exactly the gradient of H of block 2, after attention +');
      if (name === 'logits') expect(line).toContain('sums to 0');
    }
  });

  it('values: the range of the per-position RMS is read from the shown tensor; norms talk about γ and √d', () => {
    const r = run('And God said', { kind: 'single', name: 'blocks.1.norm.attn', grad: false });
    const t = r.shown[0];
    const e = extremes(t.rowRms)!;
    const line = tensorNotice(t, r.labels);
    expect(line).toContain(`from ${fmt(e.min, 3)} (position ${e.minAt} “${r.labels[e.minAt]}”)`);
    expect(line).toContain(`to ${fmt(e.max, 3)}`);
    expect(line).toContain('γ = 1 and ε = 0 every row would have RMS exactly 1, on the sphere of radius √128');
    const stream = run('And God said', { kind: 'single', name: 'blocks.1.resid.attn', grad: false });
    expect(tensorNotice(stream.shown[0], stream.labels)).toContain('Compare it with RMSNorm₂ of block 1');
    const last = run('And God said', { kind: 'single', name: 'blocks.3.resid.ffn', grad: false });
    expect(tensorNotice(last.shown[0], last.labels)).toContain('final RMSNorm');
  });

  it('compare: identical gradients give B − A = 0 with the reason; different tensors give their RMS ranges', () => {
    const same = run('In the beginning', { kind: 'compare', a: 'blocks.0.attn', b: 'blocks.0.resid.attn', grad: true });
    expect(same.shown[2].norm).toBe(0);
    expect(compareNotice(same.shown[0], same.shown[1], same.shown[2], same.labels)).toMatch(/exactly 0 everywhere.*residual add passes the gradient/);
    const diff = run('In the beginning', { kind: 'compare', a: 'blocks.0.norm.attn', b: 'blocks.0.resid.attn', grad: false });
    const line = compareNotice(diff.shown[0], diff.shown[1], diff.shown[2], diff.labels);
    expect(line).toContain(`‖B − A‖ = ${fmt(diff.shown[2].norm, 4)}`);
  });

  it('the depth plot: values grow or shrink as the numbers say; gradients open on a position that has one', () => {
    const r = run('In the beginning God', { kind: 'single', name: 'embed', grad: false });
    const { names, rms, gradRms } = r.depth;
    expect(names.at(-1)).toBe('norm.final');
    const n = r.labels.length;
    const pos = n - 1;
    const line = depthNotice(names, rms, pos, r.labels, false);
    const first = rms[0][pos];
    const top = rms[names.length - 2][pos];
    expect(line).toContain(`${top > first ? 'grows' : 'shrinks'} from ${fmt(first, 3)} at the embedding to ${fmt(top, 3)} after SwiGLU + of the last block`);
    expect(line).toContain('which is not part of the stream');
    // the last byte's gradient is zero at every depth: the plot opens one position earlier
    expect(gradRms!.every((g) => g[n - 1] === 0)).toBe(true);
    expect(lastNonzero(gradRms!, n)).toBe(n - 2);
    expect(depthNotice(names, gradRms!, n - 1, r.labels, true)).toContain('exactly 0 at every depth');
    expect(depthNotice(names, gradRms!, n - 2, r.labels, true)).toContain('backward runs right to left');
  });

  it('parameters: the largest and the smallest gradient, by their learner names', () => {
    const r = run('In the beginning', { kind: 'single', name: 'embed', grad: false });
    const norms = r.paramGradNorms!;
    const e = extremes(Object.values(norms))!;
    const line = paramGradNotice(norms);
    expect(line).toContain(`(${fmt(e.max, 3)})`);
    expect(line).toContain(`(${fmt(e.min, 3)})`);
    expect(line).not.toMatch(/blocks\.\d/); // learner names, not code names
  });
});
