// The inspector's "Look inside" tools on the production build, as a learner
// uses them: the residual ledger (its live check), interventions (loss and top 5
// before and after, what changed; bad values and names refused with a message),
// the gradient check (float32 and float64, δ per dtype) and the Reproduce in
// PyTorch line; on the shipped model and on a model trained a few steps in the
// page and opened in the inspector; at 1280 and 390 px, screenshots looked at.
import { axe } from './axe';
import { expect, test, type Page } from '@playwright/test';
import { sideways } from './sideways';

const SHOTS = 'build/screenshots';
const PROMPT = 'In the beginning God created';

async function openTool(page: Page, tool: string, extra = '') {
  await page.goto(`./?view=inspector&prompt=${encodeURIComponent(PROMPT)}&tool=${tool}${extra}`);
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId(`tool-${tool}`)).toHaveAttribute('aria-selected', 'true');
}

/** A number as the page prints it (fmt): plain or exponent form. */
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

async function ledgerChecks(page: Page) {
  const ledger = page.getByTestId('ledger');
  await expect(ledger).toBeVisible({ timeout: 20_000 });
  const blocks = await page.getByTestId('block-row').count();
  // embedding + an attention and a SwiGLU row per block, from the model's own config
  await expect(ledger.getByTestId('ledger-table').locator('tbody tr')).toHaveCount(1 + 2 * blocks);
  await expect(ledger.getByTestId('ledger-grad-table').locator('tbody tr')).toHaveCount(1 + 2 * blocks);
  await expect(ledger.getByTestId('ledger-table').locator('tbody tr').first()).toContainText('embedding X (embed)');
  const diff = Number(await ledger.getByTestId('ledger-check-value').textContent());
  expect(diff).toBeLessThan(1e-4); // float32 rounding of a sum of 9 terms, computed by the core
  const gdiff = Number(await ledger.getByTestId('ledger-grad-check-value').textContent());
  expect(gdiff).toBeLessThan(1e-4);
  // shares of the summed column, as the core printed them, add up to 100% (to their rounding)
  const shares = (await ledger.getByTestId('ledger-table').locator('tbody tr td:nth-child(5)').allTextContents()).map((t) => Number(t.replace('%', '')));
  expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThan(0.1 * shares.length);
  await expect(page.getByTestId('ledger-notice')).toContainText('came straight down the residual path');
  // another position: its column heading follows, and the address keeps it
  await ledger.getByTestId('interp-pos').selectOption('4');
  await expect(ledger.getByTestId('ledger-table')).toContainText('size ‖·‖ at position 4');
  await expect(page).toHaveURL(/[?&]pos=4(&|$)/);
}

async function interventionChecks(page: Page) {
  const iv = page.getByTestId('interventions');
  await expect(iv).toBeVisible({ timeout: 20_000 });
  await expect(iv).toContainText('No change yet');
  // zero block 1's SwiGLU output
  await iv.getByTestId('iv-kind').selectOption('zero');
  await iv.getByTestId('iv-target').selectOption('blocks.1.ffn');
  await iv.getByTestId('iv-add').click();
  await expect(iv.getByTestId('iv-list')).toContainText('SwiGLU output of block 1 (blocks.1.ffn) set to zero');
  await expect(page).toHaveURL(/[?&]iv=zero:blocks\.1\.ffn(&|$)/);
  await expect(iv.getByTestId('iv-loss-after')).toHaveText(NUMBER, { timeout: 20_000 });
  const before = Number(await iv.getByTestId('iv-loss-before').textContent());
  const after = Number(await iv.getByTestId('iv-loss-after').textContent());
  expect(after).not.toBe(before);
  await expect(iv.getByTestId('iv-top-before').locator('li')).toHaveCount(5);
  await expect(iv.getByTestId('iv-top-after').locator('li')).toHaveCount(5);
  // everything before block 1's SwiGLU is untouched: the first changed snapshot is that branch
  const changes = iv.getByTestId('iv-changes');
  await expect(changes.locator('tbody tr').first()).toContainText('blocks.1.ffn');
  await expect(changes.locator('caption')).toContainText(/\d+ snapshots changed; \d+ stayed exactly the same/);
  await expect(page.getByTestId('iv-notice')).toContainText('the first snapshot that changed is SwiGLU output of block 1');
  // and an ablated head on top
  await iv.getByTestId('iv-kind').selectOption('ablateHead');
  await iv.getByTestId('iv-block').selectOption('0');
  await iv.getByTestId('iv-head').selectOption('1');
  await iv.getByTestId('iv-add').click();
  await expect(iv.getByTestId('iv-list').locator('li')).toHaveCount(2);
  await expect(page).toHaveURL(/iv=zero:blocks\.1\.ffn,ablateHead:0:1/);
  await expect(changes.locator('tbody tr').first()).toContainText('blocks.0.attn', { timeout: 20_000 });
  // a bad factor: a message, nothing added
  await iv.getByTestId('iv-kind').selectOption('scale');
  await iv.getByTestId('iv-value').fill('half');
  await iv.getByTestId('iv-add').click();
  await expect(iv.getByTestId('iv-problem')).toHaveText("the factor: 'half' is not a number");
  await expect(iv.getByTestId('iv-list').locator('li')).toHaveCount(2);
  // the reproduce line names the interventions
  await iv.getByTestId('iv-reproduce').locator('summary').click();
  await expect(iv.getByTestId('iv-reproduce-command')).toHaveText(
    /^python3 tests\/reference\/reproduce\.py \S+ '[^']+' loss --dtype f32 --eps 0\.000001 --intervene zero:blocks\.1\.ffn,ablateHead:0:1$/,
  );
  // remove both: back to nothing
  await iv.getByRole('button', { name: 'Remove zero:blocks.1.ffn' }).click();
  await iv.getByRole('button', { name: 'Remove ablateHead:0:1' }).click();
  await expect(iv).toContainText('No change yet');
  await expect(page).not.toHaveURL(/[?&]iv=/);
}

async function gradCheckChecks(page: Page) {
  const gc = page.getByTestId('gradcheck');
  await expect(gc.getByTestId('gc-table')).toBeVisible({ timeout: 20_000 });
  await gc.getByTestId('gc-target').selectOption('snap:blocks.1.resid.attn');
  await gc.getByTestId('gc-pos').selectOption('3');
  await gc.getByTestId('gc-coord').fill('17');
  await gc.getByTestId('gc-coord').press('Enter');
  await expect(gc.getByTestId('gc-table').locator('caption')).toContainText('element (3, 17) of shape (28, ', { timeout: 20_000 });
  await expect(page).toHaveURL(/tensor=blocks\.1\.resid\.attn.*pos=3&coord=17|pos=3&coord=17.*tensor=blocks\.1\.resid\.attn/);
  // float64: the gradient's prediction and the model's change agree to many digits
  const p64 = Number(await gc.getByTestId('gc-float64-predicted').textContent());
  const a64 = Number(await gc.getByTestId('gc-float64-actual').textContent());
  expect(Math.abs(p64 - a64)).toBeLessThanOrEqual(1e-4 * Math.abs(p64) + 1e-12);
  await expect(gc.getByTestId('gc-why')).toContainText('float32 keeps only about 7 significant digits');
  // a tiny δ in float32: the central difference drowns in rounding
  await gc.getByTestId('gc-d32').fill('1e-7');
  await gc.getByTestId('gc-d32').press('Enter');
  await expect(page).toHaveURL(/d32=1e-7/);
  await expect(gc.getByTestId('gc-float32').locator('td').first()).toHaveText('1e-7', { timeout: 20_000 });
  // a bad δ and a coordinate out of range: messages, the last good values kept
  await gc.getByTestId('gc-d64').fill('-1');
  await gc.getByTestId('gc-d64').press('Enter');
  await expect(gc.getByTestId('gc-d64-problem')).toHaveText('δ must be above 0 and at most 1');
  await gc.getByTestId('gc-coord').fill('5000');
  await gc.getByTestId('gc-coord').press('Enter');
  await expect(gc.getByTestId('gc-coord-problem')).toContainText('the coordinate must be a whole number from 0 to');
  // a parameter: row and column
  await gc.getByTestId('gc-target').selectOption('param:tok_emb.weight');
  await gc.getByTestId('gc-row').fill('73');
  await gc.getByTestId('gc-row').press('Enter');
  await expect(gc.getByTestId('gc-table').locator('caption')).toContainText('(tok_emb.weight), element (73, 17) of shape (256, ', { timeout: 20_000 });
  await expect(page).toHaveURL(/param=tok_emb\.weight/);
  await gc.getByTestId('gc-reproduce-grad').locator('summary').click();
  await expect(gc.getByTestId('gc-reproduce-grad-command')).toContainText(" grad tok_emb.weight 73,17 --dtype f32");
}

test('the residual ledger on the shipped model: every part, the live check, the gradient side', async ({ page }) => {
  await openTool(page, 'ledger');
  await ledgerChecks(page);
});

test('interventions on the shipped model: before and after, what changed, bad values and names', async ({ page }) => {
  await openTool(page, 'intervene');
  await interventionChecks(page);
  // a name the model does not have, from the address: the core's message lists what exists; the rest of the view is there
  await openTool(page, 'intervene', '&iv=zero:blocks.9.ffn&tensor=blocks.2.attn');
  await expect(page.getByTestId('iv-error')).toContainText('no branch named "blocks.9.ffn"', { timeout: 20_000 });
  await expect(page.getByTestId('heatmap')).toContainText('blocks.2.attn');
});

test('the gradient check on the shipped model: float32 and float64, δ per dtype, snapshots and parameters', async ({ page }) => {
  await openTool(page, 'gradcheck');
  await gradCheckChecks(page);
});

test('the tools on a model trained a few steps in the page, opened in the inspector', async ({ page }) => {
  test.setTimeout(240_000);
  await trainAndOpen(page);
  await expect(page.getByTestId('weights-ready')).toContainText(/trained here/i, { timeout: 60_000 });
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('look-inside').locator('> summary').click();
  // the heads and the lens of these weights: one summary row per head, the lens's last depth is the model
  await expect(page.getByTestId('look-head-summary').locator('tbody tr')).toHaveCount(4, { timeout: 20_000 });
  await page.getByTestId('tool-lens').click();
  await expect(page.getByTestId('look-lens-check')).toHaveText('0', { timeout: 20_000 });
  await page.getByTestId('tool-ledger').click();
  await ledgerChecks(page);
  await page.getByTestId('tool-intervene').click();
  await interventionChecks(page);
  await page.getByTestId('tool-gradcheck').click();
  await expect(page.getByTestId('gc-table')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('gc-reproduce-value').locator('summary').click();
  await expect(page.getByTestId('gc-reproduce-value-command')).toContainText('glass-my-weights.safetensors');
  await expect(page.getByTestId('gc-reproduce-value-download')).toBeVisible();
  const p64 = Number(await page.getByTestId('gc-float64-predicted').textContent());
  const a64 = Number(await page.getByTestId('gc-float64-actual').textContent());
  expect(Math.abs(p64 - a64)).toBeLessThanOrEqual(1e-4 * Math.abs(p64) + 1e-12);
  // the weights the line names, downloaded under that name
  const download = page.waitForEvent('download');
  await page.getByTestId('gc-reproduce-value-download').click();
  expect((await download).suggestedFilename()).toBe('glass-my-weights.safetensors');
});

/** A model of the default shape (4 blocks of d 128, 4 heads, a 128-byte context) from its random init, 3 steps, opened in the inspector. */
async function trainAndOpen(page: Page) {
  await page.goto('./?view=train');
  await expect(page.getByRole('heading', { name: 'Train', level: 1 })).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('train-preset').selectOption('own');
  const details = page.locator('details.train-settings');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  for (const [key, value] of [
    ['d', '128'],
    ['ctx', '128'],
    ['steps', '3'],
    ['batch', '2'],
    ['evalEvery', '3'],
    ['sampleEvery', '0'],
    ['warmup', '0'],
  ])
    await page.getByTestId(`run-A-field-${key}`).fill(value);
  await page.getByTestId('run-A').getByRole('button', { name: 'Train run A' }).click();
  await expect(page.getByTestId('run-A-status')).toHaveAttribute('data-phase', 'finished', { timeout: 150_000 });
  await page.getByTestId('run-A').getByRole('button', { name: 'Open in the inspector' }).click();
  await expect(page.getByRole('heading', { name: 'Inspector', level: 1 })).toBeVisible();
}

for (const width of [1280, 390]) {
  test(`the tools at ${width} px: no sideways scroll, screenshots`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    for (const [tool, extra] of [
      ['ledger', '&pos=3'],
      ['intervene', '&iv=zero:blocks.2.ffn,ablateHead:1:2'],
      ['gradcheck', '&tensor=blocks.0.resid.ffn&pos=2&coord=5'],
      ['lens', '&tensor=blocks.2.resid.attn&pos=8'],
    ] as const) {
      await openTool(page, tool, extra);
      const card = page.getByTestId('look-inside-card');
      await expect(card.locator('.look-status')).toHaveCount(0, { timeout: 20_000 });
      const reproduce = card.locator('details.interp-reproduce summary');
      if ((await reproduce.count()) > 0) await reproduce.first().click();
      expect(await sideways(page), tool).toBeLessThanOrEqual(0);
      await card.screenshot({ path: `${SHOTS}/interp-${tool}-${width}.png` });
      const { violations } = await axe(page).include('[data-testid="look-inside-card"]').analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    }
  });
}
