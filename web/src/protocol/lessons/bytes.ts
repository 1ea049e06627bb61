// The "Bytes and embeddings" lesson's requests (worker side: worker/lessonOps/bytes.ts).
// Plain data only.
import type { ShownTensor } from '../base';

/** A text the learner typed: the core encodes it and looks up its rows of tok_emb. */
export interface ByteTextInput {
  text: string;
}

/** One byte of the text as the model sees it. */
export interface ByteCell {
  position: number;
  byte: number; // 0..255
  hex: string; // "0xC3"
  glyph: string; // the core's display label: "a", "␣", "\\xC3"
  role: string; // inside UTF-8: "ASCII", "starts 2", "starts 3", "starts 4" or "continuation"
}

/** One character of the text and the positions its UTF-8 bytes take. */
export interface CharBytes {
  char: string;
  first: number; // position of its first byte
  count: number; // 1 to 4
}

export interface ByteTextResult {
  bytes: ByteCell[];
  chars: CharBytes[];
  context: number; // the model's context, in bytes
  /** The looked-up rows tok_emb[ids], (n, d), ready for the inspector's Heatmap. */
  rows: ShownTensor;
  /** max |embedding(W, ids) − oneHot(ids) @ W| over every element. */
  oneHotGap: number;
  /** max |embedding(W, ids) − the model's own "embed" snapshot|. */
  snapshotGap: number;
}

/** Two bytes (a character that is one byte, or a number 0–255) whose rows are compared. */
export interface BytePairInput {
  a: string;
  b: string;
}

export interface ByteNeighbour {
  byte: number;
  glyph: string;
  cosine: number; // with the first byte's row
  norm: number; // ‖W[byte]‖: about 0.1 for a byte the training text never used
}

export interface BytePairResult {
  a: ByteNeighbour; // cosine: 1 (itself)
  b: ByteNeighbour; // cosine of b's row with a's
  normA: number; // ‖W[a]‖
  normB: number;
  /** The bytes whose rows point most nearly the way a's does (a itself excluded), best first. */
  nearest: ByteNeighbour[];
  /** 1/√d: how far from 0 the cosine of two random rows typically is. */
  chance: number;
}

/** The embedding's gradient after a backward pass of the next-byte loss on the text. */
export interface EmbedGradInput {
  text: string;
}

export interface EmbedGradRow {
  byte: number;
  glyph: string;
  positions: number[]; // where the byte occurs in the text
  rowNorm: number; // ‖∂loss/∂tok_emb[byte]‖
  /** ‖Σ over its positions of ∂loss/∂embed[position]‖: must equal rowNorm. */
  summedNorm: number;
}

export interface EmbedGradResult {
  loss: number;
  n: number;
  rows: EmbedGradRow[]; // one per distinct byte of the text, in order of first use
  /** Rows of the (256, d) gradient that are exactly zero. */
  zeroRows: number;
  vocab: number;
}
