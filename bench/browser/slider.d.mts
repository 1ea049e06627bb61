// Types of bench/browser/slider.mjs, for the e2e tests that import it.
import type { Page } from '@playwright/test';
/** The inspector's address on `text`, under the site's `url`. */
export function inspectorAddress(url: string, text: string): string;
/** The slider's values (log10 of eps) the steps aim at in turn. */
export const SLIDER: string[];
/** One click on the slider's track: the core time the page shows for it and slider to screen, in ms; where the slider went and where the click aimed (log10 of eps, as the input's value). */
export interface Step {
  core: number;
  screen: number;
  position: string;
  aimed: string;
}
export function slide(page: Page, steps: number, pauseMs: number): Promise<Step[]>;
/** A mouse drag across the slider: the inputs the browser sent (one per new value), its length from press to release as the page saw it, when new results appeared (ms from the press) during it and after it, and whether the results dimmed. */
export interface Drag {
  inputs: number;
  ms: number;
  during: number[];
  after: number[];
  dimmed: boolean;
}
export function drag(page: Page, ms: number, settleMs?: number): Promise<Drag>;
