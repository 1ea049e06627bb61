// The tensors-and-autograd lesson's widgets: a small expression recorded as a
// graph and run backward, and the core's broadcasting of two shapes.
import { GlassError, type Glass } from '../../core';
import type { BroadcastInput, BroadcastResult, GraphInput, GraphResult } from '../../protocol/lessons/autograd';
import { graphView } from '../graphView';
import type { WorkerState } from '../state';

/** Records y for the chosen expression, runs backward keeping the graph, and copies it out. */
export function autogradGraph(glass: Glass, { expression, a: av, b: bv }: GraphInput): GraphResult {
  if (av.length !== bv.length || av.length < 1 || av.length > 8) throw new GlassError('graph: a and b need the same length, 1 to 8 values');
  return glass.scope(() => {
    const a = glass.tensor(av, { dtype: 'float64', requiresGrad: true }).named('a'); // (k,)
    const b = glass.tensor(bv, { dtype: 'float64', requiresGrad: true }).named('b'); // (k,)
    const y =
      expression === 'mul-add' ? a.mul(b).add(a).sum() : expression === 'sq-mean' ? a.sub(b).square().mean() : a.mul(b).tanh().sum(); // ()
    y.backward({ retainGraph: true, retainGrads: true });
    const nodes = graphView(glass, y);
    return { y: y.item(), nodes };
  });
}

/** Broadcasts zero tensors of the two shapes with the core's add: its shape, or its error. */
export function broadcastShapes(glass: Glass, { a, b }: BroadcastInput): BroadcastResult {
  for (const s of [a, b])
    if (s.length > 4 || s.some((n) => !Number.isInteger(n) || n < 0 || n > 64)) throw new GlassError('shapes here have up to 4 axes, each of size 0 to 64');
  return glass.scope(() => {
    const y = glass.zeros(a).add(glass.zeros(b));
    return { shape: [...y.shape], numel: y.numel };
  });
}

export const autogradHandlers = {
  autogradGraph: (s: WorkerState, input: GraphInput): GraphResult => autogradGraph(s.glass, input),
  broadcastShapes: (s: WorkerState, input: BroadcastInput): BroadcastResult => broadcastShapes(s.glass, input),
};
