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
//   the code-cell sandbox (the learner's code, SANDBOX_CSP, its frame's header).
//   A worker is not bound by the page's meta tag, only by its script's header
//   (or, from a blob: URL, by its frame's).
// - style-src 'unsafe-inline': KaTeX lays out formulas with style attributes;
//   font-src data: its smallest fonts are inlined into the CSS by the build.
// - connect-src 'self': the weights, the core's .wasm and lesson files come
//   from the site; nothing is sent anywhere.
// - worker-src 'self': the core worker, the trainers, the service worker.
// - frame-src (default-src 'self'): the code-cell sandbox's frame, sandbox.html.
import { createHash } from 'node:crypto';
import { ISOLATION_HEADERS } from './web/src/common/isolation';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
 * The code-cell sandbox's frame (public/sandbox.html, app/sandboxFrame.ts): its
 * response header. `sandbox allow-scripts` gives it an opaque origin, which
 * Chromium runs in a renderer process of its own, so learner code that fills the
 * JS heap ends that process and never the page's. Its one script is allowed by
 * its hash; the sandbox worker it starts from a blob: URL inherits this policy: it
 * may run the learner's code and compile the core from bytes the page sends, and
 * nothing else: no fetch (connect-src falls back to 'none'), no images, fonts or
 * other origins. Only the page may frame it.
 */
export const SANDBOX_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  `script-src '${frameScriptHash()}' 'unsafe-eval' 'wasm-unsafe-eval'`,
  'worker-src blob:',
].join('; ');

/** The sandbox frame's page. */
export const SANDBOX_PAGE = /\/sandbox\.html$/;

/** sha256 of the inline script of public/sandbox.html, as CSP writes it. */
function frameScriptHash(): string {
  const html = readFileSync(fileURLToPath(new URL('./public/sandbox.html', import.meta.url)), 'utf8');
  const script = /<script>([\s\S]*?)<\/script>/.exec(html);
  if (script === null) throw new Error('public/sandbox.html has no inline script');
  return `sha256-${createHash('sha256').update(script[1], 'utf8').digest('base64')}`;
}

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


/**
 * The headers for one response of `npm run preview` (path without the query),
 * cross-origin isolation included (common/isolation.ts). GLASS_NOT_ISOLATED=1
 * leaves those out: a host that does not send them (tests/e2e/threads-fallback.spec.ts).
 */
export function previewHeaders(path: string): Record<string, string> {
  const isolation = process.env.GLASS_NOT_ISOLATED === '1' ? {} : ISOLATION_HEADERS;
  if (SANDBOX_PAGE.test(path))
    return {
      'Content-Security-Policy': `${SANDBOX_CSP}; frame-ancestors 'self'`,
      'X-Content-Type-Options': HEADER_ONLY.nosniff,
      'Referrer-Policy': 'no-referrer',
      ...isolation,
    };
  const policy = WORKER_SCRIPT.test(path) ? WORKER_CSP : PAGE_CSP;
  return {
    'Content-Security-Policy': `${policy}; ${HEADER_ONLY.frameAncestors}`,
    'X-Content-Type-Options': HEADER_ONLY.nosniff,
    'Referrer-Policy': 'no-referrer',
    ...isolation,
  };
}

/**
 * The dev server (`npm start`) serves Vite's inline hot-reload scripts, so it
 * sends only the parts that do not restrict scripts.
 */
export const DEV_HEADERS: Record<string, string> = {
  'Content-Security-Policy': `object-src 'none'; base-uri 'none'; ${HEADER_ONLY.frameAncestors}`,
  'X-Content-Type-Options': HEADER_ONLY.nosniff,
  ...ISOLATION_HEADERS,
};
