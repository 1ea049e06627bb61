// The generation lesson's computations: one sampling step with everything it
// used (the model's probabilities, the distribution after temperature and top-k,
// the draw and the byte chosen), a whole sample, and the trained model beside a
// freshly initialised one. The sampling itself is the core's
// (glass/train/sample.h, the same code as `glassllm generate`); this file adds
// what the lesson reads off it: entropies (core ops), the bytes as labels and
// as text, where a sample stops inside a character, its longest repeat.
//
// A step's checks ask about the same settings several times: each result is
// kept for the loaded weights (a new file forgets them) and the last few inputs.
import { GlassError, type GenerationStep } from '../../core';
import type {
  ByteLabel,
  CompareInput,
  CompareResult,
  GenerationTextInput,
  ModelSample,
  NextByteChoice,
  NextByteInput,
  NextByteResult,
  PrefixByte,
  PrefixInput,
  PrefixResult,
  SampleInput,
  SampleResult,
  SampleSettingsInput,
} from '../../protocol/lessons/generation';
import { answerCache, needModel, type WorkerState } from '../state';

const KEEP = 40;
const TOP = 10;
export const MAX_SAMPLE = 400;
const T_MAX = 10;
const cached = answerCache(KEEP);

const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** The bytes of a text or the bytes given, refused in words when unusable. */
function bytesOf({ text, bytes }: GenerationTextInput): number[] {
  if (bytes !== undefined) {
    if (!Array.isArray(bytes) || bytes.length === 0 || !bytes.every((b) => isWhole(b) && b >= 0 && b <= 255))
      throw new GlassError('the bytes must be a list of whole numbers from 0 to 255, at least one');
    return bytes;
  }
  if (typeof text !== 'string') throw new GlassError('the prompt must be text');
  const ids = Array.from(new TextEncoder().encode(text));
  if (ids.length === 0) throw new GlassError('type a prompt: the model writes the bytes that come after it');
  return ids;
}

interface Settings {
  temperature: number;
  topK: number;
  seed: number;
  initSeed: number;
}

function settingsOf(o: SampleSettingsInput): Settings {
  const { temperature = 1, topK = 0, seed = 1, initSeed } = o;
  if (!(typeof temperature === 'number' && temperature >= 0 && temperature <= T_MAX))
    throw new GlassError(`the temperature must be a number from 0 (greedy) to ${T_MAX}`);
  if (!(isWhole(topK) && topK >= 0 && topK <= 256)) throw new GlassError('top-k must be a whole number from 0 (every byte) to 256');
  if (!(isWhole(seed) && seed >= 0 && seed <= 2 ** 31)) throw new GlassError('the seed must be a whole number from 0 to 2147483648');
  if (!(initSeed === undefined || (isWhole(initSeed) && initSeed >= 0 && initSeed <= 2 ** 31)))
    throw new GlassError('the initialisation seed must be a whole number from 0 to 2147483648');
  return { temperature, topK, seed, initSeed: initSeed ?? -1 };
}

const keyOf = (what: string, bytes: number[], st: Settings, extra = '') => `${what}|${st.temperature}|${st.topK}|${st.seed}|${st.initSeed}|${extra}|${bytes.join(',')}`;

/** A model step from the core; the core's model then holds no usable run for the inspector. */
function stepOf(s: WorkerState, bytes: number[], st: Settings): GenerationStep {
  const m = needModel(s);
  const { model, info } = m;
  m.held = null;
  return model.generateStep(bytes, { temperature: st.temperature, topK: st.topK, seed: st.seed, initSeed: st.initSeed < 0 ? undefined : st.initSeed, eps: info.eps });
}

/** −Σ p log₂ p over the bytes that can be drawn, with core ops. */
function entropyBits(s: WorkerState, probs: ArrayLike<number>): number {
  const glass = s.glass;
  const kept = Array.from(probs).filter((p) => p > 0);
  return glass.scope(() => {
    const p = glass.tensor(kept, { dtype: 'float64' });
    // + 0: one certain byte gives −0 bits, which is 0
    return p.mul(p.log()).sum().neg().div(glass.scalar(2, 'float64').log()).item() + 0;
  });
}

/** softmax(logits) with core ops: the model's own distribution. */
function softmaxOf(s: WorkerState, logits: Float64Array): number[] {
  const glass = s.glass;
  return glass.scope(() => Array.from(glass.tensor(Array.from(logits), { dtype: 'float64' }).softmax(-1).data()));
}

const label = (s: WorkerState, byte: number): ByteLabel => ({ byte, label: needModel(s).model.displayByte(byte) });

export function generationNext(s: WorkerState, input: NextByteInput): NextByteResult {
  const bytes = bytesOf(input);
  const st = settingsOf(input);
  return cached(s, keyOf('next', bytes, st), () => {
    const { info } = needModel(s);
    const step = stepOf(s, bytes, st);
    const probs = Array.from(step.probs);
    const probsAtOne = softmaxOf(s, step.logits);
    const choice = (byte: number): NextByteChoice => ({ ...label(s, byte), prob: probs[byte], probAtOne: probsAtOne[byte], logit: step.logits[byte] });
    // temperature and top-k never reorder the bytes: the same rows, ordered by the model's logits (ties: lower byte first)
    const order = Array.from({ length: probs.length }, (_, v) => v).sort((a, b) => step.logits[b] - step.logits[a] || a - b);
    const sum = (from: number, to: number) => probs.slice(from, to).reduce((a, p) => a + p, 0);
    return {
      bytes: bytes.slice(-info.context).map((b) => label(s, b)),
      temperature: st.temperature,
      topK: st.topK,
      seed: st.seed,
      top: order.slice(0, TOP).map(choice),
      probs,
      probsAtOne,
      possible: probs.filter((p) => p > 0).length,
      bits: entropyBits(s, probs),
      bitsAtOne: entropyBits(s, probsAtOne),
      u: step.u,
      below: sum(0, step.byte),
      chosen: choice(step.byte),
      greedy: label(s, order[0]),
      highMass: sum(0x80, 0x100),
      continuationMass: sum(0x80, 0xc0),
    };
  });
}

/** Bytes at the end that start a character they do not finish. */
function unfinishedTail(bytes: number[]): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return need > back ? back : 0;
    }
  }
  return 0;
}

/** The longest run of bytes that occurs twice in xs (the two may overlap), and where it first starts. */
function longestRepeat(xs: number[]): { length: number; at: number } {
  let best = { length: 0, at: 0 };
  for (let d = 1; d < xs.length; d++) {
    let run = 0;
    for (let i = 0; i + d < xs.length; i++) {
      run = xs[i] === xs[i + d] ? run + 1 : 0;
      if (run > best.length) best = { length: run, at: i - run + 1 };
    }
  }
  return best;
}

const decode = (bytes: number[]) => new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes));

export function generationSample(s: WorkerState, input: SampleInput): SampleResult {
  const bytes = bytesOf(input);
  const st = settingsOf(input);
  const { length, run = 1 } = input;
  if (!(isWhole(length) && length >= 1 && length <= MAX_SAMPLE)) throw new GlassError(`the length must be a whole number of bytes from 1 to ${MAX_SAMPLE}`);
  if (!(isWhole(run) && run >= 1)) throw new GlassError('run must be a whole number, 1 or more');
  // `run` keeps runs apart: run 2 is computed again by the core, never taken from run 1's result
  return cached(s, keyOf('sample', bytes, st, `${length}|${run}`), () => {
    const m = needModel(s);
    const { model, info } = m;
    m.held = null;
    const out = model.generate(bytes, length, {
      temperature: st.temperature,
      topK: st.topK,
      seed: st.seed,
      initSeed: st.initSeed < 0 ? undefined : st.initSeed,
      eps: info.eps,
    });
    const text = decode([...bytes, ...out]);
    const rep = longestRepeat(out);
    return {
      prompt: bytes.map((b) => label(s, b)),
      sample: out.map((b) => label(s, b)),
      text,
      promptText: decode(bytes),
      sampleText: decode(out),
      unfinished: unfinishedTail([...bytes, ...out]),
      invalid: [...text].filter((c) => c === '\uFFFD').length,
      repeat: { length: rep.length, text: decode(out.slice(rep.at, rep.at + rep.length)) },
      temperature: st.temperature,
      topK: st.topK,
      seed: st.seed,
    };
  });
}

/** The mean next-byte loss over a text or bytes (2 up to the context), of the trained model or a fresh one. */
export function generationLoss(s: WorkerState, input: GenerationTextInput & { initSeed?: number }): number {
  const bytes = bytesOf(input);
  const st = settingsOf({ initSeed: input.initSeed });
  const { info } = needModel(s);
  if (bytes.length < 2) throw new GlassError('a loss needs at least two bytes: with one there is no next byte to predict');
  if (bytes.length > info.context) throw new GlassError(`the text is ${bytes.length} bytes; the model reads at most ${info.context} (its context)`);
  return cached(s, keyOf('loss', bytes, st), () => {
    const m = needModel(s);
    m.held = null;
    return m.model.generationLoss(bytes, { initSeed: st.initSeed < 0 ? undefined : st.initSeed, eps: info.eps });
  });
}

const PLAIN = /[A-Za-z0-9 ,.;:'!?()\n-]/;

export function generationCompare(s: WorkerState, input: CompareInput): CompareResult {
  const { text, length, temperature = 1, seed = 1, initSeed = 1 } = input;
  const bytes = bytesOf({ text });
  const { info } = needModel(s);
  if (bytes.length < 2) throw new GlassError('type a prompt of at least two bytes: with one there is no next byte to predict, so no loss');
  if (bytes.length > info.context) throw new GlassError(`the prompt is ${bytes.length} bytes; the model reads at most ${info.context} (its context)`);
  const one = (fresh: boolean): ModelSample => {
    const sample = generationSample(s, { text, length, temperature, seed, initSeed: fresh ? initSeed : undefined });
    const step = generationNext(s, { text, temperature: 1, seed, initSeed: fresh ? initSeed : undefined });
    const loss = generationLoss(s, { bytes, initSeed: fresh ? initSeed : undefined });
    const chars = [...sample.sampleText];
    return {
      loss,
      choices: s.glass.scope(() => s.glass.scalar(loss, 'float64').exp().item()),
      sample,
      plainShare: chars.filter((c) => PLAIN.test(c)).length / chars.length,
      topProb: Math.max(...step.probsAtOne),
    };
  };
  return {
    trained: one(false),
    fresh: one(true),
    uniform: s.glass.scope(() => s.glass.scalar(256, 'float64').log().item()),
    initSeed,
  };
}

const roleOf = (b: number): PrefixByte['role'] =>
  b < 0x80 ? 'ascii' : b < 0xc0 ? 'continuation' : b < 0xe0 ? 'lead2' : b < 0xf0 ? 'lead3' : b < 0xf8 ? 'lead4' : 'invalid';

/** A text written byte by byte: its first `upto` bytes as text, and what the model expects next. */
export function generationPrefix(s: WorkerState, { text, upto }: PrefixInput): PrefixResult {
  const bytes = bytesOf({ text });
  const { info } = needModel(s);
  if (bytes.length > info.context) throw new GlassError(`the text is ${bytes.length} bytes; the model reads at most ${info.context} (its context)`);
  if (!(isWhole(upto) && upto >= 1 && upto <= bytes.length)) throw new GlassError(`the bytes written so far must be a whole number from 1 to ${bytes.length}`);
  const head = bytes.slice(0, upto);
  return {
    bytes: bytes.map((b) => ({ ...label(s, b), hex: `0x${b.toString(16).toUpperCase().padStart(2, '0')}`, role: roleOf(b) })),
    characters: [...decode(bytes)].length,
    upto,
    text: decode(head),
    unfinished: unfinishedTail(head),
    next: generationNext(s, { bytes: head, temperature: 1 }),
  };
}

export const generationHandlers = {
  generationPrefix,
  generationNext,
  generationSample,
  generationCompare,
};
