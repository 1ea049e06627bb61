// The inspector's prompt budget (UTF-8 bytes, cut on a character boundary), its
// address keys (validated when read), and the .npy writer (checked with numpy
// when Debian's python3-numpy is there, else by its header bytes).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INSPECTOR, readInspectorUrl, truncateUtf8, writeInspectorUrl } from '../../web/src/app/inspectorSettings';
import { npyBytes, tensorJson } from '../../web/src/app/npy';

describe('truncateUtf8', () => {
  it('counts bytes, not JS characters', () => {
    expect(truncateUtf8('abc')).toEqual({ text: 'abc', bytes: 3, originalBytes: 3, truncated: false });
    expect(truncateUtf8('é€😀').bytes).toBe(2 + 3 + 4);
    const long = truncateUtf8('x'.repeat(10_000));
    expect(long).toEqual({ text: 'x'.repeat(128), bytes: 128, originalBytes: 10_000, truncated: true });
  });
  it('cuts on a character boundary', () => {
    const t = truncateUtf8('a'.repeat(126) + 'é€'); // 126 + 2 = 128 fits, the 3-byte € does not
    expect(t.text).toBe('a'.repeat(126) + 'é');
    expect(t.bytes).toBe(128);
    const e = truncateUtf8('a'.repeat(127) + '😀'); // a 4-byte emoji (two JS chars) cannot be split
    expect(e.text).toBe('a'.repeat(127));
    expect(new TextEncoder().encode(e.text).length).toBe(e.bytes);
    expect(truncateUtf8('\uD800x').text).toBe('\uFFFDx'); // a lone surrogate, as the encoder sees it
  });
});

describe('the inspector keys in the address', () => {
  it('round-trips and keeps other keys', () => {
    const s = { ...DEFAULT_INSPECTOR, prompt: 'Let there be light', eps: 0.01, dtype: 'float64' as const, tensor: 'blocks.3.ffn', grad: true, compare: ['embed', 'blocks.1.resid.ffn'] as [string, string] };
    const search = writeInspectorUrl(s, '?view=inspector&x=3,4');
    expect(search).toContain('x=3,4');
    expect(readInspectorUrl(search)).toEqual({ settings: s, problems: [] });
  });
  it('leaves a long prompt out of the address', () => {
    expect(writeInspectorUrl({ ...DEFAULT_INSPECTOR, prompt: 'y'.repeat(500) }, '?prompt=old')).not.toContain('prompt=');
  });
  it('reports each corrupted key and uses its default', () => {
    const r = readInspectorUrl('?prompt=&tensor=blocks.7.attn&of=both&meps=-3&mdtype=int8&compare=embed');
    expect(r.settings).toEqual(DEFAULT_INSPECTOR);
    expect(r.problems).toHaveLength(6);
    expect(r.problems.join('\n')).toMatch(/tensor=.*not a snapshot name/);
  });
});

describe('npyBytes', () => {
  const t32 = { shape: [2, 3], data: new Float32Array([1, -2, 3.5, 0, Infinity, -0.25]) };
  it('writes the v1.0 header with descr, fortran_order and shape, data 64-byte aligned', () => {
    const b = npyBytes(t32);
    expect(Array.from(b.slice(0, 8))).toEqual([0x93, 78, 85, 77, 80, 89, 1, 0]);
    const len = b[8] | (b[9] << 8);
    expect((10 + len) % 64).toBe(0);
    const header = new TextDecoder().decode(b.slice(10, 10 + len));
    expect(header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    expect(Array.from(new Float32Array(b.slice(10 + len).buffer))).toEqual(Array.from(t32.data));
    expect(new TextDecoder().decode(npyBytes({ shape: [5], data: new Float64Array(5) }).slice(10, 80))).toContain("'<f8'");
    expect(new TextDecoder().decode(npyBytes({ shape: [5], data: new Float64Array(5) }).slice(10, 80))).toContain("(5,)");
  });
  it.runIf(existsSync('/usr/bin/python3'))('numpy reads it back when numpy is installed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'npy-'));
    writeFileSync(join(dir, 'a.npy'), npyBytes(t32));
    writeFileSync(join(dir, 'b.npy'), npyBytes({ shape: [2, 2], data: new Float64Array([1e-300, 2, 3, 4]) }));
    const code = `import numpy as n,sys;a=n.load(sys.argv[1]);b=n.load(sys.argv[2]);print(a.dtype,a.shape,a.tolist(),b.dtype,b.shape,b[0,0])`;
    let out: string;
    try {
      out = execFileSync('/usr/bin/python3', ['-c', code, join(dir, 'a.npy'), join(dir, 'b.npy')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      if (String((e as { stderr?: string }).stderr).includes('No module named')) return; // numpy not installed here
      throw e;
    }
    expect(out.trim()).toBe('float32 (2, 3) [[1.0, -2.0, 3.5], [0.0, inf, -0.25]] float64 (2, 2) 1e-300');
  });
  it('JSON spells non-finite values as strings', () => {
    expect(JSON.parse(tensorJson(t32, { name: 'embed' }))).toEqual({ name: 'embed', dtype: 'float32', shape: [2, 3], data: [1, -2, 3.5, 0, 'Infinity', -0.25] });
  });
});
