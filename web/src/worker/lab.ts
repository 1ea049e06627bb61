// What the RMSNorm and epsilon lab shows, computed by the wasm core with
// Tensor ops. Runs in the worker only: the page never does this math.
//
// Shapes: d = vector width, P = number of points on the scale curve.
import type { Glass } from '../core';
import type { GraphNodeView } from '../protocol/base';
import type { LabInput, LabPlateau, LabResult, RandomVectorInput, SeedRow } from '../protocol/lab';
import { graphView, values } from './graphView';
import type { WorkerState } from './state';

/** The scale curve: P log-spaced values of c from 1e-8 to 1e8 (the lab's slider range). */
export const CURVE_POINTS = 61;
const CURVE_LOG10_MIN = -8;
const CURVE_LOG10_MAX = 8;

/** Integer arithmetic in the exponent, so the middle point is exactly c = 1 (where the distance is exactly 0). */
function curveScales(): number[] {
  const n = CURVE_POINTS - 1;
  return Array.from({ length: CURVE_POINTS }, (_, i) => 10 ** ((CURVE_LOG10_MIN * (n - i) + CURVE_LOG10_MAX * i) / n));
}

/** Unit roundoff: half the gap between 1 and the next number of the dtype. */
const UNIT_ROUNDOFF = { float64: 2 ** -53, float32: 2 ** -24 } as const;
/** ε's effect counts as visible on the curve when it is this many times the rounding. */
const ABOVE_ROUNDING = 100;
/** The curve has levelled off when its last point is this close (relatively) to ε's effect. */
const LEVELLED = 0.05;


export function computeLab(glass: Glass, input: LabInput): LabResult {
  const { dtype, eps, c } = input;
  const d = input.x.length;
  return glass.scope(() => {
    const x = glass.tensor([input.x], { dtype }); // (1, d)
    const norm = glass.rmsnorm(d, { eps, dtype });
    if (input.gamma !== null) norm.setGamma(glass.tensor(input.gamma, { dtype }));
    const gamma = norm.gamma; // (d,)

    // The input the norm sees, c·x, as a leaf that records the graph.
    const cx = glass.noGrad(() => x.mul(c)).named(c === 1 ? 'x' : 'c·x').requireGrad(); // (1, d)
    const y = norm.call(cx).named('y'); // (1, d)
    const target = input.grad === 'sum' ? y.sum() : y.slice(-1, input.grad, input.grad + 1).sum(); // ()
    target.backward({ retainGraph: true, retainGrads: true });
    const graph: GraphNodeView[] = graphView(glass, y);
    // r and the mean square are the graph's own intermediate values.
    const nodeValue = (op: string): number => {
      const node = graph.find((n) => n.op === op);
      if (node === undefined || node.value.length !== 1) throw new Error(`lab: the RMSNorm graph has no scalar '${op}' node`);
      return node.value[0];
    };

    return glass.noGrad(() => {
      const ySq = y.square();
      const plain = norm.call(x); // RMSNorm(x), c = 1   (1, d)

      // ||RMSNorm(c x) - RMSNorm(x)|| for every c on the curve, in one batch.
      const scales = curveScales();
      const cs = glass.tensor(scales, { shape: [CURVE_POINTS, 1], dtype }); // (P, 1)
      const scaled = cs.mul(x); // (P, d)
      const curve = norm.call(scaled).sub(plain).square().sum(-1).sqrt(); // (P,)
      const curveMeanSquare = scaled.square().mean(-1); // (P,): Infinity where the squares overflow

      // LayerNorm from core ops: centre, variance, eps, scale by gamma (no beta).
      const mu = cx.mean(-1, true); // (1, 1)
      const centred = cx.sub(mu); // (1, d)
      const variance = centred.square().mean(-1, true); // (1, 1)
      const ln = centred.div(variance.add(eps).sqrt()).mul(gamma); // (1, d)

      const xEnergy = x.square().mean().item(); // mean(x²) at c = 1
      const crossover = glass.scalar(eps, 'float64').div(xEnergy).sqrt().item();
      const crossoverC = eps > 0 && xEnergy > 0 && Number.isFinite(crossover) && crossover > 0 ? crossover : null;
      const distances = values(curve);
      const plateau = plateauOf(glass, input, {
        x: values(x),
        energy: xEnergy,
        plainNorm: plain.square().sum().sqrt().item(),
        scales,
        distances,
        meanSquares: values(curveMeanSquare),
      });

      return {
        dtype,
        d,
        x: values(x),
        input: values(cx),
        meanSquare: nodeValue('mean'),
        r: nodeValue('sqrt'),
        output: values(y),
        outputNorm: ySq.sum().sqrt().item(),
        outputMeanSquare: ySq.mean().item(),
        outputMean: y.mean().item(),
        effectiveEps: glass.scalar(eps, dtype).div(glass.scalar(c, dtype).square()).item(),
        energy: xEnergy,
        crossoverC,
        distance: y.sub(plain).square().sum().sqrt().item(),
        curve: { c: scales, distance: distances },
        plateau,
        layerNorm: { mean: mu.item(), variance: variance.item(), output: values(ln) },
        graph,
        grad: input.grad,
      };
    });
  });
}

/**
 * Where ‖RMSNorm(c·x) − RMSNorm(x)‖ levels off as c grows, and what the plot can
 * show of it. The level, ‖γ ⊙ x / rms(x) − RMSNorm(x)‖, is computed in float64 (an
 * RMSNorm with ε = 0 against one with the lab's ε) from x as the dtype stores it,
 * so it is ε's effect and not the dtype's rounding; the rounding is reported beside it.
 */
function plateauOf(
  glass: Glass,
  input: LabInput,
  seen: { x: number[]; energy: number; plainNorm: number; scales: number[]; distances: number[]; meanSquares: number[] },
): LabPlateau {
  const { eps, dtype } = input;
  const d = seen.x.length;
  const rounding = glass.scalar(UNIT_ROUNDOFF[dtype], 'float64').mul(seen.plainNorm).item();
  const energyOk = seen.energy > 0 && Number.isFinite(seen.energy);
  // (Squares that already overflow at c = 1 are the lab's own note, not a feature of the curve.)
  const over = energyOk ? seen.scales.findIndex((c, i) => c > 1 && seen.meanSquares[i] === Infinity) : -1;
  const overflowFrom = over === -1 ? null : seen.scales[over];

  let epsEffect: number | null = null;
  if (energyOk) {
    const x64 = glass.tensor([seen.x], { dtype: 'float64' }); // (1, d)
    const ideal = glass.rmsnorm(d, { eps: 0, dtype: 'float64' });
    const withEps = glass.rmsnorm(d, { eps, dtype: 'float64' });
    if (input.gamma !== null) {
      ideal.setGamma(glass.tensor(input.gamma, { dtype: 'float64' }));
      withEps.setGamma(glass.tensor(input.gamma, { dtype: 'float64' }));
    }
    const e = ideal.call(x64).sub(withEps.call(x64)).square().sum().sqrt().item();
    if (Number.isFinite(e)) epsEffect = e;
  }

  let kind: LabPlateau['kind'];
  if (epsEffect === null) kind = 'none';
  else if (eps === 0) kind = 'exact';
  else if (epsEffect < rounding) kind = 'rounding';
  else if (epsEffect < ABOVE_ROUNDING * rounding) kind = 'mixed';
  else {
    const last = seen.distances[(over === -1 ? seen.scales.length : over) - 1];
    kind = Math.abs(last - epsEffect) <= LEVELLED * epsEffect ? 'eps' : 'not-levelled';
  }
  return { epsEffect, rounding, kind, overflowFrom };
}

/** The seed lesson's example: RMSNorm(d=2, eps=1e-6) of [[3, 4]] and [[6, 8]]. */
export function computeSeed(glass: Glass): SeedRow[] {
  const eps = 1e-6;
  return (['float64', 'float32'] as const).map((dtype) =>
    glass.scope(() => {
      const norm = glass.rmsnorm(2, { eps, dtype });
      const a = norm.call(glass.tensor([[3, 4]], { dtype }));
      const b = norm.call(glass.tensor([[6, 8]], { dtype }));
      return { dtype, eps, a: values(a), b: values(b), diff: values(b.sub(a)) };
    }),
  );
}

/** d seeded standard-normal values, rounded to 4 significant digits so they read (and share) well. */
export function randomVector(glass: Glass, { d, seed }: RandomVectorInput): number[] {
  return glass.scope(() => values(glass.randn([d], { seed, dtype: 'float64' })).map((v) => Number(v.toPrecision(4))));
}

export const labHandlers = {
  lab: (s: WorkerState, input: LabInput): LabResult => computeLab(s.glass, input),
  seed: (s: WorkerState, _: null): SeedRow[] => computeSeed(s.glass),
  randomVector: (s: WorkerState, input: RandomVectorInput): number[] => randomVector(s.glass, input),
};
