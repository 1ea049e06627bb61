// The RMSNorm lesson's small-vector widgets beyond the seed example, all with
// core Tensor ops in float64 unless asked otherwise: RMSNorm's and LayerNorm's
// recorded graphs side by side, the sphere of radius √d and what γ does to it
// (d = 2 and 3), the gradient's orthogonality to x, and ε in float32 against
// float64.
import { GlassError, type Glass, type Tensor } from '../../core';
import type {
  EpsDtypeInput,
  EpsDtypeResult,
  EpsDtypeRow,
  GeometryInput,
  GeometryResult,
  NormGradInput,
  NormGradRow,
  OpCountsInput,
  OpCountsResult,
} from '../../protocol/lessons/rmsnorm';
import { values } from '../graphView';

const opsOf = (glass: Glass, root: Tensor): string[] => glass.traceGraph(root).flatMap((n) => (n.op === 'leaf' ? [] : [n.op]));

export function normOpCounts(glass: Glass, { x }: OpCountsInput): OpCountsResult {
  if (x.length < 2) throw new GlassError('the input needs at least 2 coordinates');
  return glass.scope(() => {
    const t = glass.tensor([x], { dtype: 'float64', requiresGrad: true });
    return { rms: opsOf(glass, glass.rmsnorm(x.length, { dtype: 'float64' }).call(t)), layer: opsOf(glass, glass.layernorm(t)) };
  });
}

/**
 * Directions of the outline to draw, before any norm: for d = 2 one circle; for
 * d = 3 three parallels and four meridians of a globe (any length would do:
 * the norm with ε = 0 puts each on the sphere).
 */
function outlineDirections(d: number): number[][][] {
  const N = 72;
  const turn = (k: number) => (2 * Math.PI * k) / N;
  if (d === 2) return [Array.from({ length: N + 1 }, (_, k) => [Math.cos(turn(k)), Math.sin(turn(k))])];
  const lines: number[][][] = [];
  for (const z of [-0.6, 0, 0.6]) lines.push(Array.from({ length: N + 1 }, (_, k) => [Math.cos(turn(k)), Math.sin(turn(k)), z]));
  for (let m = 0; m < 4; m++) {
    const a = (Math.PI * m) / 4;
    lines.push(Array.from({ length: N / 2 + 1 }, (_, k) => [Math.cos(a) * Math.sin(turn(k)), Math.sin(a) * Math.sin(turn(k)), Math.cos(turn(k))]));
  }
  return lines;
}

/** The drawing's view of 3-D space: x to the right, y up and back, z up (an oblique projection). */
const PROJECT_3D = [
  [1, 0.45, 0],
  [0, 0.35, 1],
];

export function normGeometry(glass: Glass, { x, gamma }: GeometryInput): GeometryResult {
  const d = x.length;
  if (d !== 2 && d !== 3) throw new GlassError('the drawing has d = 2 or d = 3 coordinates');
  if (gamma.length !== d) throw new GlassError(`γ needs ${d} numbers, one per coordinate, not ${gamma.length}`);
  return glass.scope(() => {
    const stretchedNorm = glass.rmsnorm(d, { eps: 0, dtype: 'float64' });
    stretchedNorm.setGamma(glass.tensor(gamma, { dtype: 'float64' }));
    const onesNorm = glass.rmsnorm(d, { eps: 0, dtype: 'float64' });
    const view = d === 2 ? null : glass.tensor(PROJECT_3D, { dtype: 'float64' }).transpose(); // (3, 2)
    const flat = (t: Tensor) => (view === null ? t : t.matmul(view)); // (n, d) -> (n, 2)
    const pairs = (t: Tensor) => flat(t).toNested() as [number, number][];
    const xt = glass.tensor([x], { dtype: 'float64' }); // (1, d)
    const y = stretchedNorm.call(xt);
    const y1 = onesNorm.call(xt);
    const lines = outlineDirections(d).map((l) => glass.tensor(l, { dtype: 'float64' }));
    return {
      d,
      y: values(y),
      yOnes: values(y1),
      rms: y.square().mean().sqrt().item(),
      norm: y.square().sum().sqrt().item(),
      onesNorm: y1.square().sum().sqrt().item(),
      sqrtD: glass.scalar(d, 'float64').sqrt().item(),
      sphere: lines.map((l) => pairs(onesNorm.call(l))),
      stretched: lines.map((l) => pairs(stretchedNorm.call(l))),
      xAt: pairs(xt)[0],
      yAt: pairs(y)[0],
      yOnesAt: pairs(y1)[0],
    };
  });
}

/** The seed's gradient, ∂ sum(RMSNorm(x)) / ∂x with γ = 1, at several scales of one x. */
export function normGradient(glass: Glass, { x, eps, scales }: NormGradInput): NormGradRow[] {
  if (scales.length > 12) throw new GlassError('at most 12 scales');
  return glass.scope(() =>
    scales.map((c) => {
      const input = glass.tensor([x], { dtype: 'float64' }).mul(c);
      const leaf = input.detach();
      leaf.requiresGrad = true;
      glass.rmsnorm(x.length, { eps, dtype: 'float64' }).call(leaf).sum().backward();
      const g = leaf.grad!;
      const gradNorm = g.square().sum().sqrt().item();
      const inputNorm = leaf.square().sum().sqrt().item();
      return {
        c,
        input: values(leaf),
        grad: values(g),
        dot: leaf.mul(g).sum().item(),
        gradNorm,
        inputNorm,
        product: g.square().sum().sqrt().mul(leaf.square().sum().sqrt()).item(),
      };
    }),
  );
}

/** x and 2x through RMSNorm in one dtype, with what that dtype keeps of ε next to mean(x²). */
export function epsDtype(glass: Glass, { x, eps, dtype }: EpsDtypeInput): EpsDtypeResult {
  return glass.scope(() => {
    const norm = glass.rmsnorm(x.length, { eps, dtype });
    const row = (t: Tensor): EpsDtypeRow => {
      const ms = t.square().mean();
      const withEps = ms.add(eps);
      return {
        input: values(t),
        meanSquare: ms.item(),
        withEps: withEps.item(),
        // both read back exactly into float64, where the subtraction is exact for these sizes
        survived: withEps.to('float64').sub(ms.to('float64')).item(),
        output: values(norm.call(t)),
      };
    };
    const a = glass.tensor([x], { dtype });
    const b = a.mul(2);
    return { rows: [row(a), row(b)], difference: values(norm.call(b).sub(norm.call(a))) };
  });
}

export const rmsnormShapeHandlers = {
  normOpCounts: (s: { glass: Glass }, input: OpCountsInput): OpCountsResult => normOpCounts(s.glass, input),
  normGeometry: (s: { glass: Glass }, input: GeometryInput): GeometryResult => normGeometry(s.glass, input),
  normGradient: (s: { glass: Glass }, input: NormGradInput): NormGradRow[] => normGradient(s.glass, input),
  epsDtype: (s: { glass: Glass }, input: EpsDtypeInput): EpsDtypeResult => epsDtype(s.glass, input),
};
