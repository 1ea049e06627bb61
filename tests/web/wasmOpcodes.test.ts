// scripts/wasm_relaxed_opcodes.py (run after linking glass_core_fma): it must
// rewrite real f32x4.fma instructions only, never the same bytes inside an
// immediate, and must decode every instruction of the real core.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wasmUrl } from './load';

const script = new URL('../../scripts/wasm_relaxed_opcodes.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'glass-opcodes-'));

// (func (result v128)  v128.const <16 bytes holding fd af 01>  v128.const 0  v128.const 0  f32x4.fma(old))
function probe(): Uint8Array {
  const konst = (bytes: number[]) => [0xfd, 0x0c, ...bytes];
  const trap = [0xfd, 0xaf, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]; // the old opcode, as data
  const body = [0x00, ...konst(trap), ...konst(Array(16).fill(0)), ...konst(Array(16).fill(0)), 0xfd, 0xaf, 0x01, 0x0b];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type: () -> v128
    0x03, 0x02, 0x01, 0x00, // one function
    0x0a, body.length + 2, 0x01, body.length, ...body, // code
  ]);
}

describe('wasm_relaxed_opcodes.py', () => {
  it('rewrites the instruction, not the same bytes inside a v128.const', () => {
    const file = join(dir, 'probe.wasm');
    const before = probe();
    writeFileSync(file, before);
    expect(execFileSync('python3', [script, file], { encoding: 'utf8' })).toMatch(/1 x 0xfd 0xaf rewritten/);
    const after = readFileSync(file);
    const at = before.length - 4; // the instruction's three bytes before `end`
    expect([...after.subarray(at, at + 3)]).toEqual([0xfd, 0x85, 0x02]);
    expect([...after.subarray(0, at)]).toEqual([...before.subarray(0, at)]); // the constant kept its bytes
  });

  it('decodes every instruction of the real core and refuses a module without the instruction', () => {
    const file = join(dir, 'glass_core.wasm');
    copyFileSync(wasmUrl, file);
    const r = spawnSync('python3', [script, file], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no relaxed fused multiply-add found/);
    expect(readFileSync(file).equals(readFileSync(wasmUrl))).toBe(true);
  });

  it('stops on what it cannot decode instead of guessing', () => {
    const file = join(dir, 'bad.wasm');
    const bad = probe();
    bad[bad.length - 2] = 0xff; // not an instruction
    writeFileSync(file, bad);
    const r = spawnSync('python3', [script, file], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/unknown|overran/);
  });
});
