// Shared by the lesson walks (one spec file per lesson): open a step, answer a
// step's checks with the core's own answer, and walk a whole lesson file.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { stepId } from '../../web/src/lessons/parse';

export const SHOTS = 'build/screenshots';

/** The steps (## headings) and checks (```check blocks) a lesson file has, read from the file. */
export function lessonCounts(slug: string): { steps: number; checks: number } {
  const lines = readFileSync(`web/src/lessons/${slug}.md`, 'utf8').split('\n');
  return { steps: lines.filter((l) => l.startsWith('## ')).length, checks: lines.filter((l) => /^```check\s*$/.test(l)).length };
}

/** A lesson's step ids in order, as the app keeps progress by them (parse.ts stepId, from each ## title). */
export function lessonStepIds(slug: string): string[] {
  return readFileSync(`web/src/lessons/${slug}.md`, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('## '))
    .map((l) => stepId(l.slice(3).trim()));
}

/** The lesson path as the app orders it (web/src/lessons/index.ts): by `order`, then slug. Lesson N on the page is path[N - 1]. */
export function lessonPath(): string[] {
  return readdirSync('web/src/lessons')
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ slug: f.replace(/\.md$/, ''), order: Number(/^order: *(\S+)$/m.exec(readFileSync(`web/src/lessons/${f}`, 'utf8'))?.[1] ?? 1e9) }))
    .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug))
    .map((l) => l.slug);
}

/** The number the lesson path shows for a lesson ("Lesson 3"). */
export const lessonNumber = (slug: string) => lessonPath().indexOf(slug) + 1;

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

/**
 * Opens a lesson from its card on the lesson path, whatever the card's button
 * is called in full ("Start", "Start lesson 2: …") or whether it is a link.
 */
export async function startLesson(page: Page, slug: string) {
  const card = page.getByTestId(`lesson-card-${slug}`);
  await card.getByRole('button', { name: /^Start/ }).or(card.getByRole('link', { name: /^Start/ })).first().click();
}

/** The placeholder of what a prediction still hides (nothing once it is answered). */
export const gateOf = (page: Page, checkId: string) => page.locator(`[data-testid="prediction-gate"][data-checks~="${checkId}"]`);

/** Shows everything the step's predictions hide, as a learner who gives up would. */
export async function showHidden(page: Page) {
  const gates = page.getByTestId('prediction-gate');
  while ((await gates.count()) > 0) await gates.first().getByRole('button', { name: /^Show the/ }).click();
}

/**
 * Answers every check of the step: wrong first (refused), then the core's answer
 * (accepted). A prediction's hidden widget or cell waits until it is answered;
 * a right answer's tick and a later wrong try are never shown together.
 */
export async function answerChecks(page: Page, minimum = 2) {
  const checks = page.locator('form.check-card');
  const count = await checks.count();
  expect(count).toBeGreaterThanOrEqual(minimum);
  for (let i = 0; i < count; i++) {
    const card = checks.nth(i);
    const id = (await card.getAttribute('data-testid'))!;
    const checkId = id.replace(/^check-/, '');
    const hides = (await card.getAttribute('data-hides'))?.split(' ') ?? [];
    if (hides.length > 0 && (await card.getAttribute('data-passed')) === 'no') {
      await expect(gateOf(page, checkId), `${id} hides ${hides.join(' and ')} until answered`).toHaveCount(hides.length);
      for (const gate of await gateOf(page, checkId).all()) await expect(gate).toBeVisible();
    }
    await expect(card.locator('button[type=submit]')).toBeVisible();
    const tag = page.getByTestId(`${id}-tag`);
    const radios = card.locator('input[type=radio]');
    if ((await radios.count()) > 0) {
      // choices: try each; the wrong ones are refused, the right one ticks, and a wrong try after it takes the tick away
      let right = -1;
      for (let r = 0; r < (await radios.count()); r++) {
        await radios.nth(r).check();
        await card.locator('button[type=submit]').click();
        await expect(card).toHaveAttribute('data-status', /^(right|wrong)$/);
        if ((await card.getAttribute('data-status')) === 'right') {
          right = r;
          await expect(tag).toHaveText('✓ Right');
          continue;
        }
        await expect(page.getByTestId(`${id}-wrong`)).toBeVisible();
        await expect(tag).toHaveText('✗ Not yet');
        await expect(page.getByTestId(`${id}-right`)).toHaveCount(0);
      }
      expect(right, id).toBeGreaterThanOrEqual(0);
      await radios.nth(right).check();
      await card.locator('button[type=submit]').click();
    } else {
      const input = card.locator('input[type=text]');
      await input.fill('123456789');
      await expect(input).toHaveValue('123456789');
      await card.locator('button[type=submit]').click();
      await expect(page.getByTestId(`${id}-wrong`)).toBeVisible();
      await card.getByRole('button', { name: 'Show the core’s answer' }).click();
      const shown = await page.getByTestId(`${id}-answer`).textContent(); // (hints may hold live numbers too)
      await input.fill(shown!.trim());
      await card.locator('button[type=submit]').click();
    }
    await expect(page.getByTestId(`${id}-right`), id).toBeVisible();
    await expect(tag).toHaveText('✓ Right');
    await expect(gateOf(page, checkId), `${id}: answered, nothing waits for it`).toHaveCount(0);
  }
}

/**
 * Trains every experiment of the step that has not run yet (its checks are
 * answered from the runs) and waits for both of its runs to end.
 */
export async function runExperiments(page: Page) {
  for (const widget of await page.getByTestId('widget-train-experiment').all()) {
    if ((await widget.getAttribute('data-state')) === 'done') continue;
    await widget.getByTestId('te-start').click();
    await expect(widget).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  }
}

/**
 * Walks a lesson from its card on the home page: on every step the live values
 * and code cells finish without errors, no widget name is unknown, every check is
 * answered (at least `minChecks` per step; predictions first, so what they hide
 * is shown), `atStep` exercises that step's widgets, and a full-page screenshot
 * is saved as `${SHOTS}/${shotPrefix}-N.png`.
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
  await startLesson(page, slug);
  for (let step = 1; step <= steps; step++) {
    await stepShown(page, step);
    await expect(page).toHaveURL(new RegExp(`lesson=${slug}&step=${step}`));
    await expect(page.locator('.md-live-pending')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.locator('.md-live-error')).toHaveCount(0);
    await expect(page.getByTestId('unknown-widget')).toHaveCount(0);
    await runExperiments(page);
    await answerChecks(page, minChecks);
    // the cells a prediction hid run once shown
    for (const out of await page.getByTestId('code-output').all()) await expect(out).not.toHaveText('Running…', { timeout: 20_000 });
    await expect(page.locator('.code-cell-error')).toHaveCount(0);
    await atStep(step);
    await page.screenshot({ path: `${SHOTS}/${shotPrefix}-${step}.png`, fullPage: true });
    if (step < steps) {
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('ArrowRight');
    }
  }
  await page.getByRole('button', { name: 'Back to the lesson path' }).click();
  await expect(page.getByTestId(`progress-${slug}`)).toContainText(`${steps} of ${steps} steps opened`);
}

/** Text written for developers, not learners: file paths, "seed lesson". */
const DEVELOPER = [/\bweb\/src\b/i, /\bcpp\/glass\b/i, /\bseed lesson/i, /\bseed example\b/i, /\bthe seed['’]s\b/i, /\bDESIGN\.md\b/, /\b[\w-]+\.(tsx|cpp|md)\b/];
/** Widgets without a plot or table of their own. */
const NO_PLOT = new Set(['widget-inspector-tour', 'widget-references']);
/** Diagrams whose notice is the prose right under them. */
const NOTICE_IN_PROSE = new Set(['widget-block-diagram', 'widget-autograd-graph']);

/**
 * What a learner reads on the step on screen, with everything a prediction hid
 * shown: no text written for developers, and every plot and table with a line
 * of what to notice (inside the widget, or in the prose right under a diagram).
 */
export async function expectLearnerText(page: Page, at: string) {
  await showHidden(page);
  const lesson = page.getByTestId('lesson');
  const text = (await lesson.textContent()) ?? '';
  for (const re of DEVELOPER) expect(text.match(re)?.[0] ?? null, `${at}: ${re}`).toBeNull();
  for (const widget of await lesson.locator('[data-testid^="widget-"]').all()) {
    const id = (await widget.getAttribute('data-testid'))!;
    if (NO_PLOT.has(id)) continue;
    if (NOTICE_IN_PROSE.has(id)) {
      // what comes right after the diagram starts with "Notice:"
      await expect(page.locator(`[data-testid="${id}"] + *`).first(), `${at}: ${id}`).toContainText(/^\s*Notice:/);
      continue;
    }
    await expect(widget.locator('.to-notice').first(), `${at}: ${id}`).toBeVisible({ timeout: 20_000 });
  }
}
