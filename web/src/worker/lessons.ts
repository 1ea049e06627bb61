// The lessons' side of the worker: code cells, check answers and inline values
// (JavaScript against the core facade, run here and only here), and the
// computations of the lesson widgets. Every number comes from core Tensor ops.
//
// Code cells and expressions see: glass (the facade), print(...), round(t, k),
// norm(x, opts) / layernorm(x, opts) (nested arrays in and out), sv(matrix)
// (singular values), and model (the loaded weights: info(), run(text),
// gradNorms(text), param(name) as a Tensor, paramGrad(name)).
import { GlassError, Tensor, type Glass } from '../core';
import { errorData } from '../app/protocol';
import { formatArray, formatPlain, formatScalar, isMarkedFloat, markFloat, type Nested } from '../lessons/numpyFormat';
import type {
  BroadcastInput,
  BroadcastResult,
  GammaInput,
  GammaRow,
  GraphInput,
  GraphResult,
  LessonRequest,
  LessonResponse,
  ModelGradsInput,
  ModelGradsResult,
  PathInput,
  PathResult,
  Plain,
  RowsInput,
  RowsResult,
} from '../lessons/protocol';
import { depthNames, forgetRun, loadedModel } from './inspector';
import { graphView, values } from './graphView';
import { attentionPattern, ropeOffset } from './lessonOps/attention';
import { modelSwiglu, siluGate } from './lessonOps/swiglu';
import { bytePair, byteText, embedGrad } from './lessonOps/bytes';
import { nextByteLoss } from './lessonOps/loss';


/** Turns what an expression returned into plain data (tensors become nested arrays). */
function plain(v: unknown): Plain {
  if (v instanceof Tensor) return v.toNested() as Plain;
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return v.map(plain);
  if (v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, plain(x)]));
  return String(v);
}

function show(v: unknown): string {
  // a float tensor (its .data() too, or round() of it) keeps numpy's float look; plain numbers print whole ones as integers
  const float = v instanceof Tensor || v instanceof Float32Array || v instanceof Float64Array || isMarkedFloat(v);
  const p = plain(v);
  if (typeof p === 'number') return float ? formatScalar(p) : formatPlain(p);
  if (Array.isArray(p) && isNumeric(p)) return float ? formatArray(p as Nested) : formatPlain(p as Nested);
  if (typeof p === 'string') return p;
  return JSON.stringify(p);
}
const isNumeric = (p: Plain): boolean => (Array.isArray(p) ? p.every(isNumeric) : typeof p === 'number');

interface NormOptions {
  eps?: number;
  gamma?: number[];
  dtype?: 'float32' | 'float64';
}

/** What code cells and expressions can use. */
function environment(glass: Glass, print: (...xs: unknown[]) => void): Record<string, unknown> {
  const tensorOf = (x: unknown, dtype: 'float32' | 'float64') => (x instanceof Tensor ? x : glass.tensor(x as number[][], { dtype }));
  return {
    glass,
    print,
    /** Rounds to k decimals, like np.round: a nested array. */
    round: (x: unknown, k = 0) => {
      const p = plain(x);
      const r = (v: Plain): Plain => (Array.isArray(v) ? v.map(r) : Number((v as number).toFixed(k)));
      return x instanceof Tensor ? markFloat(r(p) as Nested) : r(p);
    },
    norm: (x: unknown, o: NormOptions = {}) => {
      const dtype = o.dtype ?? 'float64';
      const t = tensorOf(x, dtype);
      const n = glass.rmsnorm(t.shape[t.shape.length - 1], { eps: o.eps ?? 1e-6, dtype });
      if (o.gamma) n.setGamma(glass.tensor(o.gamma, { dtype }));
      return n.call(t).toNested();
    },
    layernorm: (x: unknown, o: NormOptions = {}) => {
      const dtype = o.dtype ?? 'float64';
      const t = tensorOf(x, dtype);
      const centred = t.sub(t.mean(-1, true));
      let y = centred.div(centred.square().mean(-1, true).add(o.eps ?? 1e-6).sqrt());
      if (o.gamma) y = y.mul(glass.tensor(o.gamma, { dtype }));
      return y.toNested();
    },
    sv: (m: number[][]) => singularValues(glass, glass.tensor(m, { dtype: 'float64' })),
    model: modelApi(glass),
  };
}

function modelApi(glass: Glass) {
  const need = () => {
    const m = loadedModel();
    if (m === null) throw new GlassError('the model is not loaded yet (its weights are still on their way)');
    return m;
  };
  return {
    info: () => need().info,
    run: (text: string, o: { eps?: number; dtype?: 'float32' | 'float64'; backward?: boolean } = {}) => {
      const { model, info } = need();
      forgetRun(); // the inspector's cached run is replaced
      return model.run(text, { eps: o.eps ?? info.eps, dtype: o.dtype ?? 'float32', backward: o.backward ?? true });
    },
    gradNorms: (text: string) => modelGrads({ text }),
    /** A parameter's values as a core tensor in the model's dtype (DESIGN.md name). */
    param: (name: string, dtype: 'float32' | 'float64' = 'float32') => {
      const p = need().model.param(name);
      return glass.tensor(p.data, { shape: p.shape, dtype });
    },
    /** A parameter's gradient after the last run with backward, as { shape, data }. */
    paramGrad: (name: string) => need().model.paramGrad(name),
  };
}

function run(glass: Glass, code: string): { output: string; error: ReturnType<typeof errorData> | null } {
  const lines: string[] = [];
  const print = (...xs: unknown[]) => lines.push(xs.map(show).join(' '));
  try {
    glass.scope(() => {
      const env = environment(glass, print);
      const fn = new Function(...Object.keys(env), `"use strict";\n{\n${code}\n}`) as (...a: unknown[]) => unknown;
      fn(...Object.values(env));
    });
    return { output: lines.join('\n'), error: null };
  } catch (e) {
    return { output: lines.join('\n'), error: errorData(e) };
  }
}

/** Evaluates each expression on its own (one failing does not hide the others). */
export function evaluate(glass: Glass, exprs: string[]) {
  return exprs.map((expr) => {
    try {
      const value = glass.scope(() => {
        const env = environment(glass, () => {});
        const fn = new Function(...Object.keys(env), `"use strict";\nreturn (${expr});`) as (...a: unknown[]) => unknown;
        return plain(fn(...Object.values(env)));
      });
      return { ok: true as const, value };
    } catch (e) {
      return { ok: false as const, error: errorData(e) };
    }
  });
}

// ---- widgets ----

function rows(glass: Glass, { rows: xs, eps }: RowsInput): RowsResult {
  return glass.scope(() => {
    const x = glass.tensor(xs, { dtype: 'float64' }); // (n, d)
    const d = xs[0].length;
    const y = glass.rmsnorm(d, { eps, dtype: 'float64' }).call(x); // (n, d)
    const r = x.square().mean(-1).add(eps).sqrt(); // (n,)
    return { output: y.toNested() as number[][], r: values(r) };
  });
}

function gamma(glass: Glass, { rows: xs, gamma: g, eps }: GammaInput): GammaRow[] {
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

function path(glass: Glass, { matrix, scale, depth }: PathInput): PathResult {
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

/** Records y for the chosen expression, runs backward keeping the graph, and copies it out. */
function graph(glass: Glass, { expression, a: av, b: bv }: GraphInput): GraphResult {
  if (av.length !== bv.length || av.length < 1 || av.length > 8) throw new GlassError('graph: a and b need the same length, 1 to 8 values');
  return glass.scope(() => {
    const a = glass.tensor(av, { dtype: 'float64', requiresGrad: true }).named('a'); // (k,)
    const b = glass.tensor(bv, { dtype: 'float64', requiresGrad: true }).named('b'); // (k,)
    const y =
      expression === 'mul-add' ? a.mul(b).add(a).sum() : expression === 'sq-mean' ? a.sub(b).square().mean() : a.mul(b).tanh().sum(); // ()
    y.backward({ retainGraph: true, retainGrads: true });
    const nodes = graphView(glass, y);
    return { y: y.item(), nodes };
  });
}

/** Broadcasts zero tensors of the two shapes with the core's add: its shape, or its error. */
function broadcast(glass: Glass, { a, b }: BroadcastInput): BroadcastResult {
  for (const s of [a, b])
    if (s.length > 4 || s.some((n) => !Number.isInteger(n) || n < 0 || n > 64)) throw new GlassError('shapes here have up to 4 axes, each of size 0 to 64');
  return glass.scope(() => {
    const y = glass.zeros(a).add(glass.zeros(b));
    return { shape: [...y.shape], numel: y.numel };
  });
}

function modelGrads({ text }: ModelGradsInput): ModelGradsResult {
  const m = loadedModel();
  if (m === null) throw new GlassError('the model is not loaded yet');
  forgetRun();
  const loss = m.model.compute(text, { eps: m.info.eps, dtype: 'float32', backward: true });
  if (loss === null) throw new GlassError('the text needs at least two bytes for a loss (and a backward pass)');
  const names = depthNames(m.info.blocks);
  return { loss, names, norms: names.map((name) => m.model.tensorNorm(name, { grad: true })), n: m.model.snapshot('embed').shape[0] };
}

export function lesson(glass: Glass, request: LessonRequest): LessonResponse {
  switch (request.op) {
    case 'code':
      return { op: 'code', ...run(glass, request.code) };
    case 'eval':
      return { op: 'eval', values: evaluate(glass, request.exprs) };
    case 'rows':
      return { op: 'rows', result: rows(glass, request.input) };
    case 'gamma':
      return { op: 'gamma', result: gamma(glass, request.input) };
    case 'path':
      return { op: 'path', result: path(glass, request.input) };
    case 'modelGrads':
      return { op: 'modelGrads', result: modelGrads(request.input) };
    case 'graph':
      return { op: 'graph', result: graph(glass, request.input) };
    case 'broadcast':
      return { op: 'broadcast', result: broadcast(glass, request.input) };
    case 'attentionPattern':
      return { op: 'attentionPattern', result: attentionPattern(glass, request.input) };
    case 'ropeOffset':
      return { op: 'ropeOffset', result: ropeOffset(glass, request.input) };
    case 'siluGate':
      return { op: 'siluGate', result: siluGate(glass, request.input) };
    case 'modelSwiglu':
      return { op: 'modelSwiglu', result: modelSwiglu(glass, request.input) };
    case 'byteText':
      return { op: 'byteText', result: byteText(glass, request.input) };
    case 'bytePair':
      return { op: 'bytePair', result: bytePair(glass, request.input) };
    case 'embedGrad':
      return { op: 'embedGrad', result: embedGrad(glass, request.input) };
    case 'nextByteLoss':
      return { op: 'nextByteLoss', result: nextByteLoss(glass, request.input) };
  }
}

/** For tests: run a code cell. */
export { run as runCode, graph as computeGraph, broadcast as computeBroadcast };
