// The service worker's registration (app/offline.ts) with a fake registerSW:
// a waiting new version raises the update notice's signal, and accepting it
// activates the new version (registerSW's updateSW(true) reloads the page).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { offlineReady, startOffline, updateWaiting, type RegisterSW } from '../../web/src/app/offline';

describe('startOffline', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('registers at once; a new version waiting sets updateWaiting, and accepting it calls updateSW(true)', async () => {
    vi.stubGlobal('navigator', { serviceWorker: {} });
    const calls: (boolean | undefined)[] = [];
    let hooks!: Parameters<RegisterSW>[0];
    const register: RegisterSW = (options) => {
      hooks = options;
      return async (reload) => void calls.push(reload);
    };
    startOffline(register);
    expect(hooks.immediate).toBe(true);
    expect(updateWaiting.value).toBeNull();
    hooks.onOfflineReady!();
    expect(offlineReady.value).toBe(true);
    hooks.onNeedRefresh!();
    expect(updateWaiting.value).not.toBeNull();
    updateWaiting.value!();
    expect(calls).toEqual([true]);
    expect(() => hooks.onRegisterError!(new Error('no https'))).not.toThrow();
  });
});
