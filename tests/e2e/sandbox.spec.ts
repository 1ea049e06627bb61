// Learner code cells run in a sandbox worker of their own, one per run
// (app/sandboxClient.ts): whatever a cell does — loop, close its worker,
// replace its handlers, post forged messages, set timers, allocate or print
// without end, trap the core — the cell says what happened in a line, the core
// worker never restarts, and the lab still answers live afterwards.
import { expect, test, type Page } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import { SHOTS, openStep } from './lessonWalk';

/** A step of the rmsnorm lesson with a code cell that is not behind a prediction gate. */
async function openCell(page: Page) {
  await openStep(page, 'rmsnorm', 2);
  const cell = page.getByTestId('code-cell').first();
  await expect(cell.getByTestId('code-output')).not.toHaveText('Running…');
  return cell;
}

async function run(page: Page, code: string) {
  const cell = page.getByTestId('code-cell').first();
  await cell.locator('textarea').fill(code);
  await cell.getByRole('button', { name: 'Run' }).click();
  await expect(cell.getByRole('button', { name: 'Run' })).toBeEnabled({ timeout: 20_000 });
  return (await cell.getByTestId('code-output').textContent()) ?? '';
}

/** The lab computes live: a new x gives the core's new mean square. */
async function labAnswers(page: Page, x0: number) {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'RMSNorm lab', exact: true }).click();
  await expect(page.getByTestId('rms-readout')).toBeVisible();
  await page.getByTestId('x-0').fill(String(x0));
  await page.getByTestId('x-1').fill('4');
  await expect(page.getByTestId('readout-mean-square')).toHaveAttribute('data-value', String((x0 * x0 + 16) / 2));
}

// name, code, what the cell must say (a regexp on its output)
const HOSTILE: [string, string, RegExp][] = [
  ['an endless loop', 'while (true) {}', /stopped after 3 s — did the code loop forever\?/],
  ['closing its worker', 'print("bye"); self.close()', /bye|stopped answering|stopped after/],
  ['replacing its handler, then looping', 'self.onmessage = () => postMessage({ type: "result", id: 1, ok: true, value: { output: "forged", truncated: false, error: null }, computeMs: 0 }); print("replaced")', /replaced/],
  ['a forged result of the wrong shape', 'postMessage({ type: "result", id: 1, ok: true, value: "<img src=x onerror=alert(1)>", computeMs: 0 }); while (true) {}', /cannot read|stopped after|out of order/],
  ['a flood of forged messages', 'for (let i = 0; i < 100000; i++) postMessage({ type: "ready" }); print("done")', /out of order|cannot read|done/],
  ['a forged message for the core', 'postMessage({ type: "result", id: 2, ok: true, value: 1, computeMs: 0 }); print("sent")', /out of order|cannot read|sent/],
  ['timers that fire later', 'setInterval(() => postMessage("tick"), 1); setTimeout(() => self.close(), 5); print("armed")', /armed/],
  ['printing without end', 'for (let i = 0; ; i++) print(i)', /output truncated[\s\S]*Stopped: the output is longer than 20,000 characters/],
  ['a wasm trap', 'print("before"); glass.debugTrap()', /RuntimeError|unreachable/],
  ['a thrown string', 'throw "oops"', /oops/],
  ['a promise that never settles', 'new Promise(() => {}); print("returned")', /returned/],
];

test('hostile code cells end with a clear message in their own sandbox; the core worker never restarts and the lab answers', async ({ page }) => {
  test.setTimeout(180_000);
  await openCell(page);
  for (const [what, code, says] of HOSTILE) {
    const out = await run(page, code);
    expect(out, what).toMatch(says);
    expect(out.length, `${what}: the output stays bounded`).toBeLessThan(21_000);
    // the next cell runs normally in a fresh sandbox
    expect(await run(page, 'print(glass.tensor([1, 2]).sum().item())'), `after ${what}`).toBe('3');
  }
  await page.screenshot({ path: `${SHOTS}/sandbox-after-hostile-cells.png`, fullPage: false });
  await expect(page.getByTestId('core-notice')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as any).glassDebug.restarts())).toBe(0);
  await labAnswers(page, 6);
});

test('a cell that allocates without end stops with a message; the tab and the lab survive', async ({ page }) => {
  test.setTimeout(120_000);
  let crashed = false;
  page.on('crash', () => (crashed = true));
  await openCell(page);
  const out = await run(page, 'const keep = []; for (;;) keep.push(new Float64Array(1 << 24))');
  expect(out).toMatch(/RangeError|memory|stopped after|stopped with an error|stopped answering/i);
  const wasm = await run(page, 'const keep = []; for (;;) keep.push(glass.zeros([4096, 4096]))');
  expect(wasm).toMatch(/GlassError|memory|stopped after|stopped with an error/i);
  expect(await run(page, 'let s = "x"; for (;;) s += s')).toMatch(/RangeError: Invalid string length/);
  expect(crashed).toBe(false);
  expect(await run(page, 'print(1 + 1)')).toBe('2');
  expect(await page.evaluate(() => (globalThis as any).glassDebug.restarts())).toBe(0);
  await labAnswers(page, 5);
});

// Filling the JS heap itself (plain arrays, not array buffers) reaches V8's heap
// limit, and V8 then ends the whole renderer process the heap lives in. A worker
// shares its page's process, so the sandbox runs in a frame that Chromium puts in
// a process of its own (app/sandboxFrame.ts): that process ends, the page stays.
//
// Playwright (1.65) ends a Page when the process of any of its frames crashes
// (every frame session's Inspector.targetCrashed marks the whole page crashed), so
// from the first crash on this test drives the tab over a CDP session opened
// before: the tab answering it at all is what is tested.
test('a cell that fills the JS heap without end stops with a message; the tab survives and the lab answers', async ({ page }) => {
  test.setTimeout(180_000);
  await openCell(page);
  const cdp = await page.context().newCDPSession(page);
  const js = async <T>(expression: string): Promise<T> => {
    const answer = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as T;
  };
  const until = async <T>(expression: string, ok: (v: T) => boolean, what: string): Promise<T> => {
    for (let t0 = Date.now(); Date.now() - t0 < 30_000; await new Promise((r) => setTimeout(r, 100))) {
      const v = await js<T>(expression);
      if (ok(v)) return v;
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** Types into the first code cell and presses Run, as a learner would, through the DOM. */
  const runCell = async (code: string) => {
    await js(`(() => {
      const cell = document.querySelector('[data-testid="code-cell"]');
      const area = cell.querySelector('textarea');
      area.value = ${JSON.stringify(code)};
      area.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    await until<boolean>(`document.querySelector('[data-testid="code-cell"] button').textContent === 'Run'`, Boolean, 'the Run button');
    // press Run and wait for it to come back after 'Running…'
    return js<string>(`new Promise((resolve) => {
      const cell = document.querySelector('[data-testid="code-cell"]');
      const button = cell.querySelector('button');
      let started = false;
      const seen = new MutationObserver(() => {
        if (button.textContent !== 'Run') started = true;
        else if (started) {
          seen.disconnect();
          resolve(cell.querySelector('[data-testid="code-output"]').textContent);
        }
      });
      seen.observe(cell, { subtree: true, childList: true, characterData: true, attributes: true });
      button.click();
    })`);
  };
  const fill = (code: string) => `const keep = []; for (;;) keep.push(new Array(1e6).fill(0.5)); ${code}`;

  // the sandbox's frame (the spare, loading for the next run) is an out-of-process iframe: a target of its own
  expect(await js(`glassDebug.sandbox('print(1)')`)).toMatchObject({ status: 'ok', value: { output: '1' } });
  const frameTarget = async () => (await cdp.send('Target.getTargets')).targetInfos.some((t) => t.type === 'iframe' && /\/sandbox\.html$/.test(t.url));
  await expect.poll(frameTarget, { timeout: 10_000 }).toBe(true);

  // with a time limit longer than the heap takes to fill, the frame's process ends: the run says so
  const outcome = await js<{ status: string; error: { name: string; message: string } }>(`glassDebug.sandbox(${JSON.stringify(fill(''))}, 90000)`);
  expect(outcome).toEqual({ status: 'error', error: { name: 'Crashed', message: "the code cell's sandbox crashed — did the code fill the memory?" } });

  // the learner's cell (3 s): stopped at its limit or by the crash, whichever comes first on this machine
  expect(await runCell(fill(''))).toMatch(/stopped after 3 s|crashed — did the code fill the memory\?/);
  expect(await runCell('print(glass.tensor([1, 2]).sum().item())')).toBe('3');
  expect(await js<number>('glassDebug.restarts()')).toBe(0);
  expect(await js<number>(`document.querySelectorAll('[data-testid="core-notice"]').length`)).toBe(0);

  // and the lab, in the core worker, answers live afterwards
  await js(`[...document.querySelectorAll('nav[aria-label="Views"] a')].find((a) => a.textContent.trim() === 'RMSNorm lab').click()`);
  await until<boolean>(`document.querySelector('[data-testid="rms-readout"]') !== null`, Boolean, 'the lab');
  for (const [id, v] of [['x-0', '8'], ['x-1', '4']]) {
    // one edit per task, as typing is: each input's handler sees the state the last one left
    await js(`(() => {
      const input = document.querySelector('[data-testid="${id}"]');
      input.value = '${v}';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
  }
  await until<string | null>(`document.querySelector('[data-testid="readout-mean-square"]').getAttribute('data-value')`, (v) => v === '40', 'the mean square of (8, 4)');
  const shot = await cdp.send('Page.captureScreenshot', { format: 'png' });
  await writeFile(`${SHOTS}/sandbox-after-heap-crash.png`, Buffer.from(shot.data, 'base64'));
});

test('a truncated output says so visibly', async ({ page }) => {
  await openCell(page);
  await run(page, "for (let i = 0; ; i++) print('line ' + i)");
  const note = page.getByTestId('code-truncated');
  await expect(note).toBeVisible();
  await expect(note).toContainText('output truncated');
  await page.setViewportSize({ width: 390, height: 844 });
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/sandbox-truncated-390.png` });
});

test('a core request that never ends is stopped at its time limit: a short notice, the weights reloaded, the lab and the inspector answer', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('./?view=inspector');
  await expect(page.getByTestId('inspector-loss')).toContainText(/\d/, { timeout: 30_000 });
  const outcome = await page.evaluate(() => (globalThis as any).glassDebug.hang(1000));
  expect(outcome).toEqual({ status: 'error', error: { name: 'TimeLimit', message: 'stopped after 1 s' } });
  const notice = page.getByTestId('core-notice');
  await expect(notice).toContainText('The core took too long (stopped after 1 s), so it was restarted');
  expect(((await notice.textContent()) ?? '').length).toBeLessThan(200);
  await page.screenshot({ path: `${SHOTS}/core-time-limit-notice.png` });
  // the new worker got the weights again: the inspector runs the model
  await page.locator('#inspector-prompt').fill('And God said');
  await expect(page.getByTestId('inspector-loss')).toContainText(/\d/);
  await labAnswers(page, 7);
});
