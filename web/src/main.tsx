// GlassLLM: the app shell. The wasm core runs in a Web Worker (app/coreClient.ts);
// this thread only renders and validates input. This is the one place that
// starts anything: the worker, the app's effects, the console API.
import { render } from 'preact';
import { App } from './app/App';
import { installConsoleApi } from './app/consoleApi';
import { startApp } from './app/state';
import './app/base.css';

startApp(() => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module', name: 'glass-core' }));
installConsoleApi();
render(<App />, document.getElementById('app')!);
