// The autograd graph the core recorded for y = RMSNorm(c·x): square → mean →
// add ε → sqrt → div → mul γ, each node with its value and, after backward of
// the chosen scalar (sum of y, or one coordinate), its gradient.
import type { GraphNodeView, LabResult } from '../../app/protocol';
import { labSettings } from '../../app/state';
import { VectorView } from './VectorView';
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

export function RmsNormGraph({ result }: { result: LabResult }) {
  const { graph, d } = result;
  const byId = new Map(graph.map((n) => [n.id, n]));
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
            labSettings.value = { ...labSettings.peek(), grad: v === 'sum' ? 'sum' : Number(v) };
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
      <ol class="rms-graph-chain">
        {graph.map((n, i) => {
          const next = graph[i + 1];
          const feedsNext = next !== undefined && next.inputs.includes(n.id);
          return (
            <li key={n.id} class={`rms-graph-node rms-graph-${n.op}`} data-op={n.op} data-testid={`graph-node-${n.op}`}>
              <div class="rms-graph-card">
                <div class="rms-graph-op">{title(n)}</div>
                <div class="rms-graph-meta">
                  #{n.id} · shape ({n.shape.join(', ')}){n.detail ? ` · ${n.detail}` : ''}
                  {n.inputs.length > 0 && ` · from ${n.inputs.map((id) => `#${id} ${byId.get(id)?.op === 'leaf' ? byId.get(id)?.name : byId.get(id)?.op}`).join(', ')}`}
                </div>
                <div class="rms-graph-row">
                  <span class="rms-graph-label">value</span> <VectorView values={n.value} digits={5} />
                </div>
                <div class="rms-graph-row">
                  <span class="rms-graph-label">grad</span>{' '}
                  {n.grad === null ? <span class="rms-graph-none">none</span> : <VectorView values={n.grad} digits={5} testid={`graph-grad-${n.op}`} />}
                </div>
              </div>
              {next !== undefined && (
                <span class="rms-graph-arrow" aria-hidden="true">
                  {feedsNext ? '→' : '·'}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
