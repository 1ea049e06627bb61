// The Train view's presets and settings form: every preset is a valid pair of
// runs that differ in what its title says, and typed values out of range are
// refused with a message naming the field and its range, keeping the last
// valid value.
import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../../web/src/protocol/train';
import { MODEL_FIELDS, TRAIN_FIELDS, applyDrafts, crossCheck, numberFields, parseField } from '../../web/src/app/trainSettings';
import { PRESETS, SHIPPED_MODEL, SMALL_MODEL } from '../../web/src/app/trainPresets';

const spec = (setup: (typeof PRESETS)[number]['a']): RunSpec => ({ run: 'A', config: setup.config, train: setup.train, data: { kind: 'kjv' }, init: { kind: setup.init } });

/** The keys whose values differ between two objects. */
const differing = (a: object, b: object) => Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]);

describe('presets', () => {
  it('are the experiments of issue 11, each with one sentence of what to expect', () => {
    expect(PRESETS.map((p) => p.title)).toEqual([
      'Pre-norm vs post-norm at 12 blocks',
      'With vs without residuals at 12 blocks',
      'RMSNorm vs LayerNorm',
      'eps 1e-6 vs 0 in float32',
      'Warmup vs no warmup for post-norm',
      'Fine-tune the shipped model on your text',
      'From scratch, your own settings',
    ]);
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    for (const p of PRESETS) {
      // one sentence: a single full stop, at the end (decimal points and "et al." aside)
      const stops = p.expect.replace(/et al\./g, 'et al').replace(/\d\.\d/g, '').match(/[.!?](\s|$)/g) ?? [];
      expect(stops, p.id).toHaveLength(1);
      expect(p.expect.trim().endsWith('.'), p.id).toBe(true);
    }
  });

  it('set valid settings for both runs (every field in range, heads divide d, warmup within the steps)', () => {
    for (const p of PRESETS)
      for (const setup of [p.a, p.b]) {
        const s = spec(setup);
        expect(crossCheck(s), p.id).toBeNull();
        for (const { group, field } of numberFields()) {
          const v = (s[group] as unknown as Record<string, number>)[field.key];
          expect(parseField(field, String(v)).ok, `${p.id} ${field.key} = ${v}`).toBe(true);
        }
      }
  });

  it('differ between A and B in exactly what the title names', () => {
    const diff = (id: string) => {
      const p = PRESETS.find((x) => x.id === id)!;
      return { config: differing(p.a.config, p.b.config), train: differing(p.a.train, p.b.train), init: p.a.init === p.b.init ? [] : ['init'] };
    };
    expect(diff('pre-post')).toEqual({ config: ['norm'], train: [], init: [] });
    expect(diff('residual')).toEqual({ config: ['residual'], train: [], init: [] });
    expect(diff('rms-layer')).toEqual({ config: ['normKind'], train: [], init: [] });
    expect(diff('eps')).toEqual({ config: ['eps'], train: [], init: [] });
    expect(diff('warmup')).toEqual({ config: [], train: ['warmup'], init: [] });
    expect(diff('fine-tune')).toEqual({ config: [], train: [], init: ['init'] });
    const eps = PRESETS.find((x) => x.id === 'eps')!;
    expect([eps.a.config.eps, eps.b.config.eps, eps.a.config.dtype, eps.b.config.dtype]).toEqual([1e-6, 0, 'float32', 'float32']);
    const warm = PRESETS.find((x) => x.id === 'warmup')!;
    expect([warm.a.config.norm, warm.b.config.norm, warm.b.train.warmup]).toEqual(['post', 'post', 0]);
  });

  it('the depth experiments use 12 blocks; fine-tuning uses the shipped model', () => {
    for (const id of ['pre-post', 'residual']) {
      const p = PRESETS.find((x) => x.id === id)!;
      expect([p.a.config.blocks, p.b.config.blocks]).toEqual([12, 12]);
    }
    expect(SMALL_MODEL.blocks).toBe(12);
    const ft = PRESETS.find((x) => x.id === 'fine-tune')!;
    expect(ft.a.config).toEqual(SHIPPED_MODEL);
    expect(ft.a.init).toBe('shipped');
  });
});

describe('settings fields', () => {
  const base = spec(PRESETS[0].a);
  const field = (key: string) => numberFields().find((f) => f.field.key === key)!;

  it('have a plain label and the internal name for every setting the brief lists', () => {
    const keys = [...MODEL_FIELDS, ...TRAIN_FIELDS].map((f) => f.key);
    for (const k of ['blocks', 'd', 'heads', 'ctx', 'norm', 'normKind', 'residual', 'eps', 'initScale', 'dtype', 'steps', 'batch', 'lr', 'warmup', 'clip', 'seed'])
      expect(keys).toContain(k);
    for (const f of [...MODEL_FIELDS, ...TRAIN_FIELDS]) {
      expect(f.label).not.toBe('');
      expect(f.label).not.toBe(f.name); // plain words, not only the code's name
    }
  });

  it('refuse out-of-range, non-integer and non-numeric text with the field and its range', () => {
    expect(parseField(field('blocks').field, '30')).toEqual({ ok: false, message: 'Blocks (blocks) must be a whole number from 1 to 24, got 30' });
    expect(parseField(field('blocks').field, '2.5')).toEqual({ ok: false, message: 'Blocks (blocks) must be a whole number from 1 to 24, got 2.5' });
    expect(parseField(field('blocks').field, 'ten')).toMatchObject({ ok: false, message: expect.stringContaining('a whole number from 1 to 24') });
    expect(parseField(field('d').field, '8')).toMatchObject({ ok: false, message: expect.stringMatching(/^Stream width \(d\) must be a whole number from 16 to 256/) });
    expect(parseField(field('eps').field, '0')).toEqual({ ok: true, value: 0 });
    expect(parseField(field('eps').field, '2')).toEqual({ ok: false, message: 'Epsilon in every norm (eps) must be a number from 0 to 1, got 2' });
    expect(parseField(field('lr').field, '1e-3')).toEqual({ ok: true, value: 1e-3 });
    expect(parseField(field('lr').field, 'NaN')).toMatchObject({ ok: false });
    expect(parseField(field('seed').field, '-1')).toMatchObject({ ok: false, message: expect.stringContaining('2,147,483,647') });
  });

  it('keep the last valid value for a bad draft and apply the good ones', () => {
    const r = applyDrafts(base, { 'config.blocks': '99', 'train.steps': '50', 'train.lr': '0.01' });
    expect(r.spec.config.blocks).toBe(base.config.blocks);
    expect(r.spec.train.steps).toBe(50);
    expect(r.spec.train.lr).toBe(0.01);
    expect(r.problems['config.blocks']).toBe('Blocks (blocks) must be a whole number from 1 to 24, got 99; keeping blocks = 12');
    expect(Object.keys(r.problems)).toEqual(['config.blocks']);
  });

  it('refuse heads that do not split d into an even head width, in either order of typing', () => {
    const odd = applyDrafts(base, { 'config.heads': '3' }); // d = 32
    expect(odd.spec.config.heads).toBe(2);
    expect(odd.problems['config.heads']).toMatch(/^Attention heads \(heads\) must divide the stream width: d = 32 does not split into 3 heads; keeping heads = 2$/);
    const oddWidth = applyDrafts(base, { 'config.d': '48', 'config.heads': '8' }); // 48 / 8 = 6, even
    expect(oddWidth.problems).toEqual({});
    expect([oddWidth.spec.config.d, oddWidth.spec.config.heads]).toEqual([48, 8]);
    const rope = applyDrafts(base, { 'config.d': '48', 'config.heads': '16' }); // 48 / 16 = 3, odd
    expect(rope.spec.config.d).toBe(32);
    expect(rope.problems['config.heads']).toContain('even width');
    expect(rope.problems['config.d']).toContain('even width');
    // fixing heads later applies the waiting d too
    const fixed = applyDrafts(base, { 'config.d': '48', 'config.heads': '4' });
    expect([fixed.spec.config.d, fixed.spec.config.heads, fixed.problems]).toEqual([48, 4, {}]);
  });

  it('refuse warmup longer than the run', () => {
    const r = applyDrafts(base, { 'train.warmup': '500' });
    expect(r.spec.train.warmup).toBe(base.train.warmup);
    expect(r.problems['train.warmup']).toBe('Warmup steps (warmup = 500) must fit in the training steps (steps = 200): lower the warmup or raise the steps; keeping warmup = 20');
    // fewer steps than the warmup: refused until the warmup comes down too, whichever is typed first
    const short = applyDrafts(base, { 'train.steps': '5' });
    expect(short.spec.train.steps).toBe(200);
    expect(short.problems['train.steps']).toContain('keeping steps = 200');
    expect(applyDrafts(base, { 'train.steps': '5', 'train.warmup': '0' })).toEqual({ spec: { ...base, train: { ...base.train, steps: 5, warmup: 0 } }, problems: {} });
  });
});
