// Offline and headers: the service worker precaches the site on the first visit
// so it works offline afterwards (lessons and the lab with live numbers); the
// built page carries its Content-Security-Policy and the preview server sends
// the headers a page cannot set itself; nothing the app does violates the
// policy; a lazily loaded part that fails shows Retry; the console's own copy
// of the core is replaced after a trap.
import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { PAGE_CSP, SANDBOX_CSP, WORKER_CSP } from '../../security.config';
import { SHOTS } from './lessonWalk';

/** Records CSP violations from the start of every page load. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    (globalThis as any).cspViolations = [];
    addEventListener('securitypolicyviolation', (e: SecurityPolicyViolationEvent) => (globalThis as any).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}
const violations = (page: Page) => page.evaluate(() => (globalThis as any).cspViolations as string[]);

async function labAnswers(page: Page) {
  await page.goto('./?view=lab&x=6,8');
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '50');
  await page.getByTestId('x-0').fill('3');
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', '36.5') // (9 + 64) / 2;
}

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' }); // playwright.config.ts blocks it for every other test
  test('after the first visit the site works offline: a reload, a lesson with its code cell and model, the lab with live numbers', async ({ page, context }) => {
    test.setTimeout(120_000);
    await page.goto('./?view=lessons&lesson=rmsnorm&step=2');
    await expect(page.getByTestId('lesson')).toBeVisible();
    // the service worker has installed and precached everything (the weights and both cores included)
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.state;
    });
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).length), { timeout: 60_000 }).toBeGreaterThan(0);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) for (const r of await (await caches.open(key)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    for (const want of [/\/index\.html$/, /glass_core-.*\.wasm$/, /glass_core_fma-.*\.wasm$/, /glass-kjv\.safetensors$/, /LessonsPage-.*\.js$/, /sandbox-.*\.js$/, /\/sandbox\.html$/, /worker-.*\.js$/])
      expect(cached.some((u) => want.test(u)), String(want)).toBe(true);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('lesson')).toBeVisible();
    // a code cell that uses the model: the weights come from the cache, the core computes
    const cell = page.getByTestId('code-cell').first();
    await cell.locator('textarea').fill('print(model.info().blocks)');
    await cell.getByRole('button', { name: 'Run' }).click();
    await expect(cell.getByTestId('code-output')).toHaveText('4', { timeout: 20_000 });
    // it ran in the sandbox's frame, served by the service worker with its header: an opaque origin.
    // The frame that ran the cell is being closed as the spare opens (app/sandboxClient.ts), so a
    // frame found a moment ago may be gone when asked (CI once failed so: "Target page, context or
    // browser has been closed"): ask the sandbox frames there are until one answers.
    await expect
      .poll(async () => {
        for (const frame of page.frames().filter((f) => f.url().endsWith('/sandbox.html') && !f.isDetached())) {
          const origin = await frame.evaluate(() => self.origin).catch(() => null); // closed while asked: the next one
          if (origin !== null) return origin;
        }
        return 'no sandbox frame answered';
      }, { message: "a sandbox frame's origin" })
      .toBe('null');
    // another lesson, by address, offline
    await page.goto('./?view=lessons&lesson=attention&step=1');
    await expect(page.getByTestId('lesson')).toBeVisible();
    await expect(page.locator('.lazy-failed')).toHaveCount(0);
    await labAnswers(page);
    await page.screenshot({ path: `${SHOTS}/offline-lab.png` });
    // the inspector runs the model offline
    await page.goto('./?view=inspector');
    await expect(page.getByTestId('inspector-loss')).toContainText(/\d/, { timeout: 30_000 });
    await context.setOffline(false);
  });
});

test.describe('headers and CSP', () => {
  test('the built page has its policy in a meta tag; the preview server sends it with frame-ancestors and nosniff', async ({ request }) => {
    const page = await request.get('./');
    const html = await page.text();
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}" />`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const h = page.headers();
    expect(h['content-security-policy']).toBe(`${PAGE_CSP}; frame-ancestors 'none'`);
    expect(h['x-content-type-options']).toBe('nosniff');
    for (const directive of ["object-src 'none'", "base-uri 'none'", "connect-src 'self'", "'wasm-unsafe-eval'"]) expect(PAGE_CSP).toContain(directive);
    // the code-cell sandbox's frame gets its own, tighter policy: sandboxed (an opaque origin, a
    // process of its own), its one inline script by hash, framed only by the page
    const frame = await request.get('./sandbox.html');
    expect(frame.ok()).toBe(true);
    expect(frame.headers()['content-security-policy']).toBe(`${SANDBOX_CSP}; frame-ancestors 'self'`);
    expect(SANDBOX_CSP).toMatch(/^sandbox allow-scripts; default-src 'none';/);
    const inline = /<script>([\s\S]*?)<\/script>/.exec(await frame.text())![1];
    expect(SANDBOX_CSP).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    // no eval on the page (the core is built without dynamic execution); only the core worker,
    // which runs the lessons' check expressions, gets 'unsafe-eval', by its own header
    expect(PAGE_CSP).not.toContain("'unsafe-eval'");
    const workerScript = /worker-[\w-]+\.js/.exec(await (await request.get(`./${/assets\/index-[\w-]+\.js/.exec(html)![0]}`)).text())?.[0];
    expect(workerScript).toBeTruthy();
    const worker = await request.get(`./assets/${workerScript}`);
    expect(worker.ok()).toBe(true);
    expect(worker.headers()['content-security-policy']).toBe(`${WORKER_CSP}; frame-ancestors 'none'`);
    expect(WORKER_CSP).toContain("'unsafe-eval'");
  });

  test('no part of the app violates the policy: start, a lesson with code cells and KaTeX, the lab, the inspector', async ({ page }) => {
    test.setTimeout(90_000);
    await watchViolations(page);
    await page.goto('./');
    await expect(page.getByTestId('start-page')).toBeVisible();
    await page.goto('./?view=lessons&lesson=rmsnorm&step=2');
    await expect(page.getByTestId('code-cell').first().getByTestId('code-output')).not.toHaveText('Running…');
    await expect(page.locator('.katex').first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await labAnswers(page);
    expect(await violations(page)).toEqual([]);
    await page.goto('./?view=inspector');
    await expect(page.getByTestId('inspector-loss')).toContainText(/\d/, { timeout: 30_000 });
    // the console's copy of the core loads on this page under the same policy
    expect(await page.evaluate(async () => ((await (globalThis as any).glass.ready), (globalThis as any).glass.tensor([1, 2, 3]).sum().item()))).toBe(6);
    expect(await violations(page)).toEqual([]);
  });
});

test('a lazily loaded part that fails to load says why and offers Retry, which loads it', async ({ page }) => {
  let block = true;
  await page.route(/LessonsPage-[\w-]+\.js$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  await page.goto('./?view=lessons');
  const failed = page.locator('.lazy-failed');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('The lessons could not be loaded');
  await page.screenshot({ path: `${SHOTS}/lazy-retry.png` });
  block = false;
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('.lessons-card').first()).toBeVisible();
});

test("a trap in the console's copy of the core replaces it: a clear error, then a fresh copy that computes", async ({ page }) => {
  await page.goto('./?view=lab');
  const r = await page.evaluate(async () => {
    const glass = (globalThis as any).glass;
    await glass.ready;
    const x = glass.tensor([[3, 4]], { dtype: 'float64', requiresGrad: true });
    x.square().sum().backward();
    const before = Array.from(x.grad.data() as Float64Array);
    let trapped = '';
    try {
      glass.debugTrap();
    } catch (e) {
      trapped = `${(e as Error).name}: ${(e as Error).message}`;
    }
    let old = '';
    try {
      x.sum();
    } catch (e) {
      old = (e as Error).message;
    }
    await glass.ready;
    const kept = glass.scope(() => glass.tensor([1, 2]).add(glass.tensor([3, 4])));
    return { before, trapped, old, after: Array.from(kept.data() as Float32Array) };
  });
  expect(r.before).toEqual([6, 8]);
  expect(r.trapped).toMatch(/^GlassError: the core on this thread crashed \(RuntimeError: unreachable\) and is being replaced/);
  expect(r.old).toMatch(/made by a copy of the core that stopped/);
  expect(r.after).toEqual([4, 6]);
});
