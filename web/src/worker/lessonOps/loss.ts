// The next-byte-loss widget: one forward and backward pass of the loaded model
// in float64, then the lesson's quantities from its logits — per-position
// surprise with the model's own loss ops (cross_entropy is the mean of
// −pick(log_softmax(logits), targets): the same ops, stopped before the mean),
// the loss and its conversions, the top guesses at one position, and the
// gradient at the logits set beside the lesson's formula softmax − one-hot.
//
// Letters: n = bytes in the text, V = 256 possible next bytes.
import { GlassError, type Glass, type Tensor } from '../../core';
import type { Guess, NextByteLossInput, NextByteLossResult } from '../../protocol/lessons/loss';
import { computeModel, needModel, runModel, type WorkerState } from '../state';

const TOP = 5;

/** −log p(actual next byte) at each of the first n − 1 positions: the model's loss before its mean. */
export function surprises(logits: Tensor, ids: readonly number[]): Tensor {
  const n = ids.length;
  return logits.slice(0, 0, n - 1).logSoftmax(-1).pick(ids.slice(1)).neg(); // (n−1,)
}

/** (softmax − one_hot(next byte)) / (n − 1) on the first n − 1 rows, zeros on the last: (n, V). */
export function logitGradFormula(glass: Glass, logits: Tensor, ids: readonly number[]): Tensor {
  const n = ids.length;
  const vocab = logits.shape[1];
  const oneHot = glass.oneHot(ids.slice(1), vocab, { dtype: 'float64' }); // (n−1, V)
  const predicted = logits.slice(0, 0, n - 1).softmax(-1).sub(oneHot).div(n - 1); // (n−1, V)
  return glass.concat([predicted, glass.zeros([1, vocab], 'float64')], 0); // (n, V)
}

export function nextByteLoss(s: WorkerState, { text, position: asked }: NextByteLossInput): NextByteLossResult {
  const glass = s.glass;
  const m = needModel(s);
  if (text.length === 0) throw new GlassError('type a text of at least two bytes: the loss needs a byte to predict and the byte after it');
  const run = runModel(s, { text, eps: m.info.eps, dtype: 'float64' }, true);
  const n = run.ids.length;
  if (run.loss === null || run.grads === null)
    throw new GlassError(`“${text}” is ${n} byte long: with nothing after it there is no next byte to predict, so no loss`);
  const position = asked ?? n - 2;
  if (!Number.isInteger(position) || position < 0 || position > n - 2)
    throw new GlassError(`the position must be a whole number from 0 to ${n - 2} (position t predicts byte t + 1; the last byte predicts nothing)`);
  const label = (byte: number) => m.model.displayByte(byte);
  const modelLoss = run.loss;
  const gradData = run.grads.logits;
  return glass.scope(() => {
    const vocab = run.snapshots.logits.shape[1];
    const logits = glass.tensor(run.snapshots.logits.data, { shape: run.snapshots.logits.shape, dtype: 'float64' }); // (n, V)
    const grad = glass.tensor(gradData.data, { shape: gradData.shape, dtype: 'float64' }); // (n, V)
    const s = surprises(logits, run.ids); // (n−1,)
    const loss = s.mean(); // ()
    const ln2 = glass.scalar(2, 'float64').log(); // ()
    const probs = logits.slice(0, position, position + 1).softmax(-1).reshape([vocab]).data(); // (V,)
    const gradRow = grad.slice(0, position, position + 1).reshape([vocab]); // (V,)
    const gradValues = gradRow.data();
    const guess = (byte: number): Guess => ({ byte, label: label(byte), prob: probs[byte], grad: gradValues[byte] });
    // ranking is bookkeeping, not arithmetic: order the core's probabilities
    const order = Array.from({ length: vocab }, (_, v) => v).sort((a, b) => probs[b] - probs[a]);
    const gap = grad.sub(logitGradFormula(glass, logits, run.ids)); // (n, V)
    return {
      bytes: run.ids.map((byte) => ({ byte, label: label(byte) })),
      surprise: Array.from(s.data()),
      loss: loss.item(),
      modelLoss,
      bitsPerByte: loss.div(ln2).item(),
      perplexity: loss.exp().item(),
      uniform: glass.scalar(vocab, 'float64').log().item(),
      position,
      target: guess(run.ids[position + 1]),
      top: order.slice(0, TOP).map(guess),
      gradRow: Array.from(gradValues),
      gradRowSum: gradRow.sum().item(),
      formulaGap: gap.square().max().sqrt().item(),
      lastRowNorm: grad.slice(0, n - 1, n).square().sum().sqrt().item(),
    };
  });
}

const T_MIN = 0.05;
const T_MAX = 20;
const TEMPERATURE_TOP = 8;

/**
 * The model's next-byte distribution after `text` with its logits divided by a
 * temperature (what sampling at that temperature draws from), beside the same at
 * T = 1: the likeliest bytes, and the uncertainty in bits (the entropy).
 */
export function softmaxTemperature(s: WorkerState, { text, temperature }: { text: string; temperature: number }) {
  const glass = s.glass;
  const { model, info } = needModel(s);
  if (!(typeof temperature === 'number' && temperature >= T_MIN && temperature <= T_MAX))
    throw new GlassError(`the temperature must be a number from ${T_MIN} to ${T_MAX}`);
  if (text.length === 0) throw new GlassError('type a text: the model predicts the byte that comes after it');
  computeModel(s, { text, eps: info.eps, dtype: 'float64' }, false);
  const logits = model.snapshot('logits'); // (n, V)
  const [n, vocab] = logits.shape;
  const last = Array.from(new TextEncoder().encode(text)).at(-1)!;
  return glass.scope(() => {
    const z = glass.tensor(logits.data, { shape: logits.shape, dtype: 'float64' }).slice(0, n - 1, n).reshape([vocab]); // (V,)
    const ln2 = glass.scalar(2, 'float64').log();
    /** softmax(z / t) and its entropy in bits, −Σ p log₂ p (log-softmax keeps log p finite where p underflows). */
    const at = (t: number) => {
      const logp = z.div(t).logSoftmax(-1); // (V,)
      const p = logp.exp(); // (V,)
      const bits = p.mul(logp).sum().neg().div(ln2); // ()
      return { p: p.data(), bits: bits.item(), choices: glass.scalar(2, 'float64').pow(bits.item()).item() };
    };
    const hot = at(temperature);
    const plain = at(1);
    // ranking is selection, not arithmetic: order the core's probabilities
    const order = Array.from({ length: vocab }, (_, v) => v).sort((a, b) => hot.p[b] - hot.p[a]);
    return {
      temperature,
      after: model.displayByte(last),
      top: order.slice(0, TEMPERATURE_TOP).map((byte) => ({ byte, label: model.displayByte(byte), prob: hot.p[byte], probAtOne: plain.p[byte] })),
      /** Entropy in bits at this temperature and at T = 1, and the most it can be (all bytes alike). */
      bits: hot.bits,
      bitsAtOne: plain.bits,
      maxBits: glass.scalar(vocab, 'float64').log().div(ln2).item(),
      /** 2^bits: as uncertain as a fair pick among this many bytes. */
      choices: hot.choices,
    };
  });
}

export const lossHandlers = {
  nextByteLoss,
  softmaxTemperature,
};
