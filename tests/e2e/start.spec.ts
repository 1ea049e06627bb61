// A learner's first contact: `/` is the start page (not the lab), its one clear
// way in is lesson 1, it later offers to continue where the learner left off,
// the lab and inspector are one click away, the lesson cards' buttons have
// distinct names, a finished lesson says so, and nothing on the site is a 404.
import { expect, test, type Page } from '@playwright/test';
import { SHOTS, lessonCounts, lessonNumber, lessonPath, lessonStepIds, stepShown } from './lessonWalk';

const allSeen = (slug: string) => Array.from({ length: lessonCounts(slug).steps }, (_, i) => i);
/** The first lesson of the path (the tour). */
const FIRST = lessonPath()[0];

/**
 * Stores progress given by step numbers: as the app keeps it (version 2, step
 * ids), or as it kept it before (version 1, the numbers themselves), which the
 * app reads as today's steps.
 */
async function setProgress(page: Page, lessons: Record<string, { seen: number[]; passed?: string[]; last: number; time: number }>, version: 1 | 2 = 2) {
  const entries = Object.entries(lessons).map(([slug, v]) => {
    const ids = lessonStepIds(slug);
    return [slug, version === 1 ? { passed: [], ...v } : { passed: [], ...v, seen: v.seen.map((i) => ids[i]), last: ids[v.last] }];
  });
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [`glassllm.lessons.v${version}`, JSON.stringify({ version, lessons: Object.fromEntries(entries) })],
  );
}

test('the start page: what GlassLLM is, start with lesson 1, then continue where you left off', async ({ page }) => {
  await page.goto('./');
  const startPage = page.getByTestId('start-page');
  await expect(startPage).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('start-continue')).toHaveCount(0); // nothing to continue on a first visit
  await page.screenshot({ path: `${SHOTS}/start.png`, fullPage: true });

  // the lab and the inspector are offered, and the lab is one click away
  await expect(startPage.getByRole('link', { name: 'Inspector' })).toBeVisible();
  await startPage.getByRole('link', { name: 'RMSNorm lab' }).click();
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await expect(page).toHaveURL(/view=lab/);
  await page.goBack();
  await expect(startPage).toBeVisible();

  // the one clear way in: lesson 1 (the first lesson of the path), step 1
  await page.getByTestId('start-first').click();
  await stepShown(page, 1);
  await expect(page).toHaveURL(new RegExp(`lesson=${FIRST}&step=1`));
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await stepShown(page, 2);

  // back on the start page: continue at lesson 1, step 2
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Start', exact: true }).click();
  const resume = page.getByTestId('start-continue');
  await expect(resume).toHaveText(/lesson 1, step 2/);
  await expect(page.getByTestId(`start-lesson-${FIRST}`)).toContainText('2 of');
  await page.screenshot({ path: `${SHOTS}/start-continue.png`, fullPage: true });
  await resume.click();
  await stepShown(page, 2);
  await expect(page).toHaveURL(new RegExp(`lesson=${FIRST}&step=2`));
});

test('continue goes to the lesson opened last; once it is finished, to the next unfinished one', async ({ page }) => {
  await page.goto('./');
  // kept by step numbers, as before step ids: read as today's steps
  await setProgress(page, {
    'tensors-autograd': { seen: [0, 1], last: 1, time: 1000 },
    rmsnorm: { seen: [0, 1, 2], last: 2, time: 2000 },
  }, 1);
  await page.reload();
  await expect(page.getByTestId('start-continue')).toHaveText(new RegExp(`lesson ${lessonNumber('rmsnorm')}, step 3`));
  await setProgress(page, {
    'tensors-autograd': { seen: [0, 1], last: 1, time: 1000 },
    rmsnorm: { seen: allSeen('rmsnorm'), last: 7, time: 2000 },
  });
  await page.reload();
  // the next lesson on the path after the finished one (tensors and autograd resumes at its step 2)
  const path = lessonPath();
  const after = path[(path.indexOf('rmsnorm') + 1) % path.length];
  await expect(page.getByTestId('start-continue')).toHaveText(new RegExp(`lesson ${lessonNumber(after)}, step ${after === 'tensors-autograd' ? 2 : 1}`));
  await expect(page.getByTestId('start-lesson-rmsnorm')).toContainText('completed');
});

test('the lesson cards: titles are links, every button has its own accessible name', async ({ page }) => {
  await page.goto('./?view=lessons');
  await setProgress(page, { rmsnorm: { seen: [0, 1], last: 1, time: 5 }, attention: { seen: allSeen('attention'), last: 0, time: 4 } });
  await page.reload();
  const path = page.getByTestId('lesson-path');
  await expect(path).toBeVisible();
  const names = await path.getByRole('button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent!.trim()));
  expect(names.length).toBe(lessonPath().length + 2); // one per lesson (start, continue or review), two resets
  expect(new Set(names).size, names.join(' | ')).toBe(names.length);
  // each accessible name starts with the words on the button (what a voice-control user says)
  for (const b of await path.getByRole('button').all()) {
    const label = await b.getAttribute('aria-label');
    if (label !== null) expect(label.startsWith((await b.textContent())!.trim()), label).toBe(true);
  }
  await path.getByRole('heading', { level: 2 }).getByRole('link', { name: 'RMSNorm, pre-norm and residuals' }).click();
  await stepShown(page, 2); // a started lesson's title link resumes where the learner was
  await expect(page).toHaveURL(/lesson=rmsnorm&step=2/);
});

test('a finished lesson says so: completed, a recap, a link to the next lesson', async ({ page }) => {
  const steps = lessonCounts('rmsnorm').steps;
  await page.goto(`./?view=lessons&lesson=rmsnorm&step=${steps}`);
  await stepShown(page, steps);
  // reached by deep link: the last step names the steps not opened yet
  await expect(page.getByTestId('lesson-unfinished')).toContainText('1, 2, 3');
  await expect(page.getByTestId('lesson-done-rmsnorm')).toHaveCount(0);
  await setProgress(page, { rmsnorm: { seen: allSeen('rmsnorm'), last: steps - 1, time: 9 } });
  await page.reload();
  await stepShown(page, steps);
  const done = page.getByTestId('lesson-done-rmsnorm');
  await expect(done).toContainText('Lesson completed');
  await expect(done.locator('.lesson-done-recap')).not.toBeEmpty();
  await page.screenshot({ path: `${SHOTS}/lesson-done.png`, fullPage: true });

  await page.getByRole('button', { name: 'Back to the lesson path' }).click();
  const card = page.getByTestId('lesson-card-rmsnorm');
  await expect(card.getByTestId('lesson-done-rmsnorm')).toContainText('Lesson completed');
  await expect(card).not.toContainText('Continue at step');
  await expect(card.getByRole('button', { name: /^Review from step 1/ })).toBeVisible();
  const next = lessonPath()[lessonNumber('rmsnorm')];
  await card.getByRole('link', { name: new RegExp(`^Lesson ${lessonNumber(next)}: `) }).click();
  await stepShown(page, 1);
  await expect(page).toHaveURL(new RegExp(`lesson=${next}&step=1`));
});

test('no request on any view fails', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  for (const view of ['', '?view=lessons', '?view=lab', '?view=inspector', '?view=lessons&lesson=rmsnorm&step=1']) {
    await page.goto(`./${view}`);
    await page.waitForLoadState('networkidle');
  }
  // the icon is inside the page (a data: URL; quiet-steps.spec.ts): no request of its own to fail
  expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
  expect(failed).toEqual([]);
});
