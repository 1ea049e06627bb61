// Each lesson step owns its state: what a learner does in one step's widget
// does not reach the next step's widgets, the lab's settings or the lab's keys
// in the address; going back to a step shows what was done there. Also: no
// control is switched off without a visible way back on, and timings are not
// part of the results (the lab's optional Timing readout is measured from the
// input that caused the result). Chromium against the production build.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, openStep, stepShown } from './lessonWalk';

const LAB_KEYS = ['x', 'gamma', 'eps', 'c', 'dtype', 'grad'];
/** The lab's defaults as the address spells them (x = [3, 4], ε = 1e-6, …). */
const DEFAULT_KEYS: Record<string, string> = { x: '3,4', gamma: 'ones', eps: String(1e-6), c: '1', dtype: 'float64', grad: 'sum' };
const labKeys = (page: Page) => {
  const params = new URL(page.url()).searchParams;
  return Object.fromEntries(LAB_KEYS.map((k) => [k, params.get(k)]));
};
const goToStep = async (page: Page, step: number) => {
  await page.getByTestId('lesson').getByRole('link', { name: String(step), exact: true }).click();
  await stepShown(page, step);
};
const labTab = (page: Page) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'RMSNorm lab', exact: true });

/** The y coordinates of the scale plot's curve (SVG user units). */
async function curveYs(page: Page): Promise<number[]> {
  const d = (await page.getByTestId('scale-plot').locator('path.scale-plot-curve').getAttribute('d')) ?? '';
  return [...d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => Number(m[2]));
}

test("the state test: step 3's buttons reach neither step 4, nor the lab, nor the address; step 3 keeps them", async ({ page }) => {
  await openStep(page, 'rmsnorm', 3);
  const compare = page.getByTestId('widget-norm-compare');
  // step 3 opens on the example its text describes first: the constant vector [2, 2, 2, 2]
  await expect(compare.getByTestId('norm-compare-settings')).toHaveText('x = [2, 2, 2, 2], ε = 1e-6');
  await expect(compare.getByTestId('cmp-constant')).toBeVisible();
  await page.waitForTimeout(300); // past the address's debounced update
  const keysBefore = labKeys(page);

  await compare.getByTestId('preset-seed').click();
  await expect(compare.getByTestId('norm-compare-settings')).toHaveText('x = [3, 4], ε = 1e-6');
  await compare.getByTestId('preset-constant').click();
  await expect(compare.getByTestId('cmp-constant')).toBeVisible();
  await compare.getByTestId('preset-zeros').click();
  await compare.getByTestId('lesson-eps-zero').check();
  await expect(compare.getByTestId('norm-compare-settings')).toHaveText('x = [0, 0, 0, 0], ε = 0');
  await expect(compare.getByTestId('cmp-zero')).toContainText('0 / 0 = NaN');
  await page.waitForTimeout(300);
  expect(labKeys(page)).toEqual(keysBefore);

  // step 4 opens on its own example: x = [3, 4], ε = 1e-6, c = 1, the ε slider on
  await goToStep(page, 4);
  const eps = page.getByTestId('widget-epsilon-lab');
  await expect(eps.getByTestId('epsilon-lab-settings')).toHaveText('x = [3, 4], γ = ones');
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 1e-6');
  await expect(eps.locator('#lesson-eps')).toBeEnabled();
  await expect(eps.getByTestId('epsilon-lab-eps-zero')).not.toBeChecked();
  await expect(eps.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '12.5');
  // its scale plot is not flat (x = 0 would give a flat line): the curve spans most of the plot's height
  const ys = await curveYs(page);
  expect(ys.length).toBeGreaterThan(40);
  expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(100);
  await eps.getByTestId('scale-plot').screenshot({ path: `${SHOTS}/lesson-state-step4-plot.png` });
  expect(labKeys(page)).toEqual(keysBefore);

  // the lab opens on its own default, and its keys in the address are what they were
  await labTab(page).click();
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await expect(page.getByTestId('x-0')).toHaveValue('3');
  await expect(page.getByTestId('x-1')).toHaveValue('4');
  await expect(page.getByTestId('lab-eps-readout')).toHaveText('ε = 1e-6');
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '12.5');
  await page.waitForTimeout(300);
  const keysInLab = labKeys(page);
  for (const key of LAB_KEYS) expect([keysBefore[key], DEFAULT_KEYS[key]], key).toContain(keysInLab[key]); // as before, or the lab's own defaults

  // back to step 3: what was done there is still there
  await page.goBack();
  await stepShown(page, 4);
  await goToStep(page, 3);
  await expect(compare.getByTestId('norm-compare-settings')).toHaveText('x = [0, 0, 0, 0], ε = 0');
  await expect(compare.getByTestId('lesson-eps-zero')).toBeChecked();
  await expect(compare.getByTestId('cmp-zero')).toContainText('0 / 0 = NaN');
});

test('a widget hands its settings to the lab only when asked ("Open these settings in the RMSNorm lab")', async ({ page }) => {
  await openStep(page, 'rmsnorm', 4);
  const eps = page.getByTestId('widget-epsilon-lab');
  await eps.locator('#lesson-eps').fill('1'); // slider position: log10(eps)
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 10');
  await eps.getByRole('button', { name: /Open these settings in the RMSNorm lab/ }).click();
  await expect(page.getByTestId('lab-eps-readout')).toHaveText('ε = 10');
  await expect(page).toHaveURL(/[?&]eps=10(&|$)/);
  // the widget's own memory is untouched by the lab, and the lab by a later widget move
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Lessons', exact: true }).click();
  await stepShown(page, 4);
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 10');
  await eps.getByRole('button', { name: /^Back to x = \[3, 4\], ε = 1e-6, c = 1$/ }).click();
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 1e-6');
  await labTab(page).click();
  await expect(page.getByTestId('lab-eps-readout')).toHaveText('ε = 10');
});

test('every ε slider a widget can switch off has its "ε = 0 exactly" checkbox beside it, the way back on', async ({ page }) => {
  await openStep(page, 'rmsnorm', 4);
  const eps = page.getByTestId('widget-epsilon-lab');
  const slider = eps.locator('#lesson-eps');
  const zero = eps.getByTestId('epsilon-lab-eps-zero');
  await eps.locator('#lesson-eps').fill('-3');
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 0.001');
  await zero.check();
  await expect(slider).toBeDisabled();
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 0');
  await expect(eps.getByTestId('scale-plot')).toHaveAttribute('data-plateau', 'exact');
  await expect(zero).toBeVisible();
  await zero.uncheck();
  await expect(slider).toBeEnabled();
  await expect(eps.getByTestId('lesson-eps-readout')).toHaveText('ε = 0.001'); // the last ε > 0 comes back
  // the lab's slider has the same checkbox
  await labTab(page).click();
  await page.getByTestId('eps-zero').check();
  await expect(page.locator('#lab-eps')).toBeDisabled();
  await page.getByTestId('eps-zero').uncheck();
  await expect(page.locator('#lab-eps')).toBeEnabled();
});

test('no "Shown N ms" on results; the lab\'s Timing readout counts from the input that caused the result', async ({ page }) => {
  await openStep(page, 'rmsnorm', 4);
  await expect(page.getByTestId('widget-epsilon-lab').getByTestId('rms-readout')).toBeVisible();
  await expect(page.getByTestId('lesson')).not.toContainText(/ms after/);
  await expect(page.getByTestId('lab-latency')).toHaveCount(0);
  await goToStep(page, 3);
  await page.getByTestId('preset-zeros').click();
  await page.waitForTimeout(1500); // a learner reads before moving on
  await labTab(page).click();
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  const timing = page.getByTestId('lab-latency');
  await expect(timing).not.toHaveAttribute('open', /.*/); // collapsed until asked for
  await timing.locator('summary').click();
  await expect(timing).toBeVisible();
  // the result on screen was computed when the page opened, not after the click 1.5 s ago
  const shown = await timing.getAttribute('data-latency-ms');
  expect(shown === null || Number(shown) < 1000, `latency ${shown}`).toBe(true);
  await expect(timing).not.toContainText(/\d{4,} ms/);
  // a change made in the lab is timed from its own input
  await page.getByTestId('preset-constant').click();
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '4');
  await expect(timing).toHaveAttribute('data-latency-ms', /^\d+(\.\d+)?$/);
  expect(Number(await timing.getAttribute('data-latency-ms'))).toBeLessThan(1000);
  await expect(timing).toContainText('after the input that changed the settings');

  // a page that opens on the lab times its first result from the page's start, worker and core included
  await page.goto('./?view=lab');
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await expect(timing).toHaveAttribute('data-latency-ms', /^\d+(\.\d+)?$/);
  await timing.locator('summary').click();
  await expect(timing).toContainText('First result on the page');
});
