// The tour lesson's op (worker/lessonOps/tour.ts) on the shipped model: every
// stage of the forward pass in order, the parameters of each counted from the
// model's own tensors and adding up to the core's total, the stream's RMS from the
// snapshots, and a refusal for an empty prompt.
import { describe, expect, it } from 'vitest';
import { tourModel } from '../../web/src/worker/lessonOps/tour';
import type { WorkerState } from '../../web/src/worker/state';
import { errorOf } from './errorOf';
import { withShippedModel } from './load';

let w: WorkerState;
withShippedModel((s) => (w = s));

describe('tourModel', () => {
  it('walks bytes, embedding, each block (norm, attention, add, norm, SwiGLU, add), final norm, head, loss', () => {
    const r = tourModel(w, { text: 'In the beginning' });
    const info = w.shipped!.info;
    expect(r.blocks).toBe(info.blocks);
    const block = ['norm', 'attention', 'add', 'norm', 'ffn', 'add'];
    expect(r.stages.map((s) => s.kind)).toEqual(['bytes', 'embedding', ...Array.from({ length: info.blocks }, () => block).flat(), 'final-norm', 'head', 'loss']);
    expect(r.stages[0].shape).toEqual([16]);
    expect(r.stages.find((s) => s.kind === 'head')!.shape).toEqual([16, 256]);
    expect(r.labels).toHaveLength(16);
    expect(r.loss).toBeCloseTo(w.glass.scope(() => w.shipped!.model.run('In the beginning', { backward: false }).loss!), 6);
    expect(r.uniform).toBeCloseTo(Math.log(256), 12);
  });

  it('counts 918,656 parameters, placed where the model keeps them, and the additions hold none', () => {
    const r = tourModel(w, { text: 'abc' });
    expect(r.total).toBe(918_656);
    expect(r.total).toBe(w.shipped!.info.parameters);
    const part = (p: string) => r.budget.find((b) => b.part === p)!.params;
    expect(part('embedding')).toBe(256 * 128);
    expect(part('head')).toBe(256 * 128);
    expect(part('attention')).toBe(4 * 4 * 128 * 128);
    expect(part('ffn')).toBe(4 * 3 * 384 * 128);
    expect(part('norm')).toBe(9 * 128);
    expect(r.budget.reduce((s, b) => s + b.share, 0)).toBeCloseTo(1, 12);
    expect(r.perBlock).toEqual({ attention: 65_536, ffn: 147_456, norm: 256, all: w.shipped!.info.perBlock[0] });
    for (const s of r.stages.filter((x) => x.kind === 'add' || x.kind === 'bytes' || x.kind === 'loss')) expect(s.params).toBe(0);
  });

  it('the stream grows block after block while each norm hands its branch a steady size', () => {
    const r = tourModel(w, { text: 'In the beginning God created the heaven and the earth.' });
    const adds = r.stages.filter((s) => s.kind === 'add').map((s) => s.rms!);
    expect(adds.at(-1)!).toBeGreaterThan(2 * r.stages[1].rms!);
    // the RMS matches the snapshot's own numbers
    const embed = w.glass.scope(() => w.shipped!.model.run('In the beginning God created the heaven and the earth.', { backward: false }).snapshots.embed.data);
    const direct = Math.sqrt(Array.from(embed).reduce((s, v) => s + v * v, 0) / embed.length);
    expect(r.stages[1].rms).toBeCloseTo(direct, 6);
  });

  it('asked again for the same text, answers the same, even after an expression changed the last answer', () => {
    const a = tourModel(w, { text: 'In the beginning' });
    a.stages.length = 0;
    a.budget.sort((x, y) => x.params - y.params);
    const b = tourModel(w, { text: 'In the beginning' });
    expect(b.stages.length).toBe(2 + 6 * b.blocks + 3);
    expect(b.budget.map((x) => x.part)).toEqual(['embedding', 'attention', 'ffn', 'norm', 'head']);
    expect(b.largest).toBe('ffn');
    expect(b.growth.last).toBe(b.stages.filter((x) => x.kind === 'add').at(-1)!.rms);
    expect(tourModel(w, { text: 'In the' }).labels).toHaveLength(6);
  });

  it('refuses an empty prompt with a message', () => {
    expect(errorOf(() => tourModel(w, { text: '' }))).toMatch(/at least one byte/);
  });
});
