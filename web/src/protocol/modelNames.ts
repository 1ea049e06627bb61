// The snapshot names of every model variant, from its config: the one place the
// page and the worker derive them (docs/model.md, "Snapshot names of each
// variant"). The core records the same list as its forward pass runs
// (ModelSession.snapshotNames() after a run); tests/web/modelNames.test.ts checks
// this derivation against it for every kind of variant, so the two cannot drift.
// Deriving it here lets the page check an address and draw the block map before
// the model has run.
import type { ModelInfo } from '../core';

/** What the names depend on: the loaded model's config (ModelInfo has these fields). */
export type ModelShape = Pick<ModelInfo, 'blocks' | 'd' | 'norm' | 'normKind' | 'residual'>;

/** The model the site ships (docs/model.md): 4 pre-norm RMSNorm blocks of width 128 with residuals. */
export const SHIPPED_SHAPE: Readonly<ModelShape> = Object.freeze({ blocks: 4, d: 128, norm: 'pre', normKind: 'rms', residual: true });

/** The most blocks a config may have (docs/model.md, "Variants"). */
export const MAX_BLOCKS = 24;

export const SUBLAYERS = ['attn', 'ffn'] as const;
export type Sublayer = (typeof SUBLAYERS)[number];

/** Every part name a block can record in some variant (for checking a name's form before the model is known). */
export const ALL_BLOCK_PARTS = ['norm.attn', 'attn', 'sum.attn', 'resid.attn', 'norm.ffn', 'ffn', 'sum.ffn', 'resid.ffn'] as const;

/** One sublayer's snapshots in the order the forward pass records them, and which one the next sublayer reads. */
export function sublayerParts(m: ModelShape, s: Sublayer): { parts: string[]; stream: string } {
  if (m.norm === 'pre') return m.residual ? { parts: [`norm.${s}`, s, `resid.${s}`], stream: `resid.${s}` } : { parts: [`norm.${s}`, s], stream: s };
  if (m.norm === 'post') return m.residual ? { parts: [s, `sum.${s}`, `norm.${s}`], stream: `norm.${s}` } : { parts: [s, `norm.${s}`], stream: `norm.${s}` };
  return m.residual ? { parts: [s, `resid.${s}`], stream: `resid.${s}` } : { parts: [s], stream: s };
}

/** One block's part names, in order (e.g. norm.attn, attn, resid.attn, norm.ffn, ffn, resid.ffn). */
export function blockParts(m: ModelShape): string[] {
  return SUBLAYERS.flatMap((s) => sublayerParts(m, s).parts);
}

/** Only a pre-norm model has a final norm before the head. */
export const hasFinalNorm = (m: ModelShape) => m.norm === 'pre';

/** Every snapshot name, in the order the model computes them. */
export function snapshotNamesOf(m: ModelShape): string[] {
  const parts = blockParts(m);
  const names = ['embed'];
  for (let i = 0; i < m.blocks; i++) for (const p of parts) names.push(`blocks.${i}.${p}`);
  if (hasFinalNorm(m)) names.push('norm.final');
  names.push('logits');
  return names;
}

/** The residual stream: embed, then what each sublayer hands the next (two per block). */
export function streamNames(m: ModelShape): string[] {
  const names = ['embed'];
  for (let i = 0; i < m.blocks; i++) for (const s of SUBLAYERS) names.push(`blocks.${i}.${sublayerParts(m, s).stream}`);
  return names;
}

/**
 * The residual stream's tensors from the input end, then the final norm when the
 * model has one (it is not part of the stream but is where backward starts inside
 * the model). A number is the blocks of the shipped kind of model.
 */
export function depthNames(model: number | ModelShape): string[] {
  const m = typeof model === 'number' ? { ...SHIPPED_SHAPE, blocks: model } : model;
  const names = streamNames(m);
  if (hasFinalNorm(m)) names.push('norm.final');
  return names;
}

/** The block a snapshot belongs to, or null (embed, norm.final, logits). */
export function layerOf(name: string): number | null {
  const m = /^blocks\.(\d+)\./.exec(name);
  return m ? Number(m[1]) : null;
}

/** The stream tensor entering block i (what its first sublayer reads). */
export function blockInput(m: ModelShape, i: number): string {
  return i === 0 ? 'embed' : `blocks.${i - 1}.${sublayerParts(m, 'ffn').stream}`;
}
