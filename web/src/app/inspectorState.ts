// The inspector's session state: the weights (fetched with progress, then moved
// to the worker), and the latest result of the 'inspect' request. The settings
// (view state, in the URL) are `inspectorSettings` in state.ts.
//
// One effect sends the settings to the worker whenever they change and the
// weights are loaded; stale results are dropped by the client.
import { batch, computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { ErrorData } from '../protocol/base';
import type { InspectInput, InspectResult, ModelInfo } from '../protocol/model';
import { core, onCoreRestart } from './core';
import { lateBusy } from './lateBusy';
import { truncateUtf8, CONTEXT_BYTES, fitToModel, type InspectorSettings, type Truncated } from './inspectorSettings';
import { inspectorSettings, urlProblems } from './state';

/** Served from public/weights/ (Vite's publicDir), relative to the page so dist/ works anywhere. */
export const WEIGHTS_PATH = 'weights/glass-kjv.safetensors';

export type WeightsState =
  | { status: 'idle' }
  | { status: 'fetching'; received: number; total: number | null }
  | { status: 'loading'; bytes: number } // the core is reading them
  | { status: 'ready'; info: ModelInfo; bytes: number }
  | { status: 'failed'; message: string };

// The worker holds up to two models (worker/state.ts): the shipped one, which
// lessons always read, and the learner's own, which the inspector and the
// console show once opened. Each has its state here, its file (kept to reload a
// restarted worker) and the promise of its loading.
interface Slot {
  whose: 'shipped' | 'own';
  state: Signal<WeightsState>;
  file: ArrayBuffer | null;
  loading: Promise<boolean> | null;
}
const shipped: Slot = { whose: 'shipped', state: signal<WeightsState>({ status: 'idle' }), file: null, loading: null };
const own: Slot = { whose: 'own', state: signal<WeightsState>({ status: 'idle' }), file: null, loading: null };

/** Whose weights the inspector shows: null for the shipped model, else a description of the learner's (a file, or a run of the Train view). */
export const ownWeights = signal<string | null>(null);
/** The shipped weights' state: what lessons read, whatever the inspector shows. */
export const shippedWeights: ReadonlySignal<WeightsState> = shipped.state;
/** The inspector's (and the console's) weights: the learner's own once opened, else the shipped ones. */
export const weights = computed<WeightsState>(() => (ownWeights.value !== null ? own.state.value : shipped.state.value));

const shownSlot = (): Slot => (ownWeights.peek() !== null ? own : shipped);

/** A copy of the file the inspector shows (to download it), or null before it is fetched. */
export function weightsCopy(): ArrayBuffer | null {
  return shownSlot().file?.slice(0) ?? null;
}

/** A copy of the shipped weights file (for a lesson code cell's sandbox), or null before they are fetched. */
export function shippedWeightsCopy(): ArrayBuffer | null {
  return shipped.file?.slice(0) ?? null;
}

/** Fetches the shipped weights with progress and loads them into the worker (once). Resolves true when ready. */
export function ensureShippedWeights(): Promise<boolean> {
  if (shipped.loading === null) {
    const first: Promise<boolean> = fetchAndLoad().then((ok) => {
      if (!ok && shipped.loading === first) shipped.loading = null; // a retry may fetch again
      return ok;
    });
    shipped.loading = first;
  }
  return shipped.loading;
}

/** Resolves true when the weights the inspector shows are in the worker (the shipped ones are fetched on first need). */
export function ensureWeights(): Promise<boolean> {
  const slot = shownSlot();
  return slot === own && own.loading !== null ? own.loading : ensureShippedWeights();
}

async function fetchAndLoad(): Promise<boolean> {
  const url = new URL(WEIGHTS_PATH, document.baseURI).href;
  let buffer: ArrayBuffer;
  try {
    shipped.state.value = { status: 'fetching', received: 0, total: null };
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText} for ${WEIGHTS_PATH}`);
    const length = Number(response.headers.get('Content-Length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    buffer = await readWithProgress(response, total);
  } catch (e) {
    shipped.state.value = { status: 'failed', message: `The weights could not be downloaded: ${e instanceof Error ? e.message : String(e)}.` };
    return false;
  }
  shipped.file = buffer;
  reloadAfterRestarts();
  return sendWeights(shipped);
}

async function readWithProgress(response: Response, total: number | null): Promise<ArrayBuffer> {
  if (response.body === null) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    shipped.state.value = { status: 'fetching', received, total };
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out.buffer;
}

// A new worker (after a crash, or a lesson cell stopped at its time limit) has no
// model: load the kept files again (the shipped one first). Whoever uses a model
// (the inspector's effect, a lesson step through ensureShippedWeights) waits for this reload.
let reloading = false;
function reloadAfterRestarts(): void {
  if (reloading) return;
  reloading = true;
  onCoreRestart(() => {
    for (const slot of [shipped, own]) {
      if (slot.file === null) continue;
      const reload = sendWeights(slot).then((ok) => {
        if (!ok && slot.loading === reload) slot.loading = null;
        return ok;
      });
      slot.loading = reload;
    }
  });
}

/** Moves a copy of a slot's file to the worker (the copy is transferred, not cloned). */
async function sendWeights(slot: Slot): Promise<boolean> {
  if (slot.file === null) return false;
  const copy = slot.file.slice(0);
  slot.state.value = { status: 'loading', bytes: slot.file.byteLength };
  const o = await core().request('loadWeights', { bytes: copy, whose: slot.whose }, { transfer: [copy], channel: slot.whose });
  if (o.status === 'ok') {
    const problem = checkShape(o.value);
    if (problem !== null) {
      slot.state.value = { status: 'failed', message: problem };
      return false;
    }
    slot.state.value = { status: 'ready', info: o.value, bytes: slot.file.byteLength };
    return true;
  }
  if (o.status === 'error') slot.state.value = { status: 'failed', message: `The weights file was refused: ${o.error.message}` };
  return false;
}

/** The inspector draws any config the core loads (blocks, width, norms, residuals, context); its prompts and labels are bytes. */
function checkShape(info: ModelInfo): string | null {
  if (info.vocab !== 256) return `These weights read ${info.vocab} symbols, not the 256 byte values; the inspector shows byte-level models.`;
  return null;
}

/** The loaded model's config (ModelSession.config()), or null until it is loaded: what the inspector draws. */
export const loadedModel = computed<ModelInfo | null>(() => {
  const w = weights.value;
  return w.status === 'ready' ? w.info : null;
});

/** The loaded model's context in bytes (the shipped model's until one is loaded). */
export const contextBytes = computed(() => loadedModel.value?.context ?? CONTEXT_BYTES);

// ---- the latest result ----

/** The prompt as the model will see it. */
export const promptRun = computed<Truncated>(() => truncateUtf8(inspectorSettings.value.prompt, contextBytes.value));

export interface InspectOutcome {
  input: InspectInput;
  result: InspectResult | null; // the last good one, kept while an error shows
  error: ErrorData | null;
  computeMs: number;
}
export const inspectOutcome = signal<InspectOutcome | null>(null);
/** A learner notices a wait from about a tenth of a second; a run of the shipped model on 128 bytes takes about 20 ms. */
const INSPECT_BUSY_CUE_MS = 150;
const busy = lateBusy(INSPECT_BUSY_CUE_MS);
/** A run has been under way for INSPECT_BUSY_CUE_MS or more: the results shown are the last run's. */
export const inspectBusy = busy.shown;
let inspectAsked = 0; // the newest inspect request's number
let modelSwitches = 0; // an answer from before a switch is the other model's: not shown

export function inputOf(s: InspectorSettings, text: string): InspectInput {
  const grad = s.grad;
  return {
    run: { text, eps: s.eps, dtype: s.dtype },
    show: s.compare === null ? { kind: 'single', name: s.tensor, grad } : { kind: 'compare', a: s.compare[0], b: s.compare[1], grad },
  };
}

function reinspect(): void {
  const s = inspectorSettings.peek();
  const { text } = promptRun.peek();
  const model = loadedModel.peek();
  if (model === null || text === '') return;
  if (fitToModel(s, model).problems.length > 0) return; // fitSettings replaces them first
  const input = inputOf(s, text);
  const asked = ++inspectAsked;
  const switches = modelSwitches;
  busy.start();
  void core().request('inspect', input).then((o) => {
    // an older run's answer is shown while the newest computes (a slider dragged): still busy then
    if (asked === inspectAsked) busy.end();
    // a request superseded before it ran, or a run of the model shown before a switch
    if (o.status === 'stale' || switches !== modelSwitches) return;
    if (o.status === 'ok' && inspectOutcome.peek() === null) {
      // for bench/browser: ms from navigation start to the first inspector result on screen
      (globalThis as { glassTimings?: Record<string, number> }).glassTimings = { firstInspectMs: performance.now() };
    }
    const previous = inspectOutcome.peek()?.result ?? null;
    inspectOutcome.value =
      o.status === 'ok' ? { input, result: o.value, error: null, computeMs: o.computeMs } : { input, result: previous, error: o.error, computeMs: 0 };
  });
}

// Set when the learner switches models (their own weights, or back to the
// shipped ones): a tensor the new model lacks is then replaced quietly, and the
// eps starts at the new model's own; otherwise the names came from the address.
let switching = false;

/** Fits the settings to the model once it is known: names it lacks are replaced by its defaults. */
function fitSettings(model: ModelInfo): void {
  const s = inspectorSettings.peek();
  const address = new URLSearchParams(location.search);
  const fit = fitToModel(s, model, { tensor: address.has('tensor'), compare: address.has('compare') });
  const wasSwitch = switching;
  switching = false;
  const settings = wasSwitch ? { ...fit.settings, eps: model.eps } : fit.settings;
  if (settings.tensor === s.tensor && settings.compare === s.compare && settings.eps === s.eps) return;
  if (!wasSwitch) urlProblems.value = [...urlProblems.peek(), ...fit.problems];
  inspectorSettings.value = settings;
}

let started = false;
/** Starts loading the weights and the effect that runs the model (once, when the inspector opens). */
export function startInspector(): void {
  if (started) return;
  started = true;
  void ensureWeights();
  effect(() => {
    inspectorSettings.value; // subscribe: an address read later (Back/Forward) is checked too
    const model = loadedModel.value;
    if (model !== null) fitSettings(model);
  });
  effect(() => {
    inspectorSettings.value; // subscribe
    promptRun.value;
    if (weights.value.status === 'ready') reinspect();
  });
}

/**
 * Shows the learner's own weights (a .safetensors file, or one the Train view
 * made) in place of the shipped ones, until Retry or a reload. The shipped model
 * stays loaded beside them for the lessons. Resolves true when loaded.
 */
export function loadOwnWeights(bytes: ArrayBuffer, label: string): Promise<boolean> {
  switching = true;
  own.file = bytes;
  reloadAfterRestarts();
  // sent (and the own state set to loading) before the inspector switches, so its next request finds the new model
  const loading: Promise<boolean> = sendWeights(own);
  own.loading = loading;
  modelSwitches += 1;
  batch(() => {
    inspectOutcome.value = null; // the last run was another model's
    ownWeights.value = label;
  });
  return loading;
}

/** Retry after a failed download or a refused file (or go back to the shipped weights). */
export function retryWeights(): void {
  if (ownWeights.peek() !== null) {
    // asked first: the inspector's next request (sent as soon as the signals change) must reach the shipped model
    void core().request('forgetOwnWeights', null);
    switching = true;
    own.file = null;
    own.loading = null;
    modelSwitches += 1;
    batch(() => {
      inspectOutcome.value = null;
      ownWeights.value = null;
      own.state.value = { status: 'idle' };
    });
  }
  if (shipped.state.peek().status === 'failed') {
    shipped.loading = null;
    shipped.file = null;
  }
  void ensureWeights();
}
