// The weights' download (a progress bar from Content-Length / streamed bytes),
// the core reading them, and a clear message if either fails.
import { fmt } from '../../app/format';
import type { ModelInfo } from '../../protocol/model';
import type { WeightsState } from '../../viewmodels/model';
import './WeightsStatus.css';

const mb = (bytes: number) => `${fmt(bytes / 1e6, 3)} MB`;

type Shape = Pick<ModelInfo, 'blocks' | 'd' | 'heads' | 'context' | 'norm' | 'normKind' | 'residual'>;

/** "12 blocks, post-norm RMSNorm, d 64, 4 heads, context 64 bytes": a model's config in plain words. */
export function modelSummary(m: Shape): string {
  const kind = m.normKind === 'layer' ? 'LayerNorm' : 'RMSNorm';
  const norm = m.norm === 'none' ? 'no norms' : `${m.norm}-norm ${kind}`;
  return `${m.blocks} ${m.blocks === 1 ? 'block' : 'blocks'}, ${norm}${m.residual ? '' : ', no residuals'}, d ${m.d}, ${m.heads} ${m.heads === 1 ? 'head' : 'heads'}, context ${m.context} bytes`;
}

/** `own`: the learner's weights from the Train view (their description), null for the shipped model. */
export function WeightsStatus({ weights: w, onRetry, own = null }: { weights: WeightsState; onRetry: () => void; own?: string | null }) {
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
      <div class="notice notice-bad" role="alert" data-testid="weights-error">
        <span>{w.message}</span>
        <button type="button" class="notice-dismiss" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  if (own !== null)
    return (
      <div class="notice notice-info" data-testid="weights-ready">
        <span>
          <strong data-testid="own-model">Your trained model: {modelSummary(w.info)}.</strong> Weights: {own}, {mb(w.bytes)},{' '}
          {w.info.parameters.toLocaleString('en')} parameters, counted by the core.
        </span>
        <button type="button" class="notice-dismiss" onClick={onRetry}>
          Back to the shipped model
        </button>
      </div>
    );
  return (
    <p class="weights-ready" data-testid="weights-ready">
      Weights: the model trained on the King James Bible (<code>glass-kjv.safetensors</code>), {mb(w.bytes)}, {w.info.parameters.toLocaleString('en')} parameters ({w.info.blocks}{' '}
      blocks, d = {w.info.d}, {w.info.heads} heads, context {w.info.context} bytes), counted by the core.
    </p>
  );
}
