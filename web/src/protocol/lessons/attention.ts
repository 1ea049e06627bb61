// The attention lesson's requests (web/src/worker/lessonOps/attention.ts): plain data only.

/** The attention-pattern widget: one head of one block of the loaded model on a prompt (the model's own attention code). */
export interface AttentionPatternInput {
  text: string;
  block: number; // 0 .. blocks-1
  head: number; // 0 .. heads-1
}
export interface AttentionPatternResult {
  /** How each byte of the prompt reads on screen ("␣", "e", "\\xC3"). */
  labels: string[];
  /** (n, n) softmax weights of the chosen head: row i = query position i, column j = key position j. */
  weights: number[][];
  /** (n,) each row's sum, from the core. */
  rowSums: number[];
  /** Largest |row sum − 1| over the rows. */
  rowSumDev: number;
  /** Largest weight above the diagonal (a query looking at a later byte): exactly 0. */
  maxAbove: number;
  /** Columns of q, k and v this head reads: [first, last]. */
  columns: [number, number];
}

/** The rope-offset widget: q·k of two fixed vectors rotated by the model's RoPE to a query and a key position. */
export interface RopeOffsetInput {
  query: number; // position of the query, 0 .. context-1
  key: number; // position of the key, 0 .. query
}
export interface RopeOffsetRow {
  query: number;
  key: number;
  dot: number; // rope(q, query) · rope(k, key)
}
export interface RopeOffsetResult {
  /** q·k before any rotation. */
  plain: number;
  /** The chosen pair first, then the same offset shifted along the text. */
  shifted: RopeOffsetRow[];
  /** The chosen query position with other offsets. */
  offsets: RopeOffsetRow[];
  headDim: number;
  base: number;
}
