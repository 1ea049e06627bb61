// Checks as a learner meets them, in Chromium against the production build: a
// prediction keeps its widget (or code cell) hidden until it is answered or the
// learner gives up; answers are judged at the precision the question asks for,
// with a rounding message for a near miss; a pass's tick and a later wrong try
// never show together. Screenshots at 1280 and 390 px wide.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, gateOf, openStep } from './lessonWalk';
import { sideways } from './sideways';

const card = (page: Page, id: string) => page.getByTestId(`check-${id}`);

async function answer(page: Page, id: string, given: string) {
  const c = card(page, id);
  const radio = c.getByRole('radio', { name: given, exact: true });
  if ((await radio.count()) > 0) await radio.check();
  else await c.locator('input[type=text]').fill(given);
  await c.getByRole('button', { name: 'Check', exact: true }).click();
}

test('a prediction hides its widget until it is answered, right or not; a passed prediction stays answered after a reload', async ({ page }) => {
  await openStep(page, 'rmsnorm', 1);
  const gate = gateOf(page, 'rows-independent');
  await expect(gate).toBeVisible();
  await expect(gate).toContainText('Predict first.');
  await expect(gate.getByRole('button', { name: 'Show the widget now' })).toBeVisible();
  await expect(page.getByTestId('widget-row-norm')).toHaveCount(0);
  // the question comes before the placeholder
  const qBox = (await card(page, 'rows-independent').boundingBox())!;
  const gBox = (await gate.boundingBox())!;
  expect(qBox.y).toBeLessThan(gBox.y);
  await expect(page.getByTestId('check-rows-independent-tag')).toHaveText('Predict');
  await page.screenshot({ path: `${SHOTS}/checks-gate-1280.png`, fullPage: true });

  // a wrong prediction is still a prediction: the widget shows, the check stays open to retry
  await answer(page, 'rows-independent', '3');
  await expect(page.getByTestId('check-rows-independent-wrong')).toContainText('Not quite.');
  await expect(page.getByTestId('check-rows-independent-wrong')).toContainText('Does row 1 ever see row 0');
  await expect(gate).toHaveCount(0);
  await expect(page.getByTestId('widget-row-norm')).toBeVisible();
  await expect(page.getByTestId('row-0-y-0')).toHaveAttribute('data-value', /\d/);

  // not passed: a new visit asks again
  await page.reload();
  await expect(gateOf(page, 'rows-independent')).toBeVisible();
  await expect(page.getByTestId('widget-row-norm')).toHaveCount(0);
  await answer(page, 'rows-independent', '1');
  await expect(page.getByTestId('check-rows-independent-right')).toBeVisible();
  await expect(page.getByTestId('widget-row-norm')).toBeVisible();

  // passed: the widget is there from the start, the card says so
  await page.reload();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-values', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('widget-row-norm')).toBeVisible();
  await expect(gateOf(page, 'rows-independent')).toHaveCount(0); // (the opening question's own prediction, above, still waits)
  await expect(page.getByTestId('check-rows-independent-tag')).toHaveText('✓ Passed');
});

test('giving up shows the widget and leaves the prediction open; a cell hidden by two checks waits for both', async ({ page }) => {
  await openStep(page, 'rmsnorm', 7);
  await expect(gateOf(page, 'depth-compounds')).toBeVisible();
  await expect(page.getByTestId('widget-gradient-path')).toHaveCount(0);
  await gateOf(page, 'depth-compounds').getByRole('button', { name: 'Show the widget now' }).click();
  await expect(page.getByTestId('widget-gradient-path')).toBeVisible();
  await expect(page.getByTestId('check-depth-compounds-tag')).toHaveText('Predict');
  await expect(card(page, 'depth-compounds')).toHaveAttribute('data-passed', 'no');

  // tensors, step 4: the stride and the contiguity are both printed by the cell
  await openStep(page, 'tensors-autograd', 4);
  await expect(gateOf(page, 't-stride')).toBeVisible();
  await expect(gateOf(page, 't-contiguous')).toBeVisible();
  await expect(page.getByTestId('code-cell')).toHaveCount(0);
  await answer(page, 't-stride', '1');
  await expect(page.getByTestId('check-t-stride-right')).toBeVisible();
  await expect(gateOf(page, 't-stride')).toHaveCount(0);
  await expect(gateOf(page, 't-contiguous')).toBeVisible(); // still waiting for the other question
  await expect(page.getByTestId('code-cell')).toHaveCount(0);
  await answer(page, 't-contiguous', 'yes');
  await expect(page.getByTestId('check-t-contiguous-wrong')).toContainText('A view copies nothing');
  await expect(page.getByTestId('prediction-gate')).toHaveCount(0);
  await expect(page.getByTestId('code-output')).toContainText('false', { timeout: 20_000 });
});

test('a right answer ticks; a later wrong try replaces the tick; a near miss gets the rounding message, a far one the hint', async ({ page }) => {
  await openStep(page, 'rmsnorm', 3);
  const c = card(page, 'constant-mean');
  const tag = page.getByTestId('check-constant-mean-tag');
  await expect(tag).toHaveText('Check');
  // six decimals of 0.999999875: cut and rounded are both right
  await answer(page, 'constant-mean', '0.999999');
  await expect(page.getByTestId('check-constant-mean-right')).toContainText('Right (the core’s value is 0.999999875');
  await expect(tag).toHaveText('✓ Right');
  await answer(page, 'constant-mean', '1.000000');
  await expect(tag).toHaveText('✓ Right');

  // a wrong try after the pass: no tick anywhere on the card while "Not quite" shows
  await answer(page, 'constant-mean', '0');
  await expect(page.getByTestId('check-constant-mean-wrong')).toContainText('Not quite. RMSNorm does not subtract the mean');
  await expect(tag).toHaveText('✗ Not yet');
  await expect(c).not.toContainText('✓');
  await expect(page.getByTestId('check-constant-mean-right')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/checks-wrong-after-right-1280.png`, fullPage: false, clip: (await c.boundingBox())! });

  // editing the answer after that wrong try: an open question again, not the old tick
  await c.locator('input[type=text]').fill('0.99');
  await expect(tag).toHaveText('Check');
  await expect(c).toHaveAttribute('data-status', 'open');

  // right to fewer digits: a rounding slip, not the hint
  await c.getByRole('button', { name: 'Check', exact: true }).click();
  const slip = page.getByTestId('check-constant-mean-slip');
  await expect(slip).toHaveText('Close. This looks like a rounding slip: the question asks for six decimals, and your answer has two.');
  await expect(page.getByTestId('check-constant-mean-wrong')).not.toContainText('RMSNorm does not subtract');
  await expect(tag).toHaveText('Close');
  await expect(c).not.toContainText('✓');
  await page.screenshot({ path: `${SHOTS}/checks-slip-1280.png`, fullPage: false, clip: (await c.boundingBox())! });

  // the core's answer, shown at the question's precision, is accepted as typed
  await c.getByRole('button', { name: 'Show the core’s answer' }).click();
  await expect(page.getByTestId('check-constant-mean-answer')).toHaveText('1.000000');
  await expect(c).toContainText('The core computed 0.999999875: to six decimals, 1.000000.');

  // a pass remembered across a reload shows as passed, and a wrong try there takes it away
  await page.reload();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-values', 'ready', { timeout: 20_000 });
  await expect(tag).toHaveText('✓ Passed');
  await answer(page, 'constant-mean', '0.5');
  await expect(tag).toHaveText('✗ Not yet');
  await expect(c).not.toContainText('✓');
  await answer(page, 'constant-mean', '0.9999999');
  await expect(tag).toHaveText('✓ Right');
});

test('answers read off a rounded value are accepted: z = −1.2785 to three decimals as −1.279, the widget’s 1.3995 as 1.399 or 1.400', async ({ page }) => {
  await openStep(page, 'swiglu', 3);
  await answer(page, 'silu-argmin', '−1.279');
  await expect(page.getByTestId('check-silu-argmin-right')).toBeVisible();
  await answer(page, 'silu-argmin', '-1.278');
  await expect(page.getByTestId('check-silu-argmin-right')).toBeVisible();
  await answer(page, 'silu-argmin', '-1.28');
  await expect(page.getByTestId('check-silu-argmin-slip')).toContainText('asks for three decimals, and your answer has two');

  await openStep(page, 'rmsnorm', 7);
  for (const given of ['1.399', '1.400', '1.3995']) {
    await answer(page, 'sv-shear', given);
    await expect(page.getByTestId('check-sv-shear-right'), given).toBeVisible();
  }
  await answer(page, 'sv-shear', '1.397');
  await expect(page.getByTestId('check-sv-shear-slip')).toContainText('Check your last digit or two');
  await answer(page, 'sv-shear', '2.1');
  await expect(page.getByTestId('check-sv-shear-wrong')).toContainText('Not quite. Choose the shear in the widget');
});

test('phone width: the placeholder and a card in every state fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openStep(page, 'rmsnorm', 1);
  await expect(gateOf(page, 'rows-independent')).toBeVisible();
  await answer(page, 'r-seed', '2.5003');
  await expect(page.getByTestId('check-r-seed-slip')).toBeVisible();
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/checks-gate-390.png`, fullPage: true });
});
