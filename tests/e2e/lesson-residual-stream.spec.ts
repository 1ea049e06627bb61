// The residual-stream lesson walked in Chromium against the production build
// (screenshots build/screenshots/lesson-residual-stream-N.png), its widgets
// answered by the worker's core on the learner's own prompt, and checks answered
// the way a learner would: from the numbers a widget shows, after typing a prompt
// of their own. Also the RMSNorm lesson's I + J_F step on the real model.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, openStep, showHidden, stepShown, walkLesson } from './lessonWalk';

const OWN = 'The LORD is my shepherd; I shall not want.';

const valueOf = async (page: Page, testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));

/** Types an answer into a check and expects it judged right. */
async function answer(page: Page, checkId: string, text: string) {
  const card = page.getByTestId(`check-${checkId}`);
  await card.locator('input[type=text]').fill(text);
  await card.locator('button[type=submit]').click();
  await expect(page.getByTestId(`check-${checkId}-right`), `${checkId}: ${text}`).toBeVisible();
}

/** Types a prompt into a widget's prompt field and waits for the step's values to follow it. */
async function typePrompt(page: Page, field: string, text: string, step: number) {
  await page.getByTestId(field).fill(text);
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-values', 'pending');
  await stepShown(page, step);
}

async function ledger(page: Page) {
  const table = page.getByTestId('ledger-table');
  await expect(table.locator('tbody tr')).toHaveCount(9, { timeout: 20_000 });
  // the sum check, live: exact in float32 (the same additions in the same order), tiny in float64
  await expect(page.getByTestId('ledger-sum').locator('.num')).toHaveText('0');
  await page.getByRole('button', { name: 'float64' }).click();
  await expect(page.getByTestId('ledger-sum')).toContainText('added in float64');
  expect(await page.getByTestId('ledger-sum').locator('.num').getAttribute('data-value').then(Number)).toBeLessThanOrEqual(1e-12);
  // one position: the shares change, the parts stay nine
  const all = await table.locator('tbody tr').last().textContent();
  await page.getByTestId('ledger-position').selectOption('3');
  await expect(table.locator('tbody tr').last()).not.toHaveText(all!);
  await expect(page.getByTestId('ledger-notice')).toContainText('at position 3');
}

async function lens(page: Page) {
  const table = page.getByTestId('lens-table');
  await expect(table.locator('tbody tr')).toHaveCount(9, { timeout: 20_000 });
  await expect(page.getByTestId('lens-check').locator('.num')).toHaveText('0');
  await expect(table.locator('tbody tr').last()).toContainText('(the model)');
  // another position: the byte it should predict changes
  await page.getByTestId('lens-position').selectOption('0');
  await expect(page.getByTestId('widget-logit-lens').locator('.widget-lead')).toContainText('after position 0 “I”');
}

async function heads(page: Page) {
  await expect(page.getByTestId('heads-table').locator('tbody tr')).toHaveCount(16, { timeout: 20_000 });
  await expect(page.getByTestId('pattern-map')).toBeVisible();
  await page.getByTestId('heads-row-2-3').click();
  await expect(page.getByTestId('widget-head-patterns').locator('.widget-lead')).toContainText('Head 3 of block 2');
  await expect(page.getByTestId('heads-notice')).toContainText('in block 2');
}

async function ablations(page: Page) {
  await expect(page.getByTestId('ablation-heads').locator('tbody tr')).toHaveCount(16, { timeout: 20_000 });
  await expect(page.getByTestId('ablation-blocks').locator('tbody tr')).toHaveCount(4);
  await expect(page.getByTestId('ablation-branches').locator('tbody tr')).toHaveCount(8);
  // a prompt with no next byte is refused in words; the last table stays, dimmed
  await page.getByTestId('ablation-prompt').fill('A');
  await expect(page.getByTestId('ablation-error')).toContainText('at least two bytes');
  await expect(page.getByTestId('ablation-blocks')).toBeVisible();
  await page.getByRole('button', { name: 'a verse', exact: true }).click();
  await expect(page.getByTestId('ablation-error')).toHaveCount(0);
}

test('walk the residual-stream lesson: widgets answered by the core, checks, screenshots', async ({ page }) => {
  test.setTimeout(300_000);
  await walkLesson(
    page,
    'residual-stream',
    'lesson-residual-stream',
    async (step) => {
      if (step === 2) await ledger(page);
      if (step === 3) await lens(page);
      if (step === 4) await heads(page);
      if (step === 5) await ablations(page);
    },
    1,
  );
});

test('checks on your own prompt, answered from the numbers the widgets show', async ({ page }) => {
  test.setTimeout(180_000);
  // ablations: the block whose removal costs the most, read off the table after typing a prompt
  await openStep(page, 'residual-stream', 5);
  await showHidden(page);
  await typePrompt(page, 'ablation-prompt', OWN, 5);
  const worst = page.getByTestId('ablation-blocks').locator('tbody tr.is-on th');
  await expect(worst).toHaveText(/^block \d$/, { timeout: 20_000 });
  const block = (await worst.textContent())!.replace('block ', '');
  await answer(page, 'ablate-block', block);
  const cost = Number((await page.getByTestId('ablation-blocks').locator('tbody tr.is-on td[data-value]').getAttribute('data-value'))!);
  await answer(page, 'ablate-cost', cost.toPrecision(3));
  await page.screenshot({ path: `${SHOTS}/lesson-residual-stream-own-prompt.png`, fullPage: true });

  // the prompt is the learner's everywhere: the heads step opens on it
  await openStep(page, 'residual-stream', 4);
  await showHidden(page);
  await expect(page.getByTestId('heads-prompt')).toHaveValue(OWN);
  await expect(page.getByTestId('check-heads-which')).toContainText('which head of block 1');
  const previous = await Promise.all([0, 1, 2, 3].map((h) => valueOf(page, `heads-prev-1-${h}`)));
  await answer(page, 'heads-which', String(previous.indexOf(Math.max(...previous))));

  // the lens: count the depths that have the right byte in their top 5
  await openStep(page, 'residual-stream', 3);
  await showHidden(page);
  const ranks = await page.getByTestId('lens-table').locator('tbody tr td:nth-child(4)').allTextContents();
  expect(ranks).toHaveLength(9);
  await answer(page, 'lens-hits', String(ranks.filter((r) => /^\d$/.test(r.trim())).length));
});

test("the RMSNorm lesson's I + J_F on the real model: the gradient at the embedding by route, on your prompt", async ({ page }) => {
  test.setTimeout(120_000);
  await openStep(page, 'rmsnorm', 7);
  // the toy is still there, behind its own prediction
  const toy = page.getByTestId('check-depth-compounds');
  await toy.getByLabel('no, it grows far beyond 1').check();
  await toy.locator('button[type=submit]').click();
  await expect(page.getByTestId('widget-gradient-path')).toBeVisible();
  // a misconception first: the route table waits for the answer
  const card = page.getByTestId('check-grad-path-alone');
  await card.getByLabel('no, most comes through the branches').check();
  await card.locator('button[type=submit]').click();
  await expect(page.getByTestId('check-grad-path-alone-right')).toBeVisible();
  const table = page.getByTestId('gradient-ledger-table');
  await expect(table.locator('tbody tr')).toHaveCount(9, { timeout: 20_000 });
  await expect(table.locator('tbody tr').first()).toContainText('the residual path alone');
  // the routes add up to the gradient, live (float32 rounding at most)
  expect(await page.getByTestId('gradient-ledger-sum').locator('.num').getAttribute('data-value').then(Number)).toBeLessThan(1e-6);
  // on the learner's own prompt: the ratio read off the widget is the check's answer
  await typePrompt(page, 'gradient-ledger-prompt', OWN, 7);
  await expect(table.locator('tbody tr')).toHaveCount(9);
  const ratio = (await valueOf(page, 'gradient-term-0')) / (await valueOf(page, 'gradient-ledger-norm'));
  await answer(page, 'grad-path-ratio', ratio.toPrecision(2));
  const terms = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => valueOf(page, `gradient-term-${i}`)));
  await answer(page, 'grad-branch-block', String(Math.floor(terms.indexOf(Math.max(...terms)) / 2)));
  await page.screenshot({ path: `${SHOTS}/lesson-rmsnorm-ijf.png`, fullPage: true });
});
