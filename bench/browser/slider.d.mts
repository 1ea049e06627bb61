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
/** A drag across the slider: the inputs sent (one per new value), when new results appeared (ms from its start) during it and after it, and whether the results dimmed. */
export interface Drag {
  inputs: number;
  during: number[];
  after: number[];
  dimmed: boolean;
}
export function drag(page: Page, ms: number, settleMs?: number): Promise<Drag>;
