// The training text from its source, checked before the core sees it: a file
// over 50 MB is refused before decoding, NUL bytes mean a binary file, the
// bytes must be UTF-8 (a fatal TextDecoder), and the text must be long enough
// for the context and the 5% held out. Each refusal names the problem.
import type { DataSource } from '../../protocol/train';
import { MAX_TEXT_BYTES, minTextBytes } from '../../protocol/trainSettings';

export class DataError extends Error {
  override name = 'DataError';
}

export interface TrainingText {
  text: string;
  /** What the learner calls it ("the KJV excerpt", the file's name, the pasted text's label). */
  label: string;
  /** UTF-8 bytes: what the model trains on. */
  bytes: number;
}

/** Where the shipped KJV excerpt is when the page does not say (a production build serves it beside index.html). */
export const KJV_PATH = 'data/kjv-excerpt.txt';

function megabytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** UTF-8 bytes -> text, refusing what is not a text file. */
export function decodeText(buffer: ArrayBuffer, label: string): string {
  if (buffer.byteLength > MAX_TEXT_BYTES)
    throw new DataError(`${label} is ${megabytes(buffer.byteLength)}; a training text may be at most ${megabytes(MAX_TEXT_BYTES)}`);
  const bytes = new Uint8Array(buffer);
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new DataError(`${label} looks like a binary file, not text (it has a zero byte at position ${nul})`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DataError(`${label} is not UTF-8 text (save it as UTF-8 and try again)`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A text given as a string (pasted, or a lesson's): same limits as a file. */
export function checkText(text: string, label: string): number {
  if (LONE_SURROGATE.test(text)) throw new DataError(`${label} has a broken character (a lone UTF-16 surrogate) and cannot be encoded as UTF-8`);
  if (text.includes('\0')) throw new DataError(`${label} has a zero character; paste plain text`);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_TEXT_BYTES) throw new DataError(`${label} is ${megabytes(bytes)}; a training text may be at most ${megabytes(MAX_TEXT_BYTES)}`);
  return bytes;
}

/** Refuses a text too short for a context of ctx bytes (the core refuses it too; this says it first and plainly). */
export function checkLength(t: TrainingText, ctx: number): void {
  const need = minTextBytes(ctx);
  if (t.bytes < need)
    throw new DataError(
      `${t.label} is ${t.bytes} bytes; with a context of ${ctx} bytes training needs at least ${need} (5% is held out for the validation loss and must hold one whole window)`,
    );
}

export async function readTrainingData(data: DataSource, fetchBytes: (url: string) => Promise<ArrayBuffer>): Promise<TrainingText> {
  switch (data.kind) {
    case 'text': {
      const label = data.label || 'the text';
      return { text: data.text, label, bytes: checkText(data.text, label) };
    }
    case 'file': {
      const label = `"${data.name}"`;
      const text = decodeText(data.bytes, label);
      return { text, label, bytes: checkText(text, label) };
    }
    case 'kjv': {
      const label = 'the KJV excerpt';
      let buffer: ArrayBuffer;
      try {
        buffer = await fetchBytes(data.url ?? KJV_PATH);
      } catch (e) {
        throw new DataError(`${label} could not be loaded (${e instanceof Error ? e.message : String(e)})`);
      }
      if (data.bytes === undefined) {
        const text = decodeText(buffer, label);
        return { text, label, bytes: checkText(text, label) };
      }
      const text = firstBytes(decodeText(buffer, label), data.bytes);
      const bytes = checkText(text, label);
      return { text, label: `the first ${bytes.toLocaleString('en')} bytes of ${label}`, bytes };
    }
  }
}

/** The text's first `n` UTF-8 bytes at most, cut before a character that would not fit whole. */
export function firstBytes(text: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new DataError(`the text's length must be a whole number of bytes from 1 up, got ${n}`);
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= n) return text;
  let end = n;
  while (end > 0 && (encoded[end] & 0xc0) === 0x80) end--; // a continuation byte: back to the character's start
  return new TextDecoder('utf-8').decode(encoded.subarray(0, end));
}
