// The "Bytes and embeddings" lesson's worker ops against the real core, checked
// against things computed independently here: UTF-8 from TextEncoder, rows of
// tok_emb.weight read straight out of the safetensors file, cosines and sums
// in plain JavaScript float64.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { bytePair, byteText, embedGrad } from '../../web/src/worker/lessonOps/bytes';
import { shippedWeightsUrl, withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

const file = readFileSync(shippedWeightsUrl);

/** tok_emb.weight (256, 128) read from the file without the core: 8-byte header length, JSON header, F32 data. */
function tokEmbFromFile(): Float32Array {
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const entry = header['tok_emb.weight'];
  expect(entry.dtype).toBe('F32');
  expect(entry.shape).toEqual([256, 128]);
  const [start, end] = entry.data_offsets as [number, number];
  const raw = bytes.slice(8 + headerLength + start, 8 + headerLength + end);
  return new Float32Array(raw.buffer);
}

const W = tokEmbFromFile();
const row = (b: number) => Array.from(W.subarray(b * 128, (b + 1) * 128));
const dot = (u: number[], v: number[]) => u.reduce((s, x, i) => s + x * v[i], 0);
const cosine = (u: number[], v: number[]) => dot(u, v) / Math.sqrt(dot(u, u) * dot(v, v));

describe('bytes and embeddings: worker ops', () => {
  let w: WorkerState;
  let glass: Glass;
  withShippedModel((s) => ((w = s), (glass = s.glass)));

  it('the core encodes text as its UTF-8 bytes, grouped into characters, labelled as the core displays them', () => {
    for (const text of ['créé', 'ok 🙂', 'a b\n', 'Ωμέγα 中文']) {
      const r = byteText(w, { text });
      expect(r.bytes.map((b) => b.byte)).toEqual(Array.from(new TextEncoder().encode(text)));
      expect(r.chars.map((c) => c.char).join('')).toBe(text);
      expect(r.chars.map((c) => c.count)).toEqual([...text].map((ch) => new TextEncoder().encode(ch).length));
      expect(r.context).toBe(128);
    }
    const r = byteText(w, { text: 'a é\n' });
    expect(r.bytes.map((b) => b.glyph)).toEqual(['a', '␣', '\\xC3', '\\xA9', '\\n']);
    expect(r.bytes.map((b) => b.hex)).toEqual(['0x61', '0x20', '0xC3', '0xA9', '0x0A']);
    expect(r.bytes.map((b) => b.role)).toEqual(['ASCII', 'ASCII', 'starts 2', 'continuation', 'ASCII']);
    const emoji = byteText(w, { text: '🙂' });
    expect(emoji.bytes.map((b) => b.role)).toEqual(['starts 4', 'continuation', 'continuation', 'continuation']);
  });

  it('the looked-up rows are the rows of tok_emb.weight in the file; one-hot @ W and the embed snapshot agree exactly', () => {
    const r = byteText(w, { text: 'créé' });
    expect(r.rows.shape).toEqual([6, 128]);
    const ids = [99, 114, 195, 169, 195, 169];
    ids.forEach((b, i) => expect(Array.from(r.rows.data.subarray(i * 128, (i + 1) * 128))).toEqual(row(b)));
    ids.forEach((b, i) => expect(r.rows.rowRms[i]).toBeCloseTo(Math.sqrt(dot(row(b), row(b)) / 128), 6));
    expect(r.rows.norm).toBeCloseTo(Math.sqrt(ids.reduce((s, b) => s + dot(row(b), row(b)), 0)), 5);
    expect(r.oneHotGap).toBe(0);
    expect(r.snapshotGap).toBe(0);
  });

  it('refuses an empty text and one longer than the context, with a message', () => {
    expect(() => byteText(w, { text: '' })).toThrow(/empty/);
    expect(() => byteText(w, { text: 'é'.repeat(70) })).toThrow(/140 bytes.*128/);
    expect(byteText(w, { text: 'é'.repeat(64) }).bytes).toHaveLength(128);
  });

  it('cosine similarity of two rows and the nearest rows, against the file', () => {
    const r = bytePair(w, { a: 'a', b: 'A' });
    expect(r.a.byte).toBe(97);
    expect(r.b.byte).toBe(65);
    expect(r.a.cosine).toBeCloseTo(1, 12);
    expect(r.b.cosine).toBeCloseTo(cosine(row(97), row(65)), 12);
    expect(r.normA).toBeCloseTo(Math.sqrt(dot(row(97), row(97))), 12);
    const all = Array.from({ length: 256 }, (_, b) => b).filter((b) => b !== 97);
    const best = all.sort((x, y) => cosine(row(97), row(y)) - cosine(row(97), row(x))).slice(0, 6);
    expect(r.nearest.map((n) => n.byte)).toEqual(best);
    const hexByte = bytePair(w, { a: '0xC3', b: ' ' });
    expect(hexByte.a.byte).toBe(195);
    expect(hexByte.b.glyph).toBe('␣');
    expect(hexByte.b.cosine).toBeCloseTo(cosine(row(195), row(32)), 12);
  });

  it('the picker refuses what is not one byte', () => {
    expect(() => bytePair(w, { a: 'é', b: 'a' })).toThrow(/2 bytes \(0xC3 0xA9\)/);
    expect(() => bytePair(w, { a: 'a', b: '' })).toThrow(/Byte B: type one character/);
    expect(() => bytePair(w, { a: 'ab', b: 'a' })).toThrow(/not one/);
    expect(() => bytePair(w, { a: 'a', b: '0xZZ' })).toThrow(/not one/);
  });

  it("the embedding's gradient: each byte's row is the sum of its positions' gradients; absent and last-only bytes get zero", () => {
    const r = embedGrad(w, { text: 'banana' });
    expect(r.rows.map((x) => [x.glyph, x.positions])).toEqual([
      ['b', [0]],
      ['a', [1, 3, 5]],
      ['n', [2, 4]],
    ]);
    expect(r.zeroRows).toBe(253);
    for (const x of r.rows) expect(x.rowNorm).toBeCloseTo(x.summedNorm, 6);
    const abc = embedGrad(w, { text: 'abc' });
    expect(abc.zeroRows).toBe(254);
    expect(abc.rows.find((x) => x.glyph === 'c')!.rowNorm).toBe(0);
    expect(abc.rows.find((x) => x.glyph === 'a')!.rowNorm).toBeGreaterThan(0);
  });

  it('a byte used twice: its gradient row equals the JavaScript sum of its positions in the core snapshot gradient', async () => {
    const { Model } = await import('../../web/src/core');
    const m = Model.create(glass);
    try {
      m.loadWeights(new Uint8Array(file.buffer, file.byteOffset, file.byteLength));
      const out = m.run('banana', { eps: 1e-6, dtype: 'float32', backward: true });
      const g = out.grads!.embed; // (6, 128)
      const sum = Array.from({ length: 128 }, (_, j) => g.data[2 * 128 + j] + g.data[4 * 128 + j]);
      const r = embedGrad(w, { text: 'banana' });
      expect(r.rows.find((x) => x.glyph === 'n')!.rowNorm).toBeCloseTo(Math.sqrt(dot(sum, sum)), 6);
      expect(r.loss).toBeCloseTo(out.loss!, 6);
    } finally {
      m.dispose();
    }
  });

  it('one byte has no loss to differentiate: refused with a message', () => {
    expect(() => embedGrad(w, { text: 'a' })).toThrow(/at least two bytes/);
    expect(() => embedGrad(w, { text: '🙂'.repeat(33) })).toThrow(/132 bytes/);
  });
});
