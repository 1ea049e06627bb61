// The attention lesson, walked in Chromium against the production build: every
// step renders (screenshots build/screenshots/lesson-attention-N.png), the
// attention-pattern widget shows the model's own weights (upper triangle exactly 0,
// rows summing to 1, the first byte looking only at itself) and refuses bad
// input with a message, and the rope-offset widget shows the same dot product
// for the same offset.
import { expect, test, type Page } from '@playwright/test';
import { walkLesson } from './lessonWalk';

const value = async (page: Page, testId: string) => Number(await page.getByTestId(testId).first().getAttribute('data-value'));

async function patternWidget(page: Page) {
  const w = page.getByTestId('widget-attention-pattern');
  await expect(w.getByTestId('pattern-above')).toHaveText('0', { timeout: 20_000 });
  await expect(w.getByTestId('pattern-map').locator('canvas')).toBeVisible();
  const dev = Number(await w.getByTestId('pattern-rowsum-dev').textContent());
  expect(dev).toBeLessThan(1e-5);
  // 39 bytes: the last row (38) is shown; head 1 puts different weights there
  const before = await value(page, 'pattern-w-38-0');
  await w.getByTestId('pattern-head').fill('1');
  await expect(w.getByTestId('pattern-w-38-0')).not.toHaveAttribute('data-value', String(before));
  await expect(w.getByTestId('pattern-above')).toHaveText('0');
  // hovering a cell reads it
  const canvas = w.getByTestId('pattern-map').locator('canvas');
  const box = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: box.width * 0.1, y: box.height * 0.9 } });
  await expect(w.getByTestId('pattern-readout')).toContainText('weight');
  // bad input: a message, and the page stays usable
  await w.getByTestId('pattern-block').fill('7');
  await expect(w.getByTestId('pattern-error')).toContainText('block must be a whole number from 0 to 3');
  await w.getByTestId('pattern-block').fill('0');
  await w.getByTestId('pattern-head').fill('x');
  await expect(w.getByTestId('pattern-error')).toContainText('head must be');
  await w.getByTestId('pattern-head').fill('0');
  await w.getByTestId('pattern-text').fill('a'.repeat(129));
  await expect(w.getByTestId('pattern-error')).toContainText('the model reads at most 128');
  await w.getByTestId('pattern-text').fill('');
  await expect(w.getByTestId('pattern-error')).toContainText('at least one byte');
  await w.getByTestId('pattern-text').fill('abcabc');
  await expect(w.getByTestId('pattern-error')).toHaveCount(0);
  await expect(canvas).toHaveAttribute('aria-label', /6 queries by 6 keys/);
  // a new prompt shows its last row; the top-left cell is the first byte, which can only see itself
  await expect(w.getByTestId('pattern-w-5-5')).toHaveAttribute('data-value', /\d/);
  const small = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: small.width / 12, y: small.height / 12 } });
  await expect(w.getByTestId('pattern-w-0-0')).toHaveAttribute('data-value', '1');
  await expect(w.getByTestId('pattern-readout')).toContainText('query 0 “a” → key 0 “a”: weight 1');
  await w.getByTestId('pattern-text').fill('In the beginning God created the heaven');
  await expect(w.getByTestId('pattern-w-38-0')).toHaveAttribute('data-value', String(before));
}

async function ropeWidget(page: Page) {
  const w = page.getByTestId('widget-rope-offset');
  await expect(w.getByTestId('rope-dot')).toHaveAttribute('data-value', /\d/, { timeout: 20_000 });
  const at52 = await value(page, 'rope-dot');
  const shifted = await w.getByTestId('rope-shift').locator('td[data-value]').all();
  expect(shifted.length).toBeGreaterThan(2);
  for (const cell of shifted) expect(Math.abs(Number(await cell.getAttribute('data-value')) - at52)).toBeLessThan(1e-9);
  await w.getByTestId('rope-query').fill('13');
  await w.getByTestId('rope-key').fill('10');
  await expect(w.locator('.widget-lead')).toContainText('positions 13 and 10');
  expect(Math.abs((await value(page, 'rope-dot')) - at52)).toBeLessThan(1e-9);
  await w.getByTestId('rope-key').fill('9');
  await expect(w.locator('.widget-lead')).toContainText('positions 13 and 9');
  expect(Math.abs((await value(page, 'rope-dot')) - at52)).toBeGreaterThan(1e-3);
  await w.getByTestId('rope-key').fill('20');
  await expect(w.getByTestId('rope-error')).toContainText('never sees a later key');
  await w.getByTestId('rope-query').fill('abc');
  await expect(w.getByTestId('rope-error')).toContainText('query position must be');
  await w.getByTestId('rope-query').fill('5');
  await w.getByTestId('rope-key').fill('2');
  await expect(w.getByTestId('rope-error')).toHaveCount(0);
}

test('walk the attention lesson: widgets answered by the core, bad input refused, checks, screenshots', async ({ page }) => {
  test.setTimeout(180_000);
  await walkLesson(page, 'attention', 'lesson-attention', async (step) => {
    if (step === 3) await patternWidget(page);
    if (step === 4) await ropeWidget(page);
    if (step === 5) {
      const w = page.getByTestId('widget-attention-pattern');
      await expect(w.getByTestId('pattern-block')).toHaveValue('1');
      await expect(w.getByTestId('pattern-head')).toHaveValue('2');
      await expect(w.getByTestId('pattern-above')).toHaveText('0', { timeout: 20_000 });
      const before = await value(page, 'pattern-w-38-0');
      await w.getByRole('button', { name: 'head 0' }).click();
      await expect(w.getByTestId('pattern-head')).toHaveValue('0');
      await expect(w.getByTestId('pattern-w-38-0')).not.toHaveAttribute('data-value', String(before));
    }
    if (step === 6) {
      const out = page.getByTestId('code-output').last();
      await expect(out).toContainText('largest |rebuilt − model|');
    }
  });
});
