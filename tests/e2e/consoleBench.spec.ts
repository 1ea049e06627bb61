// glass.model.bench from the console: bounded arguments with clear messages,
// progress between chunks, cancellation, runs on another thread count, and
// the lab answering while it runs.
import { expect, test } from '@playwright/test';

test('glass.model.bench refuses bad arguments, reports progress and can be cancelled', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('./?view=lab');
  const refusals = await page.evaluate(async () => {
    const g = (globalThis as any).glass;
    const out: string[] = [];
    for (const [text, repeat] of [['ab', 1e9], ['ab', 0], ['ab', 2.5], ['ab', '20'], ['ab', NaN], ['', 3], [42, 3], ['x'.repeat(129), 3]] as const) {
      try {
        await g.model.bench(text, { repeat });
        out.push('accepted');
      } catch (e) {
        out.push(`${(e as Error).name}: ${(e as Error).message}`);
      }
    }
    return out;
  });
  expect(refusals).toEqual([
    'GlassError: glass.model.bench repeat: expected a whole number from 1 to 1000, got 1000000000',
    'GlassError: glass.model.bench repeat: expected a whole number from 1 to 1000, got 0',
    'GlassError: glass.model.bench repeat: expected a whole number, got the number 2.5',
    'GlassError: glass.model.bench repeat: expected a whole number, got the string "20"',
    'GlassError: glass.model.bench repeat: expected a whole number, got the number NaN',
    'GlassError: glass.model.bench(text, options): text must be a non-empty string, got an empty one',
    'GlassError: glass.model.bench text: expected a string, got the number 42',
    'GlassError: glass.model.bench: the text is 129 bytes; the model reads at most 128',
  ]);
  const r = await page.evaluate(async () => {
    const g = (globalThis as any).glass;
    const done = await g.model.bench('In the beginning', { repeat: 12, backward: false });
    const progress: number[] = [];
    const full = await g.model.bench('In the beginning', { repeat: 12, backward: false, onProgress: (d: number) => progress.push(d) });
    const stop = new AbortController();
    let cancelled = '';
    try {
      await g.model.bench('In the beginning', { repeat: 500, onProgress: (d: number) => d >= 10 && stop.abort(), signal: stop.signal });
    } catch (e) {
      cancelled = (e as Error).message;
    }
    return { n: done.length, full: full.length, progress, allPositive: full.every((t: number) => t > 0), cancelled };
  });
  expect(r).toEqual({ n: 12, full: 12, progress: [5, 10, 12], allPositive: true, cancelled: 'glass.model.bench: cancelled after 10 of 500 runs' });
  // another thread count for some runs only: within the core's limit it runs and the setting comes back;
  // past it, or of the wrong kind, it is refused with the reason
  const threads = await page.evaluate(async () => {
    const g = (globalThis as any).glass;
    const refuse = async (threads: unknown) => {
      try {
        await g.model.bench('ab', { repeat: 1, threads });
        return 'accepted';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    };
    const one = await g.model.bench('ab', { repeat: 2, threads: 1 });
    return { one: one.length, many: await refuse(99), half: await refuse(1.5), text: await refuse('2'), after: (await g.model.bench('ab', { repeat: 1 })).length };
  });
  expect(threads.one).toBe(2);
  expect(threads.many).toMatch(/^GlassError: setThreads: the thread count must be a whole number from 1 to \d+;.* got the number 99$/);
  expect(threads.half).toBe('GlassError: glass.model.bench threads: expected a whole number, got the number 1.5');
  expect(threads.text).toBe('GlassError: glass.model.bench threads: expected a whole number, got the string "2"');
  expect(threads.after).toBe(1);
  // the lab answered all along and still does
  await page.getByTestId('x-0').fill('6');
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '26');
});
