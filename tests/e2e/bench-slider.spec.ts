// The smoke form of bench/browser/inspector.mjs: its slider steps and its drag
// (bench/browser/slider.mjs) against today's page, so the benchmark cannot
// break unseen when the inspector changes (the slider's label, the result
// line, the core time printed in it). Times are not judged here, only read.
import { expect, test } from '@playwright/test';
import { drag, inspectorAddress, slide } from '../../bench/browser/slider.mjs';
import { TEXT } from './threadsRuns';

test("the inspector benchmark's slider steps each get a new result and read its core time; its drag shows results", async ({ page }) => {
  await page.goto(inspectorAddress('./', TEXT));
  const line = page.getByTestId('inspector-loss');
  await expect(line).toContainText(/core [\d.]+ ms/, { timeout: 20_000 });
  await expect(line).toContainText('over 127 predictions'); // all 128 bytes ran
  const steps = [...(await slide(page, 3, 0)), ...(await slide(page, 2, 50))];
  expect(steps).toHaveLength(5);
  // each click landed on the value it aimed at, and the steps moved the slider
  for (const s of steps) expect(s.position).toBe(s.aimed);
  expect(new Set(steps.map((s) => s.position)).size).toBeGreaterThan(2);
  for (const s of steps) {
    expect(s.core).toBeGreaterThan(0);
    // the core's time is part of the wait from the input to the painted result
    expect(s.screen).toBeGreaterThanOrEqual(s.core);
  }
  // a drag across the slider in 1 s: results show while it lasts (a run of this model is far shorter)
  const d = await drag(page, 1000);
  expect(d.inputs).toBeGreaterThan(10);
  expect(d.during.length).toBeGreaterThan(0);
  // and the last result is for where it stopped
  const eps = (await page.getByTestId('model-eps-readout').textContent())!.trim();
  await expect(page.getByTestId('pred-current')).toContainText(`${eps} (now)`);
});
