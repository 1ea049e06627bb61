// The "Logits, loss and the backward pass" lesson, walked in Chromium against
// the production build: every step renders and its checks judge with the core;
// the next-byte-loss widget answers typed texts and positions with the model's
// numbers, and refuses bad input with a message while the page stays usable.
import { expect, test, type Page } from '@playwright/test';
import { walkLesson } from './lessonWalk';

const SLUG = 'logits-loss';

const value = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));

async function driveNextByteLoss(page: Page) {
  const w = page.getByTestId('widget-next-byte-loss');
  await expect(w.getByTestId('loss-mean')).toHaveText(/^\d\.\d+ nats$/, { timeout: 20_000 });
  // the mean of the bars is the model's own loss, well under ln 256 for a verse
  await expect(w.getByTestId('loss-model')).toHaveText(await w.getByTestId('loss-mean').innerText());
  await expect(w.getByTestId('loss-uniform')).toHaveText('5.5452 nats');
  const verse = await value(page, 'loss-mean');
  expect(verse).toBeLessThan(2);
  // the last prediction is open: “.” after “…the earth”, its gradient entry negative, the row sums to ~0
  await expect(w.getByTestId('loss-actual')).toContainText('“.”');
  await expect(w.getByTestId('grad-target')).toHaveText(/^-/);
  await expect(w.getByTestId('grad-row-sum')).toHaveText(/^-?(0|\d(\.\d+)?e-1[5-9])$/);
  await expect(w.getByTestId('grad-last')).toHaveText('0');
  // random characters cost more than knowing nothing
  await w.getByTestId('loss-preset-random').click();
  await expect.poll(() => value(page, 'loss-mean')).toBeGreaterThan(5.6);
  await expect(w.getByTestId('loss-model')).toHaveText(await w.getByTestId('loss-mean').innerText());
  // a column opens that prediction
  await w.getByTestId('loss-preset-a-verse').click();
  await expect.poll(() => value(page, 'loss-mean')).toBeCloseTo(verse, 10);
  await w.getByTestId('loss-col-2').click();
  await expect(w.getByTestId('loss-context')).toContainText('Position 1, after “In”');
  await expect(w.getByTestId('loss-actual')).toContainText('“␣”');
  await expect(w.getByTestId('loss-guesses').locator('tr.loss-actual')).toHaveCount(1);
  // bad input: a message, and the widget recovers
  await w.getByTestId('loss-position').fill('abc');
  await expect(w.getByTestId('loss-error')).toContainText('whole number');
  await w.getByTestId('loss-position').fill('99');
  await expect(w.getByTestId('loss-error')).toContainText('from 0 to 52');
  await w.getByTestId('loss-position').fill('5');
  await expect(w.getByTestId('loss-error')).toHaveCount(0);
  await expect(w.getByTestId('loss-context')).toContainText('Position 5');
  await w.getByTestId('loss-text').fill('I');
  await expect(w.getByTestId('loss-error')).toContainText('no next byte to predict');
  await w.getByTestId('loss-text').fill('');
  await expect(w.getByTestId('loss-error')).toContainText('at least two bytes');
  await w.getByTestId('loss-text').fill('x'.repeat(200));
  await expect(w.getByTestId('loss-error')).toContainText('context holds 128');
  await w.getByTestId('loss-text').fill('In');
  await expect(w.getByTestId('loss-error')).toHaveCount(0);
  await expect(w.getByTestId('loss-mean')).toHaveText(/nats/);
  await expect(w.getByTestId('loss-actual')).toContainText('“n”');
  await w.getByTestId('loss-preset-a-verse').click();
  await expect.poll(() => value(page, 'loss-mean')).toBeCloseTo(verse, 10);
}

test('walk the logits and loss lesson: steps, code cells, the next-byte-loss widget, checks, screenshots', async ({ page }) => {
  test.setTimeout(180_000);
  await walkLesson(page, SLUG, 'lesson-loss', async (step) => {
    if (step === 2) await driveNextByteLoss(page);
    if (step === 6) {
      await expect(page.getByTestId('grad-loss')).toHaveText(/\d/, { timeout: 20_000 });
      await expect(page.getByTestId('grad-bars').locator('li')).toHaveCount(10);
    }
  });
});
