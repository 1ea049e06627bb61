// The tensors-and-autograd lesson's widgets (worker side:
// web/src/worker/lessonOps/autograd.ts): a small recorded graph, and broadcasting.
import type { GraphNodeView } from '../base';

/** The autograd-graph widget: one of a few small expressions of a and b (3 values each). */
export const GRAPH_EXPRESSIONS = {
  'mul-add': 'y = sum(a * b + a)',
  'sq-mean': 'y = mean((a - b)²)',
  'tanh-mul': 'y = sum(tanh(a * b))',
} as const;
export type GraphExpression = keyof typeof GRAPH_EXPRESSIONS;
export interface GraphInput {
  expression: GraphExpression;
  a: number[];
  b: number[];
}
export interface GraphResult {
  y: number;
  /** The recorded graph, inputs before users, after y.backward() with the graph and every gradient kept. */
  nodes: GraphNodeView[];
}

/** The broadcasting widget: two shapes; the core broadcasts tensors of those shapes. */
export interface BroadcastInput {
  a: number[];
  b: number[];
}
export interface BroadcastResult {
  shape: number[];
  numel: number;
}
