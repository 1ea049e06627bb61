// The model inspector's requests and the console's glass.model (worker side:
// web/src/worker/inspector.ts).
import type { Intervention, ModelInfo, ModelRun, Prediction } from '../core';
import type { DTypeName, ShownTensor } from './base';

/** The verse the inspector and the lessons' "your prompt" start with. */
export const DEFAULT_PROMPT = 'In the beginning God created the heaven and the earth.';

export type { ModelInfo, ModelRun, Prediction };

/**
 * Which model a request reads: 'shown' is the one the inspector shows (the
 * learner's own weights once opened, else the shipped ones); 'shipped' is always
 * the shipped model (what lessons are written about).
 */
export type ModelUse = 'shown' | 'shipped';

/** One run of the model: prompt (at most `context` UTF-8 bytes), eps of every norm, dtype. */
export interface ModelRunSettings {
  text: string;
  eps: number;
  dtype: DTypeName;
}

/** What the inspector shows: one tensor, or two and their difference (b − a). */
export type TensorSelection =
  | { kind: 'single'; name: string; grad: boolean }
  | { kind: 'compare'; a: string; b: string; grad: boolean };

export interface InspectInput {
  run: ModelRunSettings;
  show: TensorSelection;
}

export interface Outlook {
  eps: number;
  loss: number | null;
  top: Prediction[];
}

export interface InspectResult {
  run: ModelRunSettings;
  loss: number | null;
  ids: number[];
  /** The core's display label for each byte of the prompt. */
  labels: string[];
  /** The 5 most likely next bytes after the prompt at this eps. */
  top: Prediction[];
  /** The same at the weights' own eps (the default), for before/after. */
  baseline: Outlook;
  /** Snapshot names in the order the model computed them. */
  names: string[];
  /** Residual stream by depth: embed, each block's resid.attn and resid.ffn, norm.final. */
  depth: {
    names: string[];
    rms: (Float32Array | Float64Array)[]; // per name: per-position RMS (n,)
    gradRms: (Float32Array | Float64Array)[] | null; // the same for the gradients
  };
  /** Snapshot name -> ||dL/d snapshot|| (null without backward: 1-byte prompt). */
  snapshotGradNorms: Record<string, number> | null;
  /** Parameter name -> ||dL/d parameter||. */
  paramGradNorms: Record<string, number> | null;
  shown: ShownTensor[]; // [t] or [a, b, b − a]
  /** ms the core spent: the forward(+backward) run (0 when the run was reused) and everything. */
  runMs: number;
}

/** The console's glass.model.run: a run with everything copied out. */
export interface ModelRunInput extends ModelRunSettings {
  backward: boolean;
  /** Also record blocks.{i}.attn.pattern (web/src/worker/interp.ts). */
  patterns?: boolean;
  /** Run with these changes (docs/model.md, "Interventions"); the result then carries `intervention`. */
  interventions?: Intervention[];
}

/** The console's glass.model.bench: `repeat` timed runs. */
export interface BenchInput extends ModelRunInput {
  repeat: number;
}

/** One chunk of glass.model.bench (worker/bench.ts): `warmUp` untimed runs, then `repeat` timed ones. */
export interface BenchChunkInput extends ModelRunInput {
  repeat: number;
  warmUp: number;
  /** Threads for this chunk only (the worker's setting is restored after it); its own setting if absent. */
  threads?: number;
}

// The stream by depth: one definition for every variant (modelNames.ts).
export { depthNames } from './modelNames';
