// A slider step computes in the core's worker and changes the page's address
// (app/state.ts writes it 150 ms after the last change): nothing of it needs
// the network. Headless Chromium fetches a linked icon again on every change
// of the address, so the icon is inside index.html (vite.config.ts,
// inlineFavicon); before, every step fetched favicon.svg once more (through
// the service worker once it controlled the page).
//
// Nor does a step set any form control's value from script: Chromium answers
// each such set with a form-tracking task that lays out the whole page
// (app/formValues.ts). A learner's steps come from the keyboard here, as the
// benchmark's own value setter would count as one.
import { expect, test, type Page } from '@playwright/test';
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
    addEventListener('securitypolicyviolation', (e: SecurityPolicyViolationEvent) => (globalThis as any).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto('./');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (globalThis as any).violations)).toEqual([]);
  const href = await page.locator('link[rel=icon]').getAttribute('href');
  expect(href).toMatch(/^data:image\/svg\+xml,/);
  const svg = decodeURIComponent(href!.slice('data:image/svg+xml,'.length));
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
});

/** Counts every value a script sets on an input, select or textarea of the page (set up before it loads). */
async function watchValueSets(page: Page) {
  await page.addInitScript(() => {
    const sets: string[] = ((globalThis as any).valueSets = []);
    for (const proto of [HTMLInputElement.prototype, HTMLSelectElement.prototype, HTMLTextAreaElement.prototype]) {
      for (const prop of ['value', 'valueAsNumber', 'selectedIndex']) {
        const d = Object.getOwnPropertyDescriptor(proto, prop);
        if (!d?.set) continue;
        Object.defineProperty(proto, prop, {
          ...d,
          set(this: HTMLElement, v: unknown) {
            sets.push(`${this.tagName.toLowerCase()}${this.id ? '#' + this.id : ''}.${prop} = ${String(v)}`);
            d.set!.call(this, v);
          },
        });
      }
    }
  });
  return {
    reset: () => page.evaluate(() => ((globalThis as any).valueSets.length = 0)),
    read: () => page.evaluate(() => [...(globalThis as any).valueSets] as string[]),
  };
}

/** Steps the focused slider with the arrow keys, `steps` times, each time until `changes` shows new text. */
async function stepByKeys(page: Page, steps: number, changes: string) {
  for (let i = 0; i < steps; i++) {
    const before = await page.getByTestId(changes).textContent();
    await page.keyboard.press(i % 2 === 0 ? 'ArrowLeft' : 'ArrowRight');
    await expect(page.getByTestId(changes)).not.toHaveText(before!, { timeout: 20_000 });
  }
}

test('slider steps set no form control from script: the inspector (with its tools open) and the lab', async ({ page }) => {
  const sets = await watchValueSets(page);
  await page.goto(inspectorAddress('./', TEXT) + '&tool=lens');
  await expect(page.getByTestId('inspector-loss')).toContainText(/core [\d.]+ ms/, { timeout: 20_000 });
  await expect(page.getByTestId('look-lens-entry')).toBeVisible({ timeout: 20_000 }); // its position picker is on the page
  await page.locator('#model-eps').focus();
  await sets.reset();
  await stepByKeys(page, 4, 'inspector-loss');
  await page.waitForTimeout(300); // the address written after the last step
  expect(await sets.read()).toEqual([]);

  await page.goto('./?view=lab');
  await expect(page.getByTestId('readout-eff-eps')).toBeVisible({ timeout: 20_000 });
  await page.locator('#lab-c').focus();
  await sets.reset();
  await stepByKeys(page, 4, 'readout-eff-eps');
  expect(await sets.read()).toEqual([]);
});
