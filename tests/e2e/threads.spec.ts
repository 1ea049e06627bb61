// The threaded core in a cross-origin isolated page (`vite preview` sends the
// COOP/COEP headers, security.config.ts): the page names its build and threads
// in the footer, the learner can choose fewer, and every thread count gives the
// same bits as one thread and as the single-threaded build (served without the
// headers on the second port, playwright.config.ts).
import { axe } from './axe';
import { expect, test } from '@playwright/test';
import { PLAIN_PORT } from '../../playwright.config';
import { differences, runsAt } from './threadsRuns';
import { sideways } from './sideways';

const SHOTS = 'build/screenshots';

test('the isolated page runs the threaded core, names it, and keeps a choice of fewer threads', async ({ page }) => {
  await page.goto('./?view=lab');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const line = page.getByTestId('threads-line');
  await expect(line.locator('summary')).toHaveText(`Core: threaded, ${cores} thread${cores === 1 ? '' : 's'}`);
  await line.locator('summary').click();
  await expect(line).toContainText('This page is cross-origin isolated');
  await expect(line).toContainText(`your device reports ${cores} core`);
  const choice = page.getByTestId('threads-choice');
  await expect(choice).toHaveValue('all');
  await expect(choice.locator('option')).toHaveCount(cores + 1);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await line.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/threads-line-${width}.png`, fullPage: true });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
  }
  const found = await axe(page).include('[data-testid=threads-line]').analyze();
  expect(found.violations).toEqual([]);

  // fewer threads: kept across a reload, and the core reloads with them
  await choice.selectOption('1');
  expect(await page.evaluate(() => localStorage.getItem('glassllm.threads'))).toBe('1');
  await page.reload();
  await expect(line.locator('summary')).toHaveText('Core: threaded, 1 thread');
  await line.locator('summary').click();
  await expect(choice).toHaveValue('1');
  await choice.selectOption('all');
  await page.reload();
  await expect(line.locator('summary')).toHaveText(`Core: threaded, ${cores} thread${cores === 1 ? '' : 's'}`);
});

test('1, 2 and 3 threads and the single-threaded build give the same bits: the inspector\'s run and 20 training steps', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const one = await runsAt(page, `${baseURL}?view=lab`, 1);
  expect(one.isolated).toBe(true);
  expect(one.line).toBe('Core: threaded, 1 thread');
  expect(one.losses).toHaveLength(20);
  expect(Object.keys(one.tensors).length).toBeGreaterThan(50);
  for (const n of [2, 3]) {
    const r = await runsAt(page, `${baseURL}?view=lab`, n);
    expect(r.line).toBe(`Core: threaded, ${n} threads`);
    expect(differences(one, r), `${n} threads against 1`).toEqual([]);
  }
  const plain = await runsAt(page, `http://127.0.0.1:${PLAIN_PORT}/?view=lab`, null);
  expect(plain.isolated).toBe(false);
  expect(plain.line).toBe('Core: single-threaded');
  expect(differences(one, plain), 'the single-threaded build against the threaded one on 1 thread').toEqual([]);
  // the comparison can fail: another seed's run differs
  expect(differences(one, { ...one, losses: one.losses.map((l, i) => (i === 19 ? l + 2 ** -20 : l)) })).toHaveLength(1);
});

test('runs that train at the same time share the threads: half each while both train, all of them for a run alone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./');
  await page.waitForFunction(() => 'glass' in globalThis);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const tiny = { blocks: 2, d: 32, heads: 2, ctx: 32 };
  const text = Array.from({ length: 80 }, (_, i) => `In the beginning ${i} God created the heaven and the earth. `).join('');
  const r = await page.evaluate(
    async ({ tiny, text }) => {
      const g = (globalThis as any).glass;
      const alone = await g.train.run({ text, config: tiny, steps: 80, batch: 4 });
      // the long run starts first; the short one trains beside it, then the long one trains alone again
      const [long, short] = await Promise.all([
        g.train.run({ text, config: { ...tiny, blocks: 4 }, steps: 400, batch: 8 }),
        g.train.run({ text, config: tiny, steps: 80, batch: 4 }),
      ]);
      return { alone: alone.threads, long: long.threads, short: short.threads, shortLosses: short.losses, aloneLosses: alone.losses };
    },
    { tiny, text },
  );
  const first = Math.ceil(cores / 2), second = Math.max(1, Math.floor(cores / 2));
  expect(r.alone).toEqual(Array(80).fill(cores));
  expect(r.short).toEqual(Array(80).fill(second));
  // the long one trained on its share beside the short one (after its first slice of steps, begun before it
  // read its new share), then, once the short one ended, on all of them again
  expect(r.long).toContain(first);
  expect(r.long.at(-1)).toBe(cores);
  expect(r.shortLosses).toEqual(r.aloneLosses); // the share changes the time, never a number
});
