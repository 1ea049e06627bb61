// The generation lesson's worker ops against the real wasm core and the shipped
// weights: the distribution drawn from against softmax(logits / T) over the top
// k computed here in float64 from the model's own logits (a plain run of the
// model), greedy against the argmax of those logits, the draw against the
// cumulative probabilities, seeds, the wasm sampler against the native
// `glassllm generate`, the fresh model, the byte-by-byte view of a multi-byte
// character, the refusals, and the lesson's checks on a prompt of the learner's own.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consoleModel } from '../../web/src/app/consoleApi';
import { lessonChecks, parseLesson, stepExpressions } from '../../web/src/lessons/parse';
import { DEFAULT_PROMPT } from '../../web/src/protocol/lessons/residual';
import { handlers } from '../../web/src/worker/handlers';
import { evaluate } from '../../web/src/worker/lessonOps/code';
import { generationCompare, generationNext, generationPrefix, generationSample } from '../../web/src/worker/lessonOps/generation';
import { needModel, type WorkerState } from '../../web/src/worker/state';
import { shippedWeightsUrl, withShippedModel } from './load';

const OTHER = 'The LORD is my shepherd; I shall not want.';
const cli = new URL('../../build/native/glassllm', import.meta.url).pathname;

let w: WorkerState;
withShippedModel((s) => (w = s));

/** The model's logits for the byte after `text`, from a plain run (the inspector's), as float64 numbers. */
function lastLogits(text: string): number[] {
  const r = handlers.modelRun(w, { text, eps: needModel(w).info.eps, dtype: 'float32', backward: false, patterns: false, interventions: [] });
  const l = r.snapshots['logits'];
  const n = l.shape[0];
  return Array.from(l.data.subarray((n - 1) * 256, n * 256));
}

/** softmax(z / T) over the k largest (ties: lower byte first), written independently: p_i = 1 / Σ_j e^{(z_j − z_i)/T}. */
function reference(z: number[], T: number, k: number): number[] {
  const order = z.map((_, i) => i).sort((a, b) => z[b] - z[a] || a - b);
  const kept = order.slice(0, k === 0 ? 256 : k);
  const p = new Array<number>(256).fill(0);
  for (const i of kept) p[i] = 1 / kept.reduce((s, j) => s + Math.exp((z[j] - z[i]) / T), 0);
  return p;
}

const argmax = (xs: number[]) => xs.reduce((b, v, i) => (v > xs[b] ? i : b), 0);
const bytes = (t: string) => Array.from(new TextEncoder().encode(t));

describe('one step: the distribution drawn from', () => {
  it('is softmax(logits / T) over the top k of the model’s own logits, for several T and k', () => {
    const z = lastLogits(DEFAULT_PROMPT);
    for (const T of [0.3, 1, 2.5])
      for (const k of [0, 1, 5, 40, 256]) {
        const r = generationNext(w, { text: DEFAULT_PROMPT, temperature: T, topK: k, seed: 1 });
        const want = reference(z, T, k === 256 ? 0 : k);
        for (let v = 0; v < 256; v++) expect(r.probs[v], `T ${T} k ${k} byte ${v}`).toBeCloseTo(want[v], 12);
        expect(r.possible).toBe(want.filter((p) => p > 0).length);
        // the entropy of what is drawn from, in bits
        const bits = -want.filter((p) => p > 0).reduce((s, p) => s + p * Math.log2(p), 0);
        expect(r.bits).toBeCloseTo(bits, 10);
        // the rows are the model's ten likeliest, in the order of its logits, whatever T and k
        expect(r.top.map((c) => c.byte)).toEqual(z.map((_, i) => i).sort((a, b) => z[b] - z[a] || a - b).slice(0, 10));
        expect(r.top[0].probAtOne).toBeCloseTo(reference(z, 1, 0)[r.top[0].byte], 12);
      }
  });
  it('greedy is the argmax of the model’s logits and draws nothing', () => {
    for (const text of [DEFAULT_PROMPT, OTHER, 'a']) {
      const z = lastLogits(text);
      const r = generationNext(w, { text, temperature: 0, seed: 9 });
      expect(r.chosen.byte).toBe(argmax(z));
      expect(r.greedy.byte).toBe(argmax(z));
      expect(r.u).toBeNull();
      expect(r.probs[argmax(z)]).toBe(1);
      expect(r.possible).toBe(1);
    }
  });
  it('the draw u lands in the chosen byte’s stretch of the cumulative probabilities', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const r = generationNext(w, { text: OTHER, temperature: 1.5, topK: 0, seed });
      const below = r.probs.slice(0, r.chosen.byte).reduce((s, p) => s + p, 0);
      expect(r.below).toBeCloseTo(below, 14);
      expect(r.u!).toBeGreaterThanOrEqual(below - 1e-12);
      expect(r.u!).toBeLessThan(below + r.chosen.prob + 1e-12);
    }
    // another seed: the same distribution, another draw
    const [a, b] = [1, 2].map((seed) => generationNext(w, { text: OTHER, seed }));
    expect(a.probs).toEqual(b.probs);
    expect(a.u).not.toBe(b.u);
  });
  it('after the first byte of “é” the model gives the continuation bytes almost nothing (it never saw one)', () => {
    const r = generationNext(w, { bytes: [...bytes('The caf'), 0xc3] });
    const z = lastLogits('The caf'); // not the same text: only a sanity bound below
    expect(z).toHaveLength(256);
    const want = r.probs.slice(0x80, 0xc0).reduce((s, p) => s + p, 0);
    expect(r.continuationMass).toBeCloseTo(want, 14);
    expect(r.continuationMass).toBeLessThan(0.01);
    expect(r.bytes.at(-1)!.label).toBe('\\xC3');
  });
});

describe('samples', () => {
  it('greedy equals the argmax of the model’s logits, byte after byte', () => {
    const r = generationSample(w, { text: OTHER, temperature: 0, length: 12 });
    let text = OTHER;
    const want: number[] = [];
    for (let i = 0; i < 12; i++) {
      const b = argmax(lastLogits(text));
      want.push(b);
      text += String.fromCharCode(b); // ASCII here
    }
    expect(r.sample.map((b) => b.byte)).toEqual(want);
  });
  it('the same seed gives the same bytes on a second run; another seed other bytes; the first byte is the step’s', () => {
    const a = generationSample(w, { text: DEFAULT_PROMPT, temperature: 1, topK: 0, seed: 5, length: 30 });
    const again = generationSample(w, { text: DEFAULT_PROMPT, temperature: 1, topK: 0, seed: 5, length: 30, run: 2 });
    expect(again).not.toBe(a); // computed again, not the kept result
    expect(again.sample).toEqual(a.sample);
    const other = generationSample(w, { text: DEFAULT_PROMPT, temperature: 1, topK: 0, seed: 6, length: 30 });
    expect(other.sampleText).not.toBe(a.sampleText);
    expect(a.sample[0].byte).toBe(generationNext(w, { text: DEFAULT_PROMPT, temperature: 1, seed: 5 }).chosen.byte);
    // top-k 1 is greedy at any temperature
    const k1 = generationSample(w, { text: DEFAULT_PROMPT, temperature: 3, topK: 1, seed: 2, length: 20 });
    expect(k1.sampleText).toBe(generationSample(w, { text: DEFAULT_PROMPT, temperature: 0, length: 20 }).sampleText);
  });
  it('every byte of a top-k sample is among the k likeliest at its step', () => {
    const r = generationSample(w, { text: OTHER, temperature: 2, topK: 3, seed: 4, length: 8 });
    let text = OTHER;
    for (const b of r.sample) {
      const z = lastLogits(text);
      const third = [...z].sort((x, y) => y - x)[2];
      expect(z[b.byte]).toBeGreaterThanOrEqual(third);
      text += String.fromCharCode(b.byte);
    }
  });
  it('the longest repeat, the unfinished tail and the “�” count against brute force', () => {
    const r = generationSample(w, { text: DEFAULT_PROMPT, temperature: 0, length: 80 });
    const s = r.sample.map((b) => b.byte);
    let best = 0;
    for (let len = 1; len < s.length; len++)
      for (let i = 0; i + len <= s.length; i++)
        for (let j = i + 1; j + len <= s.length; j++) if (s.slice(i, i + len).every((x, t) => x === s[j + t])) best = Math.max(best, len);
    expect(r.repeat.length).toBe(best);
    expect(r.sampleText).toContain(r.repeat.text);
    const cut = generationSample(w, { bytes: [...bytes('The caf'), 0xc3], temperature: 1, seed: 1, length: 20 });
    expect(cut.promptText).toBe('The caf\uFFFD');
    expect(cut.invalid).toBe([...cut.text].filter((c) => c === '\uFFFD').length);
    expect(cut.invalid).toBeGreaterThan(0);
    const half = generationPrefix(w, { text: 'The café', upto: 8 });
    expect(half.unfinished).toBe(1);
    expect(half.text).toBe('The caf\uFFFD');
    expect(generationPrefix(w, { text: 'The café', upto: 9 }).text).toBe('The café');
    expect(generationPrefix(w, { text: 'Noah — naïve', upto: 7 }).unfinished).toBe(2);
    expect(half.bytes.map((b) => b.role).slice(-2)).toEqual(['lead2', 'continuation']);
    expect(half.bytes.map((b) => b.hex).slice(-2)).toEqual(['0xC3', '0xA9']);
    expect(half.characters).toBe(8);
  });
  it('wasm gives the bytes the native `glassllm generate` prints for the same settings and seed', { timeout: 300_000 }, () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build the native preset first (bash scripts/build.sh native --target glassllm)`);
    const weights = new URL(shippedWeightsUrl).pathname;
    for (const [T, k, seed] of [
      [0.8, 0, 1],
      [1, 5, 7],
      [0, 0, 3],
      [1.3, 40, 11],
    ] as const) {
      const native = execFileSync(cli, ['generate', '--weights', weights, '--prompt', 'And God said, ', '--tokens', '60', '--temperature', String(T), '--top-k', String(k), '--seed', String(seed)]);
      const r = generationSample(w, { text: 'And God said, ', temperature: T, topK: k, seed, length: 60 });
      expect([...native.subarray(0, native.length - 1)], `T ${T} k ${k} seed ${seed}`).toEqual([...bytes('And God said, '), ...r.sample.map((b) => b.byte)]);
    }
  });
});

describe('the trained model beside a fresh one', () => {
  it('losses: the trained model’s is the model’s own run’s; the fresh model’s is near ln 256; each sample is its sampler’s', () => {
    const c = generationCompare(w, { text: OTHER, length: 24 });
    const own = handlers.modelRun(w, { text: OTHER, eps: needModel(w).info.eps, dtype: 'float32', backward: false, patterns: false, interventions: [] });
    expect(c.trained.loss).toBeCloseTo(own.loss!, 5);
    expect(c.uniform).toBeCloseTo(Math.log(256), 14);
    expect(Math.abs(c.fresh.loss - c.uniform)).toBeLessThan(0.1);
    expect(c.trained.loss).toBeLessThan(c.fresh.loss - 2);
    expect(c.fresh.choices).toBeCloseTo(Math.exp(c.fresh.loss), 8);
    expect(c.fresh.topProb).toBeLessThan(0.02);
    expect(c.trained.sample.sampleText).toBe(generationSample(w, { text: OTHER, temperature: 1, seed: 1, length: 24 }).sampleText);
    expect(c.fresh.sample.sampleText).toBe(generationSample(w, { text: OTHER, temperature: 1, seed: 1, length: 24, initSeed: 1 }).sampleText);
    // another initialisation: another fresh model
    const other = generationSample(w, { text: OTHER, temperature: 1, seed: 1, length: 24, initSeed: 2 });
    expect(other.sampleText).not.toBe(c.fresh.sample.sampleText);
    expect(c.trained.plainShare).toBeGreaterThan(c.fresh.plainShare);
  });
  it('the fresh model leaves the loaded weights alone', () => {
    const before = lastLogits(DEFAULT_PROMPT);
    generationSample(w, { text: DEFAULT_PROMPT, length: 5, initSeed: 3 });
    expect(lastLogits(DEFAULT_PROMPT)).toEqual(before);
  });
});

describe('refusals, in words', () => {
  it('bad settings, texts and bytes', () => {
    for (const temperature of [-1, 11, NaN]) expect(() => generationNext(w, { text: 'a', temperature })).toThrow(/temperature must be a number from 0/);
    for (const topK of [-1, 257, 2.5]) expect(() => generationNext(w, { text: 'a', topK })).toThrow(/top-k must be a whole number from 0/);
    expect(() => generationNext(w, { text: 'a', seed: -1 })).toThrow(/seed must be a whole number/);
    expect(() => generationNext(w, { text: '' })).toThrow(/type a prompt/);
    expect(() => generationNext(w, { bytes: [300] })).toThrow(/from 0 to 255/);
    for (const length of [0, 401, 1.5]) expect(() => generationSample(w, { text: 'a', length })).toThrow(/length must be a whole number of bytes from 1 to 400/);
    expect(() => generationCompare(w, { text: 'a', length: 5 })).toThrow(/at least two bytes/);
    expect(() => generationPrefix(w, { text: 'abc', upto: 4 })).toThrow(/from 1 to 3/);
    // the model facade refuses what the core would: wrong kinds, out-of-range top-k
    const { model } = needModel(w);
    expect(() => model.generate([1], 3, { topK: 300 })).toThrow(/top-k must be from 0 to 256/);
    expect(() => model.generate('a' as unknown as number[], 3)).toThrow(/model.generate bytes/);
  });
});

describe('glass.model.generate and nextByte in the console', () => {
  it('refuse a wrong kind before anything is asked of the worker', async () => {
    await expect(consoleModel.generate(undefined as never)).rejects.toThrow('glass.model.generate prompt: expected a string, got undefined');
    await expect(consoleModel.generate('ab', { topK: 2.5 })).rejects.toThrow(/glass.model.generate topK: expected a whole number/);
    await expect(consoleModel.generate('ab', { length: '9' as never })).rejects.toThrow(/glass.model.generate length: expected a whole number/);
    await expect(consoleModel.nextByte('ab', { temperature: '1' as never })).rejects.toThrow(/glass.model.nextByte temperature: expected a number/);
    await expect(consoleModel.nextByte('ab', 3 as never)).rejects.toThrow(/glass.model.nextByte options/);
  });
});

describe('the lesson', () => {
  const lesson = parseLesson('generation', readFileSync(new URL('../../web/src/lessons/generation.md', import.meta.url), 'utf8'));
  it('is the last lesson, opens with a question and ends with a recap', () => {
    expect(lesson.order).toBe(9);
    expect(lesson.steps[0].title).toBe('A question you cannot answer yet');
    expect(lesson.steps.at(-1)!.title).toBe('Recap, and the next question');
  });
  it('every value and check answer computes, on the default prompt and on another, and the answers follow the prompt', () => {
    const answers = new Map<string, string>();
    for (const prompt of [DEFAULT_PROMPT, OTHER])
      for (const s of lesson.steps) {
        for (const expr of stepExpressions(s)) {
          const [v] = evaluate(w, [expr], { prompt });
          expect(v.ok, `${s.title}: ${expr}: ${v.ok ? '' : v.error.message}`).toBe(true);
        }
        for (const c of lessonChecks({ ...lesson, steps: [s] })) {
          const [v] = evaluate(w, [c.answer], { prompt });
          if (c.choices !== null) expect(c.choices, c.id).toContain(v.ok && v.value);
          const key = `${c.id}`;
          if (prompt === DEFAULT_PROMPT) answers.set(key, JSON.stringify(v.ok && v.value));
          else if (['gen-top', 'gen-bits', 'gen-temp-bits', 'gen-topk-lead', 'gen-loss-choices'].includes(c.id))
            expect(JSON.stringify(v.ok && v.value), `${c.id} reads the prompt`).not.toBe(answers.get(key));
        }
      }
  }, 600_000);
});
