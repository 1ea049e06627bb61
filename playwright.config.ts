// Playwright against the PRODUCTION build (dist/, served by `vite preview`),
// in Debian's Chromium (no browser download: see ../shared/notes/TOOLCHAIN.md).
// scripts/test.sh (stage e2e) builds dist/ first; run alone with
//   npx vite build && npx playwright test
import { defineConfig } from '@playwright/test';

const PORT = 4174; // not 4173, so a running `npm run preview` does not collide

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1, // 2 busy cores: one browser at a time
  reporter: [['list'], ['json', { outputFile: 'build/playwright.json' }]],
  use: {
    browserName: 'chromium',
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
