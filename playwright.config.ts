// Playwright against the PRODUCTION build (dist/, served by `vite preview`),
// in Debian's Chromium (no browser download: see docs/toolchain.md).
// scripts/test.sh (stage e2e) builds dist/ first; run alone with
//   npx vite build && npx playwright test
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './scripts/chromium.mjs';

// not 4173, so a running `npm run preview` does not collide. Several sessions
// can test side by side with their own build and port:
//   GLASS_E2E_PORT=4180 GLASS_E2E_DIST=/tmp/me/dist npx playwright test tests/e2e/x.spec.ts
const PORT = Number(process.env.GLASS_E2E_PORT ?? 4174);
// The same dist/ without the cross-origin isolation headers (security.config.ts,
// GLASS_NOT_ISOLATED): a host that cannot send them (tests/e2e/threads-fallback.spec.ts).
export const PLAIN_PORT = Number(process.env.GLASS_E2E_PLAIN_PORT ?? PORT + 1000);
// absolute: vite preview reads a relative --outDir from its root (web/), not from here
const DIST = resolve(process.env.GLASS_E2E_DIST ?? 'dist');

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.GLASS_E2E_DIST ? `${DIST}/../test-results` : 'test-results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1, // 2 busy cores: one browser at a time
  // In CI a failed test runs once more: a test that fails every time still fails the run,
  // and one that passes only on its second try is reported as flaky with its first error
  // in npm test's closing summary (scripts/test_report.mjs), to be fixed, not forgotten.
  retries: process.env.CI ? 1 : 0,
  // and when something breaks everything (the core does not load), CI stops after 10
  // failed tests instead of running and retrying each of the 200 until its time limit
  maxFailures: process.env.CI ? 10 : 0,
  reporter: [['list'], ['json', { outputFile: process.env.GLASS_E2E_DIST ? `${DIST}/../playwright.json` : 'build/playwright.json' }]],
  use: {
    browserName: 'chromium',
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1280, height: 900 },
    // Each test is a first visit, where the service worker would download the whole
    // site (6 MB) in the background; only tests/e2e/offline.spec.ts, which tests it, allows it.
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${DIST}`,
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PLAIN_PORT} --strictPort --outDir ${DIST}`,
      env: { GLASS_NOT_ISOLATED: '1' },
      url: `http://127.0.0.1:${PLAIN_PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
