// The headers that make a page cross-origin isolated, so the browser lets it
// share memory with its workers (SharedArrayBuffer) and the threaded core can
// run (core/threadedBuild.ts). One place for the three that send them:
// `npm start` and `npm run preview` (security.config.ts), and the offline
// service worker (sw.ts), which adds them to every response it serves, for a
// host that cannot send headers. README "Threads in the browser".
//  - COOP same-origin: no window of another site shares this page's process group.
//  - COEP require-corp: every resource the page loads must agree to it (same
//    origin, or a Cross-Origin-Resource-Policy header); the app loads nothing
//    from another origin.
//  - CORP same-origin: this site's files agree to be loaded by its own pages.
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
