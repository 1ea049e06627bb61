// The RMSNorm lab as its widgets see it. The lab view gets `labView` as a prop
// (signals, so a new result re-renders the results and not the controls); the
// seed example and "random x" read and ask through here. The RMSNorm lesson's
// lab widgets have their own view-model, lessonLab.ts.
import { computed, type ReadonlySignal } from '@preact/signals';
import { core } from '../app/core';
import type { Outcome } from '../app/coreClient';
import { withX, type LabSettings } from '../app/labSettings';
import {
  coreStatus,
  labOutcome,
  labSettings,
  resetLab,
  seedError,
  seedRows,
  type CoreStatus,
  type LabOutcome,
} from '../app/state';
import type { ErrorData } from '../protocol/base';
import type { SeedRow } from '../protocol/lab';

export type { LabOutcome, CoreStatus };

/** What the lab view shows and changes. */
export interface LabViewModel {
  settings: ReadonlySignal<LabSettings>;
  outcome: ReadonlySignal<LabOutcome | null>;
  coreStatus: ReadonlySignal<CoreStatus>;
  seed: ReadonlySignal<SeedView>;
  set(patch: Partial<LabSettings>): void;
  setX(x: number[]): void;
  reset(): void;
}

export const labView: LabViewModel = {
  settings: labSettings,
  outcome: labOutcome,
  coreStatus,
  seed: computed(() => ({ rows: seedRows.value, error: seedError.value })),
  set: (patch) => (labSettings.value = { ...labSettings.peek(), ...patch }),
  setX: (x) => (labSettings.value = withX(labSettings.peek(), x)),
  reset: resetLab,
};

export interface SeedView {
  rows: SeedRow[] | null;
  error: ErrorData | null;
}

/** The seed example's rows (computed once when the app starts). */
export function useSeed(): SeedView {
  return labView.seed.value;
}

/** d seeded standard-normal values from the core, for the vector editor's "random" preset. */
export function randomVector(d: number, seed: number): Promise<Outcome<'randomVector'>> {
  return core().request('randomVector', { d, seed });
}
