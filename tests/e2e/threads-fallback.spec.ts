// A host that does not send the cross-origin isolation headers (the second
// server of playwright.config.ts): the page falls back to the single-threaded
// core and says why; once the offline service worker controls the page, it
// serves the headers itself, and after a reload the page is isolated and runs
// the threaded core.
import { expect, test } from '@playwright/test';
import { PLAIN_PORT } from '../../playwright.config';

const PLAIN = `http://127.0.0.1:${PLAIN_PORT}/`;
const SHOTS = 'build/screenshots';

test('without the headers the page runs the single-threaded core and says why', async ({ page }) => {
  const response = await page.goto(`${PLAIN}?view=lab`);
  expect(response?.headers()['cross-origin-embedder-policy']).toBeUndefined();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  const line = page.getByTestId('threads-line');
  await expect(line.locator('summary')).toHaveText('Core: single-threaded');
  await line.locator('summary').click();
  await expect(line).toContainText('This page is not cross-origin isolated, so the browser does not allow shared memory');
  await expect(page.getByTestId('threads-choice')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/threads-fallback-1280.png`, fullPage: true });
  // the console's setThreads refuses more than one thread, saying why
  const refused = await page.evaluate(async () => {
    const glass = await (globalThis as any).glass.ready;
    try {
      glass.setThreads(2);
      return 'accepted';
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(refused).toBe(
    'setThreads: the thread count must be a whole number from 1 to 1; this is the single-threaded build of the core: the page is not cross-origin isolated, so it cannot share memory with workers; got the number 2',
  );
});

test.describe('the offline service worker', () => {
  test.use({ serviceWorkers: 'allow' }); // playwright.config.ts blocks it for every other test

  test('serves the headers itself: after a reload the page is isolated and runs the threaded core', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(PLAIN);
    await expect(page.getByTestId('threads-line').locator('summary')).toHaveText('Core: single-threaded');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await expect(page.getByTestId('threads-line').locator('summary')).toHaveText(`Core: threaded, ${cores} thread${cores === 1 ? '' : 's'}`);
    // the page still computes, and the code-cell sandbox still answers under the policy
    await page.goto(`${PLAIN}?view=lab`);
    await expect(page.getByTestId('rms-readout')).toBeVisible();
  });
});
