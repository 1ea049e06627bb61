// GlassLLM: the app shell. The wasm core runs in a Web Worker (app/coreClient.ts);
// learner code cells each in a sandbox worker of their own (app/sandboxClient.ts);
// this thread only renders and validates input. This is the one place that
// starts anything: the workers, the app's effects, the console API.
/// <reference types="vite-plugin-pwa/client" />
import { render } from 'preact';
import { registerSW } from 'virtual:pwa-register';
import { App } from './app/App';
import { installConsoleApi } from './app/consoleApi';
import { installFormValueStrings } from './app/formValues';
import { startSandbox } from './app/core';
import { FramedSandbox, sandboxParts } from './app/sandboxFrame';
import { startOffline } from './app/offline';
import { startApp } from './app/state';
import { workerName } from './app/threadSetting';
import './app/base.css';
import sandboxScript from './worker/sandbox/sandbox.ts?worker&url';

installFormValueStrings(); // before anything renders
startApp(() => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module', name: workerName('glass-core') }));
// One fresh sandbox per code-cell run: nothing the learner's code does outlives it.
// Built, each is a frame in a process of its own (so filling the memory cannot end
// the page's); the dev server's worker is not one file, so there it is a plain worker.
if (import.meta.env.DEV) {
  startSandbox(() => new Worker(new URL('./worker/sandbox/sandbox.ts', import.meta.url), { type: 'module', name: 'glass-sandbox' }));
} else {
  const assets = {
    frame: new URL('sandbox.html', document.baseURI).href,
    script: sandboxScript,
    wasm: { simd128: new URL('./core/wasm/glass_core.wasm', import.meta.url).href, 'relaxed-fma': new URL('./core/wasm/glass_core_fma.wasm', import.meta.url).href },
  };
  const parts = sandboxParts(assets);
  startSandbox(() => new FramedSandbox(parts, assets.frame));
}
installConsoleApi();
startOffline(registerSW);
render(<App />, document.getElementById('app')!);
