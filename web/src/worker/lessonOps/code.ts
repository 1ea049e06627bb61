// Lesson code: code cells, check answers and inline values (JavaScript against
// the core facade). Code cells (which the learner edits) run in the sandbox
// worker (worker/sandbox/), one fresh worker per run; check answers and inline
// values (the lesson's own expressions) in the core worker (`evaluate`).
//
// Code cells and expressions see: glass (the facade), print(...), round(t, k),
// norm(x, opts) / layernorm(x, opts) (nested arrays in and out), sv(matrix)
// (singular values), model (the shipped weights, whatever the inspector shows: info(), run(text),
// gradNorms(text), param(name) as a Tensor, paramGrad(name), the
// residual-stream tools ledger(text), lens(text), heads(text), ablations(text),
// the RMSNorm lesson's streamRms(text), gammas(), initGrowth(text), and
// sampling: nextByte(text, settings), generate(text, settings), loss(text), compareSamples(text))
// and prompt (the learner's own prompt, for checks asked "on your prompt"); the
// lesson's own expressions also see runs (the learner's finished experiment runs).
import { Tensor } from '../../core';
import { errorData, type Plain, type ValueOutcome } from '../../protocol/base';
import type { CodeResult, EvalInput } from '../../protocol/lessons/code';
import { formatArray, formatPlain, formatScalar, isMarkedFloat, markFloat, type Nested } from '../../common/numpyFormat';
import { needModel, runModel, type WorkerState } from '../state';
import type { CompareInput, SampleSettingsInput } from '../../protocol/lessons/generation';
import { DEFAULT_PROMPT } from '../../protocol/lessons/residual';
import { generationCompare, generationLoss, generationNext, generationSample } from './generation';
import { residualAblations, residualHeads, residualLedger, residualLens } from './residual';
import { modelGrads, singularValues } from './rmsnorm';
import { tourModel } from './tour';
import { initGrowth, streamRms, trainedGammas } from './rmsnormModel';

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

const textOrBytes = (t: string | number[]) => (Array.isArray(t) ? { bytes: t } : { text: t });

/** What code cells and expressions can use. */
function environment(s: WorkerState, print: (...xs: unknown[]) => void, prompt = DEFAULT_PROMPT): Record<string, unknown> {
  const glass = s.glass;
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
    model: modelApi(s),
    prompt,
  };
}

function modelApi(s: WorkerState) {
  const glass = s.glass;
  return {
    info: () => needModel(s).info,
    run: (text: string, o: { eps?: number; dtype?: 'float32' | 'float64'; backward?: boolean } = {}) =>
      runModel(s, { text, eps: o.eps ?? needModel(s).info.eps, dtype: o.dtype ?? 'float32' }, o.backward ?? true),
    gradNorms: (text: string) => modelGrads(s, { text }),
    /** A parameter's values as a core tensor in the model's dtype (docs/model.md names). */
    param: (name: string, dtype: 'float32' | 'float64' = 'float32') => {
      const p = needModel(s).model.param(name);
      return glass.tensor(p.data, { shape: p.shape, dtype });
    },
    /** A parameter's gradient after the last run with backward, as { shape, data }. */
    paramGrad: (name: string) => needModel(s).model.paramGrad(name),
    /** The residual ledger on a text, forward and gradient (default float32). */
    ledger: (text: string, dtype: 'float32' | 'float64' = 'float32') => residualLedger(s, { text, dtype }),
    /** The logit lens read after one position (default: the one that predicts the last byte). */
    lens: (text: string, position?: number) => residualLens(s, { text, position }),
    /** Every head's attention pattern and summary. */
    heads: (text: string) => residualHeads(s, { text }),
    /** The loss with each block, branch and head removed. */
    ablations: (text: string) => residualAblations(s, { text }),
    /** The whole model on a text, stage by stage, with the parameters each stage holds (the tour lesson). */
    tour: (text: string) => tourModel(s, { text }),
    /** The RMSNorm lesson: the stream's RMS by depth on a text, the nine trained γ, the stream of fresh models with and without the depth-scaled init. */
    streamRms: (text: string) => streamRms(s, { text }),
    gammas: () => trainedGammas(s),
    initGrowth: (text: string, seed = 1) => initGrowth(s, { text, seed }),
    /** One sampling step after a text (or bytes): the distribution drawn from and the byte chosen. */
    nextByte: (text: string | number[], o: SampleSettingsInput = {}) => generationNext(s, { ...textOrBytes(text), ...o }),
    /** `length` bytes sampled after a text (or bytes): the core's seeded sampler. */
    generate: (text: string | number[], o: SampleSettingsInput & { length?: number; run?: number } = {}) =>
      generationSample(s, { ...textOrBytes(text), ...o, length: o.length ?? 80 }),
    /** The mean next-byte loss over a text (or bytes), of the trained model or a fresh one ({ initSeed }). */
    loss: (text: string | number[], o: { initSeed?: number } = {}) => generationLoss(s, { ...textOrBytes(text), ...o }),
    /** The trained model beside a freshly initialised one: loss on the text and a sample of each. */
    compareSamples: (text: string, o: Omit<CompareInput, 'text'> = { length: 80 }) => generationCompare(s, { ...o, text }),
  };
}

/** A cell's output is cut here (a loop that prints without end would otherwise fill the memory and the page). */
export const MAX_OUTPUT_CHARS = 20_000;

/** What print() throws once the output is full: it stops the cell. */
class OutputLimit extends Error {
  override name = 'OutputLimit';
}

export function runCode(s: WorkerState, code: string): CodeResult {
  const glass = s.glass;
  let output = '';
  let truncated = false;
  const print = (...xs: unknown[]) => {
    if (truncated) throw new OutputLimit(`the output is longer than ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters, so the cell was stopped`);
    const line = xs.map(show).join(' ');
    const next = output === '' ? line : `${output}\n${line}`;
    if (next.length <= MAX_OUTPUT_CHARS) {
      output = next;
      return;
    }
    output = next.slice(0, MAX_OUTPUT_CHARS);
    truncated = true;
    throw new OutputLimit(`the output is longer than ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters, so the cell was stopped`);
  };
  try {
    glass.scope(() => {
      const env = environment(s, print);
      const fn = new Function(...Object.keys(env), `"use strict";\n{\n${code}\n}`) as (...a: unknown[]) => unknown;
      fn(...Object.values(env));
    });
    return { output, truncated, error: null };
  } catch (e) {
    // A wasm trap leaves this core unusable: it is not the cell's error to show, the worker must go.
    if (e instanceof WebAssembly.RuntimeError) throw e;
    return { output, truncated, error: errorData(e) };
  }
}

/**
 * Evaluates each expression on its own (one failing does not hide the others).
 * They see the learner's `prompt` and finished experiment `runs` (EvalInput's).
 */
export function evaluate(s: WorkerState, exprs: readonly string[], { prompt, runs = {} }: Omit<EvalInput, 'exprs'> = {}): ValueOutcome[] {
  const glass = s.glass;
  return exprs.map((expr): ValueOutcome => {
    try {
      const value = glass.scope(() => {
        const env = { ...environment(s, () => {}, prompt), runs };
        const fn = new Function(...Object.keys(env), `"use strict";\nreturn (${expr});`) as (...a: unknown[]) => unknown;
        return plain(fn(...Object.values(env)));
      });
      return { ok: true, value };
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) throw e; // fatal for this core (worker.ts)
      return { ok: false, error: errorData(e) };
    }
  });
}

/** The core worker's: the lesson's own expressions. (runCode is the sandbox's: worker/sandbox/sandbox.ts.) */
export const codeHandlers = {
  evaluate: (s: WorkerState, { exprs, ...seen }: EvalInput): ValueOutcome[] => evaluate(s, exprs, seen),
};
