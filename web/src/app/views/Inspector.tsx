// The model inspector. A placeholder: the inspector (weights, block map,
// heatmaps, gradients) replaces this file. It gets the core through
// `core` in app/state.ts (add request kinds to app/protocol.ts and handlers
// to worker/worker.ts) and keeps its shareable state (selected tensor) in the
// URL through app/urlState.ts, which preserves keys it does not know.
import './Inspector.css';

export function Inspector() {
  return (
    <section class="inspector-placeholder" aria-labelledby="inspector-title">
      <h1 id="inspector-title">Inspector</h1>
      <p>
        Coming soon: load the shipped 4-block model, run any prompt forward and backward in the worker, and open every
        snapshot and its gradient — the residual stream, each RMSNorm, attention and SwiGLU.
      </p>
    </section>
  );
}
