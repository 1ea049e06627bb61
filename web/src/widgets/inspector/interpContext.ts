// What every "Look inside" tool is given by the inspector: the run on screen,
// the prompt's byte labels, the tools' address settings and the loaded model's
// shape (block and head counts come from its config, never assumed).
import type { InterpSettings } from '../../app/interpSettings';
import type { ModelRunSettings } from '../../protocol/model';
import type { ModelShape } from '../../protocol/modelNames';

export interface ToolContext {
  run: ModelRunSettings;
  /** The core's display label of each byte of the prompt. */
  labels: readonly string[];
  settings: InterpSettings;
  onChange: (patch: Partial<InterpSettings>) => void;
  /** The inspector's open tensor (the lens's depth, the gradient check's snapshot). */
  tensor: string;
  onTensor: (name: string) => void;
  /** The loaded model's config (its words: norms, stream names), with its head count. */
  model: ModelShape & { heads: number };
  /** Snapshot names of the run, in the order the model computes them. */
  snapshots: readonly string[];
  /** Parameter names of the loaded model. */
  params: readonly string[];
  /** How the reproduce line names the weights file, and whether they are the learner's own (to be downloaded first). */
  weightsFile: string;
  ownWeights: boolean;
  onDownloadWeights: () => void;
}
