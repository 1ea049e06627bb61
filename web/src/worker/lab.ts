// What the RMSNorm and epsilon lab shows, computed by the wasm core with
// Tensor ops. Runs in the worker only: the page never does this math.
//
// Shapes: d = vector width, P = number of points on the scale curve.
import type { Glass } from '../core';
import type { GraphNodeView, LabInput, LabResult, SeedRow } from '../app/protocol';
import { graphView, values } from './graphView';

/** The scale curve: P log-spaced values of c from 1e-8 to 1e8 (the lab's slider range). */
export const CURVE_POINTS = 61;
const CURVE_LOG10_MIN = -8;
const CURVE_LOG10_MAX = 8;

function curveScales(): number[] {
  const step = (CURVE_LOG10_MAX - CURVE_LOG10_MIN) / (CURVE_POINTS - 1);
  return Array.from({ length: CURVE_POINTS }, (_, i) => 10 ** (CURVE_LOG10_MIN + i * step));
}


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
      const curve = norm.call(cs.mul(x)).sub(plain).square().sum(-1).sqrt(); // (P,)

      // LayerNorm from core ops: centre, variance, eps, scale by gamma (no beta).
      const mu = cx.mean(-1, true); // (1, 1)
      const centred = cx.sub(mu); // (1, d)
      const variance = centred.square().mean(-1, true); // (1, 1)
      const ln = centred.div(variance.add(eps).sqrt()).mul(gamma); // (1, d)

      const xEnergy = x.square().mean().item(); // mean(x²) at c = 1
      const crossover = glass.scalar(eps, 'float64').div(xEnergy).sqrt().item();
      const crossoverC = eps > 0 && xEnergy > 0 && Number.isFinite(crossover) && crossover > 0 ? crossover : null;

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
        curve: { c: scales, distance: values(curve) },
        layerNorm: { mean: mu.item(), variance: variance.item(), output: values(ln) },
        graph,
        grad: input.grad,
      };
    });
  });
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
export function randomVector(glass: Glass, { d, seed }: { d: number; seed: number }): number[] {
  return glass.scope(() => values(glass.randn([d], { seed, dtype: 'float64' })).map((v) => Number(v.toPrecision(4))));
}
