// GlassLLM: the app shell. The wasm core runs in a Web Worker (app/coreClient.ts);
// this thread only renders and validates input.
import { render } from 'preact';
import { App } from './app/App';
import { installConsoleApi } from './app/consoleApi';
import { startApp } from './app/state';
import './app/base.css';

startApp();
installConsoleApi();
render(<App />, document.getElementById('app')!);
