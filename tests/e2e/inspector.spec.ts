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
  await expect(heatmap).toContainText('attention output of block 2 (blocks.2.attn)');
  await expect(page.getByTestId('tensor-notice')).toContainText('what the branch adds onto the stream; the sum is H of block 2, after attention +');
  // hover shows position, coordinate and value
  const canvas = heatmap.locator('canvas');
  await canvas.scrollIntoViewIfNeeded(); // the notes above it push it below the fold at 900 px
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
  // a branch output and the sum it is added into: the same gradient, said under the table from its numbers
  await expect(page.getByTestId('grad-norms-notice')).toContainText('each branch output has exactly the gradient norm of the sum it is added into');
  await expect(page.getByTestId('param-norms-notice')).toContainText('the largest gradient is');
  await expect(page.getByTestId('tensor-notice')).toContainText('sums to 0');
  await page.screenshot({ path: `${SHOTS}/inspector-gradients.png`, fullPage: true });
});

test('compares two snapshots with their difference; eps and dtype re-run the model', async ({ page }) => {
  await openInspector(page, '&tensor=blocks.1.resid.ffn');
  await page.getByRole('button', { name: 'Compare two tensors' }).click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toContainText('A: RMSNorm₁ of block 1 (blocks.1.norm.attn)');
  await expect(compare).toContainText('B: H of block 1, after attention + (blocks.1.resid.attn)');
  await expect(page.getByTestId('compare-notice')).toContainText('‖B − A‖ =');
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
  await expect(page.getByTestId('heatmap')).toContainText('gradient of RMSNorm₂ of block 3 (∂loss/∂blocks.3.norm.ffn)');
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

test('one vocabulary: the depth plot, the block map and the tables use the learner names; each plot says what to notice', async ({ page }) => {
  await openInspector(page, '&prompt=In%20the%20beginning&tensor=blocks.0.resid.attn');
  const depth = page.getByTestId('depth-plot');
  await expect(depth.locator('svg')).toContainText('after attention +');
  await expect(depth.locator('svg')).toContainText('after SwiGLU +');
  await expect(depth.locator('svg')).toContainText('block 3');
  await expect(depth.locator('svg')).toContainText('final RMSNorm');
  await expect(depth.locator('svg')).toContainText(/not in\s*the stream/);
  await expect(depth.locator('svg')).not.toContainText('·attn');
  await expect(page.getByTestId('depth-plot-notice')).toContainText('the stream\'s RMS');
  await expect(page.getByTestId('depth-plot-notice')).toContainText('which is not part of the stream');
  // the gradient plot opens on the last position that has a gradient: the last byte has none
  await expect(page.getByTestId('depth-grad-plot').locator('select')).toHaveValue('14');
  await expect(page.getByTestId('depth-grad-plot-notice')).toContainText('backward runs right to left');
  await page.getByTestId('depth-grad-plot').locator('select').selectOption('15');
  await expect(page.getByTestId('depth-grad-plot-notice')).toContainText('exactly 0 at every depth');
  await expect(page.getByTestId('block-map-notice')).toContainText('only the two + circles change the stream');
  await expect(page.getByTestId('predictions-notice')).toContainText('is the most likely next byte');
  await expect(page.getByTestId('tensor-notice')).toContainText('Compare it with RMSNorm₂ of block 0');
  // the compare choices read as learner names with the code name beside them
  await page.getByRole('button', { name: 'Compare two tensors' }).click();
  const pickA = page.getByRole('combobox', { name: 'A', exact: true });
  await expect(pickA.locator('option', { hasText: 'RMSNorm₁ of block 2 (blocks.2.norm.attn)' })).toHaveCount(1);
  // the gradient of a branch output equals the gradient of its sum: B − A is exactly 0
  await pickA.selectOption('blocks.0.attn');
  await page.getByRole('radio', { name: /gradients/ }).check();
  await expect(page.getByTestId('compare-notice')).toContainText('B − A is exactly 0 everywhere');
  await expect(page.getByTestId('compare-notice')).toContainText('the residual add passes the gradient to the branch unchanged');
  await page.screenshot({ path: `${SHOTS}/inspector-vocabulary.png`, fullPage: true });
});

test('gradients by layer on a phone: layer names wrap only between words, every bar is drawn, the names keep a column, code names copy whole', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openInspector(page, '&prompt=In%20the%20beginning');
  const norms = page.getByTestId('grad-norms');
  await norms.scrollIntoViewIfNeeded();
  const layout = await norms.evaluate((el) => {
    const lineHeight = (e: Element) => parseFloat(getComputedStyle(e).lineHeight) || 1.45 * parseFloat(getComputedStyle(e).fontSize);
    // a header holds at most one line per word ("block 0": two)
    const headers = [...el.querySelectorAll('th')].filter((th) => th.textContent !== '');
    const squeezed = headers
      .filter((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return range.getBoundingClientRect().height > th.textContent!.split(' ').length * lineHeight(th) + 1;
      })
      .map((th) => th.textContent);
    const bars = [...el.querySelectorAll('.gn-bar')].map((b) => b.getBoundingClientRect().width);
    const codes = [...el.querySelectorAll('.gn-part')].map((c) => c.textContent);
    const narrowestName = Math.min(...[...el.querySelectorAll('.gn-name')].map((td) => td.getBoundingClientRect().width));
    return { headers: headers.length, squeezed, zeroBars: bars.filter((w) => w === 0).length, bars: bars.length, codes, narrowestName };
  });
  expect(layout.headers).toBeGreaterThan(5);
  expect(layout.squeezed, 'headers wrapped inside a word').toEqual([]);
  expect(layout.bars).toBeGreaterThan(20);
  expect(layout.zeroBars, 'bars squeezed to nothing').toBe(0);
  expect(layout.narrowestName, 'the names squeezed into a narrow column').toBeGreaterThanOrEqual(100);
  expect(layout.codes).toContain('blocks.0.ffn.w_down.weight');
});
