// scripts/wasm_relaxed_opcodes.py on the threaded build (-pthread): its modules
// hold the threads proposal's atomic instructions (prefix 0xfe), which the
// rewrite must step over, not stop at. And the rewritten module validates.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = new URL('../../scripts/wasm_relaxed_opcodes.py', import.meta.url).pathname;
const plain = new URL('../../web/src/core/wasm/glass_core_mt.wasm', import.meta.url);
const fma = new URL('../../web/src/core/wasm/glass_core_fma_mt.wasm', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'glass-opcodes-mt-'));

describe('the threaded build (bash scripts/build.sh wasm-threads --web)', () => {
  it('decodes every instruction of the threaded core, atomics included', () => {
    const bytes = readFileSync(plain);
    // memory.atomic.wait32 (0xfe 0x01) and friends are there to step over
    expect(bytes.includes(Buffer.from([0xfe, 0x01]))).toBe(true);
    const file = join(dir, 'glass_core_mt.wasm');
    copyFileSync(plain, file);
    // it decodes to the end: the plain build has no relaxed instruction, and says so
    const r = spawnSync('python3', [script, file], { encoding: 'utf8' });
    expect(r.stderr).toMatch(/no relaxed fused multiply-add found/);
    expect(r.stderr).not.toMatch(/unknown/);
  });

  it('the rewritten relaxed-fma threaded core validates, and a second rewrite finds nothing old', () => {
    expect(WebAssembly.validate(readFileSync(fma))).toBe(true);
    const file = join(dir, 'glass_core_fma_mt.wasm');
    copyFileSync(fma, file);
    const r = spawnSync('python3', [script, file], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/unknown/);
  });

  it('an unknown 0xfe sub-opcode is refused by name, not stepped over', () => {
    // (the rewrite knows 0x00-0x03 and 0x10-0x4e; 0x7f is no atomic instruction)
    const out = execFileSync('python3', ['-c', `
import sys; sys.path.insert(0, ${JSON.stringify(join(script, '..'))})
import wasm_relaxed_opcodes as w
r = w.Reader(bytes([0x7f]))
try:
    w.atomic(r)
except ValueError as e:
    print(e)
`], { encoding: 'utf8' });
    expect(out).toMatch(/unknown 0xfe opcode 0x7f/);
  });
});
