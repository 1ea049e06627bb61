import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';
import { DEV_HEADERS, PAGE_CSP, previewHeaders } from './security.config';

// The app lives in web/ (index.html, src/). The wasm core is imported from
// web/src/core/wasm/glass_core.js (built by `npm run build:wasm`); Vite rewrites
// the glue's new URL('glass_core.wasm', import.meta.url) and emits the .wasm.

/** The built page carries its Content-Security-Policy (security.config.ts) as its first meta tag after charset. */
function cspMetaTag(): Plugin {
  return {
    name: 'glass-csp-meta',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}" />`),
  };
}

/**
 * The page's icon goes into index.html as a data: URL, made from public/favicon.svg.
 * Headless Chromium (the tests' and benchmarks' browser) fetches a linked icon
 * again on every change of the page's address (history.replaceState), and the
 * page changes it 150 ms after each setting a learner moves (app/state.ts): every
 * slider step fetched favicon.svg, through the service worker once it controlled
 * the page. An icon inside the page is never fetched. Chromium still decodes it
 * again on each change (an SVG document on the page's main thread, a few ms).
 */
function inlineFavicon(): Plugin {
  const svg = readFileSync(fileURLToPath(new URL('./public/favicon.svg', import.meta.url)), 'utf8').trim();
  const href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
  return {
    name: 'glass-inline-favicon',
    transformIndexHtml: {
      order: 'pre', // before Vite turns the public path into a relative one
      handler: (html) => {
        const out = html.replace('href="/favicon.svg"', `href="${href}"`);
        if (out === html) throw new Error('glass-inline-favicon: web/index.html has no <link rel="icon" href="/favicon.svg">');
        return out;
      },
    },
  };
}

/** `npm run preview` (and the e2e tests) send the headers a static host should send (README "Serving dist/"). */
function securityHeaders(): Plugin {
  return {
    name: 'glass-security-headers',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '/').split('?')[0];
        for (const [name, value] of Object.entries(previewHeaders(path))) res.setHeader(name, value);
        next();
      });
    },
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        for (const [name, value] of Object.entries(DEV_HEADERS)) res.setHeader(name, value);
        next();
      });
    },
  };
}

/**
 * The dev server hands the threaded core's thread scripts (web/src/core/wasm/*.worker.js,
 * core/threadedBuild.ts) over as they are: each is a classic worker script, which
 * Vite's transform would turn into a module (an import statement), and a classic
 * worker cannot run one. A production build copies them as plain files anyway.
 */
function rawThreadScripts(): Plugin {
  return {
    name: 'glass-raw-thread-scripts',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        const m = /^\/src\/core\/wasm\/(glass_core[a-z_]*\.worker\.js)$/.exec(path);
        if (m === null) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.end(readFileSync(fileURLToPath(new URL(`./web/src/core/wasm/${m[1]}`, import.meta.url))));
      });
    },
  };
}

/**
 * The code-cell sandbox worker is started from a blob: URL in an opaque-origin
 * frame (app/sandboxFrame.ts), where Chromium starts only classic workers: its
 * one file (both glues in it, no chunks) must not say import.meta, which in a
 * classic worker is the script's own location.
 */
function classicSandboxWorker(): Plugin {
  return {
    name: 'glass-classic-sandbox-worker',
    renderChunk(code, chunk) {
      if (!chunk.isEntry || !/worker[\\/]sandbox[\\/]sandbox\.ts$/.test(chunk.facadeModuleId ?? '')) return null;
      return { code: code.replaceAll('import.meta.url', 'self.location.href'), map: null };
    },
  };
}

export default defineConfig({
  root: 'web',
  base: './', // dist/ works from any static server and any sub-path
  publicDir: '../public', // static assets served as-is (shipped weights, ...)
  plugins: [
    preact(),
    cspMetaTag(),
    inlineFavicon(),
    securityHeaders(),
    rawThreadScripts(),
    // A service worker (web/src/sw.ts) that precaches the whole site on the first
    // visit: the app, every build of the core, every lesson chunk, KaTeX's fonts and
    // the shipped weights, so the site then works offline, lessons included. A new
    // deployment waits until the learner accepts the update notice
    // (app/UpdateNotice.tsx). It adds the cross-origin isolation headers to what it
    // serves, so a host that cannot send them still gets the threaded core.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false, // main.tsx registers it (no inline script)
      manifest: false,
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectManifest: {
        globPatterns: ['**/*.{html,js,css,wasm,svg,woff2,safetensors,txt}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024, // the weights are 3.7 MB
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [classicSandboxWorker()] },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // The threaded core's thread script (core/threadedBuild.ts) stays a file of the site:
    // inlined as a data: URL, its worker would have no origin, so the page's policy
    // (worker-src 'self') and cross-origin isolation would both refuse it.
    assetsInlineLimit: (file: string) => (file.endsWith('.worker.js') ? false : undefined),
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
