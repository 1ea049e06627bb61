// The offline service worker (vite-plugin-pwa builds it, vite.config.ts): it
// precaches the whole site on the first visit, so the site then works offline,
// and a new deployment waits until the learner accepts the update notice
// (app/UpdateNotice.tsx, which asks it to SKIP_WAITING).
//
// It also serves every response with the headers that make the page
// cross-origin isolated (common/isolation.ts): on a static host that cannot
// send them, the page is isolated from the first reload the service worker
// controls, and the threaded core runs. Headers the server sent (the sandbox
// frame's Content-Security-Policy) are kept as they were cached.
/// <reference lib="webworker" />
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { ISOLATION_HEADERS } from './common/isolation';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

function withIsolation(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'error') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

addPlugins([{ handlerWillRespond: async ({ response }) => withIsolation(response) }]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
