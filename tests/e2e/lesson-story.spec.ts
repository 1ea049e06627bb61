// The lessons as a story (issue 15), walked in Chromium against the production
// build: the tour and every lesson of this path, from the lesson page to the end,
// at phone width (390 px) and, for the lessons without a walk of their own, at
// 1280 px; every check answered wrongly once and rightly once, a screenshot per
// step (build/screenshots/story-<slug>-<width>-N.png). Then the glossary: reached
// from a lesson's link and from the lesson path, and back to the step.
import { expect, test } from '@playwright/test';
import { SHOTS, lessonPath, openStep, stepShown, walkLesson } from './lessonWalk';
import { sideways } from './sideways';

/** Lessons whose own spec walks them at 1280 px (lessons.spec.ts, lesson-<slug>.spec.ts). */
const WALKED_AT_1280 = ['tensors-autograd', 'bytes-embeddings', 'attention', 'swiglu', 'logits-loss', 'training', 'residual-stream', 'rmsnorm'];
/** Written on other branches, with walks of their own there. */
const ELSEWHERE = ['rmsnorm', 'generation'];

const WIDTHS = { 1280: { width: 1280, height: 900 }, 390: { width: 390, height: 844 } } as const;

for (const slug of lessonPath().filter((s) => !ELSEWHERE.includes(s)))
  for (const width of [390, 1280] as const) {
    if (width === 1280 && WALKED_AT_1280.includes(slug)) continue;
    test(`walk ${slug} at ${width} px: every step, every check wrong then right, screenshots`, async ({ page }) => {
      // the training lesson trains its experiments' runs in the page
      test.setTimeout(slug === 'training' ? 900_000 : 300_000);
      await page.setViewportSize(WIDTHS[width]);
      await walkLesson(page, slug, `story-${slug}-${width}`, async () => {
        // nothing is wider than the screen: the page never scrolls sideways
        expect(await sideways(page), `${slug} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      }, 1);
    });
  }

test('the tour counts every parameter, draws every block, and follows your prompt', async ({ page }) => {
  await openStep(page, 'tour', 3);
  await page.getByTestId('prediction-gate').first().getByRole('button', { name: /^Show the/ }).click();
  const tour = page.getByTestId('widget-model-tour');
  await expect(tour.getByTestId('tour-summary')).toContainText('4 blocks, 918,656 parameters in all', { timeout: 20_000 });
  await expect(tour.locator('[data-testid^="tour-block-"]')).toHaveCount(4);
  await expect(tour.getByTestId('tour-stage-blocks.0.attn')).toContainText('65,536 parameters');
  await expect(tour.getByTestId('tour-stage-blocks.3.resid.ffn')).toContainText('no parameters');
  // a prompt of its own: the shapes follow it (5 bytes: “é” is two)
  await tour.getByTestId('tour-prompt').fill('abcé');
  await expect(tour.getByTestId('tour-stage-embed')).toContainText('(5, 128)');
  await expect(tour.getByTestId('tour-stage-logits')).toContainText('(5, 256)');
  await page.screenshot({ path: `${SHOTS}/story-tour-own-prompt.png`, fullPage: true });
  // an empty prompt is refused with a message; the last answer stays
  await tour.getByTestId('tour-prompt').fill('');
  await expect(tour.getByTestId('tour-error')).toContainText('at least one byte');
  await expect(tour.getByTestId('tour-stage-embed')).toBeVisible();
});

test('the glossary: from a lesson’s link to the term and back to the step; from the lesson path; an unknown term', async ({ page }) => {
  await openStep(page, 'attention', 1);
  const link = page.locator('a.md-glossary[data-glossary="embedding"]').first();
  await link.click();
  const glossary = page.getByTestId('glossary');
  await expect(glossary).toBeVisible();
  await expect(page).toHaveURL(/glossary=embedding/);
  await expect(page).toHaveURL(/lesson=attention&step=1/);
  const term = page.getByTestId('term-embedding');
  await expect(term).toHaveClass(/is-on/);
  await expect(term).toContainText('tok_emb.weight');
  await expect(term).toContainText('W_E');
  await expect(term).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/story-glossary.png` });
  await page.getByTestId('glossary-back').click();
  await stepShown(page, 1);
  await expect(page).toHaveURL(/lesson=attention&step=1/);
  await expect(page).not.toHaveURL(/glossary/);
  // the browser's Back returns to the glossary, Forward to the step
  await page.goBack();
  await expect(glossary).toBeVisible();
  await page.goForward();
  await stepShown(page, 1);

  await page.goto('./?view=lessons');
  await page.getByTestId('open-glossary').click();
  await expect(glossary).toBeVisible();
  await expect(page.getByTestId('glossary-back')).toHaveText(/lesson path/);
  await page.setViewportSize(WIDTHS[390]);
  await page.screenshot({ path: `${SHOTS}/story-glossary-390.png`, fullPage: true });
  await page.goto('./?view=lessons&glossary=no-such-term');
  await expect(page.getByTestId('glossary-unknown')).toContainText('no term “no-such-term”');
});
