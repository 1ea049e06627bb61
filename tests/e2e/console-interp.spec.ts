// The console's issue-12 API against the production build, in the page's
// worker with the page's weights: glass.model.run with patterns and with the
// issue's interventions (before/after, what changed; bad names refused with
// what exists), the lens, the ledger, the heads and the gradient check.
import { expect, test } from '@playwright/test';

test('window.glass.model: patterns, interventions, lens, ledger, heads, gradient check', async ({ page }) => {
  await page.goto('./?view=lab');
  const r = await page.evaluate(async () => {
    const g = (window as unknown as { glass: any }).glass;
    const text = 'In the beginning';
    const plain = await g.model.run(text, { dtype: 'float64' });
    const withPatterns = await g.model.run(text, { dtype: 'float64', patterns: true });
    const p = withPatterns.snapshots['blocks.0.attn.pattern'];
    let rowErr = 0;
    for (let h = 0; h < p.shape[0]; h++)
      for (let t = 0; t < p.shape[1]; t++) {
        let s = 0;
        for (let j = 0; j <= t; j++) s += p.data[(h * p.shape[1] + t) * p.shape[2] + j];
        rowErr = Math.max(rowErr, Math.abs(s - 1));
      }
    const examples = [
      { zero: 'blocks.2.ffn' },
      { scale: 'blocks.0.attn', by: 0.5 },
      { ablateHead: { block: 1, head: 2 } },
      { eps: { norm: 'blocks.3.norm_ffn', value: 1e-2 } },
      { identityNorm: 'norm_final' },
      { unitGamma: 'blocks.0.norm_attn' },
    ];
    const reports = [];
    for (const iv of examples) {
      const run = await g.model.run(text, { interventions: [iv] });
      reports.push({ before: run.intervention.before.loss, after: run.intervention.after.loss, loss: run.loss, changed: run.intervention.changes.filter((c: any) => c.changed).length });
    }
    let refusal = '';
    try {
      await g.model.run(text, { interventions: [{ zero: 'blocks.9.ffn' }] });
    } catch (e) {
      refusal = `${(e as Error).name}: ${(e as Error).message}`;
    }
    const after = await g.model.run(text, {});
    const lens = await g.model.lens(text, { dtype: 'float64' });
    const ledger = await g.model.ledger(text, { dtype: 'float64' });
    const heads = await g.model.heads(text);
    const check = await g.model.gradCheck(text, 'blocks.1.resid.ffn', 20);
    return {
      plainNames: Object.keys(plain.snapshots).length,
      patternNames: Object.keys(withPatterns.snapshots).length,
      patternShape: p.shape,
      rowErr,
      samePlainLoss: withPatterns.loss === plain.loss,
      reports,
      refusal,
      afterLoss: after.loss,
      firstBefore: reports[0].before,
      lensCheck: lens.lens.lastDepthMaxAbs,
      lensDepths: lens.lens.depths.length,
      ledgerDiff: ledger.maxAbsDiff,
      ledgerGradDiff: ledger.grad.maxAbsDiff,
      heads: heads.summary.heads.length,
      check64: [check.float64.predicted, check.float64.actual],
    };
  });
  expect(r.patternNames - r.plainNames).toBe(4);
  expect(r.patternShape).toEqual([4, 16, 16]);
  expect(r.rowErr).toBeLessThanOrEqual(1e-12);
  expect(r.samePlainLoss).toBe(true);
  for (const rep of r.reports) {
    expect(rep.after).toBe(rep.loss);
    expect(rep.after).not.toBe(rep.before);
    expect(rep.before).toBe(r.firstBefore);
    expect(rep.changed).toBeGreaterThan(0);
  }
  expect(r.refusal).toContain('GlassError');
  expect(r.refusal).toContain('branches are blocks.0.attn');
  expect(r.afterLoss).toBe(r.firstBefore); // the weights were not changed
  expect(r.lensCheck).toBe(0);
  expect(r.lensDepths).toBe(9);
  expect(r.ledgerDiff).toBeLessThanOrEqual(1e-12);
  expect(r.ledgerGradDiff).toBeLessThanOrEqual(1e-12);
  expect(r.heads).toBe(16);
  expect(Math.abs(r.check64[1] - r.check64[0])).toBeLessThanOrEqual(1e-6 * Math.abs(r.check64[0]));
});
