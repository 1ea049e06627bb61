// The generation lesson walked in Chromium against the production build, at
// 1280 and at 390 px wide (screenshots build/screenshots/lesson-generation-N.png
// and lesson-generation-390-N.png): every check answered wrongly once and then
// rightly, the widgets' samples and distributions answered by the worker's core,
// and a check answered the way a learner would, from the numbers a widget shows
// after typing a prompt of their own.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, openStep, showHidden, stepShown, walkLesson } from './lessonWalk';
import { sideways } from './sideways';

const OWN = 'The LORD is my shepherd; I shall not want.';

const valueOf = async (page: Page, testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));

async function firstSample(page: Page) {
  const out = page.getByTestId('sample-output');
  await expect(out).toBeVisible({ timeout: 20_000 });
  const before = await out.textContent();
  // another seed: another passage from the same prompt
  await page.getByTestId('sample-next-seed').click();
  await expect(page.getByTestId('sample-seed')).toHaveValue('2');
  await expect(out).not.toHaveText(before!, { timeout: 20_000 });
  await expect(page.getByTestId('sample-notice')).toContainText('seed 2');
}

async function distribution(page: Page) {
  await expect(page.getByTestId('next-table').locator('tbody tr')).toHaveCount(10, { timeout: 20_000 });
  await expect(page.getByTestId('next-possible')).toHaveText('256 of 256');
  await expect(page.getByTestId('next-draw')).toContainText('Seed 1 drew u =');
}

async function greedy(page: Page) {
  const out = page.getByTestId('sample-output');
  await expect(out).toBeVisible({ timeout: 20_000 });
  const text = await out.textContent();
  await expect(page.getByTestId('sample-notice')).toContainText('greedy decoding took the likeliest byte every time');
  // the seed changes nothing when nothing is drawn
  await page.getByTestId('sample-seed').fill('7');
  await expect(page.getByTestId('widget-sample-text')).not.toHaveAttribute('aria-busy', 'true');
  await page.waitForTimeout(500);
  await expect(out).toHaveText(text!);
}

async function temperature(page: Page) {
  await expect(page.getByTestId('next-table').locator('tbody tr')).toHaveCount(10, { timeout: 20_000 });
  const bitsOne = await valueOf(page, 'next-bits');
  const leadOne = await valueOf(page, 'next-p-0');
  await page.getByTestId('next-t-2').click();
  await expect(page.getByTestId('next-temperature-readout')).toHaveText('T = 2');
  await expect.poll(() => valueOf(page, 'next-bits'), { timeout: 20_000 }).toBeGreaterThan(bitsOne);
  await page.getByTestId('next-t-0.5').click();
  await expect.poll(() => valueOf(page, 'next-p-0'), { timeout: 20_000 }).toBeGreaterThan(leadOne);
  await page.getByTestId('next-t-0').click();
  await expect(page.getByTestId('next-draw')).toContainText('Greedy: no draw', { timeout: 20_000 });
  await expect(page.getByTestId('next-possible')).toHaveText('1 of 256');
}

async function topK(page: Page) {
  await expect(page.getByTestId('next-possible')).toHaveText('5 of 256', { timeout: 20_000 });
  await page.getByTestId('next-k-1').click();
  await expect(page.getByTestId('next-possible')).toHaveText('1 of 256', { timeout: 20_000 });
  await expect(page.getByTestId('next-p-0')).toHaveAttribute('data-value', '1');
  await page.getByTestId('next-k-0').click();
  await expect(page.getByTestId('next-possible')).toHaveText('256 of 256', { timeout: 20_000 });
}

async function seeds(page: Page) {
  await expect(page.getByTestId('next-draw')).toContainText('Seed 1 drew', { timeout: 20_000 });
  const own = await page.getByTestId('next-table').locator('td[data-testid^="next-own-"]').allTextContents();
  const u1 = await valueOf(page, 'next-draw');
  await page.getByTestId('next-next-seed').click();
  await expect(page.getByTestId('next-draw')).toContainText('Seed 2 drew', { timeout: 20_000 });
  expect(await valueOf(page, 'next-draw')).not.toBe(u1);
  // the distribution is the model's: the seed moves only the draw
  expect(await page.getByTestId('next-table').locator('td[data-testid^="next-own-"]').allTextContents()).toEqual(own);
}

async function compare(page: Page) {
  await expect(page.getByTestId('compare-fresh-sample')).toBeVisible({ timeout: 30_000 });
  expect(await valueOf(page, 'compare-fresh-loss')).toBeGreaterThan((await valueOf(page, 'compare-trained-loss')) + 2);
  await expect(page.getByTestId('compare-notice')).toContainText('ln 256');
}

async function bytes(page: Page) {
  const soFar = page.getByTestId('byte-steps-so-far');
  // “The café” cut after 0xC3: half a character
  await expect(soFar).toHaveText('The caf\uFFFD', { timeout: 20_000 });
  await expect(soFar).toHaveAttribute('data-unfinished', '1');
  await expect(page.getByTestId('byte-steps-bytes').locator('.gen-byte')).toHaveCount(9);
  await page.getByTestId('byte-steps-upto').fill('9');
  await expect(soFar).toHaveText('The café', { timeout: 20_000 });
  await expect(soFar).toHaveAttribute('data-unfinished', '0');
  await page.getByRole('button', { name: '— and ï' }).click();
  await expect(page.getByTestId('byte-steps-bytes').locator('.gen-byte')).toHaveCount(15, { timeout: 20_000 });
  await expect(page.getByTestId('byte-steps-notice')).toContainText('14 of 15 bytes');
}

const AT: Record<number, (page: Page) => Promise<void>> = { 1: firstSample, 2: distribution, 3: greedy, 4: temperature, 5: topK, 6: seeds, 7: compare, 8: bytes };

for (const width of [1280, 390]) {
  test(`walk the generation lesson at ${width} px: samples and distributions from the core, every check, screenshots`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await walkLesson(
      page,
      'generation',
      width === 1280 ? 'lesson-generation' : 'lesson-generation-390',
      async (step) => {
        await AT[step]?.(page);
        expect(await sideways(page), `step ${step}: no sideways scroll`).toBeLessThanOrEqual(0);
      },
      1,
    );
  });
}

test('a check on your own prompt, answered from the number the widget shows', async ({ page }) => {
  test.setTimeout(120_000);
  await openStep(page, 'generation', 2);
  await showHidden(page);
  await page.getByTestId('next-prompt').fill(OWN);
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-values', 'pending');
  await stepShown(page, 2);
  await expect(page.getByTestId('check-gen-top')).toContainText(OWN);
  await expect(page.getByTestId('widget-next-byte').locator('.widget-lead')).toContainText('The byte after “.”', { timeout: 20_000 });
  const p = await valueOf(page, 'next-own-0');
  const card = page.getByTestId('check-gen-top');
  await card.locator('input[type=text]').fill((p * 100).toFixed(1));
  await card.locator('button[type=submit]').click();
  await expect(page.getByTestId('check-gen-top-right')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/lesson-generation-own-prompt.png`, fullPage: true });
});
