// The generation lesson's requests: one sampling step with the distribution it
// drew from, a whole sample, and the trained model beside a freshly initialised
// one. Worker side: web/src/worker/lessonOps/generation.ts. Plain data only.

/** How a byte is chosen: softmax(logits / temperature) over the topK likeliest (0: all 256), one seeded draw. */
export interface SampleSettingsInput {
  /** 0 (greedy) to 10 (default 1). */
  temperature?: number;
  /** 0 (all bytes) to 256 (default 0). */
  topK?: number;
  /** A whole number, 0 or more (default 1). */
  seed?: number;
  /** Sample from a freshly initialised model of the same config, made with this seed, instead of the trained weights. */
  initSeed?: number;
}

/** A text as the learner typed it, or its UTF-8 bytes (which may stop inside a character). */
export interface GenerationTextInput {
  text?: string;
  bytes?: number[];
}

export type NextByteInput = GenerationTextInput & SampleSettingsInput;

export interface ByteLabel {
  byte: number;
  /** How the byte reads on screen, as the core labels it ("␣", "\\n", "e", "\\xC3"). */
  label: string;
}

export interface NextByteChoice extends ByteLabel {
  /** Its probability in the distribution drawn from (after temperature and top-k). */
  prob: number;
  /** Its probability in the model's own distribution (T = 1, every byte). */
  probAtOne: number;
  logit: number;
}

export interface NextByteResult {
  /** The bytes the model read (the last `context` of the text). */
  bytes: ByteLabel[];
  temperature: number;
  topK: number;
  seed: number;
  /** The likeliest bytes of the distribution drawn from, most likely first (ties: lower byte first). */
  top: NextByteChoice[];
  /** (256,) the distribution drawn from; 0 outside the top k. */
  probs: number[];
  /** (256,) the model's own probabilities, softmax(logits). */
  probsAtOne: number[];
  /** How many bytes can be drawn (probability above 0). */
  possible: number;
  /** Entropy of the distribution drawn from, in bits, and of the model's own; 8 bits is a fair pick among 256. */
  bits: number;
  bitsAtOne: number;
  /** The draw in [0, 1), null when greedy; the probability of the bytes before the chosen one (u lands between this and this + its probability). */
  u: number | null;
  below: number;
  /** The byte chosen and its probability. */
  chosen: NextByteChoice;
  /** The byte greedy decoding would take. */
  greedy: ByteLabel;
  /** Probability of all bytes 0x80–0xFF (the pieces of multi-byte characters), and of 0x80–0xBF (continuation bytes), drawn from. */
  highMass: number;
  continuationMass: number;
}

export interface SampleInput extends NextByteInput {
  /** New bytes, 1 to 400. */
  length: number;
  /** A second run (2, 3, …) of the same settings is sampled again by the core, not taken from the first one's result. */
  run?: number;
}

export interface SampleResult {
  prompt: ByteLabel[];
  /** The new bytes, in the order they were written. */
  sample: ByteLabel[];
  /** The prompt and the sample as text; a byte sequence that is not UTF-8 shows as “�”. */
  text: string;
  /** The prompt alone as text, and the sample alone. */
  promptText: string;
  sampleText: string;
  /** Bytes at the end of the sample that begin a character it does not finish (0 if it ends on a whole character). */
  unfinished: number;
  /** Positions in the sample where the bytes are not valid UTF-8 (each shows as “�”). */
  invalid: number;
  /** The longest stretch of the sample that occurs in it twice (bytes), and that stretch as text. */
  repeat: { length: number; text: string };
  temperature: number;
  topK: number;
  seed: number;
}

export interface CompareInput {
  text: string;
  /** New bytes for each model, 1 to 400. */
  length: number;
  temperature?: number;
  seed?: number;
  /** The fresh model's initialisation seed (default 1). */
  initSeed?: number;
}

export interface ModelSample {
  /** Mean next-byte loss on the prompt, nats. */
  loss: number;
  /** e^loss: as unsure, on average, as a fair pick among this many bytes. */
  choices: number;
  sample: SampleResult;
  /** Share of the sample's bytes that are letters, digits, spaces or common punctuation. */
  plainShare: number;
  /** The largest next-byte probability after the prompt (T = 1). */
  topProb: number;
}

export interface CompareResult {
  trained: ModelSample;
  fresh: ModelSample;
  /** ln 256: the loss of a uniform guess. */
  uniform: number;
  initSeed: number;
}

export interface PrefixInput {
  text: string;
  /** How many of the text's bytes have been written so far (1 to all of them). */
  upto: number;
}

/** What a byte is in UTF-8: a whole character (ASCII), the first byte of a 2-, 3- or 4-byte character, or a continuation. */
export type ByteRole = 'ascii' | 'lead2' | 'lead3' | 'lead4' | 'continuation' | 'invalid';

export interface PrefixByte extends ByteLabel {
  /** "0xC3" */
  hex: string;
  role: ByteRole;
}

export interface PrefixResult {
  bytes: PrefixByte[];
  /** How many characters the whole text has. */
  characters: number;
  upto: number;
  /** The first `upto` bytes as text: an unfinished character at the end shows as “�”. */
  text: string;
  /** Bytes at the end that begin a character not yet finished (0: it ends on a whole character). */
  unfinished: number;
  /** The model's next byte after those bytes, T = 1. */
  next: NextByteResult;
}
