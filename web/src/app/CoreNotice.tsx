// Tells the learner when the core crashed and was restarted, or is unavailable.
import { coreNotice, coreStatus } from './state';
import './Notice.css';

export function CoreNotice() {
  const notice = coreNotice.value;
  return (
    <>
      {coreStatus.value === 'loading' && (
        <p class="notice notice-info" role="status">
          Loading the wasm core in a background worker…
        </p>
      )}
      {notice !== null && (
        <div class={`notice ${notice.kind === 'failed' ? 'notice-bad' : 'notice-warn'}`} role="alert" data-testid="core-notice">
          <span>{notice.text}</span>
          {notice.kind === 'restarted' && (
            <button type="button" class="notice-dismiss" onClick={() => (coreNotice.value = null)}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </>
  );
}
