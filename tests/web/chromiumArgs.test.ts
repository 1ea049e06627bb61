// scripts/chromium.mjs repeats Playwright's own --disable-features list (Chromium
// keeps only the last such switch): the repeat must match the installed
// Playwright's, or an upgrade would silently turn those features back on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from '../../scripts/chromium.mjs';

/** The feature names in Playwright's `disabledFeatures = [...]` (its Chromium switches), read from its bundle. */
function playwrightDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([^\]]*)\]/.exec(bundle);
  if (!list) throw new Error("Playwright's bundle has no `disabledFeatures = [...]`: read its Chromium switches again and update scripts/chromium.mjs");
  return [...list[1].matchAll(/^\s*"([A-Za-z0-9]+)",?\s*$/gm)].map((m) => m[1]);
}

describe('the Chromium switches of the tests and benchmarks', () => {
  it("repeat Playwright's own disabled features exactly", () => {
    const theirs = playwrightDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(theirs);
  });

  it('have one --disable-features switch, with all of them and the address bar pages off', () => {
    const switches = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const names = switches[0].slice('--disable-features='.length).split(',');
    for (const name of [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']) expect(names).toContain(name);
  });
});
