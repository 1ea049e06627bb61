// The gradient check as the inspector asks for it: an element named by a
// position and a coordinate (or a parameter's row and column, or a γ's
// coordinate), turned into the core's index by the worker, with the shape and
// coordinates returned for the page to show; one out of range refused by name.
import { describe, expect, it } from 'vitest';
import type { ModelRunSettings } from '../../web/src/protocol/model';
import { handlers } from '../../web/src/worker/handlers';
import type { WorkerState } from '../../web/src/worker/state';
import { errorOf } from './errorOf';
import { withShippedModel } from './load';

let w: WorkerState;
withShippedModel((s) => (w = s));

const run: ModelRunSettings = { text: 'In the beginning God', eps: 1e-6, dtype: 'float64' };
const N = 20;
const check = (target: string, at: { pos: number; coord: number }) => handlers.interpGradCheck(w, { run, target, index: 0, at });

describe('the gradient check at (pos, coord)', () => {
  it('a snapshot: row-major in (n, d), the same as asking by index', () => {
    const r = check('blocks.1.resid.attn', { pos: 7, coord: 40 });
    expect(r.shape).toEqual([N, 128]);
    expect(r.coords).toEqual([7, 40]);
    expect(r.index).toBe(7 * 128 + 40);
    const byIndex = handlers.interpGradCheck(w, { run, target: 'blocks.1.resid.attn', index: 7 * 128 + 40 });
    expect(r.float64.value).toBe(byIndex.float64.value);
    expect(r.float64.grad).toBe(byIndex.float64.grad);
    expect(r.parameter).toBe(false);
  });

  it('a matrix by row and column, a γ by its coordinate', () => {
    const m = check('tok_emb.weight', { pos: 73, coord: 5 });
    expect(m.shape).toEqual([256, 128]);
    expect(m.index).toBe(73 * 128 + 5);
    expect(m.parameter).toBe(true);
    const g = check('blocks.2.norm_ffn.gamma', { pos: 99, coord: 12 }); // a vector: the position plays no part
    expect(g.shape).toEqual([128]);
    expect(g.coords).toEqual([12]);
    expect(g.index).toBe(12);
  });

  it('refuses what is out of range, saying which and the shape', () => {
    expect(errorOf(() => check('blocks.1.resid.attn', { pos: N, coord: 0 }))).toBe(
      `gradient check: position ${N} is outside 0 to ${N - 1} (blocks.1.resid.attn has shape (${N}, 128))`,
    );
    expect(errorOf(() => check('logits', { pos: 0, coord: 256 }))).toBe(`gradient check: coordinate 256 is outside 0 to 255 (logits has shape (${N}, 256))`);
    expect(errorOf(() => check('head.weight', { pos: 256, coord: 0 }))).toBe('gradient check: row 256 is outside 0 to 255 (head.weight has shape (256, 128))');
    expect(errorOf(() => check('blocks.0.attn.wq.weight', { pos: 0, coord: 128 }))).toBe(
      'gradient check: column 128 is outside 0 to 127 (blocks.0.attn.wq.weight has shape (128, 128))',
    );
    // a name that is neither: the core's own message, listing both kinds
    expect(errorOf(() => check('blocks.0.attn.wz.weight', { pos: 0, coord: 0 }))).toMatch(/"blocks\.0\.attn\.wz\.weight" is neither a snapshot nor a parameter; snapshots: embed, /);
  });
});
