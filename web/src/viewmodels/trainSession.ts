// The Train view's one session (made when the view first opens and kept while
// the learner visits other views, so the runs go on training), and the runs
// the trainer saved before a reload, which can be resumed.
import { signal } from '@preact/signals';
import { TrainSession, type RunId } from './train';
import { lessonsText } from './trainData';
import { discardSavedRun, listSavedRuns, spawnRun, type SavedRun } from './runLink';

export type { SavedRun };

let current: TrainSession | null = null;

export function trainSession(): TrainSession {
  current ??= new TrainSession(spawnRun, lessonsText);
  return current;
}

/** Unfinished runs the trainer saved in this browser before the page was left or reloaded (null: not looked yet). */
export const savedRuns = signal<SavedRun[] | null>(null);

let looked = false;
/** Once per page: look for saved runs to offer. */
export function lookForSavedRuns(): void {
  if (looked) return;
  looked = true;
  void refreshSaved();
}

/** The Train view's runs are kept under their names, 'A' and 'B'; the console's runs are not kept. */
export const runOfSaved = (saved: SavedRun): RunId | null => (saved.key === 'A' || saved.key === 'B' ? saved.key : null);

async function refreshSaved(): Promise<void> {
  try {
    // only the unfinished ones: a finished run has nothing left to resume
    savedRuns.value = (await listSavedRuns()).filter((r) => r.step < r.total && runOfSaved(r) !== null);
  } catch {
    savedRuns.value = []; // no storage (a private window): nothing to offer
  }
}

export function resumeSaved(saved: SavedRun): void {
  const id = runOfSaved(saved);
  if (id === null) return;
  trainSession().runs[id].resumeSaved(saved.key, `resumed from step ${saved.step.toLocaleString('en')}`);
  savedRuns.value = (savedRuns.peek() ?? []).filter((x) => x.key !== saved.key);
}

export async function discardSaved(key: string): Promise<void> {
  await discardSavedRun(key);
  await refreshSaved();
}

/** A run the learner reset is not offered after a reload. */
export async function forgetSaved(id: RunId): Promise<void> {
  try {
    await discardSavedRun(id);
  } catch {
    // no storage: nothing kept
  }
  await refreshSaved();
}
