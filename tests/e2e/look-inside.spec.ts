// The inspector's "Look inside" panel on the production build: the attention
// pattern of any head with the prompt's bytes, every head's summary, and the
// logit lens table whose last depth is the model itself; at 1280 and 390 px
// (no sideways scroll of the page), with screenshots looked at.
import { axe } from './axe';
import { expect, test, type Page } from '@playwright/test';
import { sideways } from './sideways';

const SHOTS = 'build/screenshots';

async function open(page: Page) {
  await page.goto('./?view=inspector&prompt=In%20the%20beginning%20God%20created');
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
  // closed until asked for: nothing of it is computed before
  await expect(page.getByTestId('look-heads')).toHaveCount(0);
  await page.getByText('Show each attention head and what the model would predict at every depth').click();
  // one tool at a time (issue 12's tools are tabs): the heads first
  await expect(page.getByTestId('look-heads')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/[?&]tool=heads(&|$)/);
}

test('attention heads: pick a block and a head, read a weight, the summary of every head', async ({ page }) => {
  await open(page);
  const card = page.getByTestId('look-inside-card');
  await expect(card.getByTestId('look-head-summary').locator('tbody tr')).toHaveCount(4);
  await page.getByTestId('look-block').selectOption('1');
  await card.getByRole('button', { name: 'head 2' }).click();
  await expect(card.getByRole('button', { name: 'head 2' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card).toContainText('Attention weights of head 2 in block 1');
  // a cell read by keyboard: the core's weight, with both bytes
  await card.locator('canvas').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(card.getByTestId('pattern-readout')).toContainText(/query 1 “n” → key 0 “I”: weight 0\.\d+/);
  await expect(page.getByTestId('look-heads-notice')).toContainText('puts the most weight on the byte just before');
  // percentages in the summary are numbers the core computed
  const cells = await card.getByTestId('look-head-summary').locator('tbody td').allTextContents();
  expect(cells.filter((c) => /^\d+\.\d%$/.test(c)).length).toBe(12);
});

test('the logit lens: every depth by every byte, the last depth is the model', async ({ page }) => {
  await open(page);
  await page.getByTestId('tool-lens').click();
  await expect(page.getByTestId('look-lens')).toBeVisible({ timeout: 20_000 });
  const table = page.getByTestId('look-lens-table');
  await expect(table.locator('tbody tr')).toHaveCount(9);
  await expect(table.locator('tbody tr').first().locator('th')).toContainText('embedding');
  await expect(table.locator('thead th')).toHaveCount(2 + 'In the beginning God created'.length);
  await expect(page.getByTestId('look-lens-check')).toHaveText('0');
  await expect(page.getByTestId('look-lens-notice')).toContainText('Read from the embedding alone the mean loss is');
  // the last row's prediction after the last byte is the inspector's own top prediction
  const lastCell = table.locator('tbody tr').last().locator('td').last();
  const top = (await page.getByTestId('pred-baseline').locator('.pred-byte').first().textContent()) ?? '';
  await expect(lastCell).toHaveText(top);
  await expect(lastCell).toHaveAttribute('title', /%/);
});

for (const width of [1280, 390]) {
  test(`look inside at ${width} px: no sideways scroll, screenshot`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page);
    const card = page.getByTestId('look-inside-card');
    await card.scrollIntoViewIfNeeded();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await card.screenshot({ path: `${SHOTS}/look-inside-${width}.png` });
    const { violations } = await axe(page).include('[data-testid="look-inside-card"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
}
