// The numbers for the current settings: r, the output, its norm and mean
// square, the effective epsilon. (How long they took is the lab's Timing
// readout, LabTiming.tsx, not part of the result.)
import { useId } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { LabResult } from '../../protocol/lab';
import { VectorView } from './VectorView';
import './RmsNormReadout.css';

/** `c` is the scale the result was computed for. */
export function RmsNormReadout({ result: r, c }: { result: LabResult; c: number }) {
  const cIsOne = c === 1;
  const xs = cIsOne ? 'x' : 'c·x';
  const titleId = useId();
  return (
    <section class="rms-readout" aria-labelledby={titleId} data-testid="rms-readout">
      <h2 id={titleId}>
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
    </section>
  );
}
