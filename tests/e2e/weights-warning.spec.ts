// A weights file whose parameters hold NaN or infinite values loads (so the
// learner can look inside), and the inspector says so plainly, naming the
// parameters the core found (a few, then "and N more"). The files are made here
// from the shipped weights by poisoning tensors.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { SHOTS } from './lessonWalk';

const SHIPPED = readFileSync('public/weights/glass-kjv.safetensors');

/** The shipped file with `poison` values written into the start of each named float32 tensor. */
function poisoned(poison: Record<string, number[]>): Buffer {
  const bytes = Buffer.from(SHIPPED);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, { dtype: string; data_offsets: [number, number] }>;
  for (const [name, values] of Object.entries(poison)) {
    const t = header[name];
    expect(t?.dtype, name).toBe('F32');
    values.forEach((v, i) => bytes.writeFloatLE(v, 8 + headerLength + t.data_offsets[0] + 4 * i));
  }
  return bytes;
}

test('a weights file with NaN or infinite parameters loads with a plain warning naming them; the shipped model has none', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('./?view=inspector');
  await expect(page.getByTestId('inspector-loss')).toContainText(/\d/, { timeout: 30_000 });
  await expect(page.getByTestId('weights-non-finite')).toHaveCount(0);

  // one tensor: 3 of its values
  await page.getByTestId('weights-file').setInputFiles({
    name: 'poisoned.safetensors',
    mimeType: 'application/octet-stream',
    buffer: poisoned({ 'blocks.1.attn.wq.weight': [NaN, Infinity, -Infinity] }),
  });
  const warning = page.getByTestId('weights-non-finite');
  await expect(warning).toBeVisible({ timeout: 30_000 });
  await expect(warning).toContainText('1 parameter of these weights holds NaN or infinite values');
  await expect(warning.getByTestId('non-finite-param')).toHaveText(['W_q, attention queries, block 1 (blocks.1.attn.wq.weight): 3 of 16,384 values']);
  await expect(warning.getByTestId('non-finite-more')).toHaveCount(0);
  await expect(page.getByTestId('weights-ready')).toContainText('your file “poisoned.safetensors”');
  // the page stays usable: the inspector ran the model on them
  await expect(page.getByTestId('inspector-loss')).toBeVisible();
  await warning.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/weights-non-finite-1280.png` });

  // six tensors: four named, then "and 2 more"
  const six = ['tok_emb.weight', 'blocks.0.attn.wk.weight', 'blocks.0.ffn.w_up.weight', 'blocks.2.norm_attn.gamma', 'blocks.3.ffn.w_down.weight', 'head.weight'];
  await page.getByTestId('weights-file').setInputFiles({
    name: 'six.safetensors',
    mimeType: 'application/octet-stream',
    buffer: poisoned(Object.fromEntries(six.map((name) => [name, [NaN]]))),
  });
  await expect(page.getByTestId('weights-ready')).toContainText('your file “six.safetensors”', { timeout: 30_000 });
  await expect(warning).toContainText('6 parameters of these weights hold NaN or infinite values');
  await expect(warning.getByTestId('non-finite-param')).toHaveCount(4);
  await expect(warning.getByTestId('non-finite-more')).toHaveText('and 2 more');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('weights-ready').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/weights-non-finite-390.png`, fullPage: false });
  // the notice's text keeps a readable width beside its button
  expect((await page.getByTestId('weights-ready').locator('> span').first().boundingBox())!.width).toBeGreaterThan(150);

  // back to the shipped model: no warning
  await page.getByRole('button', { name: 'Back to the shipped model' }).click();
  await expect(page.getByTestId('weights-ready')).toContainText('glass-kjv.safetensors', { timeout: 30_000 });
  await expect(warning).toHaveCount(0);
});

test('a file the core refuses says why, and the shipped model is one click away', async ({ page }) => {
  await page.goto('./?view=inspector');
  await expect(page.getByTestId('inspector-loss')).toContainText(/\d/, { timeout: 30_000 });
  await page.getByTestId('weights-file').setInputFiles({ name: 'notes.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('not a weights file') });
  await expect(page.getByTestId('weights-error')).toContainText('The weights file was refused', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('weights-ready')).toContainText('glass-kjv.safetensors', { timeout: 30_000 });
});
