// Start a run from weights saved earlier (a .safetensors file from "Save
// weights"), to train on from them. The page only reads the file's bytes; the
// trainer's core checks them (header, config, every tensor) and says why it
// refuses a file.
import { useState } from 'preact/hooks';
import type { LoadedFile, RunState } from '../../viewmodels/train';
import { sizeText } from '../../viewmodels/trainData';

/** Larger than any model the ranges allow (24 blocks of d = 256 in float64 is about 150 MB). */
const MAX_WEIGHTS_BYTES = 200 * 1024 * 1024;

interface Props {
  run: RunState;
  locked: boolean;
  onLoad: (file: LoadedFile | null) => void;
}

export function WeightsLoader({ run, locked, onLoad }: Props) {
  const [problem, setProblem] = useState<string | null>(null);
  const id = `run-${run.id}-weights-file`;
  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (file === undefined) return;
    if (file.size > MAX_WEIGHTS_BYTES) {
      setProblem(`“${file.name}” is ${sizeText(file.size)}: larger than any model this page can train, so it was not read.`);
      input.value = '';
      return;
    }
    setProblem(null);
    try {
      onLoad({ name: file.name, bytes: await file.arrayBuffer() });
    } catch (e) {
      setProblem(`“${file.name}” could not be read: ${e instanceof Error ? e.message : String(e)}.`);
    }
  };
  return (
    <div class="weights-loader">
      <label for={id}>Start run {run.id} from saved weights (.safetensors)</label>
      <input id={id} type="file" accept=".safetensors" disabled={locked} onChange={(e) => void onFile(e.currentTarget)} data-testid={`run-${run.id}-weights-file`} />
      {run.weightsFile !== null && (
        <p class="sf-note">
          Run {run.id} will start from “{run.weightsFile.name}” ({sizeText(run.weightsFile.bytes.byteLength)}).{' '}
          <button type="button" disabled={locked} onClick={() => onLoad(null)}>
            Start from {run.init === 'shipped' ? 'the shipped model' : 'random weights'} instead
          </button>
        </p>
      )}
      {problem !== null && (
        <p class="notice notice-bad" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
