// The security headers of the built site, in one place: vite.config.ts puts the
// page's Content-Security-Policy in the built index.html as a meta tag, and
// `npm run preview` sends these as HTTP headers (with what a meta tag cannot
// carry: frame-ancestors, nosniff). README "Serving dist/" says what a static
// host should send.
//
// Why each source is there:
// - script-src 'self': no inline script, no other origin. 'unsafe-eval' because
//   the core's bindings (Embind, Emscripten 3.1.6) build their call wrappers with
//   new Function when the module loads, on the page (the console's copy of the
//   core) and in the workers; code cells and the lesson's expressions are
//   JavaScript run with new Function in the workers. 'wasm-unsafe-eval' compiles
//   the core itself.
// - style-src 'unsafe-inline': KaTeX lays out formulas with style attributes;
//   font-src data: its smallest fonts are inlined into the CSS by the build.
// - connect-src 'self': the weights, the core's .wasm and lesson files come
//   from the site; nothing is sent anywhere.
// - worker-src 'self': the core worker, the code-cell sandboxes, the service worker.

/** The page's policy (a meta tag in dist/index.html, and the header on every response). */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The code-cell sandbox worker's own policy (its script's response header): it
 * may run the learner's code and fetch the core, and nothing else: no images,
 * fonts, nested workers or other origins.
 */
export const SANDBOX_CSP = ["default-src 'none'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'", "connect-src 'self'"].join('; ');

/** What only a header can say: no framing by other sites (clickjacking), no content-type sniffing. */
export const HEADER_ONLY = { frameAncestors: "frame-ancestors 'none'", nosniff: 'nosniff' } as const;

/** The sandbox worker's built script (vite names a worker chunk after its entry file, worker/sandbox/sandbox.ts). */
export const SANDBOX_SCRIPT = /\/assets\/sandbox-[\w-]+\.js$/;

/** The headers for one response of `npm run preview` (path without the query). */
export function previewHeaders(path: string): Record<string, string> {
  const policy = SANDBOX_SCRIPT.test(path) ? SANDBOX_CSP : PAGE_CSP;
  return {
    'Content-Security-Policy': `${policy}; ${HEADER_ONLY.frameAncestors}`,
    'X-Content-Type-Options': HEADER_ONLY.nosniff,
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * The dev server (`npm start`) serves Vite's inline hot-reload scripts, so it
 * sends only the parts that do not restrict scripts.
 */
export const DEV_HEADERS: Record<string, string> = {
  'Content-Security-Policy': `object-src 'none'; base-uri 'none'; ${HEADER_ONLY.frameAncestors}`,
  'X-Content-Type-Options': HEADER_ONLY.nosniff,
};
