import { defineConfig } from 'vitest/config';

// The reference stage's own Vitest run (scripts/test_reference.sh): the page's
// "Reproduce in PyTorch" lines run against the PyTorch model and compared with
// the core. Not part of `npx vitest run` (tests/web only): it needs torch.
export default defineConfig({
  test: {
    environment: 'node',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/reference/**/*.test.ts'],
    testTimeout: 300_000,
  },
});
