// Shared by the lesson walks (one spec file per lesson): open a step, answer a
// step's checks with the core's own answer, and walk a whole lesson file.
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const SHOTS = 'build/screenshots';

/** The steps (## headings) and checks (```check blocks) a lesson file has, read from the file. */
export function lessonCounts(slug: string): { steps: number; checks: number } {
  const lines = readFileSync(`web/src/lessons/${slug}.md`, 'utf8').split('\n');
  return { steps: lines.filter((l) => l.startsWith('## ')).length, checks: lines.filter((l) => /^```check\s*$/.test(l)).length };
}

export async function openStep(page: Page, slug: string, step: number) {
  await page.goto(`./?view=lessons&lesson=${slug}&step=${step}`);
  await stepShown(page, step);
}

/**
 * The step is on screen and the core has answered its values and checks: only
 * then is the page settled enough to type into (steps without inline values
 * show nothing pending while their checks still wait).
 */
export async function stepShown(page: Page, step: number) {
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toHaveAttribute('data-step', String(step));
  await expect(lesson).not.toHaveAttribute('data-values', 'pending', { timeout: 20_000 });
  if ((await lesson.getAttribute('data-values')) !== 'ready')
    throw new Error(`step ${step}: the core did not answer the step's values: ${await page.locator('.lesson-error').textContent()}`);
}

/** Answers every check of the step: wrong first (refused), then the core's answer (accepted). */
export async function answerChecks(page: Page, minimum = 2) {
  const checks = page.locator('form.check-card');
  const count = await checks.count();
  expect(count).toBeGreaterThanOrEqual(minimum);
  for (let i = 0; i < count; i++) {
    const card = checks.nth(i);
    const id = (await card.getAttribute('data-testid'))!;
    await expect(card.locator('button[type=submit]')).toBeVisible();
    const radios = card.locator('input[type=radio]');
    if ((await radios.count()) > 0) {
      // choices: try each until one is right; the others must be refused
      let right = false;
      for (let r = 0; r < (await radios.count()); r++) {
        await radios.nth(r).check();
        await card.locator('button[type=submit]').click();
        if (await page.getByTestId(`${id}-right`).isVisible()) right = true;
        else await expect(page.getByTestId(`${id}-wrong`)).toBeVisible();
      }
      expect(right, id).toBe(true);
      continue;
    }
    const input = card.locator('input[type=text]');
    await input.fill('123456789');
    await expect(input).toHaveValue('123456789');
    await card.locator('button[type=submit]').click();
    await expect(page.getByTestId(`${id}-wrong`)).toBeVisible();
    await card.getByRole('button', { name: 'Show the core’s answer' }).click();
    const shown = await page.getByTestId(`${id}-answer`).textContent(); // (hints may hold live numbers too)
    await input.fill(shown!.trim());
    await card.locator('button[type=submit]').click();
    await expect(page.getByTestId(`${id}-right`), id).toBeVisible();
  }
}

/**
 * Walks a lesson from its card on the home page: on every step the live values
 * and code cells finish without errors, no widget name is unknown, `atStep`
 * exercises that step's widgets, every check is answered (at least `minChecks`
 * per step), and a full-page screenshot is saved as `${SHOTS}/${shotPrefix}-N.png`.
 * Ends on the home page, which must count every step as opened.
 */
export async function walkLesson(
  page: Page,
  slug: string,
  shotPrefix: string,
  atStep: (step: number) => Promise<void> = async () => {},
  minChecks = 2,
) {
  const { steps } = lessonCounts(slug);
  await page.goto('./?view=lessons');
  await page.getByTestId(`lesson-card-${slug}`).getByRole('button', { name: 'Start' }).click();
  for (let step = 1; step <= steps; step++) {
    await stepShown(page, step);
    await expect(page).toHaveURL(new RegExp(`lesson=${slug}&step=${step}`));
    await expect(page.locator('.md-live-pending')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.locator('.md-live-error')).toHaveCount(0);
    await expect(page.getByTestId('unknown-widget')).toHaveCount(0);
    for (const out of await page.getByTestId('code-output').all()) await expect(out).not.toHaveText('Running…', { timeout: 20_000 });
    await expect(page.locator('.code-cell-error')).toHaveCount(0);
    await atStep(step);
    await answerChecks(page, minChecks);
    await page.screenshot({ path: `${SHOTS}/${shotPrefix}-${step}.png`, fullPage: true });
    if (step < steps) {
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('ArrowRight');
    }
  }
  await page.getByRole('button', { name: 'Back to the lesson path' }).click();
  await expect(page.getByTestId(`progress-${slug}`)).toContainText(`${steps} of ${steps} steps opened`);
}
