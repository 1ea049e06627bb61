// The "Bytes and embeddings" lesson's widgets, computed by the core: the text's
// UTF-8 bytes as the model encodes them (cpp/glass/io/bytes.cpp), their rows of
// tok_emb looked up two ways (embedding and one-hot @ W), cosine similarity of
// rows, and where the embedding's gradient lands after a backward pass.
//
// Shapes: n = bytes of the text, V = 256 (vocabulary), d = 128 (width).
import { GlassError, type Glass, type Model, type ModelRun, type Tensor } from '../../core';
import type {
  ByteCell,
  ByteNeighbour,
  BytePairInput,
  BytePairResult,
  ByteTextInput,
  ByteTextResult,
  CharBytes,
  EmbedGradInput,
  EmbedGradResult,
  EmbedGradRow,
} from '../../protocol/lessons/bytes';
import { needModel, runModel, type WorkerState } from '../state';

const NEAREST = 6;

/** The core's own run of the text; its refusals (empty, longer than the context) reworded for the page. */
function runText(s: WorkerState, text: string, backward: boolean): ModelRun {
  const m = needModel(s);
  if (text === '') throw new GlassError('Type some text: an empty text has no bytes.');
  try {
    return runModel(s, { text, eps: m.info.eps, dtype: 'float32' }, backward);
  } catch (e) {
    if (e instanceof GlassError && /context/.test(e.message))
      throw new GlassError(
        `${e.message.replace(/^model: /, '')}. The model reads at most ${m.info.context} bytes; the inspector would keep only the first ${m.info.context} (cut between characters). Shorten the text here.`,
      );
    throw e;
  }
}

/** tok_emb.weight as a core tensor in the dtype the model holds it. */
function embeddingTable(glass: Glass, model: Model, dtype?: 'float64'): Tensor {
  const p = model.param('tok_emb.weight'); // (V, d)
  return glass.tensor(p.data, { shape: p.shape, dtype: dtype ?? (p.data instanceof Float64Array ? 'float64' : 'float32') });
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** What a byte is inside UTF-8, read from its top bits. */
function role(b: number): string {
  if (b < 0x80) return 'ASCII';
  if (b < 0xc0) return 'continuation';
  if (b < 0xe0) return 'starts 2';
  if (b < 0xf0) return 'starts 3';
  return 'starts 4';
}

/** Groups the byte ids into characters: a character is a lead byte and the continuation bytes after it. */
function characters(ids: readonly number[]): CharBytes[] {
  const chars: CharBytes[] = [];
  const decoder = new TextDecoder();
  ids.forEach((b, i) => {
    const last = chars[chars.length - 1];
    if (role(b) === 'continuation' && last !== undefined) last.count += 1;
    else chars.push({ char: '', first: i, count: 1 });
  });
  for (const c of chars) c.char = decoder.decode(Uint8Array.from(ids.slice(c.first, c.first + c.count)));
  return chars;
}

/** Largest |a − b| over all elements, by the core. */
const maxGap = (a: Tensor, b: Tensor): number => a.sub(b).square().max().sqrt().item();

export function byteText(s: WorkerState, { text }: ByteTextInput): ByteTextResult {
  const glass = s.glass;
  const m = needModel(s);
  const run = runText(s, text, false);
  const ids = run.ids; // (n,) the core's UTF-8 bytes of the text
  return glass.scope(() => {
    const w = embeddingTable(glass, m.model); // (V, d)
    const rows = glass.embedding(w, ids); // (n, d)
    const viaOneHot = glass.oneHot(ids, m.info.vocab, { dtype: w.dtype }).matmul(w); // (n, V) @ (V, d) -> (n, d)
    const snap = run.snapshots.embed; // (n, d)
    const embed = glass.tensor(snap.data, { shape: snap.shape, dtype: w.dtype });
    const bytes: ByteCell[] = ids.map((b, position) => ({ position, byte: b, hex: hex(b), glyph: m.model.displayByte(b), role: role(b) }));
    return {
      bytes,
      chars: characters(ids),
      context: m.info.context,
      rows: {
        name: 'tok_emb[bytes]',
        grad: false,
        shape: [...rows.shape],
        data: rows.data(),
        rowRms: rows.square().mean(-1).sqrt().data(), // (n,)
        norm: rows.square().sum().sqrt().item(),
      },
      oneHotGap: maxGap(rows, viaOneHot),
      snapshotGap: maxGap(rows, embed),
    };
  });
}

/** One character that is a single byte, or a byte written 0xNN. */
function pickByte(s: WorkerState, text: string, which: string): number {
  const written = /^0x([0-9a-f]{1,2})$/i.exec(text);
  if (written) return parseInt(written[1], 16);
  if (text === '') throw new GlassError(`Byte ${which}: type one character (or a byte as 0x41).`);
  const ids = runText(s, text, false).ids;
  if (ids.length !== 1)
    throw new GlassError(`Byte ${which}: “${text}” is ${ids.length} bytes (${ids.map(hex).join(' ')}), not one. Pick a single-byte character, or type one byte as 0xNN.`);
  return ids[0];
}

export function bytePair(s: WorkerState, { a: aText, b: bText }: BytePairInput): BytePairResult {
  const glass = s.glass;
  const m = needModel(s);
  const a = pickByte(s, aText, 'A');
  const b = pickByte(s, bText, 'B');
  return glass.scope(() => {
    const w = embeddingTable(glass, m.model, 'float64'); // (V, d)
    const norms = w.square().sum(-1, true).sqrt(); // (V, 1)
    const unit = w.div(norms); // (V, d), every row of length 1
    const cos = Array.from(unit.matmul(unit.slice(0, a, a + 1).transpose()).data()); // (V, d) @ (d, 1) -> (V, 1)
    const norm = norms.data();
    const entry = (byte: number): ByteNeighbour => ({ byte, glyph: m.model.displayByte(byte), cosine: cos[byte], norm: norm[byte] });
    const nearest = cos
      .map((_, byte) => byte)
      .filter((byte) => byte !== a)
      .sort((x, y) => cos[y] - cos[x])
      .slice(0, NEAREST)
      .map(entry);
    const chance = glass.scalar(w.shape[1], 'float64').pow(-0.5).item(); // 1/√d: the spread of cos between random rows
    return { a: entry(a), b: entry(b), normA: norm[a], normB: norm[b], nearest, chance };
  });
}

export function embedGrad(s: WorkerState, { text }: EmbedGradInput): EmbedGradResult {
  const glass = s.glass;
  const m = needModel(s);
  const run = runText(s, text, true);
  if (run.loss === null || run.grads === null)
    throw new GlassError('Type at least two bytes: one byte predicts nothing, so there is no loss to take a gradient of.');
  const ids = run.ids; // (n,)
  const vocab = m.info.vocab;
  return glass.scope(() => {
    const g = m.model.paramGrad('tok_emb.weight'); // (V, d)
    const grad = glass.tensor(g.data, { shape: g.shape, dtype: 'float64' });
    const rowNorms = grad.square().sum(-1).sqrt().data(); // (V,)
    const ge = run.grads!.embed; // (n, d) ∂loss/∂embed, one row per position
    // the scatter-add written as a matmul: oneHot(ids)ᵀ sums each byte's positions
    const summed = glass
      .oneHot(ids, vocab, { dtype: 'float64' }) // (n, V)
      .transpose()
      .matmul(glass.tensor(ge.data, { shape: ge.shape, dtype: 'float64' })); // (V, n) @ (n, d) -> (V, d)
    const summedNorms = summed.square().sum(-1).sqrt().data(); // (V,)
    const rows: EmbedGradRow[] = [];
    ids.forEach((b, position) => {
      const row = rows.find((r) => r.byte === b);
      if (row) row.positions.push(position);
      else rows.push({ byte: b, glyph: m.model.displayByte(b), positions: [position], rowNorm: rowNorms[b], summedNorm: summedNorms[b] });
    });
    return { loss: run.loss!, n: ids.length, rows, zeroRows: Array.from(rowNorms).filter((v) => v === 0).length, vocab };
  });
}

export const bytesHandlers = {
  byteText,
  bytePair,
  embedGrad,
};
