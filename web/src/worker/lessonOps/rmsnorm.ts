// The RMSNorm lesson's widgets, with core Tensor ops: one RMSNorm over rows,
// γ against scale, singular values along the gradient path through residual
// layers, and the loaded model's gradient norms by depth.
import { GlassError, type Glass, type Tensor } from '../../core';
import { depthNames } from '../../protocol/model';
import type {
  GammaInput,
  GammaRow,
  ModelGradsInput,
  ModelGradsResult,
  PathInput,
  PathResult,
  RowsInput,
  RowsResult,
} from '../../protocol/lessons/rmsnorm';
import { values } from '../graphView';
import { computeModel, needModel, type WorkerState } from '../state';

export function rmsnormRows(glass: Glass, { rows: xs, eps }: RowsInput): RowsResult {
  return glass.scope(() => {
    const x = glass.tensor(xs, { dtype: 'float64' }); // (n, d)
    const d = xs[0].length;
    const y = glass.rmsnorm(d, { eps, dtype: 'float64' }).call(x); // (n, d)
    const r = x.square().mean(-1).add(eps).sqrt(); // (n,)
    return { output: y.toNested() as number[][], r: values(r) };
  });
}

export function gammaRows(glass: Glass, { rows: xs, gamma: g, eps }: GammaInput): GammaRow[] {
  return glass.scope(() => {
    const d = g.length;
    const x = glass.tensor(xs, { dtype: 'float64' }); // (n, d)
    const withGamma = glass.rmsnorm(d, { eps, dtype: 'float64' });
    withGamma.setGamma(glass.tensor(g, { dtype: 'float64' }));
    const ones = glass.rmsnorm(d, { eps, dtype: 'float64' });
    const y = withGamma.call(x); // (n, d)
    const y1 = ones.call(x); // (n, d)
    const norm = values(y.square().sum(-1).sqrt()); // (n,)
    const ms = values(y.square().mean(-1)); // (n,)
    const variance = values(y.sub(y.mean(-1, true)).square().mean(-1)); // (n,)
    const norm1 = values(y1.square().sum(-1).sqrt());
    const ms1 = values(y1.square().mean(-1));
    const out = y.toNested() as number[][];
    return xs.map((input, i) => ({
      input,
      output: out[i],
      norm: norm[i],
      meanSquare: ms[i],
      variance: variance[i],
      onesNorm: norm1[i],
      onesMeanSquare: ms1[i],
    }));
  });
}

/**
 * Singular values of a small square matrix M (k, k), largest first, from core
 * ops: the eigenvalues of G = Mᵀ M by power iteration (largest on G, smallest
 * on λmax·I − G), the middle one of a 3×3 from the trace.
 */
export function singularValues(glass: Glass, m: Tensor): number[] {
  const k = m.shape[0];
  if (m.shape.length !== 2 || m.shape[1] !== k || k < 1 || k > 3) throw new GlassError(`sv: a square matrix of size 1 to 3, not ${JSON.stringify(m.shape)}`);
  return glass.scope(() => {
    const g = m.transpose().matmul(m); // (k, k)
    const eye = glass.tensor(Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0))), { dtype: 'float64' });
    const top = (a: Tensor): number => {
      // a is symmetric positive semidefinite: ||a v|| / ||v|| converges to its largest eigenvalue
      let v = glass.tensor(Array.from({ length: k }, (_, i) => [1 + 0.3 * i]), { dtype: 'float64' }); // (k, 1)
      let lambda = 0;
      for (let it = 0; it < 200; it++) {
        const w = a.matmul(v); // (k, 1)
        const n = w.square().sum().sqrt().item();
        if (!(n > 1e-300)) return 0;
        const next = w.div(n);
        const moved = next.sub(v).square().sum().item();
        v = next;
        lambda = n;
        if (moved < 1e-28) break;
      }
      return lambda;
    };
    const lmax = top(g);
    const lmin = k === 1 ? lmax : lmax - top(eye.mul(lmax).sub(g));
    const ev = k === 3 ? [lmax, g.mul(eye).sum().item() - lmax - lmin, lmin] : k === 2 ? [lmax, lmin] : [lmax];
    return ev.map((l) => Math.sqrt(Math.max(0, l))).sort((a, b) => b - a);
  });
}

export function gradientPath(glass: Glass, { matrix, scale, depth }: PathInput): PathResult {
  const k = matrix.length;
  if (!(depth >= 1 && depth <= 64)) throw new GlassError('depth must be from 1 to 64');
  return glass.scope(() => {
    const a = glass.tensor(matrix, { dtype: 'float64' }).mul(scale); // J_F = s·A   (k, k)
    const eye = glass.tensor(Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0))), { dtype: 'float64' });
    const j = eye.add(a); // I + J_F
    const extremes = (t: Tensor): [number, number] => {
      const s = singularValues(glass, t);
      return [s[0], s[s.length - 1]];
    };
    const residualDepth: [number, number][] = [];
    const branchDepth: [number, number][] = [];
    let pr = j;
    let pb = a;
    for (let l = 1; l <= depth; l++) {
      if (l > 1) {
        pr = pr.matmul(j);
        pb = pb.matmul(a);
      }
      residualDepth.push(extremes(pr));
      branchDepth.push(extremes(pb));
    }
    return { residual: singularValues(glass, j), branch: singularValues(glass, a), residualDepth, branchDepth };
  });
}

export function modelGrads(s: WorkerState, { text }: ModelGradsInput): ModelGradsResult {
  const m = needModel(s);
  const loss = computeModel(s, { text, eps: m.info.eps, dtype: 'float32' }, true);
  if (loss === null) throw new GlassError('the text needs at least two bytes for a loss (and a backward pass)');
  const names = depthNames(m.info.blocks);
  return { loss, names, norms: names.map((name) => m.model.tensorNorm(name, { grad: true })), n: m.model.snapshot('embed').shape[0] };
}

export const rmsnormHandlers = {
  rmsnormRows: (s: WorkerState, input: RowsInput): RowsResult => rmsnormRows(s.glass, input),
  gammaRows: (s: WorkerState, input: GammaInput): GammaRow[] => gammaRows(s.glass, input),
  gradientPath: (s: WorkerState, input: PathInput): PathResult => gradientPath(s.glass, input),
  modelGrads,
};
