// A slider step computes in the core's worker and changes the page's address
// (app/state.ts writes it 150 ms after the last change): nothing of it needs
// the network. Chromium fetches a linked icon again on every change of the
// address, so the icon is inside index.html (vite.config.ts, inlineFavicon);
// before, every step fetched favicon.svg once more (through the service
// worker once it controlled the page), beside the model's threads.
import { expect, test } from '@playwright/test';
import { inspectorAddress, slide } from '../../bench/browser/slider.mjs';
import { TEXT } from './threadsRuns';

test('slider steps, and the address each one writes, request nothing from the network', async ({ page }) => {
  await page.goto(inspectorAddress('./', TEXT));
  await expect(page.getByTestId('inspector-loss')).toContainText(/core [\d.]+ ms/, { timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  for (let i = 0; i < 4; i++) {
    const before = page.url();
    await slide(page, 1, 0);
    // the address follows the slider: the step's replaceState has run
    await expect.poll(() => page.url(), { message: `the address after step ${i + 1}` }).not.toBe(before);
  }
  await page.waitForTimeout(300); // a request the last address change started would have shown by now
  expect(requests).toEqual([]);
});

test("the page's icon is inside it: an SVG, no file to fetch, which the page's policy allows", async ({ page }) => {
  await page.addInitScript(() => {
    (globalThis as any).violations = [];
    addEventListener('securitypolicyviolation', (e) => (globalThis as any).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto('./');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (globalThis as any).violations)).toEqual([]);
  const href = await page.locator('link[rel=icon]').getAttribute('href');
  expect(href).toMatch(/^data:image\/svg\+xml,/);
  const svg = decodeURIComponent(href!.slice('data:image/svg+xml,'.length));
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
});
