// The names a lesson file may use in ```widget name``` blocks. The registry
// (widgets.tsx) must give each a component (TypeScript checks it); the content
// tests check every lesson uses only these.
export const WIDGET_NAMES = [
  'row-norm',
  'rmsnorm-graph',
  'norm-compare',
  'epsilon-lab',
  'seed-example',
  'gamma-counterexample',
  'block-diagram',
  'gradient-path',
  'model-grad-norms',
  'inspector-tour',
  'references',
  'autograd-graph',
  'broadcast-shapes',
  'attention-pattern',
  'rope-offset',
  'next-byte-loss',
  'silu-gate',
  'model-swiglu',
  'byte-embeddings',
  'byte-similarity',
  'embedding-grad',
] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

export const isWidgetName = (n: string): n is WidgetName => (WIDGET_NAMES as readonly string[]).includes(n);
