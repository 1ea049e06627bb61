import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The app lives in web/ (index.html, src/). The wasm core is imported from
// web/src/core/wasm/glass_core.js (built by `npm run build:wasm`); Vite rewrites
// the glue's new URL('glass_core.wasm', import.meta.url) and emits the .wasm.
export default defineConfig({
  root: 'web',
  base: './', // dist/ works from any static server and any sub-path
  publicDir: '../public', // static assets served as-is (shipped weights, ...)
  plugins: [preact()],
  worker: { format: 'es' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
