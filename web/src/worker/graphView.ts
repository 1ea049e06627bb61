// The core's recorded autograd graph as plain data for the page: shared by
// the lab's RMSNorm graph and the lessons' graph widgets.
import type { Glass, Tensor } from '../core';
import type { GraphNodeView } from '../protocol/base';

/** A tensor's values as a plain array (a copy). */
export const values = (t: Tensor): number[] => Array.from(t.data());

/** Every node `root` depends on, inputs first, with values and (after backward with retainGrads) gradients. */
export function graphView(glass: Glass, root: Tensor): GraphNodeView[] {
  return glass.traceGraph(root).map((n) => ({
    id: n.id,
    op: n.op,
    detail: n.detail,
    name: n.name,
    inputs: n.inputs,
    shape: n.shape,
    value: n.value === null ? [] : values(n.value),
    grad: n.grad === null ? null : values(n.grad),
  }));
}
