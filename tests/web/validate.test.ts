// The message checks every worker client uses (protocol/validate.ts): each
// check accepts what it describes and names the path of what it refuses.
import { describe, expect, it } from 'vitest';
import { sandboxMessage } from '../../web/src/protocol/sandbox';
import { arrayOf, byType, bytes, fields, int, literal, nullable, num, responseCheck, shortProblem, str } from '../../web/src/protocol/validate';

describe('validate: pieces', () => {
  const cases: [string, (v: unknown, p?: string) => string | null, unknown[], unknown[]][] = [
    ['str(5)', str(5), ['', 'abcde'], [1, null, undefined, 'abcdef', {}, ['a']]],
    ['num()', num(), [0, -1.5, 1e308], [NaN, Infinity, -Infinity, '1', null, 1n]],
    ['num({ min: 0 })', num({ min: 0 }), [0, 3], [-1e-300, -1]],
    ['num({ nonFinite })', num({ nonFinite: true }), [NaN, Infinity, 2], ['NaN']],
    ['int(1, 10)', int(1, 10), [1, 10], [0, 11, 1.5, '2', NaN, 2 ** 53 + 2]],
    ['literal', literal('a', 1, null), ['a', 1, null], ['b', 2, undefined, false]],
    ['nullable(str())', nullable(str()), [null, 'x'], [undefined, 1]],
    ['arrayOf(int, 3)', arrayOf(int(0, 9), 3), [[], [1, 2, 3]], [[1, 2, 3, 4], [1, 'a'], 'abc', { length: 1, 0: 1 }, new Float32Array(2)]],
    ['bytes', bytes, [new ArrayBuffer(4)], [new Uint8Array(4), [1, 2], null]],
    ['fields', fields({ a: int(0, 9) }), [{ a: 1 }], [{ a: 1, b: 2 }, {}, { a: 'x' }, null, [], new Uint8Array(1)]],
  ];
  for (const [name, check, good, bad] of cases) {
    it(`${name} accepts ${good.length} and refuses ${bad.length} values`, () => {
      for (const v of good) expect(check(v, 'm'), String(v)).toBeNull();
      for (const v of bad) expect(check(v, 'm'), String(v)).toMatch(/^m(\.\w+)?: /);
    });
  }

  it('optional fields may be missing but not wrong', () => {
    const c = fields({ a: int(0, 9), b: str() }, ['b']);
    expect(c({ a: 1 })).toBeNull();
    expect(c({ a: 1, b: 2 }, 'x')).toBe('x.b: not a string');
  });

  it('byType dispatches on type and names unknown ones, short however long', () => {
    const c = byType({ ping: fields({ type: literal('ping') }) });
    expect(c({ type: 'ping' })).toBeNull();
    expect(c({ type: 'p'.repeat(10_000) })!.length).toBeLessThan(100);
    expect(c({ type: 'toString' })).toMatch(/no known type/); // not an inherited property
    expect(c({ type: '__proto__' })).toMatch(/no known type/);
  });

  it('shortProblem keeps notices short with an ellipsis', () => {
    expect(shortProblem('abc', 5)).toBe('abc');
    const s = shortProblem('x'.repeat(1000), 20);
    expect(s).toHaveLength(20);
    expect(s.endsWith('…')).toBe(true);
  });
});

describe('validate: the core worker and sandbox messages', () => {
  const core = responseCheck();
  it('accepts every message worker.ts sends', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'loadFailed', error: { name: 'E', message: 'm' } },
      { type: 'started', id: 3 },
      { type: 'result', id: 3, ok: true, value: { any: [1] }, computeMs: 0.5 },
      { type: 'result', id: 3, ok: false, error: { name: 'GlassError', message: 'm' }, fatal: false },
    ])
      expect(core(m)).toBeNull();
  });
  it('checks a value by the kind its id asked for', () => {
    const c = responseCheck((id) => (id === 1 ? int(0, 5) : () => null));
    expect(c({ type: 'result', id: 1, ok: true, value: 9, computeMs: 0 }, 'msg')).toBe('msg.value: not a whole number from 0 to 5');
    expect(c({ type: 'result', id: 2, ok: true, value: 9, computeMs: 0 })).toBeNull();
  });
  it('a sandbox result must be a cell result with a capped output', () => {
    expect(sandboxMessage({ type: 'result', id: 1, ok: true, value: { output: 'x', truncated: true, error: null }, computeMs: 1 })).toBeNull();
    expect(sandboxMessage({ type: 'result', id: 1, ok: true, value: { output: 'x', truncated: 'no', error: null }, computeMs: 1 })).not.toBeNull();
    expect(sandboxMessage({ type: 'result', id: 1, ok: true, value: { output: 'x'.repeat(60_000), truncated: false, error: null }, computeMs: 1 })).toMatch(/at most/);
  });
});
