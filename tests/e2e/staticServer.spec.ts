// `npm run build` must give a site that works from any static file server and
// any sub-path: here Python's plain http.server serves the directory above
// dist/, so the app lives at /dist/ (no SPA fallback, no special headers).
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, basename, resolve } from 'node:path';
import { expect, test } from '@playwright/test';

const DIST = resolve(process.env.GLASS_E2E_DIST ?? 'dist');
const PORT = Number(process.env.GLASS_E2E_PORT ?? 4174) + 100;
let server: ChildProcess;

test.beforeAll(async () => {
  server = spawn('python3', ['-m', 'http.server', String(PORT), '--bind', '127.0.0.1', '--directory', dirname(DIST)], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`python3 -m http.server did not start on port ${PORT}`);
});
test.afterAll(() => {
  server?.kill();
});

test('dist/ served by a plain static server from a sub-path: the start page opens, the lab computes, the inspector loads the weights and runs', async ({ page }) => {
  const root = `http://127.0.0.1:${PORT}/${basename(DIST)}/`;
  await page.goto(root);
  await expect(page.getByTestId('start-page')).toBeVisible();
  await page.goto(`${root}?view=lab`);
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await page.goto(`${root}?view=inspector`);
  await expect(page.getByTestId('weights-ready')).toContainText('parameters');
  await expect(page.getByTestId('inspector-loss')).toContainText('nats');
  await page.goto(`${root}?view=lessons&lesson=attention&step=3`);
  await expect(page.getByTestId('widget-attention-pattern')).toBeVisible();
  await expect(page.locator('.md-live-pending')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('.code-cell-error')).toHaveCount(0);
});
