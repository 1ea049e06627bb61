// The inspector for any model config (issue 11): a 12-block post-norm model
// trained in the Train view opens in the inspector, which draws its own blocks,
// names its tensors for what they hold, shows a late block's heatmap and
// gradient, accepts a deep link to blocks.11 of that model, leaves the lessons on
// the shipped model meanwhile, and goes back to the shipped model, where the same
// address is refused with what exists instead.
import { axe } from './axe';
import { expect, test, type Page } from '@playwright/test';
import { sideways } from './sideways';

const SHOTS = 'build/screenshots';

async function setField(page: Page, key: string, value: string) {
  const details = page.locator('details.train-settings');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await page.getByTestId(`run-B-field-${key}`).fill(value);
}

/** An address inside the page, as Back/Forward or a link would bring it (no reload: the learner's weights stay). */
async function goInside(page: Page, search: string) {
  await page.evaluate((s) => {
    history.pushState(null, '', s);
    dispatchEvent(new PopStateEvent('popstate'));
  }, search);
}

test('a 12-block post-norm model trained here: block map, a late block’s heatmap and gradient, deep links', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./?view=train');
  await expect(page.getByRole('heading', { name: 'Train', level: 1 })).toBeVisible({ timeout: 20_000 });
  // the experiment's run B: 12 post-norm blocks of width 32 over a 64-byte context; a few steps only
  await page.getByTestId('train-preset').selectOption('pre-post');
  await setField(page, 'steps', '4');
  await setField(page, 'batch', '2');
  await setField(page, 'warmup', '0');
  await setField(page, 'evalEvery', '4');
  await setField(page, 'sampleEvery', '0');
  await page.getByTestId('run-B').getByRole('button', { name: 'Train run B' }).click();
  await expect(page.getByTestId('run-B-status')).toHaveAttribute('data-phase', 'finished', { timeout: 60_000 });
  await page.getByTestId('run-B').getByRole('button', { name: 'Open in the inspector' }).click();

  // the inspector says which model it shows, and draws its 12 blocks
  await expect(page.getByRole('heading', { name: 'Inspector', level: 1 })).toBeVisible();
  await expect(page.getByTestId('own-model')).toHaveText('Your own model: 12 blocks, post-norm RMSNorm, d 32, 2 heads, context 64 bytes.');
  await expect(page.getByTestId('weights-ready')).toContainText('trained here in run B');
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('block-row')).toHaveCount(12);
  await expect(page.getByTestId('block-map')).toContainText('H = RMSNorm₁(X + Attention(X)), X′ = RMSNorm₂(H + SwiGLU(H))');
  await expect(page.getByTestId('block-map-notice')).toContainText('post-norm');
  await expect(page.getByTestId('prompt-count')).toHaveText(/ of 64 bytes$/);
  await expect(page.getByLabel('eps in all 24 RMSNorms')).toBeVisible(); // two per block, no final norm
  // no default-model name slipped through: the open tensor is this model's H of block 0
  await expect(page.getByTestId('heatmap')).toContainText('H of block 0, RMSNorm₁ after attention (blocks.0.norm.attn)');
  await expect(page.getByTestId('heatmap')).toContainText(', 32) · float32');

  // a late block, from the block map: its SwiGLU output, then the gradient
  await page.getByRole('button', { name: /^SwiGLU: open the SwiGLU branch output of block 11/ }).click();
  await expect(page).toHaveURL(/tensor=blocks\.11\.ffn/);
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toContainText('SwiGLU output of block 11 (blocks.11.ffn)');
  await page.getByRole('radio', { name: /gradients/ }).check();
  await expect(heatmap).toContainText('gradient of SwiGLU output of block 11 (∂loss/∂blocks.11.ffn)');
  // the add passes the gradient to the branch unchanged: said from the numbers, with this model's sum
  await expect(page.getByTestId('tensor-notice')).toContainText('exactly the gradient of H + SwiGLU of block 11, before RMSNorm₂');
  await expect(page.getByTestId('grad-norms')).toContainText('block 11');
  await expect(page.getByTestId('grad-norms')).toContainText('blocks.11.sum.ffn');
  await expect(page.getByTestId('depth-grad-plot')).toContainText('block 11');
  await expect(page.getByTestId('depth-plot-notice')).toContainText('no final norm');
  await page.screenshot({ path: `${SHOTS}/inspector-any-config-1280.png`, fullPage: true });
  for (const [name, part] of [
    ['top', page.locator('.inspector-head').locator('..')],
    ['blockmap', page.getByTestId('block-map')],
    ['tensor', page.getByTestId('tensor-card')],
    ['depth', page.locator('.inspector-depth')],
    ['grads', page.getByTestId('grad-norms')],
  ] as const)
    await part.screenshot({ path: `${SHOTS}/inspector-any-config-${name}-1280.png`, ...(name === 'top' ? { clip: { x: 0, y: 0, width: 1280, height: 700 } } : {}) });

  // the new drawing and words pass axe (serious and critical)
  const { violations } = await axe(page).include('.inspector').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

  // Look inside: the block picker offers the model's 12 blocks
  await page.getByTestId('look-inside').locator('summary').click();
  await expect(page.getByTestId('look-block').locator('option')).toHaveCount(12);
  await page.getByTestId('tool-lens').click(); // the tools are tabs: heads first, then the lens
  await expect(page.getByTestId('look-lens-table')).toContainText('block 11, after RMSNorm₂');

  // a deep link to blocks.N of this model is valid while it is loaded
  await goInside(page, '?view=inspector&tensor=blocks.9.sum.attn&of=value');
  await expect(heatmap).toContainText('X + attention of block 9, before RMSNorm₁ (blocks.9.sum.attn)');
  await expect(page.getByTestId('url-problems')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^X \+ Attn: open X \+ attention of block 9/ })).toHaveAttribute('aria-pressed', 'true');

  // at 390 px the block map scrolls sideways in its own box; the page does not
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('block-row')).toHaveCount(12);
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await page.getByTestId('block-map').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/inspector-any-config-390.png`, fullPage: true });
  await page.getByTestId('block-map').screenshot({ path: `${SHOTS}/inspector-any-config-blockmap-390.png` });
  await page.locator('.inspector-depth').screenshot({ path: `${SHOTS}/inspector-any-config-depth-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  // a lesson opened meanwhile still reads the shipped model (4 heads, width 128), not this one (2 heads, width 32):
  // its inline values, its code cell and its checks
  await goInside(page, '?view=lessons&lesson=attention&step=2'); // its step "Queries, keys and values"
  await expect(page.getByTestId('lesson')).toContainText('shared out among 4 heads of 32 columns each', { timeout: 20_000 });
  await expect(page.getByTestId('code-output').first()).toContainText(/q: 16 × 128 +head 2: 16 × 32/, { timeout: 20_000 });
  // and the inspector still shows the learner's model
  await goInside(page, '?view=inspector&tensor=blocks.9.sum.attn&of=value');
  await expect(page.getByTestId('own-model')).toContainText('Your own model: 12 blocks');
  await expect(page.getByTestId('block-row')).toHaveCount(12);

  // back to the shipped model: the tensor it lacks is replaced quietly by its default
  await page.getByRole('button', { name: 'Back to the shipped model' }).click();
  await expect(page.getByTestId('weights-ready')).toContainText('King James Bible');
  await expect(page.getByTestId('block-row')).toHaveCount(4);
  await expect(heatmap).toContainText('H of block 0, after attention + (blocks.0.resid.attn)');
  await expect(page.getByTestId('url-problems')).toHaveCount(0);

  // the same deep link on the shipped model: refused, saying what exists
  await page.goto('./?view=inspector&tensor=blocks.11.ffn');
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('url-problems')).toContainText(
    'tensor="blocks.11.ffn": not a snapshot name of this model (blocks.0 … blocks.3: norm.attn, attn, resid.attn, norm.ffn, ffn, resid.ffn; embed, norm.final, logits)',
  );
  await expect(heatmap).toContainText('(blocks.0.resid.attn)');
});
