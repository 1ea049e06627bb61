// What the browser benchmarks share: serve a production build with `vite preview`,
// wait until it answers, launch Debian's Chromium headless, and always stop the
// server (its whole process group) when the benchmark ends or fails.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The CPU a figure was measured on, with its widest vector unit. */
export function cpuName() {
  const flags = readFileSync('/proc/cpuinfo', 'utf8');
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores${/\bavx512f\b/.test(flags) ? ', AVX-512' : /\bavx2\b/.test(flags) ? ', AVX2' : ''}`;
}

/** Runs bench(url, browser) against `dist` (default: the build's own dist/) served on `port`; resolves to what bench returns. */
export async function withPreview({ dist, port }, bench) {
  const url = `http://127.0.0.1:${port}/`;
  const server = spawn('npx', ['vite', 'preview', ...(dist ? ['--outDir', resolve(dist)] : []), '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { stdio: 'ignore', detached: true });
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      return await bench(url, browser);
    } finally {
      await browser.close();
    }
  } finally {
    try {
      process.kill(-server.pid);
    } catch (e) {
      if (e.code !== 'ESRCH') throw e; // the server has already exited: nothing to stop
    }
  }
}
