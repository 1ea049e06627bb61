// The weights' download (a progress bar from Content-Length / streamed bytes),
// the core reading them, and a clear message if either fails; once loaded, what
// they are, a warning if some parameters hold NaN or infinite values, and a way
// to open a weights file of the learner's own.
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { ModelInfo } from '../../protocol/model';
import type { WeightsState } from '../../viewmodels/model';
import { NonFiniteWarning } from './NonFiniteWarning';
import './WeightsStatus.css';

const mb = (bytes: number) => `${fmt(bytes / 1e6, 3)} MB`;

type Shape = Pick<ModelInfo, 'blocks' | 'd' | 'heads' | 'context' | 'norm' | 'normKind' | 'residual'>;

/** "12 blocks, post-norm RMSNorm, d 64, 4 heads, context 64 bytes": a model's config in plain words. */
export function modelSummary(m: Shape): string {
  const kind = m.normKind === 'layer' ? 'LayerNorm' : 'RMSNorm';
  const norm = m.norm === 'none' ? 'no norms' : `${m.norm}-norm ${kind}`;
  return `${m.blocks} ${m.blocks === 1 ? 'block' : 'blocks'}, ${norm}${m.residual ? '' : ', no residuals'}, d ${m.d}, ${m.heads} ${m.heads === 1 ? 'head' : 'heads'}, context ${m.context} bytes`;
}

/** Larger than any model the Train view can make (24 blocks of d = 256 in float64 is about 150 MB). */
export const MAX_WEIGHTS_FILE_BYTES = 200 * 1024 * 1024;

interface Props {
  weights: WeightsState;
  onRetry: () => void;
  /** The learner's weights (their description: a run of the Train view, a file), null for the shipped model. */
  own?: string | null;
  /** Opens a .safetensors file of the learner's in place of the shipped weights; absent: no file button. */
  onOpenFile?: (name: string, bytes: ArrayBuffer) => void;
}

export function WeightsStatus(props: Props) {
  const w = props.weights;
  if (w.status !== 'ready') return <WeightsProgress {...props} />;
  return (
    <>
      <WeightsReady {...props} />
      <NonFiniteWarning nonFinite={w.info.nonFinite} />
    </>
  );
}

function WeightsProgress({ weights: w, onRetry, onOpenFile }: Props) {
  if (w.status === 'idle') return null;
  if (w.status === 'fetching')
    return (
      <div class="weights-status" role="status" data-testid="weights-progress">
        <label for="weights-progress">Downloading the weights</label>
        <progress id="weights-progress" max={w.total ?? undefined} value={w.total === null ? undefined : w.received} />
        <span class="num">
          {w.received === 0 ? 'waiting for the server…' : `${mb(w.received)}${w.total !== null ? ` of ${mb(w.total)}` : ''}`}
        </span>
      </div>
    );
  if (w.status === 'loading')
    return (
      <div class="weights-status" role="status" data-testid="weights-progress">
        <span>The core is reading {mb(w.bytes)} of weights…</span>
        <progress aria-label="Reading the weights" />
      </div>
    );
  if (w.status === 'failed')
    return (
      <div class="notice notice-bad weights-notice" role="alert" data-testid="weights-error">
        <span>{w.message}</span>
        <button type="button" class="notice-dismiss" onClick={onRetry}>
          Try again
        </button>
        {onOpenFile && <OpenWeightsFile onOpen={onOpenFile} />}
      </div>
    );
  return null;
}

function WeightsReady({ weights: w, onRetry, own = null, onOpenFile }: Props) {
  if (w.status !== 'ready') return null;
  if (own !== null)
    return (
      <div class="notice notice-info weights-notice" data-testid="weights-ready">
        <span>
          <strong data-testid="own-model">Your own model: {modelSummary(w.info)}.</strong> Weights: {own}, {mb(w.bytes)},{' '}
          {w.info.parameters.toLocaleString('en')} parameters, counted by the core.
        </span>
        <button type="button" class="notice-dismiss" onClick={onRetry}>
          Back to the shipped model
        </button>
        {onOpenFile && <OpenWeightsFile onOpen={onOpenFile} />}
      </div>
    );
  return (
    <div class="weights-ready-line">
      <p class="weights-ready" data-testid="weights-ready">
        Weights: the model trained on the King James Bible (<code>glass-kjv.safetensors</code>), {mb(w.bytes)}, {w.info.parameters.toLocaleString('en')} parameters ({w.info.blocks}{' '}
        blocks, d = {w.info.d}, {w.info.heads} heads, context {w.info.context} bytes), counted by the core.
      </p>
      {onOpenFile && <OpenWeightsFile onOpen={onOpenFile} />}
    </div>
  );
}

/** A file button: the page only reads the bytes; the core checks them and says why it refuses a file. */
function OpenWeightsFile({ onOpen }: { onOpen: (name: string, bytes: ArrayBuffer) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file again is a new choice
    if (file === undefined) return;
    if (file.size > MAX_WEIGHTS_FILE_BYTES) {
      setProblem(`“${file.name}” is ${mb(file.size)}: larger than any model this page runs, so it was not read.`);
      return;
    }
    setProblem(null);
    try {
      onOpen(file.name, await file.arrayBuffer());
    } catch (e) {
      setProblem(`“${file.name}” could not be read: ${e instanceof Error ? e.message : String(e)}.`);
    }
  };
  return (
    <span class="weights-open">
      <label for="weights-file">Open a weights file (.safetensors)</label>
      <input id="weights-file" type="file" accept=".safetensors" onChange={(e) => void onFile(e.currentTarget)} data-testid="weights-file" />
      {problem !== null && (
        <span class="field-error" role="alert" data-testid="weights-file-error">
          {problem}
        </span>
      )}
    </span>
  );
}
