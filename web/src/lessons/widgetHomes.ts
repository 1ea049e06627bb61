// The lesson that introduces each widget used by more than one lesson: a widget
// may appear in its home lesson and in any lesson after it on the path, never
// before (tests/web/lessonContent.test.ts). A widget used by one lesson only
// needs no entry: that lesson is its home.
export const WIDGET_HOMES: Readonly<Record<string, string>> = {
  /** The learner's own prompt and what the model makes of it. */
  'your-prompt': 'tour',
  /** The gradient's size along the residual stream. */
  'model-grad-norms': 'logits-loss',
  /** Two training runs side by side in the lesson (the Train view's runner): first used to compare pre-norm and post-norm. */
  'train-experiment': 'rmsnorm',
};
