// The "Bytes and embeddings" lesson, walked in Chromium against the production
// build: every step renders and its checks judge with the core; the widgets
// answer from the core as the text changes, and bad input shows a message.
import { expect, test } from '@playwright/test';
import { walkLesson } from './lessonWalk';

test('walk the bytes and embeddings lesson: byte widget, gradient rows, row similarity, checks, screenshots', async ({ page }) => {
  test.setTimeout(180_000);
  await walkLesson(page, 'bytes-embeddings', 'lesson-bytes', async (step) => {
    if (step === 2) {
      // "Café 🙂": 6 characters, 10 bytes (é two, the emoji four)
      await expect(page.getByTestId('bytes-count')).toHaveText('10');
      await expect(page.getByTestId('bytes-chars')).toHaveText('6');
      await page.getByTestId('bytes-text').fill('créé');
      await expect(page.getByTestId('bytes-count')).toHaveText('6');
      await expect(page.getByTestId('bytes-chars')).toHaveText('4');
      await expect(page.getByTestId('bytes-onehot-gap')).toHaveText('0');
      await expect(page.getByTestId('bytes-snapshot-gap')).toHaveText('0');
      await expect(page.getByTestId('bytes-heatmap')).toContainText('(6, 128)');
      await expect(page.getByTestId('bytes-chars-list')).toContainText('\\xC3');
      // too long, then empty: a message, and the widget recovers
      await page.getByTestId('widget-byte-embeddings').getByRole('button', { name: 'too long' }).click();
      await expect(page.getByTestId('bytes-error')).toContainText('140 bytes');
      await page.getByTestId('bytes-text').fill('');
      await expect(page.getByTestId('bytes-error')).toContainText('empty');
      await page.getByTestId('bytes-text').fill('a b');
      await expect(page.getByTestId('bytes-count')).toHaveText('3');
      await expect(page.getByTestId('bytes-chars-list')).toContainText('␣');
      await page.getByTestId('bytes-text').fill('Café 🙂');
      await expect(page.getByTestId('bytes-count')).toHaveText('10');
    }
    if (step === 6) {
      await expect(page.getByTestId('grad-zero-rows')).toHaveText('253');
      await page.getByTestId('grad-bytes-text').fill('abc');
      await expect(page.getByTestId('grad-zero-rows')).toHaveText('254');
      await expect(page.getByTestId('grad-row-99')).toHaveText('0');
      await page.getByTestId('grad-bytes-text').fill('a');
      await expect(page.getByTestId('grad-bytes-error')).toContainText('at least two bytes');
      await page.getByTestId('grad-bytes-text').fill('banana');
      await expect(page.getByTestId('grad-zero-rows')).toHaveText('253');
    }
    if (step === 7) {
      const cos = page.getByTestId('pair-cos');
      await expect(cos).toHaveText(/^0\.\d{4}$/);
      const aA = await cos.textContent();
      await page.getByTestId('widget-byte-similarity').getByRole('button', { name: 'a · e' }).click();
      await expect(cos).not.toHaveText(aA!);
      await expect(cos).toHaveText(/^-0\.\d{4}$/);
      await page.getByTestId('pair-b').fill('é');
      await expect(page.getByTestId('pair-error')).toContainText('2 bytes');
      await page.getByTestId('pair-b').fill('0xC3');
      await expect(page.getByTestId('pair-error')).toHaveCount(0);
      await expect(page.getByTestId('pair-nearest').locator('li')).toHaveCount(6);
      await page.getByTestId('pair-b').fill('A');
      await expect(cos).toHaveText(aA!);
    }
  });
});
