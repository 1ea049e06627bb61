// The service worker (vite-plugin-pwa, configured in vite.config.ts): after the
// first visit the whole site is in the browser's cache and works offline. When
// a new version is deployed its service worker waits; the page says so
// (UpdateNotice.tsx) and the learner chooses when to reload into it.
// Nothing happens at import: main.tsx calls startOffline with the plugin's
// registerSW (a virtual module, so this file stays importable in tests).
import { signal } from '@preact/signals';

/** vite-plugin-pwa's registerSW (virtual:pwa-register). */
export type RegisterSW = (options: {
  immediate?: boolean;
  onNeedRefresh?: () => void;
  onOfflineReady?: () => void;
  onRegisterError?: (error: unknown) => void;
}) => (reloadPage?: boolean) => Promise<void>;

/** Set when a new version is waiting: calling it activates the new version and reloads. */
export const updateWaiting = signal<(() => void) | null>(null);
/** The site is cached: it works offline from now on. */
export const offlineReady = signal(false);

let started = false;
export function startOffline(register: RegisterSW): void {
  if (started || !('serviceWorker' in navigator)) return;
  started = true;
  const update = register({
    immediate: true,
    onNeedRefresh: () => (updateWaiting.value = () => void update(true)),
    onOfflineReady: () => (offlineReady.value = true),
    // No service worker (a private window, a host without HTTPS): the site still works online.
    onRegisterError: () => {},
  });
}
