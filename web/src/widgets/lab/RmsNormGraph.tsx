// The autograd graph the core recorded for y = RMSNorm(c·x): square → mean →
// add ε → sqrt → div → mul γ, each node with its value and, after backward of
// the chosen scalar (sum of y, or one coordinate), its gradient.
import type { GradTarget, LabResult } from '../../protocol/lab';
import type { GraphNodeView } from '../../protocol/base';
import { GraphChain } from './GraphChain';
import { ToNotice } from '../ToNotice';
import './RmsNormGraph.css';

const OP_TEXT: Record<string, string> = {
  square: 'square: x²',
  mean: 'mean over the last axis',
  add_scalar: 'add ε',
  sqrt: 'sqrt: r',
  div: 'divide: x / r',
  mul: 'multiply by γ',
};

function title(n: GraphNodeView): string {
  if (n.op === 'leaf') return `leaf ${n.name || '(unnamed)'}`;
  return OP_TEXT[n.op] ?? n.op;
}

/** onGrad: the owner's setter for the backward target (the lab's or a lesson widget's settings). */
export function RmsNormGraph({ result, onGrad }: { result: LabResult; onGrad: (grad: GradTarget) => void }) {
  const { graph, d } = result;
  const grad = result.grad;
  const targetText = grad === 'sum' ? 'sum(y)' : `y[${grad}]`;
  return (
    <section class="rms-graph" aria-labelledby="rms-graph-title" data-testid="rms-graph">
      <h2 id="rms-graph-title">The autograd graph of RMSNorm</h2>
      <p class="rms-graph-lead">
        Recorded by the core as it computed y (RMSNorm has no backward rule of its own: autograd differentiates each step).
        Gradients are ∂{targetText}/∂node after backward.
      </p>
      <label class="rms-graph-target">
        Backward from{' '}
        <select
          value={String(grad)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            onGrad(v === 'sum' ? 'sum' : Number(v));
          }}
        >
          <option value="sum">the sum of y</option>
          {Array.from({ length: d }, (_, i) => (
            <option key={i} value={String(i)}>
              output coordinate y[{i}]
            </option>
          ))}
        </select>
      </label>
      <GraphChain graph={graph} title={title} />
      <ToNotice testId="rms-graph-notice">
        the input is used twice, by square and by divide, so its gradient is the sum of what comes back along both paths. With
        ε = 0, y does not change when the input is scaled, so that gradient has no component along the input itself; with ε &gt;
        0 only a small one, as long as mean(x²) is far larger than ε.
      </ToNotice>
    </section>
  );
}
