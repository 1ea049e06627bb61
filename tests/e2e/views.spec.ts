// The app shell: views by keyboard, the URL keeps the view, a screenshot of each.
import { expect, test } from '@playwright/test';

const SHOTS = 'build/screenshots'; // kept across runs (test-results/ is emptied by each run)

test('every view opens by keyboard, lands in the URL, and has a screenshot', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('start-page')).toBeVisible(); // the start page is the default view
  const nav = page.getByRole('navigation', { name: 'Views' });

  await nav.getByRole('link', { name: 'Lessons' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Lessons', level: 1 })).toBeVisible();
  await expect(page.getByText('RMSNorm, pre-norm and residuals')).toBeVisible();
  await expect(page).toHaveURL(/view=lessons/);
  await page.screenshot({ path: `${SHOTS}/lessons.png`, fullPage: true });

  await nav.getByRole('link', { name: 'Inspector' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Inspector', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/view=inspector/);
  await page.screenshot({ path: `${SHOTS}/inspector.png`, fullPage: true });

  // back restores the previous view; a reload keeps the current one
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Lessons', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Lessons', level: 1 })).toBeVisible();
  await nav.getByRole('link', { name: 'RMSNorm lab' }).click(); // the lesson path replaced the placeholder's button
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await expect(page.getByRole('link', { name: 'RMSNorm lab' })).toHaveAttribute('aria-current', 'page');
});

test('every lab control has an accessible name', async ({ page }) => {
  await page.goto('./?view=lab');
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  const unnamed = await page.locator('input, select, button').evaluateAll((els) =>
    els
      .filter((el) => {
        const e = el as HTMLInputElement;
        const labelled = (e.labels?.length ?? 0) > 0 || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby');
        const text = el.tagName === 'BUTTON' && el.textContent!.trim() !== '';
        return !labelled && !text;
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(unnamed).toEqual([]);
});
