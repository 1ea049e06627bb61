// The app's state as signals.
//
// View state (what the learner chose; shareable, mirrored in the URL):
//   view, labSettings.
// Session state (what the core computed or reported; never in the URL):
//   core status and notices, the lab's latest result or error, the seed rows.
//
// One effect sends the lab settings to the worker whenever they change, on the
// lab's own channel: a newer request on it drops an older one's result
// (coreClient.ts), so only the newest settings reach the screen. Lesson widgets
// keep their own settings and ask on their own channels: they never write these.
//
// Nothing happens at import: startApp (called once by main.tsx) reads the
// address, starts the core's worker and the effects.
import { batch, effect, signal } from '@preact/signals';
import type { ErrorData } from '../protocol/base';
import type { LabResult, SeedRow } from '../protocol/lab';
import { shortProblem } from '../protocol/validate';
import { core, sandbox, startCore } from './core';
import { BAD_MESSAGE_ERROR, NO_ANSWER_ERROR, TIME_LIMIT_ERROR, type WorkerLike } from './coreClient';
import { DEFAULT_INSPECTOR, readInspectorUrl, truncateUtf8, writeInspectorUrl, type InspectorSettings } from './inspectorSettings';
import { DEFAULT_INTERP, readInterpUrl, writeInterpUrl, type InterpSettings } from './interpSettings';
import { DEFAULT_LAB, type LabSettings } from './labSettings';
import { keepPrompt, keptPrompt } from './promptStore';
import { coreThreads } from './threadSetting';
import { readUrl, writeUrl, type View } from './urlState';

// ---- view state (read from the address by startApp) ----
export const view = signal<View>('start');
export const labSettings = signal<LabSettings>(DEFAULT_LAB);
export const inspectorSettings = signal<InspectorSettings>(DEFAULT_INSPECTOR);
/** The inspector's "Look inside" tools: the open tool, position, coordinate, head, interventions (interpSettings.ts). */
export const interpSettings = signal<InterpSettings>(DEFAULT_INTERP);
/** Problems found in the address when the page opened (shown once, dismissible). */
export const urlProblems = signal<string[]>([]);

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

/** The lab view's channel; lesson widgets use channels of their own. */
const LAB_CHANNEL = 'lab';

export function loadSeed(): void {
  void core().request('seed', null).then((o) => {
    if (o.status === 'ok') {
      seedRows.value = o.value;
      seedError.value = null;
    } else if (o.status === 'error') seedError.value = o.error;
  });
}

function recompute(): void {
  const settings = labSettings.peek();
  const startedAt = performance.now();
  void core().request('lab', settings, { channel: LAB_CHANNEL }).then((o) => {
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

/** The notice after a restart: short, whatever the reason's text (the weights go to the new core by themselves). */
export function restartText(reason: ErrorData, times: string): string {
  const why = shortProblem(reason.message, 120);
  if (reason.name === TIME_LIMIT_ERROR) return `The core took too long (${why}), so it was restarted${times}. Your settings are kept.`;
  if (reason.name === NO_ANSWER_ERROR) return `The core stopped answering (${why}), so it was restarted${times}. Your settings are kept.`;
  if (reason.name === BAD_MESSAGE_ERROR) return `The core's answer could not be trusted (${why}), so it was restarted${times}. Your settings are kept.`;
  return `The core stopped (${reason.name}: ${why}) and was restarted${times}. Your settings are kept.`;
}

let started = false;
/**
 * Starts the app (once): reads the address, starts the core's worker (`spawn`),
 * computes on every settings change and mirrors the state in the address.
 */
export function startApp(spawn: () => WorkerLike): void {
  if (started) return;
  started = true;
  const initial = readUrl(location.search);
  const initialInspector = readInspectorUrl(location.search, null); // names checked against the model once it loads (inspectorState.ts)
  // no prompt in the address: the long one this tab kept (promptStore.ts), if any
  const kept = new URLSearchParams(location.search).has('prompt') ? null : keptPrompt();
  if (kept !== null) initialInspector.settings.prompt = kept;
  const initialInterp = readInterpUrl(location.search, truncateUtf8(initialInspector.settings.prompt).bytes);
  batch(() => {
    view.value = initial.state.view;
    labSettings.value = initial.state.lab;
    inspectorSettings.value = initialInspector.settings;
    interpSettings.value = initialInterp.settings;
    urlProblems.value = [...initial.problems, ...initialInspector.problems, ...initialInterp.problems];
  });
  startCore(spawn, {
    onReady: (core) => {
      coreStatus.value = 'ready';
      coreThreads.value = core ?? null;
    },
    onRestart: (reason, restarts) => {
      const times = restarts > 1 ? ` (${restarts} times so far)` : '';
      coreNotice.value = { kind: 'restarted', text: restartText(reason, times) };
      recompute(); // the result on screen came from the old worker: ask the new one
    },
    onFailed: (reason) => {
      coreStatus.value = 'failed';
      coreNotice.value = { kind: 'failed', text: `The core is not available: ${reason.message}` };
    },
  });
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
    const interp = interpSettings.value;
    keepPrompt(inspector.prompt);
    const address = () => writeInterpUrl(interp, writeInspectorUrl(inspector, writeUrl(state, location.search)));
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
    const inspector = readInspectorUrl(location.search, null); // names checked against the model once it loads (inspectorState.ts)
    inspectorSettings.value = inspector.settings;
    const interp = readInterpUrl(location.search, truncateUtf8(inspector.settings.prompt).bytes);
    interpSettings.value = interp.settings;
    const problems = [...read.problems, ...inspector.problems, ...interp.problems];
    if (problems.length > 0) urlProblems.value = problems;
  });

  // For tests and the curious (DevTools console).
  (globalThis as { glassDebug?: unknown }).glassDebug = {
    trap: () => core().debugTrap(),
    /** A request that never ends: stopped after `ms` and the worker replaced (the watchdog at work). */
    hang: (ms = 1000) => core().request('debugHang', null, { timeLimitMs: ms }),
    restarts: () => core().restarts,
    /** Runs code in a code-cell sandbox with its own time limit (a cell's is 3 s): what happens when a sandbox's process ends. */
    sandbox: (code: string, timeLimitMs = 3000) => sandbox().run(code, { channel: 'debug', weights: null, timeLimitMs }),
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
