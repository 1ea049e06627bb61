// The lab's optional timing readout (collapsed): how long the page took from
// the input event that changed the settings to the numbers being in the DOM,
// and how long the core in the worker spent on them. The page measures it in
// the commit that first shows a result; a result that arrived before this view
// opened (the page's first computation while another view was open, or one
// handed over from a lesson) was not shown right away, so it is not timed.
// tests/e2e/lab.spec.ts reads data-latency-ms and data-compute-ms.
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { LabOutcome } from '../../viewmodels/lab';
import './LabTiming.css';

/** openedAt: performance.now() when the lab view opened. */
export function LabTiming({ outcome, openedAt }: { outcome: LabOutcome; openedAt: number }) {
  const box = useRef<HTMLDetailsElement>(null);
  const text = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    const p = text.current;
    if (el === null || p === null) return;
    if (outcome.result === null || outcome.error !== null) return; // nothing new is shown
    if (outcome.arrivedAt < openedAt) {
      delete el.dataset.latencyMs;
      delete el.dataset.computeMs;
      p.textContent = 'These numbers were computed before the lab opened. Move a control to time the next ones.';
      return;
    }
    const ms = performance.now() - outcome.startedAt;
    el.dataset.latencyMs = ms.toFixed(2);
    el.dataset.computeMs = outcome.computeMs.toFixed(2);
    p.textContent = outcome.first
      ? `First result on the page: ${ms.toFixed(0)} ms, including starting the worker and loading the wasm core (the core itself took ${outcome.computeMs.toFixed(1)} ms).`
      : `Shown ${ms.toFixed(1)} ms after the input that changed the settings; the core in the worker took ${outcome.computeMs.toFixed(1)} ms of that.`;
  }, [outcome]);
  return (
    <details class="lab-timing" ref={box} data-testid="lab-latency">
      <summary>Timing</summary>
      <p ref={text} aria-live="off" />
    </details>
  );
}
