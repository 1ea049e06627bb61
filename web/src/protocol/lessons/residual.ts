// The "Reading the residual stream" lesson's requests (and the RMSNorm
// lesson's I + J_F step on the real model); worker side:
// web/src/worker/lessonOps/residual.ts. Plain data only.
import type { AttentionSummary, LedgerGrad, LedgerParts, NamedTensor, Prediction } from '../../core';

/** The prompt a lesson starts with, until the learner types their own: the inspector's. */
export { DEFAULT_PROMPT } from '../model';

export interface PromptInput {
  text: string;
}

export interface LensInput extends PromptInput {
  /** The position read (default: the one before the last byte, which predicts the last byte). */
  position?: number;
}

export type DType = 'float32' | 'float64';

export interface LedgerInput {
  text: string;
  dtype?: DType;
}

/** The ledger of a run with backward: its gradient side is always there. */
export type Ledger = Omit<LedgerParts, 'grad'> & { grad: LedgerGrad };

export interface LedgerResult {
  dtype: DType;
  loss: number;
  labels: string[];
  ledger: Ledger;
  /** ‖∂loss/∂embedding‖ over all positions: what the gradient terms add up to. */
  gradNorm: number;
  /** Index in ledger.terms (after the embedding) of the branch output with the largest norm over all positions. */
  largestBranch: number;
  /** Its name for a learner: "block 3 SwiGLU". */
  largestBranchLabel: string;
  /** Index in ledger.grad.terms of the branch (not the residual path) whose gradient term is largest. */
  largestGradBranch: number;
  /** Its name for a learner. */
  largestGradBranchLabel: string;
}

export interface LensDepth {
  name: string;
  /** The top 5 next bytes read at this depth after `position`. */
  top: Prediction[];
  /** Rank (1 = first) of the byte that really comes next among those 5, or null if it is not among them. */
  rank: number | null;
  /** −log p(the byte that comes next) read at this depth (nats). */
  loss: number | null;
  /** The mean over every position of the prompt. */
  meanLoss: number | null;
}

export interface LensResult {
  labels: string[];
  /** The position read: its next byte is the prompt's byte `position + 1`. */
  position: number;
  /** That next byte's label. */
  next: string;
  depths: LensDepth[];
  /** max |lens at the last depth − the model's logits|, over every position. */
  lastDepthMaxAbs: number | null;
  /** How many depths have the right next byte in their top 5. */
  hits: number;
  /** The first depth that has it (null: none). */
  firstHit: number | null;
  /** The depth with the lowest mean loss. */
  bestDepth: number;
}

export interface HeadsResult {
  labels: string[];
  /** patterns[block]: (heads, n, n), the model's own softmax weights. */
  patterns: NamedTensor[];
  summary: AttentionSummary;
  /** Per block: the head with the most weight on the byte just before. */
  previousHead: number[];
}

export interface Ablation {
  /** The intervention's text form ("zero:blocks.2.ffn", "ablateHead:1:3"), several joined by " + ". */
  what: string;
  block: number;
  /** 'attn' | 'ffn' | 'block' | head index as text */
  part: string;
  /** Its name for a learner: "block 2", "block 0 SwiGLU", "block 1 head 3". */
  label: string;
  loss: number;
  /** loss − the model's own loss: what removing this part costs. */
  cost: number;
}

export interface AblationsResult {
  loss: number;
  /** Each block with both branches zeroed (the block becomes the identity). */
  blocks: Ablation[];
  /** Each branch zeroed on its own. */
  branches: Ablation[];
  /** Each head ablated (its output before wo set to zero). */
  heads: Ablation[];
  /** The block whose ablation costs the most, and the branch and the head likewise. */
  worstBlock: number;
  worstBranch: number;
  worstHead: number;
  /** How many of the branches and heads lower the loss when removed. */
  helpful: number;
}

