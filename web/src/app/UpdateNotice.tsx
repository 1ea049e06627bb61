// A new version of the site was deployed and is ready (offline.ts): say so, and
// let the learner reload into it when it suits them.
import { updateWaiting } from './offline';
import './Notice.css';

export function UpdateNotice() {
  const update = updateWaiting.value;
  if (update === null) return null;
  return (
    <div class="notice notice-info" role="status" data-testid="update-notice">
      <span>A new version of GlassLLM is ready.</span>
      <button type="button" onClick={update}>
        Reload to update
      </button>
      <button type="button" class="notice-dismiss" onClick={() => (updateWaiting.value = null)}>
        Later
      </button>
    </div>
  );
}
