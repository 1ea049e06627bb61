// Training in the browser's own worker, without the Train view: the console API
// (glass.train.run) on the shipped KJV excerpt, fetched only when such a run
// starts; and the trainer worker of the production build keeping a checkpoint in
// IndexedDB that a fresh worker (as after a reload) resumes exactly.
import { expect, test } from '@playwright/test';

const TOTAL = 400; // steps of the resumed run
const TINY = { blocks: 2, d: 32, heads: 2, ctx: 32, norm: 'pre', normKind: 'rms', residual: true, eps: 1e-6, initScale: 'depth', dtype: 'float32' };

test('glass.train.run trains on the KJV excerpt, fetched only then, and resolves to losses, gradient norms and the held-out loss', async ({ page }) => {
  const excerptRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/data/kjv-excerpt.txt')) excerptRequests.push(r.url());
  });
  await page.goto('./');
  await page.waitForFunction(() => 'glass' in globalThis);
  await page.waitForTimeout(300);
  expect(excerptRequests).toEqual([]); // the start page does not fetch it
  const r = await page.evaluate((config) => (globalThis as any).glass.train.run({ config, steps: 6, batch: 4, seed: 3 }), TINY);
  expect(excerptRequests).toHaveLength(1);
  expect(r.losses).toHaveLength(6);
  expect(r.losses[0]).toBeCloseTo(Math.log(256), 1);
  expect(r.gradNorms.every((g: number[]) => g.length === 2 && g.every((x) => x > 0))).toBe(true);
  expect(r.valLoss).toBeGreaterThan(0);
  expect(r.residRms[0]).toHaveLength(3);
  const refused = await page.evaluate(() => (globalThis as any).glass.train.run({ text: 'too short', steps: 2 }).then(() => 'resolved', (e: Error) => e.message));
  expect(refused).toMatch(/^the text is 9 bytes; with a context of 64 bytes training needs at least \d+/);
});

test('a trainer worker keeps a checkpoint in IndexedDB and a fresh worker (as after a reload) resumes it exactly', async ({ page }) => {
  await page.goto('./');
  await page.waitForFunction(() => 'glass' in globalThis);
  // a console run loads the trainer worker's script: take its URL from the resource timings
  await page.evaluate((config) => (globalThis as any).glass.train.run({ config, steps: 1, batch: 2 }), TINY);
  const workerUrl = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/assets\/main-[^/]+\.js$/.test(n)));
  expect(workerUrl).toBeTruthy();

  const result = await page.evaluate(
    async ({ url, config, TOTAL }) => {
      type Ev = { type: string; step?: number; report?: { step: number; loss: number }; reports?: unknown[] };
      const text = Array.from({ length: 80 }, (_, i) => `In the beginning ${i} God created the heaven and the earth. `).join('');
      const spec = { run: 'e2e-resume', config, train: { steps: TOTAL, batch: 4, lr: 3e-3, warmup: 2, clip: 1, weightDecay: 0.1, seed: 5, evalEvery: 4, sampleEvery: 0, sampleLength: 10 }, data: { kind: 'text', text, label: 'text' }, init: { kind: 'scratch' } };
      // a worker that gets `command` once its core is ready, and is terminated at the first event `until` accepts
      // (and sent `pause` at the first event `pauseAt` accepts: no checkpoint is written after it is paused)
      const run = (command: unknown, until: (e: Ev) => boolean, pauseAt: (e: Ev) => boolean = () => false) =>
        new Promise<Ev[]>((resolve) => {
          const w = new Worker(url, { type: 'module' });
          const events: Ev[] = [];
          let pausing = false;
          w.onmessage = (m) => {
            events.push(m.data);
            if (m.data.type === 'ready') w.postMessage(command);
            if (!pausing && pauseAt(m.data)) {
              pausing = true;
              w.postMessage({ type: 'pause' });
            }
            if (until(m.data)) {
              w.terminate();
              resolve(events);
            }
          };
        });
      const stored = () =>
        new Promise<{ step: number; total: number; reports: unknown[] }>((resolve, reject) => {
          const req = indexedDB.open('glassllm-train');
          req.onsuccess = () => {
            const get = req.result.transaction('runs').objectStore('runs').get('e2e-resume');
            get.onsuccess = () => (req.result.close(), resolve(get.result));
            get.onerror = () => reject(get.error);
          };
          req.onerror = () => reject(req.error);
        });
      // a "reload" mid-run: the worker is paused at its first kept checkpoint, then gone. The
      // run is long enough that the pause lands mid-run however slow the page is to answer.
      await run({ type: 'start', spec }, (e) => e.type === 'paused', (e) => e.type === 'saved');
      const saved = await stored();
      const resumed = await run({ type: 'resume-saved', key: 'e2e-resume' }, (e) => e.type === 'stopped' || e.type === 'error');
      const straight = await run({ type: 'start', spec: { ...spec, persist: false } }, (e) => e.type === 'stopped' || e.type === 'error');
      return { saved: { step: saved.step, total: saved.total, reports: saved.reports.length }, resumed, straight };
    },
    { url: workerUrl!, config: TINY, TOTAL },
  );
  const s = result.saved.step;
  expect(s % 4).toBe(0);
  expect(s).toBeLessThan(TOTAL);
  expect(result.saved).toEqual({ step: s, total: TOTAL, reports: s });
  const steps = (events: { type: string; report?: { step: number; loss: number } }[]) => events.filter((e) => e.type === 'step').map((e) => e.report!);
  expect(result.resumed.map((e) => e.type).slice(0, 3)).toEqual(['ready', 'started', 'history']);
  expect(result.resumed[2].reports).toHaveLength(s);
  expect(result.resumed.at(-1)).toMatchObject({ type: 'stopped', step: TOTAL, finished: true });
  expect(steps(result.resumed).map((r) => r.step)).toEqual(Array.from({ length: TOTAL - s }, (_, i) => s + 1 + i));
  // bit for bit what the uninterrupted run did
  expect(steps(result.resumed).map((r) => r.loss)).toEqual(steps(result.straight).slice(s).map((r) => r.loss));
});
