import { defineConfig } from 'vitest/config';

// Unit tests of the TS facade and the wasm core, in Node. Load the module with
// `await createGlassCore({ wasmBinary: readFileSync(url) })` (see README).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/web/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
