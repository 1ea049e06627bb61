// A small expression of a and b, recorded by the core as it runs, then
// differentiated: every node of the graph with its value and the gradient of y
// that flowed back into it. Computed in the worker (the 'autogradGraph' request).
import { useState } from 'preact/hooks';
import { fmt } from '../../app/format';
import type { GraphNodeView } from '../../protocol/base';
import { GRAPH_EXPRESSIONS, type GraphExpression } from '../../protocol/lessons/autograd';
import { useLessonOp } from '../../viewmodels/lessonOp';
import { GraphChain } from '../lab/GraphChain';
import { parseList } from './BroadcastExplorer';
import { WidgetShell } from './WidgetShell';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { 'autograd-graph': AutogradGraph };

const OP_TEXT: Record<string, string> = {
  mul: 'multiply',
  add: 'add',
  sub: 'subtract',
  square: 'square',
  mean: 'mean',
  sum: 'sum',
  tanh: 'tanh',
};
const title = (n: GraphNodeView) => (n.op === 'leaf' ? `leaf ${n.name || '(unnamed)'}` : (OP_TEXT[n.op] ?? n.op));

export function AutogradGraph() {
  const [expression, setExpression] = useState<GraphExpression>('mul-add');
  const [aText, setAText] = useState('1, 2, 3');
  const [bText, setBText] = useState('4, 5, 6');
  const a = parseList(aText, false);
  const b = parseList(bText, false);
  const inputProblem =
    a === null || b === null ? 'Type numbers separated by commas.' : a.length !== b.length ? `a has ${a.length} values and b has ${b.length}: give them the same length.` : null;

  const answer = useLessonOp('autogradGraph', { expression, a: a ?? [], b: b ?? [] }, [expression, aText, bText], {
    needsModel: false,
    keepLast: true,
    skip: inputProblem !== null,
  });

  return (
    <div class="lesson-widget" data-testid="widget-autograd-graph">
      <div class="widget-row">
        <label>
          Expression{' '}
          <select data-testid="graph-expression" value={expression} onChange={(e) => setExpression(e.currentTarget.value as GraphExpression)}>
            {Object.entries(GRAPH_EXPRESSIONS).map(([k, text]) => (
              <option key={k} value={k}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          a <input data-testid="graph-a" value={aText} size={14} onInput={(e) => setAText(e.currentTarget.value)} />
        </label>
        <label>
          b <input data-testid="graph-b" value={bText} size={14} onInput={(e) => setBText(e.currentTarget.value)} />
        </label>
      </div>
      <WidgetShell answer={{ ...answer, error: inputProblem ?? answer.error }} keepLast dim={false}>
        {(result) => (
          <>
            <p class="widget-note">
              y = <span class="num" data-testid="graph-y">{fmt(result.y)}</span>. The core recorded {result.nodes.filter((n) => n.op !== 'leaf').length} op
              nodes as the expression ran; after <code>y.backward()</code> each card shows ∂y/∂(that node). The leaves’ gradients are what a
              training step would use.
            </p>
            <GraphChain graph={result.nodes} title={title} />
          </>
        )}
      </WidgetShell>
    </div>
  );
}
