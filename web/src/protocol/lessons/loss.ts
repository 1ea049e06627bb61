// The "Logits, loss and the backward pass" lesson's widget request: a text and a
// chosen position in; the model's next-byte predictions, losses and the loss's
// gradient at the logits out. Plain data only; the worker side is
// web/src/worker/lessonOps/loss.ts.

export interface NextByteLossInput {
  text: string;
  /** Which row of the logits to open: position t predicts byte t + 1 (0 ≤ t ≤ n − 2); null: the last prediction, t = n − 2. */
  position: number | null;
}

export interface ByteView {
  byte: number;
  /** How the byte reads on screen, as the core labels it ("␣", "\\n", "e"). */
  label: string;
}

export interface Guess extends ByteView {
  prob: number; // softmax(logits[t])[byte]
  grad: number; // dL/dlogits[t, byte] from the model's backward pass
}

export interface NextByteLossResult {
  bytes: ByteView[]; // (n,) the text's UTF-8 bytes
  /** (n − 1,) −log p(byte t + 1 | bytes 0..t), nats, one per prediction. */
  surprise: number[];
  loss: number; // mean of surprise (core mean)
  modelLoss: number; // the model's own loss from the same run
  bitsPerByte: number; // loss / ln 2
  perplexity: number; // exp(loss)
  uniform: number; // ln 256: the loss of a model that knows nothing
  position: number;
  target: Guess; // the byte that really comes next, with its probability and gradient
  top: Guess[]; // the 5 most likely next bytes at the chosen position, most likely first
  /** (256,) dL/dlogits[t, :] from the model's backward pass. */
  gradRow: number[];
  gradRowSum: number; // Σ_v dL/dlogits[t, v]
  /** max |model's dL/dlogits − (softmax − one_hot)/(n − 1)| over the whole (n, 256) tensor. */
  formulaGap: number;
  lastRowNorm: number; // ‖dL/dlogits[n − 1, :]‖: nothing to predict after the last byte
}
