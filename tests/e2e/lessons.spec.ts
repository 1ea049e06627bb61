// The RMSNorm lesson, walked in Chromium against the production build: every
// step renders (screenshot each), widgets respond, code cells print the seed's
// output, checks accept the core's answer and refuse a wrong one, progress
// survives a reload, deep links open their step, garbage in storage is harmless.
import { expect, test } from '@playwright/test';
import { SHOTS, answerChecks, gateOf, lessonCounts, openStep as openLessonStep, showHidden, startLesson, walkLesson } from './lessonWalk';
import { sideways } from './sideways';

const { steps: STEPS, checks: CHECKS } = lessonCounts('rmsnorm');
const openStep = (page: Parameters<typeof openLessonStep>[0], step: number) => openLessonStep(page, 'rmsnorm', step);

test('walk the whole lesson: every step renders, checks judge with the core, screenshots', async ({ page }) => {
  // the experiment step trains its two pairs of runs (walkLesson runs them before answering their checks)
  test.setTimeout(420_000);
  await page.goto('./?view=lessons');
  await expect(page.getByTestId('lesson-card-rmsnorm')).toBeVisible();
  await expect(page.getByTestId('progress-rmsnorm')).toContainText(`${STEPS} steps · ${CHECKS} checks`);
  await page.screenshot({ path: `${SHOTS}/lesson-home.png`, fullPage: true });
  await walkLesson(page, 'rmsnorm', 'lesson');
  // progress survives a reload: the home page counts the steps and checks
  await expect(page.getByTestId('progress-rmsnorm')).toContainText(`${STEPS} of ${STEPS} steps opened`);
  await page.reload();
  await expect(page.getByTestId('progress-rmsnorm')).toContainText(`${STEPS} of ${STEPS} steps opened`);
  await expect(page.getByTestId('progress-rmsnorm')).toContainText(`${CHECKS} of ${CHECKS} checks right`);
});

test('walk the whole lesson at 390 px: every step fits the width, checks judge with the core, screenshots', async ({ page }) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await walkLesson(page, 'rmsnorm', 'lesson-390', async (step) => {
    // the page never scrolls sideways (wide tables and drawings scroll in their own boxes)
    expect(await sideways(page), `step ${step}`).toBeLessThanOrEqual(0);
  });
});

test('the story widgets: the stream grows on your prompt, two graphs counted, ε in float32, the sphere, the gradient, trained γ, the scaled init', async ({ page }) => {
  test.setTimeout(120_000);
  // step 1: the opening question, answered by the model on the learner's prompt
  await openStep(page, 1);
  await expect(gateOf(page, 'stream-grows')).toBeVisible();
  await expect(page.getByTestId('widget-stream-rms')).toHaveCount(0);
  await page.getByTestId('check-stream-grows').getByLabel('it grows more than 3 times').check();
  await page.getByTestId('check-stream-grows').getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-stream-grows-right')).toBeVisible();
  const bars = page.getByTestId('stream-rms-bars');
  await expect(bars.locator('li')).toHaveCount(9, { timeout: 20_000 });
  await expect(bars.locator('li').first()).toContainText('embedding');
  const last = async () => Number(await bars.locator('li').last().locator('.num').getAttribute('data-value'));
  const first = async () => Number(await bars.locator('li').first().locator('.num').getAttribute('data-value'));
  expect((await last()) / (await first())).toBeGreaterThan(3);
  const before = await last();
  await page.getByTestId('stream-rms-prompt').fill('The quick brown fox jumps over the lazy dog.');
  await expect.poll(last).not.toBe(before);
  await page.screenshot({ path: `${SHOTS}/lesson-story-stream.png`, fullPage: true });

  // step 3: the two graphs, counted by the core
  await openStep(page, 3);
  await showHidden(page);
  await expect(page.getByTestId('ops-rms-count')).toHaveText('6');
  await expect(page.getByTestId('ops-layer-count')).toHaveText('9');
  await expect(page.getByTestId('ops-layer')).toContainText('sub');
  await page.getByTestId('ops-x').fill('1, 2, x');
  await expect(page.getByTestId('widget-norm-op-counts').getByRole('alert')).toBeVisible();

  // step 4: ε next to 12.5 and next to 50, in float64 and float32
  await openStep(page, 4);
  await showHidden(page);
  await expect(page.getByTestId('epsd-survived-0')).toHaveText('1e-6');
  await page.getByTestId('epsd-float32').check();
  await expect(page.getByTestId('epsd-survived-0')).toHaveText('9.537e-7');
  await expect(page.getByTestId('epsd-survived-1')).toHaveText('0');

  // step 5: the circle, the ellipse, the globe, and the gradient at right angles
  await openStep(page, 5);
  await showHidden(page);
  await expect(page.getByTestId('geo2-ones-norm')).toHaveText('1.41421');
  await expect(page.getByTestId('geo2-sqrtd')).toHaveText('1.41421');
  const svg = page.getByTestId('geo2-svg');
  const box = (await svg.boundingBox())!;
  await svg.click({ position: { x: box.width * 0.2, y: box.height * 0.7 } });
  await expect(page.getByTestId('geo2-x')).not.toHaveValue('3, 4');
  await expect(page.getByTestId('geo2-ones-norm')).toHaveText('1.41421');
  await page.getByTestId('geo2-ones').click();
  await expect(page.getByTestId('geo2-norm')).toHaveText('1.41421');
  await expect(page.getByTestId('geo3-ones-norm')).toHaveText('1.73205');
  await page.getByTestId('geo3-x').fill('0, 0, 0');
  await expect(page.getByTestId('geo3-ones-norm')).toHaveText('NaN'); // 0 / 0 with ε = 0, said plainly; the drawing stays
  await expect(page.getByTestId('ngrad-dot-1')).toHaveText(/^(-?\d(\.\d+)?e-1[5-7]|0)$/);
  await expect(page.getByTestId('ngrad-norm-2')).toHaveText('0.028284');
  await page.getByTestId('ngrad-eps-model').check();
  await expect(page.getByTestId('ngrad-dot-1')).toHaveText(/e-7$/);
  await page.screenshot({ path: `${SHOTS}/lesson-story-geometry.png`, fullPage: true });

  // step 6: the trained γ and the fresh models
  await openStep(page, 6);
  await showHidden(page);
  await expect(page.getByTestId('gamma-table').locator('tbody tr')).toHaveCount(9, { timeout: 20_000 });
  await expect(page.getByTestId('init-factor')).toHaveText('0.3536', { timeout: 20_000 });
  await expect(page.getByTestId('init-depth-bars').locator('li')).toHaveCount(9);
  await expect(page.getByTestId('branch-rms-bars').locator('li')).toHaveCount(8);
});

test('walk the tensors and autograd lesson: steps, code cells, widgets answered by the core, checks, screenshots', async ({ page }) => {
  test.setTimeout(120_000);
  await walkLesson(page, 'tensors-autograd', 'lesson-tensors', async (step) => {
    if (step === 3) {
      // broadcasting: the core's shape, then its refusal
      await expect(page.getByTestId('bc-verdict')).toContainText('shape (4, 2, 3): 24 elements');
      await page.getByTestId('bc-a').fill('3');
      await page.getByTestId('bc-b').fill('4');
      await expect(page.getByTestId('bc-verdict')).toContainText('The core refuses');
      await page.getByTestId('bc-a').fill('4, 1, 3');
      await page.getByTestId('bc-b').fill('2, 1');
      await expect(page.getByTestId('bc-verdict')).toContainText('24 elements');
    }
    if (step === 6) {
      // the recorded graph: y and the gradients follow the inputs
      await expect(page.getByTestId('graph-y')).toHaveText('38');
      await page.getByTestId('graph-b').fill('1, 1, 1');
      await expect(page.getByTestId('graph-y')).toHaveText('12');
      await page.getByTestId('graph-expression').selectOption('sq-mean');
      await expect(page.getByTestId('graph-node-square')).toBeVisible();
      await page.getByTestId('graph-expression').selectOption('mul-add');
      await page.getByTestId('graph-b').fill('4, 5, 6');
      await expect(page.getByTestId('graph-y')).toHaveText('38');
    }
  });
});

test("code cells print the seed's verified output", async ({ page }) => {
  await openStep(page, 4);
  // the cell waits for the prediction above it: is RMSNorm(2x) exactly RMSNorm(x)?
  await expect(gateOf(page, 'rms-double-exact')).toBeVisible();
  await expect(page.getByTestId('code-cell')).toHaveCount(0);
  const predict = page.getByTestId('check-rms-double-exact');
  await predict.getByLabel('no, only approximately').check();
  await predict.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-rms-double-exact-right')).toBeVisible();
  const out = page.getByTestId('code-output').first();
  await expect(out).toHaveText('[[0.848528, 1.131371]]\n[[2.54558422e-08, 3.39411230e-08]]');
  // editing and re-running a cell runs the new code in the worker
  const cell = page.getByTestId('code-cell').first();
  await cell.locator('textarea').fill("print(glass.tensor([[1, 2]], { dtype: 'float64' }).mul(2))");
  await cell.getByRole('button', { name: 'Run' }).click();
  await expect(out).toHaveText('[[2., 4.]]');
});

test('widgets respond: one row edited changes only that row; gradient path; gamma', async ({ page }) => {
  await openStep(page, 1);
  await showHidden(page); // the learner gives up on the prediction above the widget
  const y00 = page.getByTestId('row-0-y-0');
  await expect(y00).toHaveAttribute('data-value', /\d/);
  const before = [await page.getByTestId('row-1-y-0').getAttribute('data-value'), await page.getByTestId('row-2-y-0').getAttribute('data-value')];
  const old = await y00.getAttribute('data-value');
  await page.getByLabel('x[0][1]').fill('9');
  await expect(y00).not.toHaveAttribute('data-value', old!);
  await expect(page.getByTestId('row-0')).toHaveAttribute('data-changed', 'yes');
  await expect(page.getByTestId('row-1')).toHaveAttribute('data-changed', 'no');
  expect([await page.getByTestId('row-1-y-0').getAttribute('data-value'), await page.getByTestId('row-2-y-0').getAttribute('data-value')]).toEqual(before);

  await openStep(page, 7);
  await showHidden(page);
  await page.getByTestId('path-map').selectOption('minus');
  await page.getByTestId('path-scale-slider').fill('1');
  await expect(page.getByTestId('sv-residual')).toHaveText('0, 0');
  await page.getByTestId('path-map').selectOption('shear');
  await page.getByTestId('path-scale-slider').fill('0.5');
  await page.getByTestId('path-depth-slider').fill('20');
  await expect(page.getByTestId('path-depth')).toHaveText('20');
  await expect.poll(async () => Number(await page.getByTestId('depth-residual-max').textContent())).toBeGreaterThan(10);
  await expect(page.getByTestId('grad-bars').locator('li')).toHaveCount(10, { timeout: 20_000 });

  await openStep(page, 4);
  const n0 = page.getByTestId('gamma-norm-0');
  await expect(n0).not.toHaveText('');
  const was = await n0.textContent();
  await page.getByTestId('gamma-input').fill('1, 1, 1, 1');
  await expect(n0).not.toHaveText(was!);

  await openStep(page, 6);
  await expect(page.getByTestId('count-norm-params')).toHaveText('1,152', { timeout: 20_000 });
  await expect(page.getByTestId('count-norms')).toHaveText('9');

  await openStep(page, 3);
  await page.getByTestId('preset-zeros').click();
  await page.getByTestId('lesson-eps-zero').check();
  await expect(page.getByTestId('cmp-rms-0')).toHaveText('NaN');
});

test('a deep link opens its step; keys and Back move between steps; a bad step is reported', async ({ page }) => {
  await openStep(page, 7);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The gradient path');
  // the step has settled (its live values are in), and the focus is on the page, not in a field
  await expect(page.locator('.md-live-pending')).toHaveCount(0, { timeout: 20_000 });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('k');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '6');
  await page.goBack();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '7');
  await page.goto('./?view=lessons&lesson=rmsnorm&step=77');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '1');
  await expect(page.getByText('step="77"')).toBeVisible();
  // the tour links open the inspector with its selection in the address
  await openStep(page, 8);
  await page.getByTestId('tour-link').first().click();
  await expect(page).toHaveURL(/view=inspector.*compare=blocks\.1\.norm\.attn,blocks\.1\.resid\.attn|compare=blocks\.1\.norm\.attn%2Cblocks/);
});

test('an answer typed the moment a step opens stays in its field and is judged once the core has answered', async ({ page }) => {
  await openStep(page, 2);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '3');
  // no waiting for the step's values: the step's own focus move must not take the caret away
  const card = page.locator('form.check-card').first();
  const input = card.locator('input[type=text]');
  await input.fill('123456789');
  await expect(input).toHaveValue('123456789');
  await expect(input).toBeFocused();
  await card.locator('button[type=submit]').click();
  await expect(card.locator('.check-feedback.wrong')).toBeVisible();
});

test('Back and Forward: one history entry per navigation, across views and steps', async ({ page }) => {
  const tabs = page.getByRole('navigation', { name: 'Views' });
  const current = (name: string) => expect(tabs.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  const atStep = (n: number) => expect(page.getByTestId('lesson')).toHaveAttribute('data-step', String(n));
  const entries = () => page.evaluate(() => history.length);
  await page.goto('./?view=lab');
  await current('RMSNorm lab');
  const start = await entries();
  await tabs.getByRole('link', { name: 'Lessons', exact: true }).click();
  await expect(page.getByTestId('lesson-path')).toBeVisible();
  await startLesson(page, 'rmsnorm');
  await atStep(1);
  await page.keyboard.press('ArrowRight');
  await atStep(2);
  await page.waitForTimeout(300); // past the debounced replaceState
  expect(await entries()).toBe(start + 3); // lessons, step 1, step 2: nothing doubled
  await page.goBack();
  await atStep(1);
  await page.goBack();
  await expect(page.getByTestId('lesson-path')).toBeVisible();
  await page.goBack();
  await current('RMSNorm lab');
  await page.goForward();
  await expect(page.getByTestId('lesson-path')).toBeVisible();
  await page.goForward();
  await atStep(1);

  // a step's "open in the lab" button, then Back: the same step
  await page.goto('./?view=lessons&lesson=rmsnorm&step=4');
  await atStep(4);
  const before = await entries();
  await page.getByRole('button', { name: /Open these settings in the RMSNorm lab/ }).first().click();
  await current('RMSNorm lab');
  expect(await entries()).toBe(before + 1);
  await page.goBack();
  await atStep(4);

  // a tour link to the inspector, then Back; the Lessons tab also returns to the step
  await page.goto('./?view=lessons&lesson=rmsnorm&step=8');
  await atStep(8);
  await page.getByTestId('tour-link').first().click();
  await current('Inspector');
  await page.goBack();
  await atStep(8);
  await page.goForward();
  await current('Inspector');
  await tabs.getByRole('link', { name: 'Lessons', exact: true }).click();
  await atStep(8);
  await page.goBack();
  await current('Inspector');
});

test('an endless loop in a code cell is stopped after 3 s in its own sandbox; the core worker is untouched and the next cell runs', async ({ page }) => {
  test.setTimeout(60_000);
  await openStep(page, 6); // loads the model's weights into the worker
  await expect(page.getByTestId('count-norm-params')).toHaveText('1,152', { timeout: 20_000 });
  await page.getByTestId('lesson').getByRole('link', { name: '2', exact: true }).click();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-step', '2');
  const cell = page.getByTestId('code-cell').first();
  const out = cell.getByTestId('code-output');
  await expect(out).not.toHaveText('Running…');
  await cell.locator('textarea').fill('print("before"); while (true) {}');
  await cell.getByRole('button', { name: 'Run' }).click();
  await expect(out).toHaveText('stopped after 3 s — did the code loop forever?', { timeout: 15_000 });
  // only the cell's sandbox was stopped: the core worker never restarted, so no notice
  await expect(page.getByTestId('core-notice')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as any).glassDebug.restarts())).toBe(0);
  // the page stays usable: the edited code is still there, and a normal cell runs in a fresh sandbox, model included
  await expect(cell.locator('textarea')).toHaveValue('print("before"); while (true) {}');
  await cell.locator('textarea').fill("print(glass.tensor([[3, 4]], { dtype: 'float64' }).mul(2)); print(model.info().norms)");
  await cell.getByRole('button', { name: 'Run' }).click();
  await expect(out).toHaveText('[[6., 8.]]\n9'); // a float tensor, then a count
  await page.screenshot({ path: `${SHOTS}/lesson-cell-time-limit.png`, fullPage: true });
  // checks still judge with the core
  await answerChecks(page);
});

test('garbage in localStorage is tolerated', async ({ page }) => {
  await page.goto('./?view=lab');
  for (const junk of ['{not json', '[1,2,3]', '{"lessons":{"rmsnorm":{"seen":"all","passed":7,"last":{}}}}']) {
    // both versions of the record: the app writes version 2 once a step opens, and reads version 1 only without it
    await page.evaluate((j) => ['glassllm.lessons.v1', 'glassllm.lessons.v2'].forEach((k) => localStorage.setItem(k, j)), junk);
    await page.goto('./?view=lessons');
    await expect(page.getByTestId('lesson-card-rmsnorm')).toBeVisible();
    await page.getByTestId('lesson-card-rmsnorm').getByRole('button').first().click();
    await expect(page.getByTestId('lesson')).toBeVisible();
  }
});

