// A recorded autograd graph as a row of cards, inputs before users (the order
// the core's trace_graph returns): each node's op, shape, inputs, value and
// gradient. An arrow joins a node to the next when it feeds it; a gap means the
// next card starts another input. Used by the lab's RMSNorm graph and lessons.
//
// The arrow sits before the card it points to, in a slot of fixed width, and
// the list is shifted left by that width inside a clipping box: the slot of
// whichever card starts a row (however the cards wrap) falls outside and is
// cut off, so no row starts or ends with an arrow to nothing.
import type { GraphNodeView } from '../../protocol/base';
import { VectorView } from './VectorView';
import './RmsNormGraph.css';

/** numpy's spelling: (), (3,), (1, 2). */
const shapeText = (shape: readonly number[]) => `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;

export function GraphChain({ graph, title }: { graph: readonly GraphNodeView[]; title: (n: GraphNodeView) => string }) {
  const byId = new Map(graph.map((n) => [n.id, n]));
  const label = (id: number) => {
    const n = byId.get(id);
    if (n === undefined) return '';
    return n.op === 'leaf' ? n.name : title(n); // the learner's name of the op, not the core's (add_scalar)
  };
  return (
    <div class="rms-graph-clip">
      <ol class="rms-graph-chain">
        {graph.map((n, i) => {
          const previous = graph[i - 1];
          const fedByPrevious = previous !== undefined && n.inputs.includes(previous.id);
          return (
            <li key={n.id} class={`rms-graph-node rms-graph-${n.op}`} data-op={n.op} data-testid={`graph-node-${n.op}`}>
              <span class="rms-graph-arrow" aria-hidden="true">
                {fedByPrevious ? '→' : ''}
              </span>
              <div class="rms-graph-card">
                <div class="rms-graph-op">{title(n)}</div>
                <div class="rms-graph-meta">
                  #{n.id} · shape {shapeText(n.shape)}{n.detail ? ` · ${n.detail}` : ''}
                  {n.inputs.length > 0 && ` · from ${n.inputs.map((id) => `#${id} ${label(id)}`).join(', ')}`}
                </div>
                <div class="rms-graph-row">
                  <span class="rms-graph-label">value</span> <VectorView values={n.value} digits={5} />
                </div>
                <div class="rms-graph-row">
                  <span class="rms-graph-label">grad</span>{' '}
                  {n.grad === null ? <span class="rms-graph-none">none</span> : <VectorView values={n.grad} digits={5} testid={`graph-grad-${n.op}`} />}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
