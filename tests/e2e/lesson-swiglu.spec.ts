// The SwiGLU lesson walked in Chromium against the production build: every step
// renders (screenshots build/screenshots/lesson-swiglu-N.png), the checks judge
// with the core, and the two widgets answer from the worker's core — the silu
// explorer follows z and u, the model's SwiGLU follows block and position and
// matches the model's own blocks.i.ffn — and bad input shows a message.
import { expect, test, type Page } from '@playwright/test';
import { walkLesson } from './lessonWalk';

const TEXT = 'In the beginning God created the heaven and the earth.';
const num = async (page: Page, id: string) => Number((await page.getByTestId(id).textContent())!.trim());

async function siluGate(page: Page) {
  // opens at silu's minimum: about −0.2785, slope ≈ 0, autograd and formula agree
  await expect(page.getByTestId('silu-value')).toHaveText('-0.278465');
  expect(Math.abs(await num(page, 'silu-grad'))).toBeLessThan(1e-4);
  await expect(page.getByTestId('silu-marker')).toBeVisible();
  await page.getByTestId('silu-z').fill('2');
  await expect(page.getByTestId('silu-value')).toHaveText('1.76159');
  await expect(page.getByTestId('silu-grad')).toHaveText(await page.getByTestId('silu-grad-formula').textContent() ?? '');
  await page.getByTestId('silu-u').fill('-3');
  await expect(page.getByTestId('silu-gated')).toHaveText('-5.28478');
  // bad input: letters, then a number the core refuses; the page stays usable
  await page.getByTestId('silu-z').fill('abc');
  await expect(page.getByTestId('silu-bad')).toContainText('plain numbers');
  await page.getByTestId('silu-z').fill('1e9');
  await expect(page.getByTestId('silu-bad')).toContainText('The core refuses: z must be a number');
  await page.getByTestId('silu-z').fill('-1.2785');
  await page.getByTestId('silu-u').fill('2');
  await expect(page.getByTestId('silu-bad')).toHaveCount(0);
  await expect(page.getByTestId('silu-gated')).toHaveText('-0.556929');
}

async function modelSwiglu(page: Page) {
  const negative = page.getByTestId('swiglu-negative');
  await expect(negative).toContainText('of 384', { timeout: 20_000 });
  await expect(page.getByTestId('swiglu-position')).toHaveText(String(TEXT.length - 1));
  await expect(page.getByTestId('swiglu-check')).toContainText("the model's own numbers");
  await expect(page.getByTestId('swiglu-top').locator('tr')).toHaveCount(8);
  const atBlock0 = await negative.textContent();
  const top0 = await page.getByTestId('swiglu-top').locator('tr').first().textContent();
  await page.getByTestId('swiglu-block').selectOption('3');
  await expect(page.getByTestId('swiglu-top').locator('tr').first()).not.toHaveText(top0!);
  // another position: the slider moves, the numbers follow
  const top3 = await page.getByTestId('swiglu-top').locator('tr').first().textContent();
  await page.getByTestId('swiglu-position-slider').fill('3');
  await expect(page.getByTestId('swiglu-position')).toHaveText('3');
  await expect(page.getByTestId('swiglu-top').locator('tr').first()).not.toHaveText(top3!);
  // bad input: empty and too long texts are refused with a message
  const text = page.getByTestId('swiglu-text');
  await text.fill('');
  await expect(page.getByTestId('swiglu-error')).toContainText('at least one character');
  await text.fill('x'.repeat(200));
  await expect(page.getByTestId('swiglu-error')).toContainText('at most 128');
  await text.fill(TEXT);
  await page.getByTestId('swiglu-block').selectOption('0');
  await expect(page.getByTestId('swiglu-error')).toHaveCount(0);
  await expect(negative).toHaveText(atBlock0!);
  await expect(page.getByTestId('swiglu-position')).toHaveText(String(TEXT.length - 1));
}

test('walk the SwiGLU lesson: widgets answered by the core, checks, screenshots', async ({ page }) => {
  test.setTimeout(180_000);
  await walkLesson(page, 'swiglu', 'lesson-swiglu', async (step) => {
    if (step === 3) await siluGate(page);
    if (step === 6) await modelSwiglu(page);
  });
});
