// The training lesson and the RMSNorm lesson's experiment step, walked in
// Chromium against the production build: the experiments train in the page's
// trainer workers, their checks wait for the runs ("run the experiment
// first") and are then answered from the learner's own runs: a learner reads
// the answer off the run's live values and the check agrees.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, openStep, walkLesson } from './lessonWalk';
import { sideways } from './sideways';

/** The number after `label` in a run's status line ("validation 2.8412"). */
async function numberAfter(page: Page, testId: string, label: string): Promise<number> {
  const text = (await page.getByTestId(testId).first().innerText()).replace(/,/g, '');
  const m = text.match(new RegExp(`${label} (-?[\\d.]+(?:e-?\\d+)?)`));
  if (m === null) throw new Error(`no “${label}” in “${text}”`);
  return Number(m[1]);
}

test('the RMSNorm experiment step: checks wait for the runs, then a learner answers one from the live values', async ({ page }) => {
  test.setTimeout(240_000);
  await openStep(page, 'rmsnorm', 9);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Test it yourself: pre-norm and post-norm at depth');
  const widget = page.locator('[data-testid="widget-train-experiment"][data-experiment="prenorm"]');
  await expect(widget).toHaveAttribute('data-state', 'idle');
  // before the runs: every check of the step says to run the experiment, and cannot be submitted
  const val = page.getByTestId('check-exp-val');
  await expect(page.getByTestId('check-exp-val-needs-run')).toContainText('Run the experiment in this step first');
  await val.getByLabel('run A, pre-norm').check();
  await expect(val.getByRole('button', { name: 'Check' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/lesson-experiment-before.png`, fullPage: true });

  await widget.getByTestId('te-start').click();
  await expect(widget).toHaveAttribute('data-state', 'running');
  // while it trains the checks still wait: no answer is judged against a run in progress
  await expect(page.getByTestId('check-exp-val-needs-run')).toBeVisible();
  await expect(widget).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  await expect(widget.getByTestId('te-run-A')).toHaveAttribute('data-phase', 'finished');
  await expect(widget.getByTestId('te-run-B')).toHaveAttribute('data-phase', 'finished');
  await expect(page.getByTestId('check-exp-val-needs-run')).toHaveCount(0);

  // the learner reads both validation losses off the runs' lines and picks the lower
  const a = await numberAfter(page, 'te-run-A', 'validation');
  const b = await numberAfter(page, 'te-run-B', 'validation');
  const lower = a <= b ? 'run A, pre-norm' : 'run B, post-norm';
  const wrong = a <= b ? 'run B, post-norm' : 'run A, pre-norm';
  await val.getByLabel(wrong).check();
  await val.getByRole('button', { name: 'Check' }).click();
  await expect(val).toHaveAttribute('data-status', 'wrong');
  await val.getByLabel(lower).check();
  await val.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-exp-val-right')).toBeVisible();
  // the explanation quotes the same run
  await expect(page.getByTestId('check-exp-val-right')).toContainText(a.toFixed(4).slice(0, 5));

  // the heatmaps filled in: hovering the last column reads a block's gradient norm
  const map = widget.getByTestId('te-grad-prenorm-B');
  await expect(map.locator('.sh-legend')).toBeVisible();
  const box = (await map.locator('canvas').boundingBox())!;
  await map.locator('canvas').hover({ position: { x: box.width - 2, y: 2 } });
  await expect(map.locator('.sh-readout')).toContainText(/block 0, step \d+: gradient norm/);

  // the same runs are still there when the learner comes back to the step
  await openStep(page, 'rmsnorm', 8);
  await openStep(page, 'rmsnorm', 9);
  await page.goto('./?view=lessons&lesson=rmsnorm&step=9'); // a new page: the runs are gone, the checks wait again
  await expect(page.getByTestId('check-exp-val-needs-run')).toBeVisible({ timeout: 20_000 });
});

test('walk the training lesson: every experiment trains, every check is answered from the runs, screenshots at 1280 and 390 px', async ({ page }) => {
  test.setTimeout(600_000);
  await walkLesson(page, 'training', 'lesson-training', async (step) => {
    if (step === 3) {
      // the followed weights: a row per step shown, for both runs
      await expect(page.getByTestId('probe-2')).toBeVisible();
      await expect(page.getByTestId('probe-2-B-1-value')).not.toHaveText('—');
    }
    if (step === 4) await expect(page.getByTestId('lr-plot')).toBeVisible();
    if (step === 5) await expect(page.getByTestId('grad-norm-plot')).toContainText('clipped above 1');
    if (step === 6) {
      // the small text: its run says what it trained on
      await expect(page.getByTestId('te-run-A')).toContainText('the first 2,000 bytes of the KJV excerpt');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SHOTS}/lesson-training-6-390.png`, fullPage: true });
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
