// axe-core for the e2e tests, run in the page itself ("legacy mode"). The
// default mode gathers each frame's results and then opens a blank page of
// its own to merge them: about 0.4 s more per run, or a minute over the
// screens pass (screens.spec.ts runs axe twice on each of about 90 pages).
// Our frames are the hidden code-cell sandboxes, which have no content to
// check; the violations found are the same (a probe with a low-contrast button
// and an image without alt text gave the same two in either mode).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode();
