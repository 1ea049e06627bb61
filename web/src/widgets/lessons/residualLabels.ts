// How the residual-stream widgets name what they show: the learner's name for a
// contribution, a depth of the stream or a gradient route, with no math.
import { tensorName } from '../../app/tensorNames';

/** "the embedding", "block 2 attention", "block 3 SwiGLU" for a ledger term's name. */
export function contributionName(name: string): string {
  if (name === 'embed') return 'the embedding';
  const m = /^blocks\.(\d+)\.(attn|ffn)$/.exec(name);
  return m === null ? name : `block ${m[1]} ${m[2] === 'attn' ? 'attention' : 'SwiGLU'}`;
}

/** A gradient route of the ledger: the residual path alone, or the branch it last went through. */
export function routeName(name: string): string {
  return name === 'residual path' ? 'the residual path alone' : `last through ${contributionName(name)}`;
}

/** "the embedding", "block 1, after attention +": where the lens reads the stream. */
export function depthName(code: string): string {
  const t = tensorName(code);
  return t.block === null ? t.short : `block ${t.block}, ${t.short}`;
}

/** A share (a fraction of 1) as a percentage with one decimal; "—" for none. */
export const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
