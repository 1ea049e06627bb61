// The app's state as signals.
//
// View state (what the learner chose; shareable, mirrored in the URL):
//   view, labSettings.
// Session state (what the core computed or reported; never in the URL):
//   core status and notices, the lab's latest result or error, the seed rows.
//
// One effect sends the lab settings to the worker whenever they change, on the
// lab's own channel (labChannels.ts): a newer request drops an older one's
// result, so only the newest settings reach the screen. Lesson widgets keep
// their own settings and ask on their own channels: they never write these.
import { batch, effect, signal } from '@preact/signals';
import { CoreClient, TIME_LIMIT_ERROR, type WorkerLike } from './coreClient';
import { readInspectorUrl, writeInspectorUrl, type InspectorSettings } from './inspectorSettings';
import { LabChannels } from './labChannels';
import { DEFAULT_LAB, type LabSettings } from './labSettings';
import type { ErrorData, LabResult, SeedRow } from './protocol';
import { readUrl, writeUrl, type View } from './urlState';

// ---- view state ----
const initial = readUrl(location.search);
export const view = signal<View>(initial.state.view);
export const labSettings = signal<LabSettings>(initial.state.lab);
const initialInspector = readInspectorUrl(location.search);
export const inspectorSettings = signal<InspectorSettings>(initialInspector.settings);
/** Problems found in the address when the page opened (shown once, dismissible). */
export const urlProblems = signal<string[]>([...initial.problems, ...initialInspector.problems]);

// ---- session state ----
export type CoreStatus = 'loading' | 'ready' | 'failed';
export const coreStatus = signal<CoreStatus>('loading');
/** A notice about the core itself (it crashed and was restarted, or failed). */
export const coreNotice = signal<{ kind: 'restarted' | 'failed'; text: string } | null>(null);

export interface LabOutcome {
  settings: LabSettings;
  result: LabResult | null; // the last good result (kept while an error shows)
  error: ErrorData | null;
  /**
   * performance.now() when the settings changed. Settings change inside the
   * handler of the input event that changed them (the signal's effect runs
   * synchronously), so this is the moment of that event, for the timing readout.
   */
  startedAt: number;
  /** performance.now() when the worker's answer arrived on the page. */
  arrivedAt: number;
  /** Time the worker spent in the core for this result (ms); 0 for errors. */
  computeMs: number;
  /** The first result of this page (its time includes starting the worker and the core). */
  first: boolean;
}
export const labOutcome = signal<LabOutcome | null>(null);
export const seedRows = signal<SeedRow[] | null>(null);
export const seedError = signal<ErrorData | null>(null);

/** Called after the worker was replaced (its state is gone): views and widgets re-send what they need. */
export const restartListeners: (() => void)[] = [];

// ---- the core ----
export const core = new CoreClient(
  (): WorkerLike => new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'glass-core' }),
  {
    onReady: () => {
      coreStatus.value = 'ready';
    },
    onRestart: (reason, restarts) => {
      const times = restarts > 1 ? ` (${restarts} times so far)` : '';
      coreNotice.value = {
        kind: 'restarted',
        text:
          reason.name === TIME_LIMIT_ERROR
            ? `Lesson code ran too long (${reason.message}), so the core was stopped and restarted${times}. Your settings and progress are kept.`
            : `The core stopped (${reason.name}: ${reason.message}) and was restarted${times}. Your settings are kept.`,
      };
      recompute(); // the result on screen came from the old worker: ask the new one
      for (const listener of restartListeners) listener();
    },
    onFailed: (reason) => {
      coreStatus.value = 'failed';
      coreNotice.value = { kind: 'failed', text: `The core is not available: ${reason.message}` };
    },
  },
);

/** The lab view's channel; lesson widgets use channels of their own. */
const LAB_CHANNEL = 'lab';
export const labChannels = new LabChannels(core);

export function loadSeed(): void {
  void core.request('seed', null).then((o) => {
    if (o.status === 'ok') {
      seedRows.value = o.value;
      seedError.value = null;
    } else if (o.status === 'error') seedError.value = o.error;
  });
}

function recompute(): void {
  const settings = labSettings.peek();
  const startedAt = performance.now();
  void labChannels.ask(LAB_CHANNEL, settings).then((o) => {
    if (o.status === 'stale') return;
    const arrivedAt = performance.now();
    const previous = labOutcome.peek()?.result ?? null;
    labOutcome.value =
      o.status === 'ok'
        ? { settings, result: o.value, error: null, startedAt, arrivedAt, computeMs: o.computeMs, first: labOutcome.peek() === null }
        : { settings, result: previous, error: o.error, startedAt, arrivedAt, computeMs: 0, first: false };
  });
  if (seedRows.peek() === null) loadSeed();
}

let started = false;
/** Starts the effects (once): compute on every settings change, mirror state in the URL. */
export function startApp(): void {
  if (started) return;
  started = true;
  effect(() => {
    labSettings.value; // subscribe
    recompute();
  });

  // URL: a view change is a history entry; settings replace the current one
  // (debounced: browsers throttle rapid history updates while a slider moves).
  // A navigation that writes its own entry first (a lesson step, Back/Forward, a
  // link inside a lesson) leaves the address already showing the new view, so
  // nothing more is pushed: one click, one entry, one Back.
  let timer: ReturnType<typeof setTimeout> | undefined;
  effect(() => {
    const state = { view: view.value, lab: labSettings.value };
    const inspector = inspectorSettings.value;
    const address = () => writeInspectorUrl(inspector, writeUrl(state, location.search));
    clearTimeout(timer);
    if (state.view !== readUrl(location.search).state.view) {
      history.pushState(null, '', address());
      return;
    }
    timer = setTimeout(() => history.replaceState(null, '', address()), 150);
  });
  addEventListener('popstate', () => {
    const read = readUrl(location.search);
    view.value = read.state.view;
    labSettings.value = read.state.lab;
    const inspector = readInspectorUrl(location.search);
    inspectorSettings.value = inspector.settings;
    const problems = [...read.problems, ...inspector.problems];
    if (problems.length > 0) urlProblems.value = problems;
  });

  // For tests and the curious (DevTools console).
  (globalThis as { glassDebug?: unknown }).glassDebug = {
    trap: () => core.debugTrap(),
    restarts: () => core.restarts,
  };
}

export function resetLab(): void {
  labSettings.value = { ...DEFAULT_LAB };
}

/** A lesson widget's "open these settings in the lab": the learner asked to hand them over. */
export function openInLab(settings: LabSettings): void {
  batch(() => {
    labSettings.value = settings;
    view.value = 'lab';
  });
}
