// The address is validated when read: bad keys fall back to defaults with a message.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAB, parseNumber, parseVector } from '../../web/src/app/labSettings';
import { readUrl, writeUrl } from '../../web/src/app/urlState';

describe('readUrl / writeUrl', () => {
  it('round-trips the lab settings', () => {
    const state = { view: 'lab' as const, lab: { x: [1e200, -0.5, 3], gamma: [1, 2, 0.5], eps: 0, c: 1e-3, dtype: 'float32' as const, grad: 2 } };
    const back = readUrl(writeUrl(state, '?tensor=blocks.0.attn'));
    expect(back.problems).toEqual([]);
    expect(back.state).toEqual(state);
    expect(writeUrl(state, '?tensor=blocks.0.attn')).toContain('tensor=blocks.0.attn');
  });

  it('an empty address gives the defaults (the start page) and no problems', () => {
    expect(readUrl('')).toEqual({ state: { view: 'start', lab: DEFAULT_LAB }, problems: [] });
  });

  it('corrupted keys each get a message and their default', () => {
    const r = readUrl('?view=nope&x=3,abc&eps=-1&c=1e9&dtype=float16&grad=7');
    expect(r.state).toEqual({ view: 'start', lab: DEFAULT_LAB });
    expect(r.problems).toHaveLength(6);
    expect(r.problems.join('\n')).toMatch(/'abc' is not a number/);
  });
});

describe('parseNumber / parseVector', () => {
  it.each([
    ['abc', /'abc' is not a number/],
    ['NaN', /is NaN/],
    ['Infinity', /is Infinity/],
    ['-inf', /is -inf/],
    ['', /is empty/],
    ['1e400', /beyond the float64 range/],
    ['0x10', /not a number/],
  ])('%j is refused with a message', (text, message) => {
    const r = parseNumber(text, 'x[0]');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('accepts decimal and exponent notation', () => {
    expect(parseVector('3, 4 -1e-200 .5', 'x')).toEqual({ ok: true, value: [3, 4, -1e-200, 0.5] });
    expect(parseVector('  ', 'x').ok).toBe(false);
    expect(parseVector('1', 'x').ok).toBe(false); // d >= 2
  });
});
