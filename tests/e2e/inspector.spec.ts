// The inspector against the production build: weights load with progress, a
// prompt runs forward and backward, the block map, heatmaps (hover reads a value),
// the compare view and gradients; the URL restores a view; bad inputs get a
// message and the page stays usable; window.glass.model.run works.
// Uses public/weights/glass-kjv.safetensors (scripts/test.sh makes a random-init
// stand-in with `glassllm init` if the trained file is not there).
import { expect, test, type Page } from '@playwright/test';

const SHOTS = 'build/screenshots';

async function openInspector(page: Page, query = '') {
  await page.goto(`./?view=inspector${query}`);
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
}

test('loads the weights with progress, runs a prompt, shows four blocks, a heatmap and gradients', async ({ page }) => {
  // slow the weights down so the progress element is seen
  await page.route('**/weights/glass-kjv.safetensors', async (route) => {
    const response = await route.fetch();
    await new Promise((r) => setTimeout(r, 400));
    await route.fulfill({ response });
  });
  await page.goto('./?view=inspector');
  await expect(page.getByTestId('weights-progress')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/inspector-loading.png` });
  await expect(page.getByTestId('weights-ready')).toContainText('parameters');
  await expect(page.getByTestId('inspector-results')).toBeVisible();
  await expect(page.getByTestId('block-row')).toHaveCount(4);
  await expect(page.getByTestId('inspector-loss')).toContainText('nats');
  await expect(page.getByTestId('pred-baseline').locator('li')).toHaveCount(5);

  // open a node from the block map by keyboard
  const attn2 = page.getByRole('button', { name: /^Attention: open the attention branch output of block 2/ });
  await attn2.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/tensor=blocks\.2\.attn/);
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toContainText('blocks.2.attn');
  // hover shows position, coordinate and value
  const canvas = heatmap.locator('canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + 30);
  await expect(heatmap.getByTestId('heatmap-readout')).toHaveText(/position 2 \(.*\) · coordinate \d+ · value -?\d/);
  await page.screenshot({ path: `${SHOTS}/inspector-heatmap.png`, fullPage: true });

  // logits are (n, 256)
  await page.getByRole('button', { name: /^head → logits/ }).click();
  await expect(heatmap).toContainText(/\(\d+, 256\)/);

  // the gradient of the same tensor
  await page.getByRole('radio', { name: /gradients/ }).check();
  await expect(heatmap).toContainText('∂loss/∂logits');
  await expect(page).toHaveURL(/of=grad/);
  await expect(page.getByTestId('grad-norms')).toContainText('block 3');
  await expect(page.getByTestId('depth-grad-plot')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/inspector-gradients.png`, fullPage: true });
});

test('compares two snapshots with their difference; eps and dtype re-run the model', async ({ page }) => {
  await openInspector(page, '&tensor=blocks.1.resid.ffn');
  await page.getByRole('button', { name: 'Compare two tensors' }).click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toContainText('A: blocks.1.norm.attn');
  await expect(compare).toContainText('B: blocks.1.resid.attn');
  await expect(page.getByTestId('heatmap-diff')).toContainText('B − A');
  await expect(page).toHaveURL(/compare=blocks\.1\.norm\.attn,blocks\.1\.resid\.attn/);
  await page.screenshot({ path: `${SHOTS}/inspector-compare.png`, fullPage: true });

  // eps: the prediction at the new eps appears beside the trained one
  const before = await page.getByTestId('inspector-loss').textContent();
  const slider = page.getByLabel('eps in all 9 RMSNorms');
  await slider.fill('1');
  await expect(page.getByTestId('pred-current')).toContainText('eps = 10');
  await expect(page.getByTestId('inspector-loss')).not.toHaveText(before!);
  await page.getByRole('radio', { name: 'float64' }).check();
  await expect(page.getByTestId('inspector-loss')).toContainText('float64');
  await expect(page).toHaveURL(/meps=10&mdtype=float64|mdtype=float64/);
  await page.screenshot({ path: `${SHOTS}/inspector-eps.png`, fullPage: true });
});

test('the URL restores an inspector view', async ({ page }) => {
  await openInspector(page, '&prompt=Let%20there%20be%20light&tensor=blocks.3.norm.ffn&of=grad&meps=0.01&mdtype=float64');
  await expect(page.getByLabel(/^Prompt/)).toHaveValue('Let there be light');
  await expect(page.getByTestId('heatmap')).toContainText('∂loss/∂blocks.3.norm.ffn');
  await expect(page.getByTestId('heatmap')).toContainText('(18, 128) · float64');
  await expect(page.getByTestId('pred-current')).toContainText('eps = 0.01');
  await expect(page.getByRole('button', { name: /^RMSNorm₂: open RMSNorm₂\(H\) of block 3/ })).toHaveAttribute('aria-pressed', 'true');
});

test('bad inputs: a huge prompt is truncated, an empty one gets a message, a corrupted URL is reported', async ({ page }) => {
  await openInspector(page, '&tensor=blocks.9.attn&meps=-1&mdtype=float16&compare=logits');
  await expect(page.getByTestId('url-problems')).toContainText('tensor=');
  await expect(page.getByTestId('url-problems')).toContainText('mdtype=');
  await expect(page.getByTestId('heatmap')).toContainText('blocks.0.resid.attn'); // defaults used
  await page.screenshot({ path: `${SHOTS}/inspector-bad-url.png`, fullPage: true });

  const prompt = page.getByLabel(/^Prompt/);
  await prompt.fill('é'.repeat(5000) + 'x'.repeat(5000)); // 10,000 characters, 15,000 bytes
  await expect(page.getByTestId('prompt-truncated')).toContainText('15,000 bytes');
  await expect(page.getByTestId('prompt-count')).toHaveText('128 of 128 bytes');
  // one row per byte: the first 64 characters, each two bytes (\xC3 \xA9)
  await expect(page.getByTestId('heatmap')).toContainText('(128, 128)');
  await expect(page.getByTestId('heatmap')).toContainText('\\xC3');
  await page.screenshot({ path: `${SHOTS}/inspector-truncated.png` });

  await prompt.fill('');
  await expect(page.getByTestId('prompt-empty')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/inspector-empty.png` });
  await prompt.fill('Amen');
  await expect(page.getByTestId('heatmap')).toContainText('(4, 128)');
});

test('weights that fail to load show a clear message', async ({ page }) => {
  await page.route('**/weights/glass-kjv.safetensors', (route) => route.fulfill({ status: 200, body: Buffer.from('not a safetensors file at all') }));
  await page.goto('./?view=inspector');
  await expect(page.getByTestId('weights-error')).toContainText('refused');
  await page.screenshot({ path: `${SHOTS}/inspector-bad-weights.png` });
  await page.unroute('**/weights/glass-kjv.safetensors');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
});

test('window.glass: model.run in the worker and the core on the main thread', async ({ page }) => {
  await page.goto('./?view=lab');
  const r = await page.evaluate(async () => {
    const g = (window as unknown as { glass: any }).glass;
    const run = await g.model.run('In the beginning', { eps: 1e-6, dtype: 'float64', backward: true });
    await g.ready;
    const y = g.scope(() => g.rmsnorm(2, { eps: 1e-6, dtype: 'float64' }).call(g.tensor([[3, 4]], { dtype: 'float64' })).data());
    return {
      loss: run.loss,
      names: Object.keys(run.snapshots).length,
      shape: run.snapshots['blocks.0.resid.attn'].shape,
      grad: run.grads['embed'].data.length,
      dtype: run.snapshots['embed'].data.constructor.name,
      y: Array.from(y as Float64Array),
    };
  });
  expect(r.loss).toBeGreaterThan(0);
  expect(r.names).toBe(27);
  expect(r.shape).toEqual([16, 128]);
  expect(r.grad).toBe(16 * 128);
  expect(r.dtype).toBe('Float64Array');
  expect(r.y[0]).toBeCloseTo(0.848528, 6);
});
