import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { median } from './serve.mjs';
const PORT = 4191;
const url = `http://127.0.0.1:${PORT}/`;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TEXT = 'In the beginning God created the heaven and the earth. And the earth was without form, and void; and darkness was upon the face'.padEnd(128, '.').slice(0, 128);
const server = spawn('npx', ['vite', 'preview', '--outDir', resolve('/tmp/lead/dist'), '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { stdio: 'ignore', detached: true });
try {
  for (let i = 0; i < 100; i++) { try { if ((await fetch(url)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
  for (const round of [1, 2]) for (const flag of [null, '--js-flags=--no-wasm-relaxed-simd']) {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: flag ? [...ARGS, flag] : ARGS });
    const page = await browser.newPage();
    await page.goto(url);
    await page.evaluate(() => localStorage.setItem('glassllm.threads', '2'));
    await page.goto(url + '?view=lab');
    await page.locator('[data-testid=threads-line] summary').textContent({ timeout: 30_000 });
    const build = await page.evaluate(async () => (await globalThis.glass.ready).build);
    await page.evaluate(({ text }) => globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: 20 }), { text: TEXT });
    const out = await page.evaluate(async ({ text }) => {
      const r = { 1: [], 2: [] };
      for (let i = 0; i < 8; i++) for (const t of [1, 2]) r[t].push(...(await globalThis.glass.model.bench(text, { dtype: 'float32', backward: true, repeat: 5, threads: t })));
      return r;
    }, { text: TEXT });
    console.log(`round ${round} ${build}: 1 thread ${median(out[1]).toFixed(1)} ms, 2 threads ${median(out[2]).toFixed(1)} ms, ${(median(out[1]) / median(out[2])).toFixed(2)}x`);
    await browser.close();
  }
} finally { process.kill(-server.pid); }
