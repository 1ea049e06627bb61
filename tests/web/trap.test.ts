// A wasm trap is not a core error: it surfaces as WebAssembly.RuntimeError
// (which the app's worker treats as fatal and restarts on), not a GlassError.
import { describe, expect, it } from 'vitest';
import { GlassError } from '../../web/src/core';
import { loadTestGlass } from './load';

describe('debugTrap', () => {
  it('throws a WebAssembly.RuntimeError, not a GlassError', async () => {
    const glass = await loadTestGlass(); // its own instance: it is dead afterwards
    let caught: unknown = null;
    try {
      glass.debugTrap();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(caught).not.toBeInstanceOf(GlassError);
    expect((caught as Error).message).toMatch(/unreachable/);
  });

  it('leaves other instances working', async () => {
    const a = await loadTestGlass();
    const b = await loadTestGlass();
    expect(() => a.debugTrap()).toThrow(WebAssembly.RuntimeError);
    expect(b.scope(() => b.tensor([1, 2]).sum().item())).toBe(3);
  });
});
