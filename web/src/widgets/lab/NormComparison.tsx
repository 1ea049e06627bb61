// RMSNorm beside LayerNorm for the same input (both from the core; LayerNorm
// written from core ops in the worker: subtract the mean, divide by
// √(variance + ε), multiply by the same γ as the RMSNorm; β = 0).
import { fmt, fmtVector } from '../../app/format';
import type { LabResult } from '../../protocol/lab';
import { ToNotice } from '../ToNotice';
import './NormComparison.css';

/** "γ = 1" when every gain is 1, else the gains: read from the γ leaf of the core's recorded graph. */
function gammaText(result: LabResult): string {
  const g = result.graph.find((n) => n.op === 'leaf' && n.name === 'gamma')?.value;
  if (g === undefined) return 'the same γ';
  return g.every((v) => v === 1) ? 'γ = 1 (every gain 1)' : `the same γ = ${fmtVector(g, 4)}`;
}

const ROWS = 8;

export function NormComparison({ result, eps }: { result: LabResult; eps: number }) {
  const { input, output, layerNorm } = result;
  const rows = input.slice(0, ROWS).map((_, i) => i);
  const constant = input.every((v) => v === input[0]);
  const zero = constant && input[0] === 0;
  return (
    <section class="norm-comparison" aria-labelledby="norm-comparison-title" data-testid="norm-comparison">
      <h2 id="norm-comparison-title">RMSNorm beside LayerNorm</h2>
      <p class="norm-comparison-lead">
        LayerNorm is γ ⊙ (x − μ) / √(σ² + ε) + β: it subtracts the mean μ ={' '}
        <span class="num" data-testid="ln-mean">{fmt(layerNorm.mean)}</span> first and divides by √(σ² + ε), with the variance σ² ={' '}
        <span class="num" data-testid="ln-variance">{fmt(layerNorm.variance)}</span>. Here both norms use{' '}
        <span data-testid="cmp-gamma">{gammaText(result)}</span>, and LayerNorm's β = 0. RMSNorm is γ ⊙ x / √(mean(x²) + ε): no
        μ, no β.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">i</th>
            <th scope="col">input</th>
            <th scope="col">RMSNorm</th>
            <th scope="col">LayerNorm</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((i) => (
            <tr key={i}>
              <th scope="row" class="num">
                {i}
              </th>
              <td class="num">{fmt(input[i])}</td>
              <td class="num" data-testid={`cmp-rms-${i}`} data-value={String(output[i])}>
                {fmt(output[i])}
              </td>
              <td class="num" data-testid={`cmp-ln-${i}`} data-value={String(layerNorm.output[i])}>
                {fmt(layerNorm.output[i])}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {input.length > ROWS && <p class="norm-comparison-more">First {ROWS} of {input.length} coordinates.</p>}
      {constant && !zero && (
        <p class="norm-comparison-why" data-testid="cmp-constant">
          A constant vector: every coordinate equals the mean, so LayerNorm gives{' '}
          {eps > 0 ? 'zeros (0 / √(0 + ε) = 0)' : 'NaN (0 / √(0 + 0) = 0/0)'}. RMSNorm is not centred: it keeps the
          vector as γ ⊙ x / r(x), about ±1 per coordinate here.
        </p>
      )}
      {zero && (
        <p class="norm-comparison-why" data-testid="cmp-zero">
          The zero vector: {eps > 0 ? 'with ε > 0 both norms give 0 / √ε = 0.' : 'with ε = 0 both norms compute 0 / 0 = NaN.'}
        </p>
      )}
      <ToNotice testId="cmp-notice">
        the RMSNorm column keeps a mean of <span class="num">{fmt(result.outputMean)}</span>: RMSNorm does not centre its input. LayerNorm
        subtracts μ first, so its x − μ sums to 0 (up to rounding).
      </ToNotice>
    </section>
  );
}
