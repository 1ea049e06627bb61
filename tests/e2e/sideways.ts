// How far the page reaches past the window's right edge, as a learner who
// scrolled to every part of it would find it. The inspector's cards skip
// their drawing while out of view (content-visibility: auto, Inspector.css),
// and that containment keeps a card's overflow inside it: content sticking
// out of a card is clipped there, and the page's own scrollWidth no longer
// shows it. So the measures here switch the skipping off for their moment.
import type { Page } from '@playwright/test';

const STYLE_ID = 'e2e-every-card-drawn';

/** Runs `measure` with every card drawn and uncontained, then restores the page. */
export async function withEveryCardDrawn<T>(page: Page, measure: () => Promise<T>): Promise<T> {
  await page.evaluate((id) => {
    const style = document.createElement('style');
    style.id = id;
    style.textContent = '* { content-visibility: visible !important; }';
    document.head.append(style);
  }, STYLE_ID);
  try {
    return await measure();
  } finally {
    await page.evaluate((id) => document.getElementById(id)?.remove(), STYLE_ID);
  }
}

/** Pixels the page scrolls sideways (0 or less: it does not). */
export function sideways(page: Page): Promise<number> {
  return withEveryCardDrawn(page, () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth));
}
