// What a learner reads, beyond what every step is checked for: integers printed as
// integers in code cells, and the RMSNorm lesson's notices following its numbers.
// (No text written for developers and a line of what to notice under every plot
// and table, on every step of every lesson: expectLearnerText in lessonWalk.ts,
// run by screens.spec.ts on each step it opens.)
import { expect, test } from '@playwright/test';
import { SHOTS, openStep as openLessonStep, showHidden } from './lessonWalk';

/** Opens a step with everything a prediction hides shown: the text and notices are checked in full. */
async function openStep(page: Parameters<typeof openLessonStep>[0], slug: string, step: number) {
  await openLessonStep(page, slug, step);
  await showHidden(page);
}

test('code cells print shapes, counts and byte values as integers, float tensors as numpy does', async ({ page }) => {
  await openStep(page, 'tensors-autograd', 2);
  const first = page.getByTestId('code-output').first();
  await expect(first).not.toHaveText('Running…', { timeout: 20_000 });
  await expect(first).toHaveText(/^\[2, 3\] float32 6\n/);
  await openStep(page, 'bytes-embeddings', 4);
  const out = page.getByTestId('code-output').first();
  await expect(out).toContainText('bytes: [99, 114, 195, 169, 195, 169]', { timeout: 20_000 });
  await expect(out).toContainText('ones in the one-hot matrix: 6');
  await openStep(page, 'swiglu', 2);
  await expect(page.getByTestId('code-output').first()).toContainText('weights: 147456', { timeout: 20_000 });
  await expect(page.getByTestId('code-output').first()).not.toContainText('147456.');
  await openStep(page, 'tensors-autograd', 4);
  await expect(page.getByTestId('code-output').first()).toContainText('[[1., 4.],', { timeout: 20_000 }); // a float32 tensor stays float
  await page.screenshot({ path: `${SHOTS}/lesson-text-integers.png`, fullPage: true });
});

test('the RMSNorm lesson: LayerNorm with its γ and β; the comparison says which γ and β it used; notices follow the numbers', async ({ page }) => {
  await openStep(page, 'rmsnorm', 3);
  await expect(page.getByTestId('lesson')).toContainText('multiplies by a learned gain');
  await expect(page.getByTestId('cmp-gamma')).toHaveText('γ = 1 (every gain 1)');
  await expect(page.getByTestId('widget-norm-compare')).toContainText("LayerNorm's β = 0");
  await openStep(page, 'rmsnorm', 4);
  const gamma = page.getByTestId('gamma-notice');
  await expect(gamma).toContainText('their outputs have different norms');
  await page.getByTestId('gamma-input').fill('1, 1, 1, 1');
  await expect(gamma).toContainText('happen to get the same norm');
  await openStep(page, 'rmsnorm', 7);
  const bars = page.getByTestId('grad-bars');
  await expect(bars.locator('li').last()).toContainText('final RMSNorm (not part of the stream)', { timeout: 20_000 });
  await expect(bars.locator('li').nth(1)).toContainText('block 0, after attention +');
  await expect(page.getByTestId('grad-bars-notice')).toContainText('the gradient reaching the embedding');
  await openStep(page, 'rmsnorm', 8);
  await expect(page.getByTestId('widget-inspector-tour')).toContainText('with γ = 1 and ε = 0 every row would have RMS exactly 1, i.e. it would lie on the sphere of radius √128', { timeout: 20_000 });
  await expect(page.getByTestId('widget-inspector-tour')).not.toContainText('|γ|');
});
