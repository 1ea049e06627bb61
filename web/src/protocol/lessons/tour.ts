// The tour lesson's request (plain data): the whole model on one text, stage by
// stage, with the parameters each stage holds. Worker side:
// web/src/worker/lessonOps/tour.ts.

export interface TourInput {
  text: string;
}

export type TourStageKind = 'bytes' | 'embedding' | 'norm' | 'attention' | 'ffn' | 'add' | 'final-norm' | 'head' | 'loss';

/** One stage of the forward pass, in order. */
export interface TourStage {
  kind: TourStageKind;
  /** The block it belongs to (null outside the blocks). */
  block: number | null;
  /** The snapshot that holds its output (docs/model.md names; '' for the bytes and the loss). */
  snapshot: string;
  /** Its output's shape on this text. */
  shape: number[];
  /** The parameters it holds, counted from the loaded model's tensors, and their names. */
  params: number;
  paramNames: string[];
  /** Root mean square of its output over every entry (null for the bytes and the loss). */
  rms: number | null;
}

/** Where the parameters sit: the part, its count, its share of the whole (0..1). */
export interface TourBudgetRow {
  part: 'embedding' | 'attention' | 'ffn' | 'norm' | 'head';
  params: number;
  share: number;
}

export interface TourResult {
  /** The text's bytes as the core labels them. */
  labels: string[];
  blocks: number;
  stages: TourStage[];
  budget: TourBudgetRow[];
  /** Every stage's parameters added up: equal to the model's own count (checked). */
  total: number;
  /** The part holding the most parameters. */
  largest: TourBudgetRow['part'];
  /** The stream's RMS at the embedding and after the last block; the smallest and largest RMS of what the blocks' norms hand their branches. */
  growth: { embed: number; last: number; normMin: number; normMax: number };
  /** Attention and SwiGLU parameters of one block. */
  perBlock: { attention: number; ffn: number; norm: number; all: number };
  /** Mean next-byte loss in nats (null for a one-byte text) and a uniform guess's, ln(vocab). */
  loss: number | null;
  uniform: number;
}
