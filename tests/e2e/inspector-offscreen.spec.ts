// The inspector's cards out of view skip their drawing (content-visibility:
// auto, Inspector.css), so a slider step draws only what the learner sees: on
// a 2-core machine that left the core's second thread a core of its own
// (docs/threads.md, "Off-screen cards skip their drawing"). A card the learner
// scrolls to is drawn at once, with the newest result: the same numbers as a
// fresh page opened at the slider's new value.
import { expect, test, type Page } from '@playwright/test';
import { inspectorAddress, slide } from '../../bench/browser/slider.mjs';
import { SHOTS } from './lessonWalk';
import { TEXT } from './threadsRuns';

/** Whether the element is drawn: not inside a card that skips its drawing. */
const drawn = (page: Page, testId: string) => page.getByTestId(testId).evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));

/** The gradient norms' numbers, in page order. */
const norms = (page: Page) => page.getByTestId('grad-norms').locator('td.num').allTextContents();

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`cards out of view skip their drawing; scrolled to, they show the newest result (${viewport.width} px)`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await page.goto(inspectorAddress('./', TEXT));
    await expect(page.getByTestId('inspector-loss')).toContainText(/core [\d.]+ ms/, { timeout: 20_000 });
    expect(await drawn(page, 'inspector-loss')).toBe(true);
    expect(await drawn(page, 'grad-norms'), 'the gradients, far below the fold, are drawn').toBe(false);
    const before = await norms(page);
    expect(before.length).toBeGreaterThan(10);

    // a slider step while the gradients are out of view, then the learner scrolls to them
    const address = page.url();
    await slide(page, 1, 0);
    await expect.poll(() => page.url(), { message: 'the address follows the slider' }).not.toBe(address);
    expect(await drawn(page, 'grad-norms')).toBe(false);
    await page.getByTestId('grad-norms').scrollIntoViewIfNeeded();
    await expect.poll(() => drawn(page, 'grad-norms')).toBe(true);
    expect(await drawn(page, 'inspector-loss'), 'the top card, now out of view, skips its drawing').toBe(false);
    const bar = await page.getByTestId('grad-norms').locator('.gn-bar').first().boundingBox();
    expect(bar?.width ?? 0).toBeGreaterThan(0);
    const after = await norms(page);
    expect(after).not.toEqual(before);
    await page.screenshot({ path: `${SHOTS}/inspector-offscreen-scrolled-${viewport.width}.png` });

    // the same numbers as a fresh page at the slider's new value
    const fresh = await browser.newPage({ viewport });
    await fresh.goto(page.url());
    await expect(fresh.getByTestId('inspector-loss')).toContainText(/core [\d.]+ ms/, { timeout: 20_000 });
    expect(await norms(fresh)).toEqual(after);
    await fresh.close();
  });
}
