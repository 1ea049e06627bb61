// The inspector's side of the "Look inside" tools: what they are handed (the
// run on screen, the model's shape from its own config, the names of its
// snapshots and parameters, the address settings) and how the weights are
// named and downloaded for the "Reproduce in PyTorch" line.
import type { ModelInfo } from '../../protocol/model';
import type { InspectResult } from '../../protocol/model';
import { OWN_WEIGHTS_FILE, SHIPPED_WEIGHTS_FILE } from '../../viewmodels/reproduce';
import type { ToolContext } from '../../widgets/inspector/interpContext';
import { ownWeights, weightsCopy } from '../inspectorState';
import type { InterpSettings } from '../interpSettings';
import { download } from '../npy';
import { inspectorSettings, interpSettings } from '../state';

const onChange = (patch: Partial<InterpSettings>) => (interpSettings.value = { ...interpSettings.peek(), ...patch });

function downloadWeights(): void {
  const bytes = weightsCopy();
  if (bytes !== null) download(OWN_WEIGHTS_FILE, new Uint8Array(bytes), 'application/octet-stream');
}

export function lookInsideContext(result: InspectResult, info: ModelInfo, onTensor: (name: string) => void): ToolContext {
  const own = ownWeights.value !== null;
  return {
    run: result.run,
    labels: result.labels,
    settings: interpSettings.value,
    onChange,
    tensor: inspectorSettings.value.tensor,
    onTensor,
    model: { blocks: info.blocks, d: info.d, heads: info.heads, norm: info.norm, normKind: info.normKind, residual: info.residual },
    snapshots: result.names,
    params: Object.keys(result.paramGradNorms ?? {}),
    weightsFile: own ? OWN_WEIGHTS_FILE : SHIPPED_WEIGHTS_FILE,
    ownWeights: own,
    onDownloadWeights: downloadWeights,
  };
}
