// A code cell on the real core (what the sandbox worker runs): its output is
// capped with a note, and a wasm trap is never swallowed as the cell's own error
// (the sandbox, or the core worker for expressions, must be replaced).
import { describe, expect, it } from 'vitest';
import { evaluate, MAX_OUTPUT_CHARS, runCode } from '../../web/src/worker/lessonOps/code';
import { loadTestWorker } from './load';

describe('code cell limits', () => {
  it('printing without end stops at the cap, keeps the first part and says it was cut', async () => {
    const w = await loadTestWorker();
    const r = runCode(w, 'for (let i = 0; ; i++) print(i)');
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBe(MAX_OUTPUT_CHARS);
    expect(r.output.startsWith('0\n1\n2\n')).toBe(true);
    expect(r.error).toMatchObject({ name: 'OutputLimit', message: /longer than 20,000 characters/ });
  });

  it('one huge print is cut too', async () => {
    const w = await loadTestWorker();
    const r = runCode(w, "print('x'.repeat(5e6)); print('never')");
    expect(r.truncated).toBe(true);
    expect(r.output).toBe('x'.repeat(MAX_OUTPUT_CHARS));
  });

  it('catching the limit does not get more output through', async () => {
    const w = await loadTestWorker();
    const r = runCode(w, "for (let i = 0; i < 1e5; i++) { try { print('y'.repeat(100)) } catch {} } print('after')");
    expect(r.output.length).toBe(MAX_OUTPUT_CHARS);
    expect(r.output.includes('after')).toBe(false);
  });

  it('a short output is whole and not marked', async () => {
    const w = await loadTestWorker();
    expect(runCode(w, 'print(1); print(2)')).toEqual({ output: '1\n2', truncated: false, error: null });
  });

  it('a trap inside a cell is thrown, not shown as the cell\'s error', async () => {
    const w = await loadTestWorker();
    expect(() => runCode(w, 'print(1); glass.debugTrap()')).toThrow(WebAssembly.RuntimeError);
  });

  it('a trap inside an expression is thrown too (the core worker treats it as fatal)', async () => {
    const w = await loadTestWorker();
    expect(() => evaluate(w, ['1 + 1', 'glass.debugTrap()'])).toThrow(WebAssembly.RuntimeError);
  });
});
