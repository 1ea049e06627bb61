// window.glass in the built page: arguments of the wrong kind get a message
// saying what was expected (never Embind's internals, never a coerced value),
// and the console and the page keep working afterwards. The full table of
// kinds runs in Vitest (tests/web/badInput.test.ts); this checks the same
// layer is what the browser's console gets.
import { expect, test } from '@playwright/test';

test('window.glass refuses wrong kinds by name and keeps working', async ({ page }) => {
  await page.goto('./?view=lab');
  const r = await page.evaluate(async () => {
    const g = (window as unknown as { glass: any }).glass;
    const message = async (fn: () => unknown) => {
      try {
        await fn();
        return 'no error';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    };
    const noText = await message(() => g.model.run());
    await g.ready;
    const out = {
      noText,
      halfAxis: await message(() => g.scope(() => g.zeros([2, 3]).softmax(0.5))),
      hugeAxis: await message(() => g.scope(() => g.zeros([2, 3]).sum(2 ** 32))),
      stringShape: await message(() => g.scope(() => g.zeros('3'))),
      notTensor: await message(() => g.scope(() => g.zeros([2]).matmul(undefined))),
      rawAxis: await message(() => {
        const t = g.raw.zeros([2, 3], 'float32');
        try {
          return g.raw.transpose(t, '0', 1);
        } finally {
          t.delete();
        }
      }),
      afterwards: g.scope(() => Array.from(g.zeros([2]).add(1).data() as Float32Array)),
      run: (await g.model.run('In the beginning', { backward: false })).loss,
      live: g.liveHandles(),
    };
    return out;
  });
  expect(r.noText).toBe('GlassError: glass.model.run text: expected a string, got undefined');
  expect(r.halfAxis).toBe('GlassError: softmax axis: expected a whole number from -2147483648 to 2147483647, got the number 0.5');
  expect(r.hugeAxis).toBe('GlassError: sum axis: expected a whole number from -2147483648 to 2147483647, got the number 4294967296');
  expect(r.stringShape).toBe('GlassError: zeros shape: expected an array of whole numbers, got the string "3"');
  expect(r.notTensor).toBe('GlassError: matmul other: expected a Tensor, got undefined');
  expect(r.rawAxis).toBe('Error: transpose axis0: expected a whole number from -2147483648 to 2147483647, got the string "0"');
  expect(r.afterwards).toEqual([1, 1]);
  expect(r.run).toBeGreaterThan(0);
  expect(r.live).toBe(0);
  // the page itself still computes (in its worker)
  await expect(page.getByTestId('seed-a-float64')).toHaveText('[[0.848528, 1.131371]]');
});
