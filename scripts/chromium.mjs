// How the tests and the browser benchmarks launch Debian's Chromium (no browser
// download: docs/toolchain.md): one place for the binary and its switches.
// playwright.config.ts (e2e) and bench/browser/serve.mjs use it.

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Features Playwright 1.65 turns off itself (its chromiumSwitches). Chromium keeps
 * only the last --disable-features switch, so ours must repeat Playwright's list
 * or it would turn them on again. tests/web/chromiumArgs.test.ts compares this
 * list with the installed Playwright's, so an upgrade that changes it fails there.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 loads its address bar's two drop-down pages (chrome://omnibox-popup.top-chrome/,
 * and its AI-mode page) in a renderer of their own for every new window, and each
 * Playwright test opens one: about 2 CPU-seconds each on the 2-core test machine,
 * before the page under test gets a core. Nothing here uses the address bar.
 * Measured on five fresh loads of a lesson step: 19.0 s -> 14.3 s, ready after 2.9 s -> 2.0 s.
 */
const OURS_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OURS_DISABLED_FEATURES].join(',')}`,
];
