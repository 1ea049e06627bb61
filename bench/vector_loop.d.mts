// Types of bench/vector_loop.mjs, for the TypeScript tests that import it.
export const CHAINS: number;
export const FLOPS_PER_PASS: number;
export const START: (chain: number) => number;
export const MUL: number;
export const ADD: number;
export function vectorLoopBytes(): Uint8Array<ArrayBuffer>;
export function vectorLoop(warmMs?: number): Promise<(passes: number) => number>;
