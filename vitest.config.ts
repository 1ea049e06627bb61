import { defineConfig } from 'vitest/config';

// Unit tests of the TS facade and the wasm core, in Node. Load the module with
// `await createGlassCore({ wasmBinary: readFileSync(url) })` (see README).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/web/**/*.test.ts'],
    testTimeout: 60_000,
    // Node 20 runs relaxed SIMD only behind this flag: with it the tests can run
    // the relaxed-fma build of the core too (tests/web/model.test.ts).
    execArgv: ['--experimental-wasm-relaxed-simd'],
  },
});
