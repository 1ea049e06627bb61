// The numbers for the current settings: r, the output, its norm and mean
// square, the effective epsilon. Also measures how long the page took from the
// input event to these numbers being in the DOM (data-latency-ms).
import { useLayoutEffect, useRef } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { LabOutcome } from '../../app/state';
import { VectorView } from './VectorView';
import './RmsNormReadout.css';

export function RmsNormReadout({ outcome }: { outcome: LabOutcome }) {
  const latency = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const el = latency.current;
    if (el === null) return;
    const ms = performance.now() - outcome.startedAt;
    el.dataset.latencyMs = ms.toFixed(2);
    el.dataset.computeMs = outcome.computeMs.toFixed(2);
    el.textContent = outcome.first
      ? `First result: ${ms.toFixed(0)} ms, including starting the worker and loading the wasm core.`
      : `Shown ${ms.toFixed(1)} ms after the input changed (the core in the worker took ${outcome.computeMs.toFixed(1)} ms).`;
  }, [outcome]);

  const r = outcome.result;
  if (r === null) return null;
  const cIsOne = outcome.settings.c === 1;
  const xs = cIsOne ? 'x' : 'c·x';
  return (
    <section class="rms-readout" aria-labelledby="rms-readout-title" data-testid="rms-readout">
      <h2 id="rms-readout-title">
        RMSNorm({xs}) in {r.dtype}, d = {r.d}
      </h2>
      <dl class="rms-readout-list">
        {!cIsOne && (
          <>
            <dt>input c·x</dt>
            <dd>
              <VectorView values={r.input} testid="readout-input" />
            </dd>
          </>
        )}
        <dt>
          mean({xs}²)
        </dt>
        <dd class="num" data-testid="readout-mean-square" data-value={String(r.meanSquare)}>
          {fmt(r.meanSquare)}
        </dd>
        <dt>
          r({xs}) = √(mean({xs}²) + ε)
        </dt>
        <dd class="num" data-testid="readout-r" data-value={String(r.r)}>
          {fmt(r.r)}
        </dd>
        <dt>output y = γ ⊙ {xs} / r</dt>
        <dd>
          <VectorView values={r.output} testid="readout-output" />
        </dd>
        <dt>‖y‖</dt>
        <dd class="num" data-testid="readout-norm" data-value={String(r.outputNorm)}>
          {fmt(r.outputNorm)}
        </dd>
        <dt>mean(y²)</dt>
        <dd class="num" data-testid="readout-output-ms" data-value={String(r.outputMeanSquare)}>
          {fmt(r.outputMeanSquare)}
        </dd>
        <dt>effective epsilon ε / c²</dt>
        <dd class="num" data-testid="readout-eff-eps" data-value={String(r.effectiveEps)}>
          {fmt(r.effectiveEps)}{' '}
          <span class="rms-readout-aside">RMSNorm(c·x) = γ ⊙ x / √(mean(x²) + ε/c²)</span>
        </dd>
      </dl>
      <p class="rms-readout-latency" ref={latency} data-testid="lab-latency" aria-live="off" />
    </section>
  );
}
