// Types of bench/browser/slider.mjs, for the e2e test that imports it.
import type { Page } from '@playwright/test';
/** The inspector's address on `text`, under the site's `url`. */
export function inspectorAddress(url: string, text: string): string;
/** The slider's values (log10 of eps) the steps take in turn. */
export const SLIDER: string[];
/** One step: the core time the page shows for it, and slider to screen, in ms. */
export interface Step {
  core: number;
  screen: number;
}
export function slide(page: Page, steps: number, pauseMs: number): Promise<Step[]>;
