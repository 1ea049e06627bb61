// GlassLLM: the app shell. The wasm core runs in a Web Worker (app/coreClient.ts);
// learner code cells each in a sandbox worker of their own (app/sandboxClient.ts);
// this thread only renders and validates input. This is the one place that
// starts anything: the workers, the app's effects, the console API.
/// <reference types="vite-plugin-pwa/client" />
import { render } from 'preact';
import { registerSW } from 'virtual:pwa-register';
import { App } from './app/App';
import { installConsoleApi } from './app/consoleApi';
import { startSandbox } from './app/core';
import { startOffline } from './app/offline';
import { startApp } from './app/state';
import './app/base.css';

startApp(() => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module', name: 'glass-core' }));
// One fresh worker per code-cell run: nothing the learner's code does outlives it.
startSandbox(() => new Worker(new URL('./worker/sandbox/sandbox.ts', import.meta.url), { type: 'module', name: 'glass-sandbox' }));
installConsoleApi();
startOffline(registerSW);
render(<App />, document.getElementById('app')!);
