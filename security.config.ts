// The security headers of the built site, in one place: vite.config.ts puts the
// page's Content-Security-Policy in the built index.html as a meta tag, and
// `npm run preview` sends these as HTTP headers (with what a meta tag cannot
// carry: frame-ancestors, nosniff). README "Serving dist/" says what a static
// host should send.
//
// Why each source is there:
// - script-src 'self': no inline script, no other origin, no eval on the page:
//   the core is built with -sDYNAMIC_EXECUTION=0, so its bindings (Embind) make
//   their call wrappers without new Function. 'wasm-unsafe-eval' compiles the
//   core itself. Only two scripts may run text as JavaScript, each under its own
//   header: the core worker (the lessons' own check expressions, WORKER_CSP) and
//   the code-cell sandbox (the learner's code, SANDBOX_CSP). A worker is not
//   bound by the page's meta tag, only by its script's header.
// - style-src 'unsafe-inline': KaTeX lays out formulas with style attributes;
//   font-src data: its smallest fonts are inlined into the CSS by the build.
// - connect-src 'self': the weights, the core's .wasm and lesson files come
//   from the site; nothing is sent anywhere.
// - worker-src 'self': the core worker, the code-cell sandboxes, the service worker.

/** The page's policy (a meta tag in dist/index.html, and the header on every response). */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
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

/**
 * The core worker's own policy (its script's response header): the page's, plus
 * 'unsafe-eval' for the lessons' check expressions (authored in the lesson files,
 * web/src/worker/lessonOps/code.ts), which it runs with new Function.
 */
export const WORKER_CSP = PAGE_CSP.replace("script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'");

/** The core worker's built script (vite names a worker chunk after its entry file, worker/worker.ts). */
export const WORKER_SCRIPT = /\/assets\/worker-[\w-]+\.js$/;

/** What only a header can say: no framing by other sites (clickjacking), no content-type sniffing. */
export const HEADER_ONLY = { frameAncestors: "frame-ancestors 'none'", nosniff: 'nosniff' } as const;

/** The sandbox worker's built script (vite names a worker chunk after its entry file, worker/sandbox/sandbox.ts). */
export const SANDBOX_SCRIPT = /\/assets\/sandbox-[\w-]+\.js$/;

/** The headers for one response of `npm run preview` (path without the query). */
export function previewHeaders(path: string): Record<string, string> {
  const policy = SANDBOX_SCRIPT.test(path) ? SANDBOX_CSP : WORKER_SCRIPT.test(path) ? WORKER_CSP : PAGE_CSP;
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
